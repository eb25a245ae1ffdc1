import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv, plain } from '../helpers/child-env';
import { startServer, type Running } from '../helpers/servers';

/**
 * The provider's run replays consumers' examples (`<contract>_consumers/<consumer>/*.json`, where
 * `accord contracts pull` puts them): an example that fits but gets a wrong answer is a provider
 * failure, reported at the example file and naming the consumer.
 */
const REPO = path.join(__dirname, '..', '..');
const JEST = require.resolve('jest/bin/jest');
const SPEC = `Feature: Orders

  Scenario: getOrder
    When POST /orders
    And request-body
    """
    <getOrder><orderId>(number)</orderId></getOrder>
    """
    Then status 200
    And response-body
    """
    <total>(number)</total>
    """
`;

let dir: string;
let service: Running;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-replay-'));
  writeFileSync(path.join(dir, 'orders.spec'), SPEC);
  mkdirSync(path.join(dir, 'orders_consumers/billing-ui'), { recursive: true });
  writeFileSync(
    path.join(dir, 'orders_consumers/billing-ui/order-7.json'),
    JSON.stringify({
      name: 'order seven',
      'http-request': { method: 'POST', path: '/orders', body: '<getOrder><orderId>7</orderId></getOrder>' },
      'http-response': { status: 200 },
    }),
  );
  // Right for every order but the consumer's.
  service = await startServer((req) => ({ body: req.body.includes('<orderId>7</orderId>') ? '<total>lots</total>' : '<total>1</total>' }));
});

afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a consumer's example that fits but gets a wrong answer fails at the example, naming the consumer", async () => {
  const file = path.join(dir, 'jest.config.js');
  const own = { rootDir: dir, testEnvironmentOptions: { accord: { baseUrl: service.url, coverageFile: false } } };
  writeFileSync(file, `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), ...${JSON.stringify(own)} };\n`);
  const run = await new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn(process.execPath, [JEST, '--config', file, '--ci', '--no-cache', '--verbose'], { cwd: dir, env: childEnv() });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, output: plain(output) }));
  });
  expect(run.output).toMatch(/✓ getOrder/);
  expect(run.output).toMatch(/✕ consumer billing-ui › order seven/);
  expect(run.output).toContain(`consumer billing-ui's example ${path.join(dir, 'orders_consumers/billing-ui/order-7.json')} (scenario "getOrder")`);
  expect(run.output).toContain('RESPONSE.BODY');
  expect(run.code).toBe(1);
}, 120_000);
