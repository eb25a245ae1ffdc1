import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../helpers/child-env';
import { PET_SPEC as SPEC } from './helpers';

/**
 * `npx accord stub &` then `kill $!`, as a shell runs it: kill stops npm, and npm's `sh -c` goes
 * without passing the signal on. The stub must not stay behind holding its port. Real npx, in a
 * project where accord-contracts is installed (a link to this working tree, as `npm link` makes).
 */
const REPO = path.join(__dirname, '..', '..');

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-npx-'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(REPO, path.join(dir, 'node_modules', 'accord-contracts'), 'dir');
  symlinkSync(path.join('..', 'accord-contracts', 'bin', 'accord.js'), path.join(dir, 'node_modules', '.bin', 'accord'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The pids of the processes whose command line is this test's stub on `port` (Linux: /proc). */
function stubsOn(port: number): number[] {
  const found: number[] = [];
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
      if (cmd.includes('stub') && cmd.includes(String(port)) && cmd.includes(SPEC)) found.push(Number(p));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function listening(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/_accord/states`);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

test('npx accord stub & then kill $!: the stub goes with npx and frees its port', async () => {
  const port = await freePort();
  const log = path.join(dir, 'stub.log');
  // The shell backgrounds npx and prints its pid, as `$!` gives it; the test then kills that pid only.
  const shell = spawnSync('sh', ['-c', `npx --no-install accord stub ${JSON.stringify(SPEC)} --port ${port} > ${JSON.stringify(log)} 2>&1 & echo $!`], {
    cwd: dir,
    env: childEnv({ npm_config_update_notifier: 'false' }),
    encoding: 'utf8',
  });
  const npx = Number(shell.stdout.trim());
  expect(npx).toBeGreaterThan(1);
  try {
    expect(await until(() => listening(port), 30_000)).toBe(true);
    process.kill(npx, 'SIGTERM');
    // Stopped within a second or two (it looks for its parent twice a second), port free again.
    expect(await until(async () => !(await listening(port)), 5_000)).toBe(true);
    expect(readFileSync(log, 'utf8')).toMatch(/accord stub: the process that started it under npm exec \(pid \d+\) is gone, closing/);
  } finally {
    // Whatever happened, nothing this test started stays behind: the stub it started, by its pid.
    for (const pid of stubsOn(port)) process.kill(pid, 'SIGTERM');
  }
}, 60_000);

test('a stub not started by npx keeps serving when the script that started it ends', async () => {
  const port = await freePort();
  const child = spawn('sh', ['-c', `node ${JSON.stringify(path.join(REPO, 'bin', 'accord.js'))} stub ${JSON.stringify(SPEC)} --port ${port} > /dev/null 2>&1 & echo $!`], {
    cwd: dir,
    env: childEnv(),
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((r) => child.on('close', r));
  const stub = Number(out.trim());
  try {
    expect(await until(() => listening(port), 30_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await listening(port)).toBe(true);
  } finally {
    process.kill(stub, 'SIGTERM');
  }
}, 60_000);
