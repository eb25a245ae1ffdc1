import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OUTLINE_GLOBAL } from '../../src/runner/config';
import { contractCoverage, importedFrom, readOutline } from '../../src/runner/coverage';
import { createRuntime } from '../../src/runner/runtime';
import { baseWsdl } from '../compat/wsdl-pairs';
import { childEnv, plain } from '../helpers/child-env';
import { startServer, type Running } from '../helpers/servers';

/**
 * Contract coverage after a real `jest` run with accord's preset (this
 * working tree, by path) against a real server on 127.0.0.1: the summary the
 * preset's reporter prints, its JSON file, and the threshold that fails a run.
 */
const REPO = path.join(__dirname, '..', '..');
const JEST = require.resolve('jest/bin/jest');

const MATH = `Feature: Math

  Scenario: Square
    When POST /square
    And request-body (number)
    Then status 200
    And response-body (number)

  Scenario: Cube
    When POST /cube
    And request-body (number)
    Then status 200
    And response-body (number)

  @WIP
  Scenario: Half
    When POST /half
    And request-body (number)
    Then status 200
    And response-body (number)
`;

const PETS = `Feature: Pets

  Scenario: getPet
    When POST /ws/pets
    And request-body (anything)
    Then status 200
    And response-body (anything)
`;

let dir: string;
let server: Running;

beforeAll(async () => {
  // /square answers a number; /cube does not; /half is @WIP; everything else (the SOAP one) answers "ok".
  server = await startServer((req) => (req.url === '/cube' ? { body: 'not a number' } : { body: req.url === '/ws/pets' ? 'ok' : '4' }));
  dir = mkdtempSync(path.join(tmpdir(), 'accord-coverage-'));
  mkdirSync(path.join(dir, 'contracts'));
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "private": true }');
  writeFileSync(path.join(dir, 'contracts', 'math.spec'), MATH);
  writeFileSync(path.join(dir, 'contracts', 'pets.spec'), PETS);
  writeFileSync(path.join(dir, 'pets.wsdl'), baseWsdl());
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

function config(accord: Record<string, unknown>): string {
  // The preset's configuration as `jest --preset accord-contracts` reads it (a path is not a preset name Jest resolves).
  const file = path.join(dir, 'jest.config.js');
  const own = { rootDir: dir, testEnvironmentOptions: { accord: { baseUrl: server.url, ...accord } } };
  writeFileSync(file, `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), ...${JSON.stringify(own)} };\n`);
  return file;
}

function jest(accord: Record<string, unknown>, ...args: string[]): Promise<{ status: number; output: string }> {
  const cfg = config(accord);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [JEST, '--config', cfg, '--ci', ...args], { cwd: dir, env: childEnv() });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ status: code ?? -1, output: plain(output) }));
  });
}

test('a summary per contract, the WSDL operations with no scenario, and a JSON file', async () => {
  const r = await jest({ wsdl: { 'contracts/pets.spec': 'pets.wsdl' } });
  expect(r.output).toContain('accord contract coverage');
  expect(r.output).toContain('contracts/math.spec: 3 scenarios: 1 passed, 1 failed, 1 WIP, 0 not run');
  expect(r.output).toContain('contracts/pets.spec: 1 scenario: 1 passed, 0 failed, 0 WIP, 0 not run');
  expect(r.output).toContain('pets.wsdl: 1 of 2 operations have a scenario');
  expect(r.output).toContain('no scenario: listPets');
  // The failed scenario fails the run, as it always did.
  expect(r.status).toBe(1);
  const doc = JSON.parse(readFileSync(path.join(dir, 'accord-coverage.json'), 'utf8'));
  expect(doc.totals).toMatchObject({ scenarios: 4, passed: 2, failed: 1, wip: 1, notRun: 0, operations: 2, uncovered: 1, operationsPercent: 50 });
  expect(doc.contracts[0].list).toEqual([
    { name: 'Square', line: 3, status: 'passed' },
    { name: 'Cube', line: 9, status: 'failed' },
    { name: 'Half', line: 16, status: 'wip' },
  ]);
}, 120_000);

test('coverageThreshold fails a run whose tests all passed, naming what fell short; met, the run passes', async () => {
  const only = ['contracts/math.spec', '-t', 'Square'];
  const short = await jest({ coverageThreshold: { scenarios: 100 }, coverageFile: false }, ...only);
  expect(short.output).toMatch(/Tests: +\d+ skipped, 1 passed/);
  expect(short.output).toContain('contracts/math.spec: 3 scenarios: 1 passed, 0 failed, 1 WIP, 1 not run');
  expect(short.output).toContain('50 % of scenarios (not @WIP) passed, below the threshold of 100 % (coverageThreshold.scenarios)');
  expect(short.status).toBe(1);
  const met = await jest({ coverageThreshold: { scenarios: 50 }, coverageFile: false }, ...only);
  expect(met.output).not.toContain('below the threshold');
  expect(met.status).toBe(0);
  const wrong = await jest({ coverageThreshold: { scenario: 50 }, coverageFile: false }, ...only);
  expect(wrong.output).toContain('unknown key "scenario" in coverageThreshold');
  expect(wrong.status).toBe(1);
}, 120_000);

test('a contract imported from a WSDL names it in its first comment; the WSDL must be beside it', () => {
  const spec = path.join(dir, 'pets-imported.spec');
  const text = 'Feature: PetService\n  # Imported by accord from pets.wsdl (http://example.com/pets).\n';
  expect(importedFrom(spec, text)).toBe(path.join(dir, 'pets.wsdl'));
  expect(importedFrom(spec, text.replace('pets.wsdl', 'gone.wsdl'))).toBeUndefined();
  expect(importedFrom(spec, text.replace('pets.wsdl', '../etc/pets.wsdl'))).toBeUndefined();
  expect(importedFrom(spec, 'Feature: x\n')).toBeUndefined();
});

test('the outline the runtime records while running a file is the one the reporter would read from the text', () => {
  const g: Record<string, unknown> = {};
  const rows = `${MATH}\n  Scenario: Twice\n    When POST /twice\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n    Examples:\n      | n |\n      | 1 |\n      | 2 |\n`;
  createRuntime(g).open('math.spec', rows);
  expect(g[OUTLINE_GLOBAL]).toEqual(readOutline('math.spec', rows));
  const outcomes = [
    { title: 'Square', status: 'passed' },
    { title: 'Twice - example 1: n=1', status: 'passed' },
    { title: 'Twice - example 2: n=2', status: 'failed' },
  ];
  expect(contractCoverage('math.spec', readOutline('math.spec', rows), outcomes).list).toEqual([
    { name: 'Square', line: 3, status: 'passed' },
    { name: 'Cube', line: 9, status: 'not run' },
    { name: 'Half', line: 16, status: 'wip' },
    { name: 'Twice', line: 22, status: 'failed' },
  ]);
  createRuntime(g).open('bad.spec', 'Feature: x\n  Scenario: y\n    When FETCH /\n');
  expect(g[OUTLINE_GLOBAL]).toEqual(readOutline('bad.spec', 'Feature: x\n  Scenario: y\n    When FETCH /\n'));
  expect(contractCoverage('bad.spec', readOutline('bad.spec', 'Feature: x\n  Scenario: y\n    When FETCH /\n'), []).error).toMatch(/bad\.spec/);
});
