import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { htmlPage } from '../../src/html/page';
import { testReportData, type ReportContract, type ReportTest } from '../../src/runner/report';
import { childEnv, plain } from '../helpers/child-env';
import { startServer, type Running } from '../helpers/servers';
import { artifactsDir, CHROMIUM, openReport, screenshot, withBrowser } from './browser';

/**
 * The HTML report as a person sees it, in headless Chromium: a real `jest` run with accord's preset
 * (this working tree's dist/) against a real service on 127.0.0.1 that fails one scenario, and a
 * real `accord compatible --format html`. Screenshots are kept in the artifacts folder (named in
 * the output).
 */
const REPO = path.join(__dirname, '..', '..');
const JEST = require.resolve('jest/bin/jest');
const CLI = path.join(REPO, 'bin', 'accord.js');

const HOSTILE = `</script><img src=x onerror="window.__pwned=1">`;

const envelope = (body: string) =>
  `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;

const PETS = `Feature: Pets over SOAP

  Scenario: Get a pet by id
    Given type PetResponse
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Header/>
      <soapenv:Body>
        <pet:getPetResponse xmlns:pet="urn:pets">
          <pet:id>(number)</pet:id>
          <pet:name>(string)</pet:name>
          <pet:status>(string)</pet:status>
        </pet:getPetResponse>
      </soapenv:Body>
    </soapenv:Envelope>
    """
    When POST /ws/pet
    And request-body <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><pet:getPet xmlns:pet="urn:pets"><pet:id>(number)</pet:id></pet:getPet></soapenv:Body></soapenv:Envelope>
    Then status 200
    And response-body (PetResponse)

  Scenario: List the pets <b onmouseover="window.__pwned=2">bold</b>
    When POST /ws/list
    And request-body (anything)
    Then status 200
    And response-body (anything)

  @WIP
  Scenario: Adopt a pet
    When POST /ws/adopt
    And request-body (anything)
    Then status 200
    And response-body (number)
`;

const ORDERS = `Feature: Orders

  Scenario: Place an order
    When POST /orders
    And request-body (anything)
    Then status 200
    And response-body (anything)
`;

let dir: string;
let server: Running;
let browser: Browser;
let artifacts: string;

function app(files: Record<string, string>): string {
  const at = realpathSync(mkdtempSync(path.join(tmpdir(), 'accord-report-')));
  writeFileSync(path.join(at, 'package.json'), '{ "name": "app", "private": true }');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(at, file)), { recursive: true });
    writeFileSync(path.join(at, file), text);
  }
  return at;
}

function run(cmd: string, args: string[], cwd: string): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cmd, ...args], { cwd, env: childEnv() });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ status: code ?? -1, output: plain(output) }));
  });
}

/** Opens a report file; every console error and page error is collected into `problems`. */
function open(file: string, problems: string[]): Promise<Page> {
  return openReport(browser, file, problems);
}

function shot(page: Page, name: string): Promise<string> {
  return screenshot(page, name);
}

withBrowser('the HTML report in a browser', () => {
  beforeAll(async () => {
    artifacts = artifactsDir();
    // getPet answers an id that is not a number, and a name that is hostile markup; everything else passes.
    server = await startServer((req) => {
      if (req.url === '/ws/pet')
        return {
          body: envelope(
            `<pet:getPetResponse xmlns:pet="urn:pets"><pet:id>abc</pet:id><pet:name>${HOSTILE.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')}</pet:name><pet:status>sold</pet:status></pet:getPetResponse>`,
          ),
        };
      return { body: '4' };
    });
    dir = app({ 'contracts/pets.spec': PETS, 'contracts/orders.spec': ORDERS });
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when chromium is there
    const { chromium } = require('playwright-core') as typeof import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a Jest run with the preset writes a report: the failed scenario, its mismatch marked on the node, the filters', async () => {
    const cfg = path.join(dir, 'jest.config.js');
    const own = { rootDir: dir, testEnvironmentOptions: { accord: { baseUrl: server.url, report: 'reports/accord.html' } } };
    writeFileSync(cfg, `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), ...${JSON.stringify(own)} };\n`);
    const r = await run(JEST, ['--config', cfg, '--ci'], dir);
    expect(r.status).toBe(1);
    expect(r.output).toContain('accord report: reports/accord.html');
    const file = path.join(dir, 'reports', 'accord.html');
    const html = readFileSync(file, 'utf8');
    // The payload is in the page only as JSON data, never as markup.
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b onmouseover');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-/);

    const problems: string[] = [];
    const page = await open(file, problems);
    // What the summary says.
    await expect(page.locator('.summary').innerText()).resolves.toMatch(/passed: 2[\s\S]*failed: 1[\s\S]*WIP: 1/);
    // The failed scenario, opened: its mismatch, and the <pet:id> node of the answer marked.
    const failed = page.locator('.row[data-status="failed"]');
    await expect(failed.count()).resolves.toBe(1);
    await failed.locator('.head').click();
    const marked = failed.locator('.ln.marked');
    await expect(marked.count()).resolves.toBe(1);
    await expect(marked.innerText()).resolves.toContain('<pet:id>abc</pet:id>');
    await expect(marked.isVisible()).resolves.toBe(true);
    await expect(failed.locator('.note').innerText()).resolves.toContain('RESPONSE.BODY Envelope/Body/getPetResponse/id: expected a number, found "abc"');
    // The hostile name is shown as text, and nothing ran.
    await expect(failed.locator('.code').nth(3).innerText()).resolves.toContain(
      `<pet:name>${HOSTILE.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')}</pet:name>`,
    );
    await expect(page.locator('.row', { hasText: '<b onmouseover="window.__pwned=2">bold</b>' }).count()).resolves.toBe(1);
    await expect(page.locator('img, b').count()).resolves.toBe(0);
    await page.locator('.row', { hasText: 'List the pets' }).locator('.head').hover();
    await expect(page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).resolves.toBeUndefined();
    // WIP: would have passed (the service answers a number).
    await expect(page.locator('.row[data-status="wip-passed"]').count()).resolves.toBe(1);
    await shot(page, 'report-failed-scenario.png');

    // Failed only: the passing scenarios are hidden, the failed one is not.
    const visible = () => page.locator('.row:visible').count();
    await expect(visible()).resolves.toBe(4);
    await page.locator('#failed-only').check();
    await expect(visible()).resolves.toBe(1);
    await expect(page.locator('.row[data-status="passed"]:visible').count()).resolves.toBe(0);
    await page.locator('#failed-only').uncheck();
    // One contract: the other's scenarios are hidden.
    await page.locator('#contract-filter').selectOption('contracts/orders.spec');
    await expect(visible()).resolves.toBe(1);
    await expect(page.locator('.row:visible').innerText()).resolves.toContain('Place an order');
    await page.locator('#contract-filter').selectOption('');
    // The coverage table and its chart.
    await expect(page.locator('table').first().innerText()).resolves.toContain('contracts/pets.spec');
    await expect(page.locator('table svg rect').count()).resolves.toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);

  test('a clean example for the docs (docs/report.png): the failed scenario opened, its mismatch marked', async () => {
    // The same contracts and service, without the hostile payloads: the docs' picture shows what a person would meet.
    const clean = await startServer((req) =>
      req.url === '/ws/pet'
        ? { body: envelope('<pet:getPetResponse xmlns:pet="urn:pets"><pet:id>abc</pet:id><pet:name>Rex</pet:name><pet:status>sold</pet:status></pet:getPetResponse>') }
        : { body: '4' },
    );
    const at = app({ 'contracts/pets.spec': PETS.replace(' <b onmouseover="window.__pwned=2">bold</b>', ''), 'contracts/orders.spec': ORDERS });
    try {
      const cfg = path.join(at, 'jest.config.js');
      const own = { rootDir: at, testEnvironmentOptions: { accord: { baseUrl: clean.url, report: true, coverageFile: false } } };
      writeFileSync(cfg, `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), ...${JSON.stringify(own)} };\n`);
      expect((await run(JEST, ['--config', cfg, '--ci'], at)).status).toBe(1);
      const file = path.join(at, 'accord-report.html');
      expect(readFileSync(file, 'utf8')).not.toMatch(/onerror|onmouseover|__pwned/);
      const problems: string[] = [];
      const page = await open(file, problems);
      const failed = page.locator('.row[data-status="failed"]');
      await failed.locator('.head').click();
      await expect(failed.locator('.ln.marked').innerText()).resolves.toContain('<pet:id>abc</pet:id>');
      await screenshot(page, 'report.png', 'report.png');
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await clean.close();
      rmSync(at, { recursive: true, force: true });
    }
  }, 120_000);

  test('accord compatible --format html shows the two versions side by side, each finding on its line', async () => {
    const older = 'Feature: Math\n\n  Scenario: Square\n    When POST /square\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n';
    const newer = older.replace('response-body (number)', 'response-body (string)').replace('Scenario: Square', `Scenario: Square ${HOSTILE}`);
    const at = app({ 'old/math.spec': older, 'new/math.spec': newer });
    try {
      const out = path.join(at, 'compat.html');
      const r = execFileOrStatus(process.execPath, [CLI, 'compatible', 'old/math.spec', 'new/math.spec', '--format', 'html'], at);
      expect(r.status).toBe(1);
      writeFileSync(out, r.stdout);
      expect(r.stdout).not.toContain('<img');
      const problems: string[] = [];
      const page = await open(out, problems);
      const panes = page.locator('.panes .pane');
      await expect(panes.count()).resolves.toBe(2);
      await expect(panes.nth(0).locator('h3').innerText()).resolves.toContain('older: old/math.spec');
      await expect(panes.nth(1).locator('h3').innerText()).resolves.toContain('newer: new/math.spec');
      // The finding sits on the newer version's line that the text report names (At: new/math.spec:6), with its rule and why.
      const text = execFileOrStatus(process.execPath, [CLI, 'compatible', 'old/math.spec', 'new/math.spec'], at).stdout;
      const line = /At: new\/math\.spec:(\d+)/.exec(text)![1];
      const marked = panes.nth(1).locator('.ln.marked');
      await expect(marked.count()).resolves.toBe(1);
      await expect(marked.innerText()).resolves.toMatch(new RegExp(`^${line}\\s`));
      await expect(page.locator('.mm').innerText()).resolves.toContain('response-type-widened');
      const note = panes.nth(1).locator('.note');
      await expect(note.innerText()).resolves.toMatch(/\[[a-z-]+\][\s\S]*Why: /);
      await expect(page.locator('img').count()).resolves.toBe(0);
      await expect(page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).resolves.toBeUndefined();
      await shot(page, 'report-compatible.png');
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      rmSync(at, { recursive: true, force: true });
    }
  }, 120_000);

  test('accord compatible --consumers --format html names the consumers each break breaks', async () => {
    const spec = (nodes: string) =>
      `Feature: Orders\n\n  Scenario: getOrder\n    When POST /orders\n    And request-body\n    """\n    <getOrder><orderId>(number)</orderId>${nodes}</getOrder>\n    """\n    Then status 200\n    And response-body (number)\n`;
    const at = app({
      'old/orders.spec': spec('<coupon specmatic_occurs="optional">(string)</coupon>'),
      'new/orders.spec': spec(''),
      'shared/billing-ui/orders_examples/e.json': JSON.stringify({
        'http-request': { method: 'POST', path: '/orders', body: '<getOrder><orderId>1</orderId><coupon>X</coupon></getOrder>' },
      }),
      'shared/mobile/orders_examples/e.json': JSON.stringify({ 'http-request': { method: 'POST', path: '/orders', body: '<getOrder><orderId>2</orderId></getOrder>' } }),
    });
    try {
      const r = execFileOrStatus(process.execPath, [CLI, 'compatible', 'old/orders.spec', 'new/orders.spec', '--consumers', 'shared', '--format', 'html'], at);
      expect(r.status).toBe(1);
      const out = path.join(at, 'compat.html');
      writeFileSync(out, r.stdout);
      const problems: string[] = [];
      const page = await open(out, problems);
      const line = 'Consumers: breaks `coupon` for billing-ui (1 of 2 consumers); 1 consumer never sends it';
      await expect(page.locator('.mm.who').innerText()).resolves.toBe(line);
      await expect(page.locator('p.consumers').innerText()).resolves.toBe('Consumers: the change breaks billing-ui (1 of 2)');
      // On the version's line too, below the finding's why.
      await expect(page.locator('.panes .note').first().innerText()).resolves.toContain(line);
      await shot(page, 'report-compatible-consumers.png');
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      rmSync(at, { recursive: true, force: true });
    }
  }, 60_000);

  test('a report of 5,000 scenarios loads and filters quickly', async () => {
    const contracts: ReportContract[] = [];
    for (let c = 0; c < 50; c++) {
      const tests: ReportTest[] = [];
      for (let i = 0; i < 100; i++) {
        const failed = i % 50 === 7;
        const negative = c === 0 && i === 99;
        tests.push({
          title: negative ? `scenario ${c}-${i} [negative: id missing]` : `scenario ${c}-${i}`,
          status: negative ? 'negative-failed' : failed ? 'failed' : 'passed',
          ...(failed ? { message: 'RESPONSE.BODY Envelope/Body/r/id: expected a number, found "x"' } : {}),
          exchange: {
            request: {
              line: 'POST /ws',
              headers: [['content-type', 'text/xml']],
              body: {
                lines: [
                  [0, '<Envelope>'],
                  [1, `<id>${i}</id>`],
                  [0, '</Envelope>'],
                ],
              },
            },
            response: {
              status: 200,
              headers: [],
              body: {
                lines: [
                  [0, '<Envelope>'],
                  [1, failed ? '<id>x</id>' : '<id>1</id>'],
                  [0, '</Envelope>'],
                ],
              },
            },
            mismatches: failed ? [{ side: 'response', path: 'RESPONSE.BODY Envelope/Body/r/id', expected: 'a number', actual: '"x"', line: 1 }] : [],
          },
        });
      }
      const failed = tests.filter((t) => t.status === 'failed').length;
      contracts.push({
        file: `contracts/c${c}.spec`,
        feature: `Contract ${c}`,
        coverage: { scenarios: 100, passed: 100 - failed, failed, wip: 0, skipped: 0, notRun: 0, negative: { passed: 0, failed: 0, notRun: 0 } },
        tests,
      });
    }
    const file = path.join(artifacts, 'report-5000.html');
    // Consumer examples and their owners, as consumer-driven runs hand them to the report.
    const consumers = [
      { consumer: 'billing-ui', example: 'a big order', contract: 'contracts/c0.spec', scenario: 'scenario 0-7', status: 'failed' },
      { consumer: 'mobile', example: 'one pet', contract: 'contracts/c1.spec', scenario: 'scenario 1-1', status: 'passed' },
    ];
    writeFileSync(file, htmlPage(testReportData(contracts, { consumers })));
    const problems: string[] = [];
    const started = Date.now();
    const page = await open(file, problems);
    const loaded = Date.now() - started;
    await expect(page.locator('.row').count()).resolves.toBe(5000);
    // Measured in the page: the click, the filter and the layout it causes.
    const filtered = await page.evaluate(() => {
      const d = (globalThis as unknown as { document: { getElementById(id: string): { click(): void }; body: { offsetHeight: number } } }).document;
      const start = performance.now();
      d.getElementById('failed-only').click();
      void d.body.offsetHeight;
      return Math.round(performance.now() - start);
    });
    await expect(page.locator('.row:visible').count()).resolves.toBe(101);
    await expect(page.locator('.row[data-status="negative-failed"]').innerText()).resolves.toContain('NEGATIVE: failed');
    const owners = page.locator('h2:has-text("Consumer examples") + table');
    await expect(owners.innerText()).resolves.toMatch(/billing-ui\s+a big order\s+contracts\/c0\.spec\s+scenario 0-7\s+FAILED/);
    process.stdout.write(`5,000 scenarios: interactive in ${loaded} ms, failed-only filter in ${filtered} ms\n`);
    // Generous (a loaded 2-core machine): a person would call anything slower broken.
    expect(loaded).toBeLessThan(15_000);
    expect(filtered).toBeLessThan(5_000);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});

function execFileOrStatus(cmd: string, args: string[], cwd: string): { status: number; stdout: string } {
  try {
    return { status: 0, stdout: execFileSync(cmd, args, { cwd, env: childEnv(), encoding: 'utf8' }) };
  } catch (e) {
    const err = e as { status?: number; stdout?: string };
    return { status: err.status ?? -1, stdout: err.stdout ?? '' };
  }
}
