import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { childEnv, plain } from './child-env';

const REPO = path.join(__dirname, '..', '..');
const JEST = require.resolve('jest/bin/jest');

/**
 * `jest --preset accord-contracts` on a temp project in `dir`, as a user runs it: writes its
 * `jest.config.js` (accord's preset, `rootDir: dir`, these accord settings and no coverage file),
 * runs Jest in a child process with `env` (from childEnv) and `args` after `--ci --no-cache
 * --verbose`, and gives its exit status and its output without colours.
 */
export function runJestApp(dir: string, accord: Record<string, unknown>, env: NodeJS.ProcessEnv, args: readonly string[] = []): Promise<{ status: number; output: string }> {
  const file = path.join(dir, 'jest.config.js');
  const own = { rootDir: dir, testEnvironmentOptions: { accord: { coverageFile: false, ...accord } } };
  writeFileSync(file, `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), ...${JSON.stringify(own)} };\n`);
  return runJest(process.execPath, [JEST, '--config', file, '--ci', '--no-cache', '--verbose', ...args], { cwd: dir, env });
}

/** How a Jest child process ended: its exit status (-1 when a signal ended it) and all it printed, without colours. */
export interface JestRun {
  status: number;
  output: string;
}

/** Runs a Jest child process (`cmd` `args`) in `cwd` with `env`, killed after `killAfterMs` when given. */
export function runJest(cmd: string, args: readonly string[], o: { cwd: string; env: NodeJS.ProcessEnv; killAfterMs?: number }): Promise<JestRun> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: o.cwd, env: o.env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = o.killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), o.killAfterMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ status: code ?? -1, output: plain(output) });
    });
  });
}

/** Makes `dir` a Jest project of accord's preset (this checkout's jest-preset.js, rootDir `dir`): its package.json and jest.config.js. */
export function writePresetProject(dir: string): void {
  writeFileSync(path.join(dir, 'package.json'), '{"name":"app","private":true}');
  writeFileSync(path.join(dir, 'jest.config.js'), `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), rootDir: __dirname };\n`);
}

/** Jest (`--ci` and `args`) in `dir`, a project of writePresetProject, against `baseUrl`. */
export function runPresetProject(dir: string, baseUrl: string, args: readonly string[] = []): Promise<JestRun> {
  return runJest(process.execPath, [JEST, '--ci', ...args], { cwd: dir, env: childEnv({ ACCORD_BASE_URL: baseUrl }) });
}
