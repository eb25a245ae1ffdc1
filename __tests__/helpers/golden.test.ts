import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readGolden, UPDATING_GOLDENS } from './golden';

// A missing golden fails: a new case never passes by writing its own expectation.
(UPDATING_GOLDENS ? test.skip : test)('a missing golden file fails the test and is not written', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-golden-'));
  try {
    const file = path.join(dir, 'case.expected.txt');
    expect(() => readGolden(file, 'what the code does now')).toThrow(/golden file .*case\.expected\.txt is missing: run `npm run golden`/);
    expect(existsSync(file)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
