import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { childEnv, plain } from '../helpers/child-env';
import { REPO } from '../stub/helpers';

export interface ProxyRun {
  url: string;
  pid: number;
  exited: Promise<Exit>;
  stop: () => void;
  /** What it has written to stderr so far, without colours. */
  stderr: () => string;
}

export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from stop() to the exit. */
  stopMs: number;
}

/** `accord proxy ...` as a child process in `cwd`; resolves once it listens, rejects if it exits first. */
export function runProxy(cwd: string, args: string[]): Promise<ProxyRun> {
  const child = spawn(process.execPath, [path.join(REPO, 'bin', 'accord.js'), 'proxy', '--port', '0', ...args], { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let stoppedAt = 0;
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout: plain(stdout), stderr: plain(stderr), stopMs: stoppedAt ? Date.now() - stoppedAt : 0 })),
  );
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /listening on (http:\/\/\S+),/.exec(stdout);
      if (m)
        resolve({
          url: m[1],
          pid: child.pid!,
          exited,
          stop: () => {
            stoppedAt = Date.now();
            child.kill('SIGTERM');
          },
          stderr: () => plain(stderr),
        });
    });
    void exited.then((r) => reject(Object.assign(new Error(`accord proxy exited early: ${r.code}\n${r.stdout}\n${r.stderr}`), { exit: r })));
  });
}

/** How `accord proxy` ended when it refused to start; fails if it started listening instead. */
export async function refusedAtStart(cwd: string, args: string[]): Promise<Exit> {
  try {
    const run = await runProxy(cwd, args);
    run.stop();
    await run.exited;
    throw new Error('accord proxy started listening');
  } catch (e) {
    const exit = (e as { exit?: Exit }).exit;
    if (!exit) throw e;
    return exit;
  }
}

/** Resident memory of a process, in MB (Linux). */
export function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/** Sends raw bytes to `url`'s port and returns what came back until the connection closed (or 5 s). */
export function rawExchange(url: string, bytes: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const s = connect(Number(port), '127.0.0.1', () => s.write(bytes));
    let out = '';
    const timer = setTimeout(() => s.destroy(), 5000);
    s.setEncoding('latin1');
    s.on('data', (d: string) => {
      out += d;
      // One answer is enough: a complete head and its declared body.
      const head = out.indexOf('\r\n\r\n');
      const len = /content-length: (\d+)/i.exec(out);
      if (head >= 0 && len && out.length >= head + 4 + Number(len[1])) s.destroy();
    });
    s.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    s.on('error', () => undefined);
  });
}
