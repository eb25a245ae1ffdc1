import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { registryEnv } from './child-env';

const run = promisify(execFile);
export const REPO = path.join(__dirname, '..', '..');
export const PKG = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { name: string; version: string };

/**
 * The package as npm would publish it: `npm pack` of the built working tree
 * (scripts off: the test run has built dist/ already, and a prepack build here
 * would rewrite dist/ under the feet of tests running beside this one).
 */
export async function pack(into: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', into], { cwd: REPO, timeout: 120_000, env: registryEnv() });
  const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[];
  return path.join(into, filename);
}

/** The install command a README code block gives, e.g. `npm install --save-dev accord-contracts jest`. */
export function readmeInstallCommand(pattern: RegExp): string[] {
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const line = readme.split('\n').find((l) => pattern.test(l.trim()));
  if (!line) throw new Error(`README.md has no line matching ${pattern}`);
  return line.trim().replace(/`/g, '').split(/\s+/);
}

export interface App {
  dir: string;
  tarball: string;
  /** The command as run: the README's, the tarball in place of the registry name. */
  command: string[];
  installMs: number;
}

/**
 * A user's application in a new temp folder, installed with the README's own
 * command: the tarball stands in for the registry's `accord-contracts`, and
 * `jest` may be pinned to a major version so a new Jest release cannot break CI
 * overnight. Deliberately no --legacy-peer-deps: the peer ranges must hold.
 */
export async function installApp(readmeLine: RegExp, jest: (word: string) => string = (w) => w): Promise<App> {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-app-'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  const tarball = await pack(dir);
  const words = readmeInstallCommand(readmeLine);
  const command = words.map((w) => (w === PKG.name ? tarball : /^jest(@|$)/.test(w) ? jest(w) : w));
  const [npm, ...args] = command;
  const started = Date.now();
  // The npm cache makes a second run fast; audit and funding notices only cost time here.
  await run(npm, [...args, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: dir, timeout: 240_000, env: registryEnv() });
  return { dir, tarball, command, installMs: Date.now() - started };
}
