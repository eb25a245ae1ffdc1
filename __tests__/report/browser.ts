import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';

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

/** Opens a report file in `browser`; every console error or warning, page error and non-file request is collected into `problems`. */
export async function openReport(browser: Browser, file: string, problems: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) problems.push(`request: ${r.url()}`);
  });
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  return page;
}

/**
 * A screenshot kept in the artifacts folder (named in the output); `docs`: with ACCORD_UPDATE_SCREENSHOTS=1, also
 * written to docs/ under that name (only for reports of clean, non-hostile examples).
 */
export async function screenshot(page: Page, name: string, docs?: string): Promise<string> {
  const file = path.join(artifactsDir(), name);
  await page.screenshot({ path: file, fullPage: false });
  process.stdout.write(`screenshot: ${file}\n`);
  if (docs && process.env.ACCORD_UPDATE_SCREENSHOTS === '1') {
    const shown = path.join(__dirname, '..', '..', 'docs', docs);
    copyFileSync(file, shown);
    process.stdout.write(`screenshot: ${shown}\n`);
  }
  return file;
}
