import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { AccordError } from '../../src/errors';

/**
 * The 93 real contracts in ../shared/spec-corpus (read in place). accord reads
 * every `valid` one and rejects `invalid` ones with a clear message, except the
 * few listed below, where the reason a file is "invalid" is outside the file.
 */
const CORPUS = path.resolve(__dirname, '..', '..', '..', 'shared', 'spec-corpus');

const ACCEPTED_ON_PURPOSE: Record<string, string> = {
  'L56__fact-is-not-a-recognised-Gherkin-keyword.spec':
    'invalid only for Specmatic 2.x, which dropped `fact`; 20 valid files in this corpus use `fact`, so accord keeps reading it (as a note)',
  'L2519__should-fail-to-run-a-test-from-wrapper-gherkin-with-pattern-.spec': 'invalid against an OpenAPI file that is not in the corpus; accord does not read OpenAPI',
  'L279__should-throw-error-when-request-in-Gherkin-scenario-does-not.spec': 'invalid against an OpenAPI file that is not in the corpus; accord does not read OpenAPI',
  'L299__should-throw-error-when-response-code-in-Gherkin-scenario-do.spec': 'invalid against an OpenAPI file that is not in the corpus; accord does not read OpenAPI',
  'L223__should-throw-error-when-request-in-Gherkin-scenario-does-not.spec': 'invalid against test.wsdl, which is not in the corpus (valid files reference it too)',
  'L418__should-throw-exception-when-mandatory-attribute-is-not-set.spec': 'invalid against a WSDL that is not in the corpus',
};

interface Row {
  file: string;
  intent: string;
}

function rows(): Row[] {
  const lines = readFileSync(path.join(CORPUS, 'INDEX.tsv'), 'utf8').trim().split('\n').slice(1);
  return lines.map((l) => {
    const cols = l.split('\t');
    return { file: cols[0], intent: cols[cols.length - 1] };
  });
}

function parse(row: Row) {
  const file = path.join(CORPUS, row.file);
  return parseContract(readFileSync(file, 'utf8'), file);
}

describe('the shared spec corpus', () => {
  const all = rows();

  it('has the 93 files the index lists', () => {
    expect(all).toHaveLength(93);
  });

  it.each(all.filter((r) => r.intent === 'valid').map((r) => [r.file, r] as const))('reads valid %s', (_name, row) => {
    const contract = parse(row);
    expect(contract.scenarios.length).toBeGreaterThan(0);
    expect(testCases(contract).length).toBeGreaterThanOrEqual(contract.scenarios.length);
  });

  it.each(all.filter((r) => r.intent === 'invalid').map((r) => [r.file, r] as const))('handles invalid %s as documented', (_name, row) => {
    const reason = ACCEPTED_ON_PURPOSE[path.basename(row.file)];
    if (reason) {
      expect(parse(row).scenarios.length).toBeGreaterThan(0);
      return;
    }
    let error: unknown;
    try {
      parse(row);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AccordError);
    expect((error as AccordError).describe()).toMatch(new RegExp(`^${path.join(CORPUS, row.file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: `));
  });

  it('rejects the nullable enum base type with the fix in the message', () => {
    const row = all.find((r) => r.file.includes('L373__contract-mock-should-not-allow-nullable-enum'))!;
    expect(() => parse(row)).toThrow(/enum NumberType: the base type \(string\?\) cannot be nullable; to make a value nullable use the enum as \(NumberType\?\)/);
  });

  it('rejects the nameless scenario of the `unknown` file', () => {
    const row = all.find((r) => r.intent === 'unknown')!;
    expect(() => parse(row)).toThrow(/a scenario needs a name/);
  });
});
