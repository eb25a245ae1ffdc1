import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compareVersions, formatHtml, versionTexts } from '../../src/compat';
import { plainPairs } from '../../src/compat/sources';
import { baseWsdl, PET_NAME, schema, TYPES_XSD } from './wsdl-pairs';

/** `accord compatible --format html`: the page's data for each file (the browser test looks at the page itself). */
const OLDER = 'Feature: Math\n\n  Scenario: Square\n    When POST /square\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n';

function dataOf(html: string): { compatible: boolean; files: { file: string; findings: { rule: string; newerLine?: number }[]; olderLines?: string[]; newerLines?: string[] }[] } {
  return JSON.parse(/<script type="application\/json" id="accord-data">([^<]*)<\/script>/.exec(html)![1]);
}

test('a file with findings is shown side by side with each finding on its line; an unchanged one is not', () => {
  const newer = OLDER.replace('response-body (number)', 'response-body (string)').replace('Feature: Math', 'Feature: Math </script><img src=x onerror=alert(1)>');
  const pairs = [
    { file: 'math.spec', older: { label: 'old/math.spec', text: OLDER }, newer: { label: 'new/math.spec', text: newer }, olderWhere: 'old', newerWhere: 'new' },
    { file: 'same.spec', older: { label: 'old/same.spec', text: OLDER }, newer: { label: 'new/same.spec', text: OLDER }, olderWhere: 'old', newerWhere: 'new' },
  ];
  const reports = pairs.map((p) => compareVersions(p));
  const html = formatHtml(reports, new Map(pairs.map((p) => [p.file, { older: p.older.text, newer: p.newer.text }])));
  expect(html).not.toContain('<img');
  const data = dataOf(html);
  expect(data.compatible).toBe(false);
  const [math, same] = data.files;
  expect(math.findings).toEqual([expect.objectContaining({ rule: 'response-type-widened', newerLine: 6 })]);
  expect(math.newerLines![0]).toBe('Feature: Math </script><img src=x onerror=alert(1)>');
  expect(math.olderLines).toHaveLength(8);
  expect(same.findings).toEqual([]);
  expect(same.olderLines).toBeUndefined();
});

test('a WSDL pair is shown side by side as its WSDL files, each finding in the WSDL on its line', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-html-wsdl-'));
  try {
    const base = baseWsdl();
    mkdirSync(path.join(dir, 'old'));
    mkdirSync(path.join(dir, 'new'));
    writeFileSync(path.join(dir, 'old', 'pets.wsdl'), base);
    const newer = base.replace(PET_NAME, `${PET_NAME}\n          <xsd:element name="age" type="xsd:int"/>`);
    expect(newer).not.toBe(base);
    writeFileSync(path.join(dir, 'new', 'pets.wsdl'), newer);
    const [pair] = plainPairs('old/pets.wsdl', 'new/pets.wsdl', dir);
    const report = compareVersions(pair);
    const texts = versionTexts(pair);
    const html = formatHtml([report], new Map([[pair.file, texts]]));
    const [file] = dataOf(html).files;
    expect(file.olderLines).toEqual(base.split('\n'));
    expect(file.newerLines).toEqual(newer.split('\n'));
    const ageLine = newer.split('\n').findIndex((l) => l.includes('name="age"')) + 1;
    // Pet is in two operations' answers: one finding each, both on the new element's line of the WSDL.
    expect(file.findings).toEqual([
      expect.objectContaining({ rule: 'response-node-added', newerLine: ageLine }),
      expect.objectContaining({ rule: 'response-node-added', newerLine: ageLine }),
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a WSDL pair whose change is in an imported XSD shows that XSD, each finding on its line there (issue 36, point 6)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-html-xsd-'));
  try {
    const split = baseWsdl().replace(schema(), schema(undefined, '      <xsd:include schemaLocation="types.xsd"/>'));
    const aged = TYPES_XSD.replace(PET_NAME, `${PET_NAME}\n          <xsd:element name="age" type="xsd:int"/>`);
    expect(aged).not.toBe(TYPES_XSD);
    for (const [side, xsd] of [
      ['old', TYPES_XSD],
      ['new', aged],
    ]) {
      mkdirSync(path.join(dir, side));
      writeFileSync(path.join(dir, side, 'pets.wsdl'), split);
      writeFileSync(path.join(dir, side, 'types.xsd'), xsd);
    }
    const [pair] = plainPairs('old/pets.wsdl', 'new/pets.wsdl', dir);
    const report = compareVersions(pair);
    const html = formatHtml([report], new Map([[pair.file, versionTexts(pair, report)]]));
    const [file] = (
      dataOf(html) as unknown as {
        files: { findings: { rule: string; file?: string; fileLine?: number; newerLine?: number }[]; others?: { file: string; version: string; lines: string[] }[] }[];
      }
    ).files;
    const ageLine = aged.split('\n').findIndex((l) => l.includes('name="age"')) + 1;
    expect(file.findings.length).toBeGreaterThan(0);
    for (const f of file.findings) expect(f).toEqual(expect.objectContaining({ rule: 'response-node-added', file: 'new/types.xsd', fileLine: ageLine }));
    // Not marked on a line of the WSDL, which did not change.
    for (const f of file.findings) expect(f.newerLine).toBeUndefined();
    expect(file.others).toEqual([{ file: 'new/types.xsd', version: 'newer', lines: aged.split('\n') }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
