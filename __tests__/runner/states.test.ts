import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { startStub } from '../../src/stub';
import { childEnv } from '../helpers/child-env';
import { runJestApp } from '../helpers/jest-app';
import { startServer, type Running } from '../helpers/servers';

/**
 * Provider states in a real Jest run on a temp project: the states module named in the Jest
 * config sets up each scenario's facts on the provider (here by calling its admin endpoint)
 * before the scenario runs and tears them down after; a fact with no handler fails the
 * scenario naming it; without a states module facts are ignored, as before. The stub ignores them.
 */

const SPEC = `Feature: Pets

  Background:
    Given fixture cleanDatabase

  Scenario: Get a pet
    Given fact petId 10
    And fact name "Rex the dog"
    When GET /pets/10
    Then status 200
    And response-body {"id": "(number)", "name": "(string)"}

  Scenario: A VIP pet
    Given fact vipCustomer
    When GET /pets/10
    Then status 200
    And response-body {"id": "(number)", "name": "(string)"}
`;

const STATES = `const fs = require('node:fs');
const log = (line) => fs.appendFileSync(process.env.STATES_LOG, line + '\\n');
// The provider the run sends to, as the runner tells each handler: no second setting to keep in step.
const admin = (scenario, body) => fetch(scenario.baseUrl + '/admin', { method: 'POST', body: JSON.stringify(body) });
module.exports = {
  cleanDatabase: async (value, scenario) => { log('clean'); await admin(scenario, { op: 'clean' }); },
  petId: async (value, scenario) => {
    log('set petId=' + value + ' for ' + scenario.name + ' with name=' + scenario.facts.name);
    await admin(scenario, { op: 'add', id: Number(value), name: scenario.facts.name });
    return async () => { log('remove petId=' + value); await admin(scenario, { op: 'remove', id: Number(value) }); };
  },
  name: () => undefined,
};
`;

let dir: string;
let provider: Running;
const pets = new Map<number, string>();

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-states-'));
  mkdirSync(path.join(dir, 'contracts'));
  mkdirSync(path.join(dir, 'test'));
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "private": true }');
  writeFileSync(path.join(dir, 'contracts', 'pets.spec'), SPEC);
  writeFileSync(path.join(dir, 'test', 'states.js'), STATES);
  provider = await startServer((req) => {
    if (req.url === '/admin') {
      const op = JSON.parse(req.body) as { op: string; id?: number; name?: string };
      if (op.op === 'clean') pets.clear();
      if (op.op === 'add') pets.set(op.id!, op.name!);
      if (op.op === 'remove') pets.delete(op.id!);
      return { status: 204, body: '' };
    }
    const id = Number(req.url.split('/').pop());
    const name = pets.get(id);
    return name === undefined ? { status: 404, type: 'application/json', body: '{}' } : { type: 'application/json', body: JSON.stringify({ id, name }) };
  });
});

afterAll(async () => {
  await provider?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function jest(accord: Record<string, unknown>): Promise<{ status: number; output: string; log: string }> {
  const logFile = path.join(dir, `states-${Math.random().toString(16).slice(2)}.log`);
  writeFileSync(logFile, '');
  const run = await runJestApp(dir, { baseUrl: provider.url, ...accord }, childEnv({ STATES_LOG: logFile }));
  return { ...run, log: readFileSync(logFile, 'utf8') };
}

test('the states module sets up each fact before the scenario and tears it down after; a fact with no handler fails its scenario', async () => {
  const r = await jest({ states: './test/states.js' });
  expect(r.output).toContain('✓ Get a pet');
  expect(r.output).toContain('✕ A VIP pet');
  expect(r.output).toContain(
    'no handler in ./test/states.js for fact "vipCustomer" (contracts/pets.spec:14): export a function of that name (it has "cleanDatabase", "petId", "name")',
  );
  // The Background's fixture first, then the scenario's facts in order; torn down after the request.
  expect(r.log).toBe('clean\nset petId=10 for Get a pet with name=Rex the dog\nremove petId=10\n');
  expect(pets.size).toBe(0);
}, 120_000);

test('without a states module the facts are ignored, as before (so here the pet is not there)', async () => {
  const r = await jest({});
  expect(r.output).toContain('✕ Get a pet');
  expect(r.output).toContain('✕ A VIP pet');
  expect(r.log).toBe('');
}, 120_000);

test('a states module that does not load, or a handler that throws, is one clear failure', async () => {
  writeFileSync(path.join(dir, 'test', 'broken.js'), 'module.exports = { cleanDatabase() { throw new Error("database is down"); }, petId() {}, name() {}, vipCustomer() {} };\n');
  const r = await jest({ states: './test/broken.js' });
  expect(r.output).toContain('setting up fixture "cleanDatabase" (contracts/pets.spec:4) failed: database is down');
  const missing = await jest({ states: './test/nowhere.js' });
  expect(missing.output).toContain('cannot load the provider states module ./test/nowhere.js: Cannot find module');
}, 120_000);

test('the model carries the facts, the Background first; the stub ignores them', async () => {
  const c = parseContract(SPEC, 'pets.spec');
  expect(c.scenarios[0].facts).toEqual([
    { kind: 'fixture', name: 'cleanDatabase', line: 4 },
    { kind: 'fact', name: 'petId', value: '10', line: 7 },
    { kind: 'fact', name: 'name', value: 'Rex the dog', line: 8 },
  ]);
  const stub = await startStub({ contracts: [c], log: () => {} });
  try {
    const res = await fetch(`${stub.url}/pets/10`);
    expect(res.status).toBe(200);
  } finally {
    await stub.close();
  }
});
