import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OUTLINE_GLOBAL } from '../../src/runner/config';
import { contractCoverage, importedFrom, readOutline } from '../../src/runner/coverage';
import { createRuntime } from '../../src/runner/runtime';
import { startStub, type RunningStub } from '../../src/stub';
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
const CLI = path.join(REPO, 'bin', 'accord.js');
const FAULTS_WSDL = path.join(REPO, '__tests__', 'fixtures', 'wsdl', 'faults', 'pets.wsdl');

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
/** Only passing scenarios (and a @WIP one), and a WSDL operation with no scenario. */
let passing: string;
/** A contract imported from wsdl/pets.wsdl (one operation, two faults) into contracts/. */
let faults: string;
let server: Running;
let stub: RunningStub;

function app(name: string, files: Record<string, string>): string {
  const at = realpathSync(mkdtempSync(path.join(tmpdir(), `accord-coverage-${name}-`)));
  writeFileSync(path.join(at, 'package.json'), '{ "name": "app", "private": true }');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(at, file)), { recursive: true });
    writeFileSync(path.join(at, file), text);
  }
  return at;
}

beforeAll(async () => {
  // /square answers a number; /cube does not; /half is @WIP; everything else (the SOAP one) answers "ok".
  server = await startServer((req) => (req.url === '/cube' ? { body: 'not a number' } : { body: req.url === '/ws/pets' ? 'ok' : '4' }));
  dir = app('all', { 'contracts/math.spec': MATH, 'contracts/pets.spec': PETS, 'pets.wsdl': baseWsdl() });
  passing = app('passing', { 'contracts/math.spec': MATH.replace(/ {2}Scenario: Cube[^@]*/, ''), 'contracts/pets.spec': PETS, 'pets.wsdl': baseWsdl() });
  faults = app('faults', {});
  mkdirSync(path.join(faults, 'wsdl'));
  mkdirSync(path.join(faults, 'contracts'));
  copyFileSync(FAULTS_WSDL, path.join(faults, 'wsdl', 'pets.wsdl'));
  execFileSync(process.execPath, [CLI, 'import', 'wsdl', 'wsdl/pets.wsdl', '--output', 'contracts/pets.spec'], { cwd: faults, env: childEnv() });
  stub = await startStub({ contracts: path.join(faults, 'contracts', 'pets.spec'), log: () => {} });
});

afterAll(async () => {
  await server?.close();
  await stub?.close();
  for (const d of [dir, passing, faults]) if (d) rmSync(d, { recursive: true, force: true });
});

function config(accord: Record<string, unknown>, root: string): string {
  // The preset's configuration as `jest --preset accord-contracts` reads it (a path is not a preset name Jest resolves).
  const file = path.join(root, 'jest.config.js');
  const own = { rootDir: root, testEnvironmentOptions: { accord: { baseUrl: server.url, ...accord } } };
  writeFileSync(file, `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), ...${JSON.stringify(own)} };\n`);
  return file;
}

function jest(accord: Record<string, unknown>, ...args: string[]): Promise<{ status: number; output: string }> {
  return jestIn(dir, accord, ...args);
}

function jestIn(root: string, accord: Record<string, unknown>, ...args: string[]): Promise<{ status: number; output: string }> {
  const cfg = config(accord, root);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [JEST, '--config', cfg, '--ci', ...args], { cwd: root, env: childEnv() });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ status: code ?? -1, output: plain(output) }));
  });
}

test('a summary per contract, the WSDL operations with no scenario, and a JSON file', async () => {
  const r = await jest({ wsdl: { 'contracts/pets.spec': 'pets.wsdl' } });
  expect(r.output).toContain('accord contract coverage');
  // As README.md shows it ("Contract coverage").
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const sample = /\n```\n(accord contract coverage\n[^`]*)```/.exec(readme)![1];
  expect(sample).toContain('contracts/pets.spec: 1 scenario');
  expect(r.output).toContain(sample);
  // The failed scenario fails the run, as it always did.
  expect(r.status).toBe(1);
  const doc = JSON.parse(readFileSync(path.join(dir, 'accord-coverage.json'), 'utf8'));
  expect(doc.totals).toMatchObject({ scenarios: 4, passed: 2, failed: 1, wip: 1, skipped: 0, notRun: 0, operations: 2, operationsPassed: 1, uncovered: 1, operationsPercent: 50 });
  expect(doc.contracts[0].list).toEqual([
    { name: 'Square', line: 3, status: 'passed' },
    { name: 'Cube', line: 9, status: 'failed' },
    { name: 'Half', line: 16, status: 'wip' },
  ]);
}, 120_000);

test('coverageThreshold fails a run whose tests all passed, naming what fell short; met, the run passes', async () => {
  const met = await jestIn(passing, { coverageThreshold: { scenarios: 100, operations: 50 }, wsdl: { 'contracts/pets.spec': 'pets.wsdl' } });
  expect(met.output).toMatch(/Tests: +1 skipped, 2 passed/);
  expect(met.output).toContain('contracts/math.spec: 2 scenarios: 1 passed, 0 failed, 1 WIP, 0 skipped, 0 not run');
  expect(met.output).not.toContain('below the threshold');
  expect(met.status).toBe(0);
  const short = await jestIn(passing, { coverageThreshold: { scenarios: 100, operations: 100 }, wsdl: { 'contracts/pets.spec': 'pets.wsdl' } });
  expect(short.output).toContain('50 % of WSDL operations ran and passed, below the threshold of 100 % (coverageThreshold.operations)');
  expect(short.status).toBe(1);
  // No WSDL known: an operations threshold cannot pass by counting nothing.
  const none = await jestIn(passing, { coverageThreshold: { operations: 10 } });
  expect(none.output).toContain('coverageThreshold.operations cannot be judged: no contract names a WSDL');
  expect(none.status).toBe(1);
  const wrong = await jestIn(passing, { coverageThreshold: { scenario: 50 } });
  expect(wrong.output).toContain('unknown key "scenario" in coverageThreshold');
  expect(wrong.status).toBe(1);
}, 120_000);

test('a run filtered by -t or by path is partial: it says so, leaves the coverage file alone and does not fail the threshold', async () => {
  const file = path.join(dir, 'accord-coverage.json');
  rmSync(file, { force: true });
  const named = await jest({ coverageThreshold: { scenarios: 100 } }, '-t', 'Square');
  expect(named.output).toContain('accord contract coverage (partial run: -t "Square")');
  expect(named.output).toContain('contracts/math.spec: 3 scenarios: 1 passed, 0 failed, 1 WIP, 0 skipped, 1 not run');
  expect(named.output).toContain('a partial run: the coverage file is not written and coverageThreshold is not checked');
  expect(named.output).not.toContain('below the threshold');
  expect(named.status).toBe(0);
  expect(existsSync(file)).toBe(false);
  const byPath = await jest({ coverageThreshold: { scenarios: 100 } }, 'contracts/pets.spec');
  expect(byPath.output).toContain('(partial run: a test path pattern left out 1 contract file)');
  expect(byPath.status).toBe(0);
  expect(existsSync(file)).toBe(false);
  // A path that selects every contract is a whole run.
  const whole = await jest({ coverageThreshold: { scenarios: 100 } }, 'contracts/');
  expect(whole.output).not.toContain('partial run');
  expect(whole.output).toContain('66.7 % of scenarios (not @WIP, not skipped) passed, below the threshold of 100 % (coverageThreshold.scenarios)');
  expect(existsSync(file)).toBe(true);
}, 120_000);

test('a contract imported from wsdl/ into contracts/: its WSDL is found, @fault scenarios are faults of an operation, negative tests are counted', async () => {
  const contract = readFileSync(path.join(faults, 'contracts', 'pets.spec'), 'utf8');
  expect(contract).toContain('# Imported by accord from ../wsdl/pets.wsdl (');
  const accord = { baseUrl: stub.url, negative: true, coverageThreshold: { scenarios: 100, operations: 100 } };
  const r = await jestIn(faults, accord);
  expect(r.output).toContain('contracts/pets.spec: 3 scenarios: 1 passed, 0 failed, 0 WIP, 2 skipped, 0 not run');
  expect(r.output).toMatch(/negative tests: [1-9]\d* passed, 0 failed, 0 not run/);
  expect(r.output).toContain('wsdl/pets.wsdl: 1 operation: 1 passed, 0 failed, 0 WIP, 0 skipped, 0 not run, 0 with no scenario');
  expect(r.output).toContain('WSDL operations: 1 of 1 ran and passed');
  expect(r.status).toBe(0);
  const doc = JSON.parse(readFileSync(path.join(faults, 'accord-coverage.json'), 'utf8'));
  expect(doc.contracts[0].wsdl.list).toEqual([
    {
      name: 'getPet',
      status: 'passed',
      faults: [
        { name: 'getPet fault notFound', status: 'skipped' },
        { name: 'getPet fault invalidId', status: 'skipped' },
      ],
      negative: { passed: expect.any(Number), failed: 0, notRun: 0 },
    },
  ]);
  expect(doc.contracts[0].wsdl.list[0].negative.passed).toBeGreaterThan(0);
  expect(doc.contracts[0].list[1]).toMatchObject({ fault: true, status: 'skipped', skipped: 'fault scenario without an example that triggers it' });
  // The same contract against a service that answers nonsense: the operation failed and is not covered.
  const failed = await jestIn(faults, { coverageThreshold: { operations: 100 } });
  expect(failed.output).toContain('wsdl/pets.wsdl: 1 operation: 0 passed, 1 failed');
  expect(failed.output).toContain('failed: getPet');
  expect(failed.output).toContain('0 % of WSDL operations ran and passed, below the threshold of 100 % (coverageThreshold.operations)');
  expect(failed.status).toBe(1);
}, 120_000);

test('a WSDL that is not found is said, with where it was looked for and how to set it, and an operations threshold cannot pass', async () => {
  // As accord import wrote it before it recorded the path: the base name, looked for beside the contract.
  const old = app('missing', {
    'contracts/pets.spec': readFileSync(path.join(faults, 'contracts', 'pets.spec'), 'utf8').replace('../wsdl/pets.wsdl', 'pets.wsdl'),
  });
  try {
    const r = await jestIn(old, { baseUrl: stub.url, coverageThreshold: { operations: 50 } });
    expect(r.output).toContain(
      'operations not counted: the WSDL was not found at contracts/pets.wsdl: contracts/pets.spec was imported from pets.wsdl; set testEnvironmentOptions.accord.wsdl: { "contracts/pets.spec": "<path of the WSDL from the rootDir>" } to say where it is',
    );
    expect(r.output).toContain('coverageThreshold.operations cannot be judged: the WSDL pets.wsdl was not found');
    expect(r.output).toMatch(/Tests: +2 skipped, 1 passed/);
    expect(r.status).toBe(1);
    const doc = JSON.parse(readFileSync(path.join(old, 'accord-coverage.json'), 'utf8'));
    expect(doc.totals.operationsPercent).toBeNull();
    expect(doc.contracts[0].wsdlMissing).toMatchObject({ named: 'pets.wsdl', file: 'contracts/pets.wsdl' });
    // The wsdl setting says where it is.
    copyFileSync(FAULTS_WSDL, path.join(old, 'pets.wsdl'));
    const set = await jestIn(old, { baseUrl: stub.url, coverageThreshold: { operations: 50 }, wsdl: { 'contracts/pets.spec': 'pets.wsdl' } });
    expect(set.output).toContain('pets.wsdl: 1 operation: 1 passed');
    expect(set.status).toBe(0);
  } finally {
    rmSync(old, { recursive: true, force: true });
  }
}, 120_000);

test('a contract imported from a WSDL names it in its first comment, by its path from the contract, inside the rootDir', () => {
  const spec = path.join(dir, 'contracts', 'pets-imported.spec');
  const text = 'Feature: PetService\n  # Imported by accord from pets.wsdl (http://example.com/pets).\n';
  expect(importedFrom(spec, text, dir)).toEqual({ named: 'pets.wsdl', file: path.join(dir, 'contracts', 'pets.wsdl') });
  expect(importedFrom(spec, text.replace('pets.wsdl', '../wsdl/pets.wsdl'), dir)).toEqual({ named: '../wsdl/pets.wsdl', file: path.join(dir, 'wsdl', 'pets.wsdl') });
  // A contract does not make the reporter read files outside the project.
  expect(importedFrom(spec, text.replace('pets.wsdl', '../../etc/pets.wsdl'), dir)).toBeUndefined();
  expect(importedFrom(spec, text.replace('pets.wsdl', '/etc/pets.wsdl'), dir)).toBeUndefined();
  expect(importedFrom(spec, 'Feature: x\n', dir)).toBeUndefined();
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

/** Two scenarios of pets.wsdl named by what a team tests, not by the operation; the second a copy-paste slip that sends getPet again. */
const NAMED_FREELY = `Feature: Pets

  Background:
    When POST /ws/pets
    And request-header SOAPAction "urn:getPet"
    And request-body <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><p:getPet xmlns:p="http://example.com/pets"><p:id>(number)</p:id></p:getPet></soapenv:Body></soapenv:Envelope>
    Then status 200
    And response-body (anything)

  Scenario Outline: getPet for known pets
    Examples:
      | id |
      | 7  |

  Scenario: listPets
`;

test('an operation is counted by what the scenario sends (Body element, SOAPAction), not by the scenario’s name', async () => {
  const root = app('named-freely', { 'contracts/pets.spec': NAMED_FREELY, 'pets.wsdl': baseWsdl() });
  try {
    const r = await jestIn(root, { wsdl: { 'contracts/pets.spec': 'pets.wsdl' } });
    expect(r.status).toBe(0);
    // getPet is covered by "getPet for known pets" (and the slip); listPets, which nothing sends, by none.
    expect(r.output).toContain('pets.wsdl: 2 operations: 1 passed, 0 failed, 0 WIP, 0 skipped, 0 not run, 1 with no scenario');
    expect(r.output).toContain('no scenario: listPets');
    const doc = JSON.parse(readFileSync(path.join(root, 'accord-coverage.json'), 'utf8'));
    expect(doc.contracts[0].wsdl.uncovered).toEqual(['listPets']);
    expect(doc.contracts[0].wsdl.list.map((o: { name: string; status: string }) => [o.name, o.status])).toEqual([
      ['getPet', 'passed'],
      ['listPets', 'no scenario'],
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 120_000);
