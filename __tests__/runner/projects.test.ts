import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { baseWsdl } from '../compat/wsdl-pairs';
import { childEnv, plain } from '../helpers/child-env';
import { startServer, type Running } from '../helpers/servers';

/**
 * Contracts as their own Jest project (`projects`), the layout the README recommends, in an app
 * that resolves `accord-contracts` by name (linked to this working tree): Jest takes reporters only
 * from the top-level config, where accord's coverage reporter reads each project's settings, prints
 * the summary and enforces the project's coverageThreshold. Without it there, a threshold fails the
 * run instead of being silently unchecked (issue 23).
 */
const REPO = path.join(__dirname, '..', '..');
const JEST = require.resolve('jest/bin/jest');

const PETS = `Feature: Pets

  Scenario: getPet
    When POST /ws/pets
    And request-body (anything)
    Then status 200
    And response-body (anything)
`;

const scenario = (name: string) => `\n  Scenario: ${name}\n    When POST /${name}\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n`;
/** Four scenarios: /d answers no number, so 3 of 4 (75 %) pass. */
const MATH = `Feature: Math\n${['a', 'b', 'c', 'd'].map(scenario).join('')}`;

let dir: string;
let server: Running;

beforeAll(async () => {
  server = await startServer((req) => ({ body: req.url === '/d' ? 'not a number' : req.url === '/ws/pets' ? 'ok' : '4' }));
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'accord-projects-')));
  for (const d of ['contracts', 'src', 'node_modules']) mkdirSync(path.join(dir, d));
  symlinkSync(REPO, path.join(dir, 'node_modules', 'accord-contracts'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "private": true }');
  writeFileSync(path.join(dir, 'src', 'sum.test.js'), "test('sum', () => expect(1 + 1).toBe(2));\n");
  writeFileSync(path.join(dir, 'contracts', 'pets.spec'), PETS);
  writeFileSync(path.join(dir, 'pets.wsdl'), baseWsdl());
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function run(accord: Record<string, unknown>, reporters: boolean): Promise<{ status: number; output: string }> {
  const config = {
    ...(reporters ? { reporters: ['default', 'accord-contracts/coverage-reporter'] } : {}),
    projects: [
      { displayName: 'unit', testMatch: ['<rootDir>/src/**/*.test.js'] },
      { displayName: 'contracts', preset: 'accord-contracts', testEnvironmentOptions: { accord: { baseUrl: server.url, ...accord } } },
    ],
  };
  writeFileSync(path.join(dir, 'jest.config.js'), `module.exports = ${JSON.stringify(config, null, 2)};\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [JEST, '--ci'], { cwd: dir, env: childEnv() });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ status: code ?? -1, output: plain(output) }));
  });
}

test('with the reporter at the top level, the contracts project gets its summary and its coverageThreshold', async () => {
  const wsdl = { 'contracts/pets.spec': 'pets.wsdl' };
  const short = await run({ wsdl, coverageThreshold: { operations: 100 } }, true);
  expect(short.output).toMatch(/Tests: +2 passed, 2 total/);
  expect(short.output).toContain('contracts/pets.spec: 1 scenario: 1 passed, 0 failed, 0 WIP, 0 skipped, 0 not run');
  expect(short.output).toContain('50 % of WSDL operations ran and passed, below the threshold of 100 % (coverageThreshold.operations)');
  expect(short.status).toBe(1);
  const met = await run({ wsdl, coverageThreshold: { operations: 50 } }, true);
  expect(met.output).toContain('accord contract coverage');
  expect(met.status).toBe(0);
}, 120_000);

test('a coverageThreshold of 100 % fails at 75 % in the contracts project', async () => {
  writeFileSync(path.join(dir, 'contracts', 'math.spec'), MATH);
  try {
    const r = await run({ coverageThreshold: { scenarios: 100 } }, true);
    expect(r.output).toContain('contracts/math.spec: 4 scenarios: 3 passed, 1 failed');
    expect(r.output).toContain('80 % of scenarios (not @WIP, not skipped) passed, below the threshold of 100 % (coverageThreshold.scenarios)');
    rmSync(path.join(dir, 'contracts', 'pets.spec'));
    const only = await run({ coverageThreshold: { scenarios: 100 } }, true);
    expect(only.output).toContain('75 % of scenarios (not @WIP, not skipped) passed, below the threshold of 100 % (coverageThreshold.scenarios)');
    expect(only.status).toBe(1);
  } finally {
    rmSync(path.join(dir, 'contracts', 'math.spec'), { force: true });
    writeFileSync(path.join(dir, 'contracts', 'pets.spec'), PETS);
  }
}, 120_000);

test('without the reporter at the top level, a coverageThreshold fails the run and says where the reporter goes', async () => {
  const r = await run({ coverageThreshold: { scenarios: 100 } }, false);
  expect(r.output).toMatch(/Tests: +2 passed, 2 total/);
  expect(r.output).toContain("accord's coverage reporter is not among Jest's reporters, so nothing checks it");
  expect(r.output).toContain("add reporters: ['default', 'accord-contracts/coverage-reporter'] to the top level of the Jest config");
  expect(r.status).toBe(1);
  // No threshold, nothing to enforce: the run passes.
  const none = await run({}, false);
  expect(none.status).toBe(0);
}, 120_000);
