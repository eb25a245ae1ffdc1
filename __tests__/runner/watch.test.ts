import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { childEnv, plain } from '../helpers/child-env';
import { startServer, type Running } from '../helpers/servers';

/**
 * `jest --watchAll` with accord's preset, a real Jest process watching a real project: one run at
 * the start, one run after an edit of a contract, and no more (issue 23: the coverage file the
 * reporter writes after each run used to start the next, 28 runs in 15 s). With the preset's
 * defaults the coverage file is written; with a project's own watchPathIgnorePatterns (which
 * replace the preset's) it is not, and the summary says what to add.
 */
const REPO = path.join(__dirname, '..', '..');
const JEST = require.resolve('jest/bin/jest');

const SQUARE = `Feature: Math

  Scenario: Square
    When POST /square
    And request-body (number)
    Then status 200
    And response-body (number)
`;

let server: Running;
const dirs: string[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  server = await startServer(() => ({ body: '4' }));
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) process.kill(-c.pid!, 'SIGKILL');
  await server?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(own: Record<string, unknown>): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'accord-watch-')));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'contracts'));
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "private": true }');
  writeFileSync(path.join(dir, 'contracts', 'math.spec'), SQUARE);
  const config = { rootDir: dir, testEnvironmentOptions: { accord: { baseUrl: server.url } }, ...own };
  writeFileSync(path.join(dir, 'jest.config.js'), `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), ...${JSON.stringify(config)} };\n`);
  return dir;
}

const runs = (output: string) => plain(output).split('accord contract coverage').length - 1;

async function until(done: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !done() && Date.now() < end;) await sleep(100);
}

/** Starts `jest --watchAll` (no terminal), waits for its first run and 5 s more, edits the contract, waits for the next run and 5 s more; stops it. */
async function watchAndEdit(dir: string): Promise<{ before: number; after: number; output: string }> {
  // Its own process group, so that stopping it stops its workers too.
  const child = spawn(process.execPath, [JEST, '--config', path.join(dir, 'jest.config.js'), '--watchAll', '--no-watchman'], {
    cwd: dir,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const closed = new Promise((resolve) => child.on('close', resolve));
  try {
    await until(() => runs(output) >= 1, 60_000);
    await sleep(5_000);
    const before = runs(output);
    appendFileSync(path.join(dir, 'contracts', 'math.spec'), '\n  # edited\n');
    await until(() => runs(output) > before, 30_000);
    await sleep(5_000);
    return { before, after: runs(output), output: plain(output) };
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await closed;
  }
}

test("--watchAll runs once, and once more after an edit, with the preset's defaults and with a project's own watchPathIgnorePatterns", async () => {
  const defaults = project({});
  const own = project({ watchPathIgnorePatterns: ['/tmp-files/'] });
  const [a, b] = await Promise.all([watchAndEdit(defaults), watchAndEdit(own)]);
  expect({ before: a.before, after: a.after }).toEqual({ before: 1, after: 2 });
  expect(a.output).toContain('contracts/math.spec: 1 scenario: 1 passed');
  expect(existsSync(path.join(defaults, 'accord-coverage.json'))).toBe(true);
  expect({ before: b.before, after: b.after }).toEqual({ before: 1, after: 2 });
  expect(b.output).toContain(
    'accord-coverage.json not written: in watch mode Jest would see it change and start another run; add "/accord-coverage\\\\.json$" to watchPathIgnorePatterns',
  );
  expect(existsSync(path.join(own, 'accord-coverage.json'))).toBe(false);
}, 180_000);
