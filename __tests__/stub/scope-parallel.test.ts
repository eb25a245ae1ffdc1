import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv, plain } from '../helpers/child-env';
import { CONTRACTS, REPO } from './helpers';

/**
 * The consumer set-up docs/stub.md documents, run for real: one stub started in Jest's
 * globalSetup, test files in parallel workers, each with `reset()` in `beforeEach`. Without
 * scopes the files answered, counted and reset one another's requests (18 and 22 wrong of 600);
 * with a scope per file (`connectStub(url).scope()`) each file has its own. Needs `npm run build`.
 */
const FILES = 4;
const TESTS = 30;
let dir: string;

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  dir = mkdtempSync(path.join(tmpdir(), 'accord-scope-'));
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
  // The application under test: it is given a base URL and sends its own requests.
  write('app.js', ['exports.fetchPet = async (baseUrl, id) => (await (await fetch(`${baseUrl}/pets/${id}`)).json()).petid;']);
  for (let f = 0; f < FILES; f++) {
    write(`pets-${f}.test.js`, [
      'const { connectStub } = require(process.env.ACCORD_PACKAGE);',
      "const { fetchPet } = require('./app');",
      'const stub = connectStub(process.env.PETSTORE_URL).scope();',
      'beforeEach(() => stub.reset());',
      `for (let i = 0; i < ${TESTS}; i++) {`,
      '  test(`answer ${i}`, async () => {',
      `    const petid = ${f * 1000} + i;`,
      "    await stub.expect({ request: { method: 'GET', path: '/pets/7' }, response: { body: { petid } } });",
      '    expect(await fetchPet(stub.url, 7)).toBe(petid);',
      "    expect(await stub.calls({ path: '/pets/7' })).toHaveLength(1);",
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

it("test files in parallel workers, one stub, a scope each: every answer and every count is the file's own", async () => {
  const r = await jest();
  expect(r.output).toMatch(new RegExp(`Tests: +${FILES * TESTS} passed, ${FILES * TESTS} total`));
  expect(r.output).toMatch(new RegExp(`Test Suites: +${FILES} passed`));
  expect(r.status).toBe(0);
}, 130_000);
