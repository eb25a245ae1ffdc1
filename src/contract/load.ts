import { FILE_LIMITS, readInputText } from '../files';
import { excerpt } from '../printable';
import { cachedGherkin } from './ast-cache';
import { buildContract, type BuildOptions } from './build';
import { parseGherkin } from './gherkin';
import { FAULT_WITHOUT_EXAMPLE, isFaultScenario, REQUEST_BODY_COLUMN, type Contract, type Scenario, type TestCase } from './model';

/** Largest contract file read; a bigger one is almost certainly not a contract. */
export const MAX_CONTRACT_BYTES = FILE_LIMITS.contractBytes;

/** Characters of an Examples cell shown in a test's name. */
const NAME_CELL_CHARS = 40;

/** Text to contract: the whole pipeline, pure. */
export function parseContract(text: string, file = '<contract>', options?: BuildOptions): Contract {
  return buildContract(parseGherkin(text, file), file, options);
}

/**
 * As parseContract, with the Gherkin stage served from the on-disk AST cache
 * (ast-cache.ts) when this text was parsed before: for the edges that start
 * often (the stub, Jest workers).
 */
export function parseContractCached(text: string, file = '<contract>', options?: BuildOptions): Contract {
  return buildContract(cachedGherkin(text, file), file, options);
}

export function loadContract(file: string): Contract {
  return parseContractCached(readContractFile(file), file);
}

/** A contract file's text: a regular file, within the limit, not binary. */
export function readContractFile(file: string, shown = file): string {
  return readInputText(file, { what: 'contract', limit: FILE_LIMITS.contractBytes, shown });
}

/** One test case per scenario, or per Examples row when the scenario has rows; a case that is declared but not run (a fault scenario without rows, a Kafka message) carries `notRun`. */
export function testCases(contract: Contract): TestCase[] {
  return contract.scenarios.flatMap((s) => scenarioCases(s));
}

/**
 * An Examples row's test is named `<scenario> - example <n>: <column>=<value>, …`. Jest's `-t`
 * takes a regular expression, so the name a user copies from Jest's output must select that
 * test when pasted: nothing accord adds is a regex metacharacter (brackets were a character
 * class), and the colon after the number keeps example 1 from matching example 10.
 */
export function scenarioCases(s: Scenario): TestCase[] {
  const notRun = s.unsupported ?? (isFaultScenario(s) && s.examples.length === 0 ? FAULT_WITHOUT_EXAMPLE : undefined);
  if (s.examples.length === 0) return [notRun === undefined ? { scenario: s, name: s.name } : { scenario: s, name: s.name, notRun }];
  return s.examples.map((row, i) => {
    // A test's name is printed by Jest on every run: cells are cut short and control characters escaped.
    const cells = [...row.values].filter(([k]) => k !== REQUEST_BODY_COLUMN).map(([k, v]) => `${excerpt(k, NAME_CELL_CHARS)}=${excerpt(v, NAME_CELL_CHARS)}`);
    const tc: TestCase = { scenario: s, row, name: `${s.name} - example ${i + 1}: ${cells.length > 0 ? cells.join(', ') : 'the request body'}` };
    if (s.unsupported) tc.notRun = s.unsupported;
    return tc;
  });
}

/** The name Jest shows for a case: a case that is not run says why in its name (Jest has no field for it). */
export function caseTitle(tc: TestCase): string {
  return tc.notRun === undefined ? tc.name : `${tc.name} (not run: ${tc.notRun})`;
}
