import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The HTML report seen in a real browser: Debian's chromium, driven by playwright-core. `.ci/run`
 * installs chromium; without it these suites become one skipped test named `skipped: chromium not
 * installed: …`, and with ACCORD_REQUIRE_BROWSER=1 (CI) a failing one instead.
 */
export const CHROMIUM = process.env.ACCORD_CHROMIUM ?? '/usr/bin/chromium';

export function withBrowser(title: string, define: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(title, define);
  } else if (process.env.ACCORD_REQUIRE_BROWSER === '1') {
    test(`${title}: needs chromium`, () => {
      const error = new Error(`${CHROMIUM} not found, and ACCORD_REQUIRE_BROWSER is set: install Debian's chromium (apt-get install chromium), or unset it to skip these tests`);
      error.stack = error.message;
      throw error;
    });
  } else {
    test.skip(`skipped: chromium not installed: ${title}`, () => undefined);
  }
}

/** Where screenshots are kept: ACCORD_ARTIFACTS, or a folder in the temporary directory. */
export function artifactsDir(): string {
  const dir = process.env.ACCORD_ARTIFACTS ?? path.join(tmpdir(), 'accord-artifacts');
  mkdirSync(dir, { recursive: true });
  return dir;
}
