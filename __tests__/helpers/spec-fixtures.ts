import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository's own legacy Specmatic contracts, written as users write them
 * (__tests__/fixtures/specs), and the parser's good golden contracts
 * (__tests__/fixtures/parser/good): with contracts/ they use every feature the
 * shared spec corpus uses, so a fresh clone without ../shared still tests them.
 * Contracts that must be refused are the parser's bad golden ones
 * (fixtures/parser/bad, checked by contract/golden.test.ts).
 */
export const SPEC_FIXTURES = path.join(__dirname, '..', 'fixtures', 'specs');
const PARSER_GOOD = path.join(__dirname, '..', 'fixtures', 'parser', 'good');

export function legacyContracts(): string[] {
  return [SPEC_FIXTURES, PARSER_GOOD].flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => /\.(spec|qontract|contract)$/.test(f))
      .sort()
      .map((f) => path.join(dir, f)),
  );
}

/** `[older, newer]` pairs: `name~<version>.spec` is an older version of `name.spec`. */
export function specHistories(files: string[]): [string, string][] {
  return files
    .filter((f) => /~\w+\.\w+$/.test(f))
    .map((f) => [f, f.replace(/~\w+(\.\w+)$/, '$1')] as [string, string])
    .filter(([, cur]) => files.includes(cur));
}
