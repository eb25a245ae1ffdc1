import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv, plain } from '../helpers/child-env';
import { CONTRACTS, REPO } from './helpers';

/**
 * Named state in parallel Jest workers (docs/stub.md "State across calls"): one stub from a
 * globalSetup, two test files in two workers, each with its own scope, each driving the same
 * machine name ("order") through place → cancel and back with reset. Each file's answers follow
 * only its own moves: a state shared between the files would answer the other's status.
 * Needs `npm run build`.
 */
const FILES = 2;
const ROUNDS = 25;
let dir: string;

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  dir = mkdtempSync(path.join(tmpdir(), 'accord-state-'));
  const write = (name: string, lines: string[]) => writeFileSync(path.join(dir, name), `${lines.join('\n')}\n`);
  write('jest.config.js', ["module.exports = { testEnvironment: 'node', transform: {}, globalSetup: './stub-setup.js', globalTeardown: './stub-teardown.js' };"]);
  write('stub-setup.js', [
    'const { startStub } = require(process.env.ACCORD_PACKAGE);',
    'module.exports = async () => {',
    '  globalThis.__STUB__ = await startStub({ contracts: [process.env.PETS_SPEC] });',
    '  process.env.PETSTORE_URL = globalThis.__STUB__.url;',
    '};',
  ]);
  write('stub-teardown.js', ['module.exports = async () => globalThis.__STUB__.close();']);
  for (let f = 0; f < FILES; f++) {
    write(`order-${f}.test.js`, [
      'const { connectStub } = require(process.env.ACCORD_PACKAGE);',
      'const stub = connectStub(process.env.PETSTORE_URL).scope();',
      'const status = async () => (await (await fetch(`${stub.url}/pets/5`)).json()).petid;',
      'beforeEach(async () => {',
      '  await stub.reset();',
      // GET /pets/5 answers 1 while "order" is Started, 2 once placed, 3 once cancelled; GET /pets/6 places, GET /pets/7 cancels.
      "  await stub.expect({ request: { method: 'GET', path: '/pets/5' }, response: { body: { petid: 1 } }, state: { name: 'order', requires: 'Started' } });",
      "  await stub.expect({ request: { method: 'GET', path: '/pets/5' }, response: { body: { petid: 2 } }, state: { name: 'order', requires: 'placed' } });",
      "  await stub.expect({ request: { method: 'GET', path: '/pets/5' }, response: { body: { petid: 3 } }, state: { name: 'order', requires: 'cancelled' } });",
      "  await stub.expect({ request: { method: 'GET', path: '/pets/6' }, state: { name: 'order', requires: 'Started', becomes: 'placed' } });",
      "  await stub.expect({ request: { method: 'GET', path: '/pets/7' }, state: { name: 'order', requires: 'placed', becomes: 'cancelled' } });",
      '});',
      `for (let i = 0; i < ${ROUNDS}; i++) {`,
      '  test(`round ${i}`, async () => {',
      '    expect(await status()).toBe(1);',
      `    if (i % ${FILES} === ${f}) return;`,
      '    await fetch(`${stub.url}/pets/6`);',
      '    expect(await status()).toBe(2);',
      '    await new Promise((r) => setTimeout(r, 5));',
      '    await fetch(`${stub.url}/pets/7`);',
      '    expect(await status()).toBe(3);',
      "    expect(await stub.states()).toEqual([{ name: 'order', state: 'cancelled' }]);",
      '    const moves = (await stub.calls()).filter((c) => c.state && c.state.was !== c.state.now).map((c) => `${c.state.was}>${c.state.now}`);',
      "    expect(moves).toEqual(['Started>placed', 'placed>cancelled']);",
      '  });',
      '}',
    ]);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function jest(): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--no-watchman', `--maxWorkers=${FILES}`, '--rootDir', dir], {
      cwd: dir,
      env: childEnv({ ACCORD_PACKAGE: path.join(REPO, 'dist', 'index.js'), PETS_SPEC: path.join(CONTRACTS, 'pets', 'api_pets_v1.spec') }),
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ status: code ?? -1, output: plain(output) });
    });
  });
}

it('two Jest workers, one stub, a scope each: each file moves and resets only its own state machine', async () => {
  const r = await jest();
  expect(r.output).toMatch(new RegExp(`Tests: +${FILES * ROUNDS} passed, ${FILES * ROUNDS} total`));
  expect(r.output).toMatch(new RegExp(`Test Suites: +${FILES} passed`));
  expect(r.status).toBe(0);
}, 130_000);
