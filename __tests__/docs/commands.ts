import { spawn } from 'node:child_process';
import path from 'node:path';
import { childEnv } from '../helpers/child-env';
import { REPO } from './workspace';

export interface Ran {
  code: number | null;
  /** stdout and stderr as they arrived (unless stderr goes to /dev/null); for a stub, until it was stopped. */
  output: string;
  stdout: string;
}

/**
 * One command line of a `sh` snippet, run the way a user's shell would, with `accord` and
 * `npx accord` being this working tree's CLI and `npx jest` this repository's Jest. Only these
 * run: a snippet that needs anything else must say `not-run` and why.
 */
export function runCommand(line: string, cwd: string, options: { env?: Record<string, string>; substitute?: Record<string, string> } = {}): Promise<Ran> {
  let words = line
    .replace(/\s+#.*$/, '')
    .trim()
    .split(/\s+/);
  for (const [from, to] of Object.entries(options.substitute ?? {})) words = words.map((w) => w.split(from).join(to));
  const env: Record<string, string> = { ...options.env };
  while (/^[A-Z_]+=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split('=');
    env[name] = value.join('=');
  }
  const quiet = words[words.length - 1] === '2>/dev/null';
  if (quiet) words.pop();
  if (words[0] === 'npx') words.shift();
  let argv: string[];
  if (words[0] === 'accord') argv = [path.join(REPO, 'bin', 'accord.js'), ...words.slice(1)];
  else if (words[0] === 'jest') argv = [require.resolve('jest/bin/jest'), ...words.slice(1)];
  else throw new Error(`the snippet test runs accord and jest commands only, not: ${line}`);
  // A stub (or a watcher) runs until stopped: it is stopped once it says it is serving.
  const serving = words[0] === 'accord' && words[1] === 'stub';
  // Every server must be free to pick a port: parallel tests would collide on the docs' fixed ones.
  if (serving) argv = argv.map((a, i) => (argv[i - 1] === '--port' ? '0' : a));

  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd, env: childEnv(env) });
    let output = '';
    let stdout = '';
    let stopped = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out: ${line}\n${output}`));
    }, 60_000);
    child.stdout.on('data', (d: Buffer) => {
      if (stopped) return;
      output += d.toString();
      stdout += d.toString();
      if (serving && !stopped && output.includes('Press Ctrl+C to stop.')) {
        stopped = true;
        // What it printed up to now is what the docs show; it says nothing else on a clean stop.
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (d: Buffer) => {
      // After the stop, only what a user sees once they press Ctrl+C: not part of a sample.
      if (!quiet && !stopped) output += d.toString();
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, stdout });
    });
  });
}
