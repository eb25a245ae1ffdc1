import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccordError } from '../../src/errors';
import { importLogs } from '../../src/logs/import-log';
import { importWsdl } from '../../src/wsdl';
import { parseXml } from '../../src/xml/parse';
import { cpuMs, cpuMsSync } from '../helpers/timing';

/**
 * Issue 11, defect 5: a megabyte of `<` kept `accord import wsdl` busy for
 * 30 s (8 s of CPU) before its correct exit 2: xmldom recovers from an error
 * by reading on, and from each `<` searched the rest of the text again. Every
 * XML entry point (WSDL and XSD files, stub requests and service responses,
 * logs) must refuse a megabyte of runs of the characters XML gives meaning to
 * in well under a second.
 */
const BOUND_MS = 1_000;
const MB = 1 << 20;

const RUNS: [string, string][] = [
  ['<', ''],
  ['<a', ''],
  ['&', '<a>'],
  ['&#', '<a>'],
  ['<!', ''],
  ['<!--', '<a>'],
  ['<![CDATA[', '<a>'],
  ['<?', ''],
  ['<?xml ', ''],
  [']]>', '<a>'],
  ['"', '<a b='],
  ["'", '<a b='],
  ['=', '<a b'],
  ['</', '<a>'],
  ['<a>x<', ''],
];
const hostile = (unit: string, prefix: string) => prefix + unit.repeat(Math.ceil(MB / unit.length));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-xml-runs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a megabyte of XML markup characters is refused in linear time', () => {
  it.each(RUNS)('a WSDL of %j runs (xmldom): exit-2 error with its place', (unit, prefix) => {
    const file = path.join(dir, 'runs.wsdl');
    writeFileSync(file, hostile(unit, prefix));
    let error: unknown;
    const ms = cpuMsSync(() => {
      try {
        importWsdl(file);
      } catch (e) {
        error = e;
      }
    });
    expect(error).toBeInstanceOf(AccordError);
    expect((error as AccordError).code).toBe('ACCORD_ERR_XML');
    expect((error as AccordError).location.line).toBe(1);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it.each(RUNS)('a request or response body of %j runs (the fast path, then saxes)', (unit, prefix) => {
    const text = hostile(unit, prefix);
    let error: unknown;
    const ms = cpuMsSync(() => {
      try {
        parseXml(text);
      } catch (e) {
        error = e;
      }
    });
    expect(error).toBeInstanceOf(AccordError);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it.each(RUNS)('a logged envelope of %j runs', async (unit, prefix) => {
    const file = path.join(dir, 'runs.log');
    const envelope = '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>';
    writeFileSync(file, `2024-01-01 10:00:00 INFO request ${envelope}${hostile(unit, prefix)}</soap:Body></soap:Envelope>\n`);
    const ms = await cpuMs(() => importLogs([file]));
    expect(ms).toBeLessThan(BOUND_MS);
  });
});
