import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { AccordError } from '../../src/errors';
import { SPEC_CORPUS, specCorpus, withCorpus, type SpecEntry } from '../helpers/corpus';
import { legacyContracts } from '../helpers/spec-fixtures';

/**
 * Legacy Specmatic contracts: the repository's own (__tests__/fixtures/specs,
 * fixtures/parser/good) and the 93 real ones in ../shared/spec-corpus (read in place). accord reads
 * every valid one and rejects invalid ones with a clear file:line message.
 */
function parseFile(file: string) {
  return parseContract(readFileSync(file, 'utf8'), file);
}

function readsValid(file: string): void {
  const contract = parseFile(file);
  expect(contract.scenarios.length).toBeGreaterThan(0);
  expect(testCases(contract).length).toBeGreaterThanOrEqual(contract.scenarios.length);
}

function refusal(file: string): string {
  try {
    parseFile(file);
  } catch (e) {
    expect(e).toBeInstanceOf(AccordError);
    return (e as AccordError).describe();
  }
  throw new Error(`${file} was read; it should have been refused`);
}

describe("the repository's legacy contracts (those it must refuse are the parser's bad golden files)", () => {
  test.each(legacyContracts().map((f) => [path.relative(path.join(__dirname, '..', 'fixtures'), f), f]))('reads valid %s', (_name, file) => readsValid(file));
});

const ACCEPTED_ON_PURPOSE: Record<string, string> = {
  'L56__fact-is-not-a-recognised-Gherkin-keyword.spec':
    'invalid only for Specmatic 2.x, which dropped `fact`; 20 valid files in this corpus use `fact`, so accord keeps reading it (as a note)',
  'L2519__should-fail-to-run-a-test-from-wrapper-gherkin-with-pattern-.spec': 'invalid against an OpenAPI file that is not in the corpus; accord does not read OpenAPI',
  'L279__should-throw-error-when-request-in-Gherkin-scenario-does-not.spec': 'invalid against an OpenAPI file that is not in the corpus; accord does not read OpenAPI',
  'L299__should-throw-error-when-response-code-in-Gherkin-scenario-do.spec': 'invalid against an OpenAPI file that is not in the corpus; accord does not read OpenAPI',
  'L223__should-throw-error-when-request-in-Gherkin-scenario-does-not.spec': 'invalid against test.wsdl, which is not in the corpus (valid files reference it too)',
  'L418__should-throw-exception-when-mandatory-attribute-is-not-set.spec': 'invalid against a WSDL that is not in the corpus',
};

withCorpus('spec-corpus', 'the shared spec corpus', () => {
  const all = specCorpus();
  const abs = (row: SpecEntry) => path.join(SPEC_CORPUS, row.file);

  it('has the 93 files the index lists', () => {
    expect(all).toHaveLength(93);
  });

  it.each(all.filter((r) => r.intent === 'valid').map((r) => [r.file, r] as const))('reads valid %s', (_name, row) => readsValid(abs(row)));

  it.each(all.filter((r) => r.intent === 'invalid').map((r) => [r.file, r] as const))('handles invalid %s as documented', (_name, row) => {
    if (ACCEPTED_ON_PURPOSE[path.basename(row.file)]) {
      expect(parseFile(abs(row)).scenarios.length).toBeGreaterThan(0);
      return;
    }
    expect(refusal(abs(row))).toMatch(new RegExp(`^${abs(row).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: `));
  });

  it('rejects the nullable enum base type with the fix in the message', () => {
    const row = all.find((r) => r.file.includes('L373__contract-mock-should-not-allow-nullable-enum'))!;
    expect(() => parseFile(abs(row))).toThrow(/enum NumberType: the base type \(string\?\) cannot be nullable; to make a value nullable use the enum as \(NumberType\?\)/);
  });

  it('rejects the nameless scenario of the `unknown` file', () => {
    const row = all.find((r) => r.intent === 'unknown')!;
    expect(() => parseFile(abs(row))).toThrow(/a scenario needs a name/);
  });
});
