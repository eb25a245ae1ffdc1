import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The one way a golden (expected-output) file is checked. `ACCORD_UPDATE_GOLDEN=1`
 * (`npm run golden`) rewrites every golden from what the code does now; review the
 * diff before committing it. Otherwise a missing golden fails the test: a new case
 * never passes by writing its own expectation, in CI or anywhere else.
 */
export const UPDATING_GOLDENS = process.env.ACCORD_UPDATE_GOLDEN === '1';

/** The expected text of `file`, or (when updating) `actual` after writing it there. */
export function readGolden(file: string, actual: string): string {
  if (UPDATING_GOLDENS) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return actual;
  }
  if (!existsSync(file)) {
    throw new Error(`golden file ${path.relative(process.cwd(), file)} is missing: run \`npm run golden\` to write it, review it, then commit it`);
  }
  return readFileSync(file, 'utf8');
}

/** `actual` equals the golden in `file` (see readGolden). */
export function expectGolden(file: string, actual: string): void {
  expect(actual).toBe(readGolden(file, actual));
}
