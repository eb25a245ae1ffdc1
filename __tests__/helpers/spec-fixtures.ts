import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository's own legacy Specmatic contracts (__tests__/fixtures/specs): together with
 * contracts/ they use every feature the shared spec corpus uses, so a fresh clone without
 * ../shared still tests them. `valid/` must read; each `invalid/` file's first line says the
 * error it must give: `# error: <line>: <message start>`.
 */
export const SPEC_FIXTURES = path.join(__dirname, '..', 'fixtures', 'specs');

export interface SpecFixture {
  file: string;
  intent: 'valid' | 'invalid';
}

export function specFixtures(): SpecFixture[] {
  return (['valid', 'invalid'] as const).flatMap((intent) =>
    readdirSync(path.join(SPEC_FIXTURES, intent))
      .filter((f) => /\.(spec|qontract|contract)$/.test(f))
      .sort()
      .map((f) => ({ file: path.join(SPEC_FIXTURES, intent, f), intent })),
  );
}

/** `[older, newer]` pairs: `name~<version>.spec` is an older version of `name.spec`. */
export function specHistories(files: string[]): [string, string][] {
  return files.filter((f) => /~\w+\.\w+$/.test(f)).map((f) => [f, f.replace(/~\w+(\.\w+)$/, '$1')] as [string, string]).filter(([, cur]) => files.includes(cur));
}
