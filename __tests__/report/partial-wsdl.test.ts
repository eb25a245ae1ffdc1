import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { TestReportData } from '../../src/runner/report';
import { childEnv, plain } from '../helpers/child-env';
import { startServer, type Running } from '../helpers/servers';
import { CHROMIUM, openReport, withBrowser } from './browser';

/**
 * A contract whose WSDL can be imported only in part (its schema import is gone, so what it declares
 * is typed `(anything)`): a real `jest` run with accord's preset (this working tree's dist/) says so
 * in the HTML report and its data, beside that WSDL, as the console summary does; the same contract
 * with its WSDL whole says nothing of the kind.
 */
const REPO = path.join(__dirname, '..', '..');
const JEST = require.resolve('jest/bin/jest');
const FIXTURE = path.join(REPO, '__tests__', 'fixtures', 'wsdl', 'rpc-literal');
const IMPORT_LINE = 'partial/greeter.wsdl:13: import ./xsd/header.xsd not loaded (no such file, looked for at partial/xsd/header.xsd): what it declares is typed (anything)';
const MISSING_LINE = 'partial/greeter.wsdl: 1 declaration not found, the nodes it types are (anything): element {urn:accord:rpclit:headers}trace';
// An import named as markup, with a bidirectional override (which reorders a line): shown as text, escaped, never run.
const HOSTILE = '<img src=x onerror="window.__pwned=1">\u202e.xsd';
const HOSTILE_XML = HOSTILE.replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
const HOSTILE_LINE =
  'hostile/greeter.wsdl:13: import ./xsd/<img src=x onerror="window.__pwned=1">\\u{202e}.xsd not loaded (no such file, looked for at hostile/xsd/<img src=x onerror="window.__pwned=1">\\u{202e}.xsd): what it declares is typed (anything)';

let dir: string;
let server: Running;
let run: { status: number; output: string };

function dataOf(html: string): TestReportData {
  const json = /<script type="application\/json" id="accord-data">([^<]*)<\/script>/.exec(html)![1];
  return JSON.parse(json) as TestReportData;
}

beforeAll(async () => {
  // The service answers nothing useful: the scenarios fail, which changes nothing of what the WSDL left untested.
  server = await startServer(() => ({ status: 500, body: '' }));
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'accord-report-partial-')));
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "private": true }');
  cpSync(FIXTURE, path.join(dir, 'whole'), { recursive: true });
  cpSync(FIXTURE, path.join(dir, 'partial'), { recursive: true });
  rmSync(path.join(dir, 'partial', 'xsd', 'header.xsd'));
  cpSync(path.join(dir, 'partial'), path.join(dir, 'hostile'), { recursive: true });
  const wsdl = path.join(dir, 'hostile', 'greeter.wsdl');
  writeFileSync(wsdl, readFileSync(wsdl, 'utf8').replace('schemaLocation="./xsd/header.xsd"', `schemaLocation="./xsd/${HOSTILE_XML}"`));
  const cfg = path.join(dir, 'jest.config.js');
  const own = { rootDir: dir, testEnvironmentOptions: { accord: { baseUrl: server.url, report: 'report.html' } } };
  writeFileSync(cfg, `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), ...${JSON.stringify(own)} };\n`);
  run = await new Promise((resolve) => {
    const child = spawn(process.execPath, [JEST, '--config', cfg, '--ci'], { cwd: dir, env: childEnv() });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ status: code ?? -1, output: plain(output) }));
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the report's data and the coverage file carry what the partial WSDL left unread, beside that WSDL; the whole one has none", () => {
  expect(run.output).toContain('accord report: report.html');
  expect(run.output).toContain(`    not read: ${IMPORT_LINE}`);
  const html = readFileSync(path.join(dir, 'report.html'), 'utf8');
  expect(html).not.toContain('<img');
  const data = dataOf(html);
  const of = (file: string) => data.contracts.find((c) => c.file === file)!;
  expect(of('partial/greeter.spec').wsdl!.partial).toEqual([IMPORT_LINE, MISSING_LINE]);
  expect(of('partial/greeter.spec').wsdl!.operations.length).toBe(4);
  expect(of('hostile/greeter.spec').wsdl!.partial![0]).toBe(HOSTILE_LINE);
  expect(of('whole/greeter.spec').wsdl).toBeDefined();
  expect(of('whole/greeter.spec').wsdl!.partial).toBeUndefined();
  // Named from the rootDir, as the contract is (not the build machine's absolute path).
  expect(of('whole/greeter.spec').wsdl!.file).toBe('whole/greeter.wsdl');
  // The coverage file for machines says the same.
  const doc = JSON.parse(readFileSync(path.join(dir, 'accord-coverage.json'), 'utf8')) as { contracts: { file: string; wsdl: { partial?: string[] } }[] };
  const json = (file: string) => doc.contracts.find((c) => c.file === file)!;
  expect(json('partial/greeter.spec').wsdl.partial).toEqual([IMPORT_LINE, MISSING_LINE]);
  expect(json('whole/greeter.spec').wsdl.partial).toBeUndefined();
});

withBrowser('the HTML report of a partial WSDL in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when chromium is there
    const { chromium } = require('playwright-core') as typeof import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  test('the WSDL operations section says, under the partial WSDL only, what was not read', async () => {
    const problems: string[] = [];
    const page = await openReport(browser, path.join(dir, 'report.html'), problems);
    const notes = page.locator('.partial');
    await expect(notes.allInnerTexts()).resolves.toEqual([
      `not read: ${HOSTILE_LINE}`,
      `not read: ${MISSING_LINE.replace('partial/', 'hostile/')}`,
      `not read: ${IMPORT_LINE}`,
      `not read: ${MISSING_LINE}`,
    ]);
    // The import named as markup is text: no element was made of it, nothing ran.
    await expect(page.locator('img').count()).resolves.toBe(0);
    await expect(page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).resolves.toBeUndefined();
    // Right under the heading of the partial WSDL's contract, which says the WSDL was read in part; the whole one's says nothing.
    const heading = page.locator('h3', { hasText: 'partial/greeter.spec' });
    await expect(heading.innerText()).resolves.toMatch(/\(0 of 4 passed; WSDL read in part\)$/);
    await expect(page.locator('h3', { hasText: 'whole/greeter.spec' }).innerText()).resolves.toMatch(/\(0 of 4 passed\)$/);
    await expect(heading.locator('xpath=following-sibling::*[position() <= 3][contains(@class, "partial")]').allInnerTexts()).resolves.toEqual([
      `not read: ${IMPORT_LINE}`,
      `not read: ${MISSING_LINE}`,
    ]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
