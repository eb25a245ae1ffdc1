import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { plain } from './child-env';

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
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [JEST, '--config', file, '--ci', '--no-cache', '--verbose', ...args], { cwd: dir, env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ status: code ?? -1, output: plain(output) }));
  });
}
