import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPORT_LIMITS } from '../../src/limits';
import type { TestReportData } from '../../src/runner/report';
import { childEnv, plain } from '../helpers/child-env';
import { startServer, type Running } from '../helpers/servers';

/**
 * The `accord-contracts/report` reporter in a real `jest` run (this working tree's preset and
 * dist/) against a real service: where it writes, what the data holds, that secrets the run sends
 * never reach the file, and that a large answer is cut.
 */
const REPO = path.join(__dirname, '..', '..');
const JEST = require.resolve('jest/bin/jest');
const SECRET = 'pet-api-key-5ec4e7-do-not-show';

const CONTRACT = `Feature: Pets

  Scenario: Echo the key
    When POST /echo
    And request-body (anything)
    Then status 200
    And response-body (number)

  Scenario: A big answer
    When POST /big
    And request-body (anything)
    Then status 200
    And response-body (number)
`;

let server: Running;
let dir: string;

beforeAll(async () => {
  // /echo answers the key it was sent (a service that leaks it); /big answers 200,000 characters of XML.
  const big = `<list>${'<item>x</item>'.repeat(200_000 / 14)}</list>`;
  server = await startServer((req) => (req.url === '/echo' ? { body: `<key>${String(req.headers['x-api-key'])}</key>` } : { body: big }));
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'accord-reporter-')));
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "private": true }');
  writeFileSync(path.join(dir, 'pets.spec'), CONTRACT);
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function jest(args: string[]): Promise<{ status: number; output: string }> {
  const cfg = path.join(dir, 'jest.config.js');
  const own = { rootDir: dir, testEnvironmentOptions: { accord: { baseUrl: server.url, headers: { 'X-Api-Key': { env: 'PET_API_KEY' } } } } };
  writeFileSync(cfg, `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), ...${JSON.stringify(own)} };\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [JEST, '--config', cfg, '--ci', ...args], { cwd: dir, env: childEnv({ PET_API_KEY: SECRET }) });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ status: code ?? -1, output: plain(output) }));
  });
}

function dataOf(html: string): TestReportData {
  const json = /<script type="application\/json" id="accord-data">([^<]*)<\/script>/.exec(html)![1];
  return JSON.parse(json) as TestReportData;
}

test('listed by hand, the reporter writes accord-report.html: exchanges with secrets hidden, big bodies cut', async () => {
  const r = await jest(['--reporters=default', `--reporters=${path.join(REPO, 'preset', 'report-reporter.js')}`]);
  expect(r.status).toBe(1);
  expect(r.output).toContain('accord report: accord-report.html');
  const file = path.join(dir, 'accord-report.html');
  const html = readFileSync(file, 'utf8');
  // The key was sent as a header and came back in the body: it is in neither, nor anywhere else.
  expect(html).not.toContain(SECRET);
  const data = dataOf(html);
  const [echo, big] = data.contracts[0].tests;
  expect(echo).toMatchObject({ title: 'Echo the key', status: 'failed' });
  expect(echo.exchange!.request!.headers).toContainEqual(['x-api-key', '***']);
  expect(echo.exchange!.response!.body!.lines).toEqual([[0, '<key>***</key>']]);
  expect(echo.exchange!.mismatches[0]).toMatchObject({ side: 'response', path: 'RESPONSE.BODY', expected: 'a number' });
  // 200,000 characters of answer: the report keeps the first lines and says it cut the rest.
  expect(big.exchange!.response!.body!.lines.length).toBeLessThanOrEqual(REPORT_LIMITS.bodyLines);
  expect(big.exchange!.response!.body!.cut).toMatch(/^… cut: the report shows \d+ lines of this body \(\d+ characters\)$/);
  expect(statSync(file).size).toBeLessThan(200_000);
}, 120_000);

test("the provider's replayed consumer examples are in the report with their owners and how each fared", async () => {
  const at = realpathSync(mkdtempSync(path.join(tmpdir(), 'accord-reporter-consumers-')));
  // The provider answers a number, except to an order of 13, where it answers text.
  const provider = await startServer((req) => ({ body: req.body.includes('<id>13</id>') ? 'thirteen' : '42' }));
  try {
    writeFileSync(path.join(at, 'package.json'), '{ "name": "provider", "private": true }');
    writeFileSync(
      path.join(at, 'orders.spec'),
      'Feature: Orders\n\n  Scenario: Get an order\n    When POST /orders\n    And request-body (anything)\n    Then status 200\n    And response-body (number)\n',
    );
    const example = (consumer: string, file: string, value: object) => {
      mkdirSync(path.join(at, 'orders_consumers', consumer), { recursive: true });
      writeFileSync(path.join(at, 'orders_consumers', consumer, file), JSON.stringify(value));
    };
    example('billing-ui', 'one.json', { name: 'an order', 'http-request': { method: 'POST', path: '/orders', body: '<id>1</id>' }, 'http-response': { status: 200, body: '5' } });
    example('mobile', 'thirteen.json', {
      name: 'order thirteen',
      'http-request': { method: 'POST', path: '/orders', body: '<id>13</id>' },
      'http-response': { status: 200, body: '7' },
    });
    example('legacy', 'old.json', { name: 'an old call', 'http-request': { method: 'GET', path: '/orders/1' }, 'http-response': { status: 200 } });
    const cfg = path.join(at, 'jest.config.js');
    const own = { rootDir: at, testEnvironmentOptions: { accord: { baseUrl: provider.url, report: 'report.html', coverageFile: false } } };
    writeFileSync(cfg, `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), ...${JSON.stringify(own)} };\n`);
    const r = await new Promise<{ status: number; output: string }>((resolve) => {
      const child = spawn(process.execPath, [JEST, '--config', cfg, '--ci'], { cwd: at, env: childEnv() });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.on('close', (code) => resolve({ status: code ?? -1, output: plain(output) }));
    });
    expect(r.output).toContain('accord report: report.html');
    expect(r.status).toBe(1);
    const data = dataOf(readFileSync(path.join(at, 'report.html'), 'utf8'));
    expect(data.consumers).toEqual([
      { consumer: 'billing-ui', example: 'an order', file: 'orders_consumers/billing-ui/one.json', contract: 'orders.spec', scenario: 'Get an order', status: 'passed' },
      {
        consumer: 'legacy',
        example: 'an old call',
        file: 'orders_consumers/legacy/old.json',
        contract: 'orders.spec',
        scenario: '',
        status: 'skipped-no-longer-fits',
        problem: expect.stringContaining("consumer legacy's example orders_consumers/legacy/old.json no longer fits the contract"),
      },
      { consumer: 'mobile', example: 'order thirteen', file: 'orders_consumers/mobile/thirteen.json', contract: 'orders.spec', scenario: 'Get an order', status: 'failed' },
    ]);
    // The failed consumer example's exchange is in the report too, its answer marked.
    const failed = data.contracts[0].tests.find((t) => t.title === 'consumer mobile › order thirteen')!;
    expect(failed.status).toBe('failed');
    expect(failed.exchange!.response!.body!.lines).toEqual([[0, 'thirteen']]);
  } finally {
    await provider.close();
    rmSync(at, { recursive: true, force: true });
  }
}, 120_000);

test("a negative test's request and the provider's answer are in the report, secrets hidden", async () => {
  const at = realpathSync(mkdtempSync(path.join(tmpdir(), 'accord-reporter-negative-')));
  // A provider that accepts anything: every negative test fails, and the report must show what it was sent.
  const provider = await startServer(() => ({ body: '<ok>1</ok>' }));
  try {
    writeFileSync(path.join(at, 'package.json'), '{ "name": "provider", "private": true }');
    writeFileSync(
      path.join(at, 'orders.spec'),
      'Feature: Orders\n\n  Scenario: Get an order\n    When POST /orders\n    And request-body <order><id>(number)</id></order>\n    Then status 200\n    And response-body (anything)\n',
    );
    const cfg = path.join(at, 'jest.config.js');
    const own = {
      rootDir: at,
      testEnvironmentOptions: { accord: { baseUrl: provider.url, report: 'report.html', coverageFile: false, negative: true, headers: { 'X-Api-Key': { env: 'PET_API_KEY' } } } },
    };
    writeFileSync(cfg, `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), ...${JSON.stringify(own)} };\n`);
    const r = await new Promise<{ status: number; output: string }>((resolve) => {
      const child = spawn(process.execPath, [JEST, '--config', cfg, '--ci'], { cwd: at, env: childEnv({ PET_API_KEY: SECRET }) });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.on('close', (code) => resolve({ status: code ?? -1, output: plain(output) }));
    });
    expect(r.status).toBe(1);
    const html = readFileSync(path.join(at, 'report.html'), 'utf8');
    expect(html).not.toContain(SECRET);
    const negatives = dataOf(html).contracts[0].tests.filter((t) => t.status === 'negative-failed');
    expect(negatives.length).toBeGreaterThan(0);
    for (const t of negatives) {
      expect(t.exchange!.request!.line).toMatch(/^POST \/orders/);
      expect(t.exchange!.request!.headers).toContainEqual(['x-api-key', '***']);
      expect(t.exchange!.response).toMatchObject({ status: 200, body: { lines: [[0, '<ok>1</ok>']] } });
    }
    // The mutated request itself is shown: one of them sends an id that is not a number.
    expect(negatives.some((t) => t.exchange!.request!.body!.lines.some(([, l]) => /<id>(?!\d+<)/.test(l)))).toBe(true);
  } finally {
    await provider.close();
    rmSync(at, { recursive: true, force: true });
  }
}, 120_000);
