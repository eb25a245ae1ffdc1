import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildOptions } from '../../src/contract/build';
import { parseContract } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { printableContract, printContract } from '../../src/contract/print';
import { importWsdl } from '../../src/wsdl/import';
import { SPEC_CORPUS, specCorpus, withCorpus, wsdlCorpus } from '../helpers/corpus';

/**
 * The printer writes what the parser reads: for every contract we have,
 * parse → print → parse gives an equal model (compared as plain JSON, lines
 * left out). The contracts the importers write are among them.
 */
const ROOT = path.resolve(__dirname, '..', '..');

function specFiles(dir: string, skip: (p: string) => boolean = () => false): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (skip(p)) continue;
    if (e.isDirectory()) out.push(...specFiles(p, skip));
    else if (e.name.endsWith('.spec')) out.push(p);
  }
  return out.sort();
}

/** The model as plain JSON: maps as sorted objects, lines left out. */
export function plainModel(c: Contract): unknown {
  return JSON.parse(
    JSON.stringify(c, function (key, v: unknown) {
      if (key === 'line') return undefined;
      if (
        v instanceof Map ||
        (v && typeof v === 'object' && typeof (v as Map<unknown, unknown>).entries === 'function' && typeof (v as Map<unknown, unknown>).get === 'function')
      ) {
        return Object.fromEntries([...(v as Map<string, unknown>).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      }
      return v;
    }),
  );
}

function parseEither(text: string, file: string): [Contract, BuildOptions] {
  try {
    return [parseContract(text, file), {}];
  } catch {
    // Examples that no longer fit (the compatibility fixtures keep such a file on purpose).
    const options = { checkExamples: false };
    return [parseContract(text, file, options), options];
  }
}

function roundTrip(text: string, file: string): void {
  const [first, options] = parseEither(text, file);
  const printed = printContract(printableContract(first));
  let second: Contract;
  try {
    second = parseContract(printed, file, options);
  } catch (e) {
    throw new Error(`the printed contract does not read back: ${(e as Error).message}\n${printed}`, { cause: e });
  }
  expect(plainModel(second)).toEqual(plainModel(first));
}

const repositoryContracts = [...specFiles(path.join(ROOT, 'contracts')), ...specFiles(path.join(ROOT, '__tests__', 'fixtures'), (p) => p.endsWith(`${path.sep}bad`))];

test('the repository has the contracts this test is about', () => {
  expect(repositoryContracts.length).toBeGreaterThan(100);
});

describe('repository contracts: parse → print → parse', () => {
  it.each(repositoryContracts.map((f) => [path.relative(ROOT, f), f]))('%s', (_name, file) => {
    roundTrip(readFileSync(file, 'utf8'), file);
  });
});

withCorpus('spec-corpus', 'spec corpus (../shared/spec-corpus, valid files): parse → print → parse', () => {
  const valid = specCorpus()
    .filter((r) => r.intent === 'valid')
    .map((r) => r.file);
  it.each(valid)('%s', (rel) => {
    const file = path.join(SPEC_CORPUS, rel);
    roundTrip(readFileSync(file, 'utf8'), file);
  });
});

withCorpus('wsdl-corpus', 'WSDL corpus imports (../shared/wsdl-corpus): import → parse → print → parse', () => {
  it.each(wsdlCorpus().map((e) => [e.folder, e.file]))('%s', (_folder, file) => {
    let text: string;
    try {
      text = importWsdl(file).text;
    } catch (e) {
      // A WSDL the importer refuses (with a reason) has no contract to print; corpus.test.ts owns that.
      if ((e as { code?: string }).code?.startsWith('ACCORD_ERR')) return;
      throw e;
    }
    roundTrip(text, `${file}.spec`);
  });
});

test('node placeholders with bounds other than ? and * print and read back with the same bounds', () => {
  const text = `Feature: bounds

  Background:
    Given type Item <item>(number)</item>

  Scenario: bounds
    Given type Order <order>(Item{2..5})(Item{1..*})(Item{3})(Item?)(Item*)</order>
    When POST /orders
    And request-body (Order)
    Then status 200
`;
  const first = parseContract(text, 'bounds.spec');
  const printed = printContract(printableContract(first));
  expect(printed).toContain('(Item{2..5})(Item{1..*})(Item{3})(Item?)(Item*)');
  roundTrip(text, 'bounds.spec');
});

test('derived types and a wildcard holding declarations print and read back', () => {
  const text = `Feature: structure

  Background:
    Given type Shape <SPECMATIC_TYPE specmatic_abstract="true" specmatic_derived="tns:Circle tns:Box=Square"><label>(string)</label></SPECMATIC_TYPE>
    And type Circle <SPECMATIC_TYPE><label>(string)</label><radius>(number)</radius></SPECMATIC_TYPE>
    And type Square <SPECMATIC_TYPE><label>(string)</label><side>(number)</side></SPECMATIC_TYPE>

  Scenario: structure
    Given type Draw <draw xmlns:tns="urn:t"><shape specmatic_type="Shape"/><specmatic_any namespace="##other"><x:flag xmlns:x="urn:x">(boolean)</x:flag></specmatic_any></draw>
    When POST /draw
    And request-body (Draw)
    Then status 200
`;
  const printed = printContract(printableContract(parseContract(text, 'structure.spec')));
  expect(printed).toContain('specmatic_abstract="true" specmatic_derived="tns:Circle tns:Box=Square"');
  expect(printed).toContain('<x:flag xmlns:x="urn:x">(boolean)</x:flag>');
  roundTrip(text, 'structure.spec');
});
