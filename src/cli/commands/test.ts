import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { InternalError } from '../../errors';
import { isHttpUrl } from '../../http/target';
import { EXIT_FAILED, EXIT_USAGE, ExitError, type Io } from '../exit';
import { quoted } from '../../printable';

interface TestCliOptions {
  baseUrl?: string;
  testNamePattern?: string;
  seed?: string;
  negative?: boolean;
  timeout?: string;
  reporter?: string[];
}

const REPORTERS = ['default', 'junit'] as const;

/**
 * `accord test [contracts...] --base-url <url>`: the contracts run through the project's own
 * Jest with accord's preset, for a provider that has no Jest configuration of its own (a Java
 * or .NET service): same tests, output, exit codes, coverage and JUnit report as
 * `jest --preset accord-contracts`, in one line of CI. The configuration is passed to Jest as
 * JSON (`--config`), so nothing is written into the project.
 */
export function registerTest(program: Command, io: Io): void {
  program
    .command('test')
    .description("run contracts against a service with Jest and accord's preset (for a project without a Jest configuration); exit 0 all passed, 1 a test failed, 2 usage error")
    .argument('[contracts...]', 'contract files or folders (default: every .spec under the current folder); arguments after -- go to Jest as they are')
    .option('--base-url <url>', 'the service under test, e.g. http://127.0.0.1:8080 (default: ACCORD_BASE_URL)')
    .option('-t, --test-name-pattern <regex>', "run only the scenarios whose name matches (Jest's -t)")
    .option('--seed <n>', 'seed of generated values (ACCORD_SEED)')
    .option('--negative', 'also send invalid requests, which the service must refuse (ACCORD_NEGATIVE)')
    .option('--timeout <ms>', 'time allowed for each request, in milliseconds (ACCORD_TIMEOUT_MS)')
    .option('--reporter <name>', "junit: also write junit.xml with jest-junit (repeatable; default: Jest's own output)", (v: string, p?: string[]) => [...(p ?? []), v])
    .addHelpText(
      'after',
      '\nExamples:\n  accord test --base-url http://127.0.0.1:8080\n  accord test contracts/soap --base-url http://127.0.0.1:8080 --reporter junit\n  accord test contracts -t "Get a pet" --base-url http://127.0.0.1:8080 -- --ci --runInBand\n',
    )
    .action(async (contracts: string[], opts: TestCliOptions, cmd: Command) => {
      const jestArgs = afterDashDash(cmd);
      const paths = contracts.slice(0, contracts.length - jestArgs.length);
      const code = await runTests(paths, opts, jestArgs, io);
      if (code !== 0) throw new ExitError(code);
    });
}

/** The arguments after `--` (commander hands them over as more contracts). */
function afterDashDash(cmd: Command): string[] {
  let root: Command = cmd;
  while (root.parent) root = root.parent;
  const raw = (root as unknown as { rawArgs?: string[] }).rawArgs ?? [];
  const at = raw.indexOf('--');
  return at < 0 ? [] : raw.slice(at + 1);
}

async function runTests(contracts: string[], opts: TestCliOptions, jestArgs: string[], io: Io): Promise<number> {
  const usage = (message: string) => new ExitError(EXIT_USAGE, `accord test: ${message}`);
  const env: Record<string, string> = {};
  const baseUrl = opts.baseUrl ?? process.env.ACCORD_BASE_URL;
  if (baseUrl === undefined || baseUrl === '') throw usage('give the service to test: --base-url http://127.0.0.1:8080 (or set ACCORD_BASE_URL)');
  if (!isHttpUrl(baseUrl)) throw usage(`--base-url must be an http:// or https:// URL such as http://127.0.0.1:8080, found ${quoted(baseUrl)}`);
  env.ACCORD_BASE_URL = baseUrl;
  if (opts.seed !== undefined) {
    if (!isWhole(opts.seed.startsWith('-') ? opts.seed.slice(1) : opts.seed)) throw usage(`--seed must be a whole number, found ${quoted(opts.seed)}`);
    env.ACCORD_SEED = opts.seed;
  }
  if (opts.timeout !== undefined) {
    if (!isWhole(opts.timeout) || Number(opts.timeout) === 0) throw usage(`--timeout must be a number of milliseconds above 0, found ${quoted(opts.timeout)}`);
    env.ACCORD_TIMEOUT_MS = opts.timeout;
  }
  if (opts.negative) env.ACCORD_NEGATIVE = '1';
  const reporters = opts.reporter ?? [];
  const unknown = reporters.find((r) => !(REPORTERS as readonly string[]).includes(r));
  if (unknown !== undefined) throw usage(`unknown --reporter ${quoted(unknown)}: use ${REPORTERS.join(' or ')}`);

  const cwd = io.cwd;
  const project = createRequire(path.join(cwd, 'package.json'));
  const jest = resolveFrom(project, 'jest/package.json');
  if (!jest)
    throw usage('Jest is not installed in this project, and accord test runs the contracts with it (accord-contracts has Jest as an optional peer): npm install --save-dev jest');
  const junit = reporters.includes('junit') ? resolveFrom(project, 'jest-junit') : undefined;
  if (reporters.includes('junit') && !junit)
    throw usage('jest-junit is not installed in this project, and --reporter junit writes its report with it: npm install --save-dev jest-junit');

  const testMatch = contracts.length === 0 ? ['**/*.spec'] : contracts.map((c) => matchOf(c, cwd, usage));
  const root = packageRoot();
  // The preset's own configuration (absolute paths), not `preset: <path>`: Jest resolves a preset from the rootDir's node_modules.
  const { createPreset } = createRequire(path.join(root, 'package.json'))('./preset/create-preset.js') as { createPreset: () => Record<string, unknown> };
  const config = {
    ...createPreset(),
    rootDir: cwd,
    roots: [cwd],
    testMatch,
    reporters: ['default', path.join(root, 'preset', 'coverage-reporter.js'), ...(junit ? [junit] : [])],
  };
  const bin = path.join(path.dirname(jest), binOf(jest));
  const args = [bin, '--config', JSON.stringify(config), '--rootDir', cwd, ...(opts.testNamePattern !== undefined ? ['-t', opts.testNamePattern] : []), ...jestArgs];
  return new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('error', reject);
    // Killed by a signal (Ctrl+C reaches Jest too): a run that did not finish did not pass.
    child.on('exit', (code) => resolve(code ?? EXIT_FAILED));
  });
}

function resolveFrom(req: NodeJS.Require, id: string): string | undefined {
  try {
    return req.resolve(id);
  } catch {
    return undefined;
  }
}

/** Jest's command, as its package.json names it. */
function binOf(jestPackageJson: string): string {
  const { bin } = JSON.parse(readFileSync(jestPackageJson, 'utf8')) as { bin?: string | Record<string, string> };
  return (typeof bin === 'string' ? bin : bin?.jest) ?? 'bin/jest.js';
}

/** A contract file, or every `.spec` under a folder, as a Jest testMatch glob of its absolute path. */
function matchOf(given: string, cwd: string, usage: (m: string) => ExitError): string {
  const abs = path.resolve(cwd, given);
  if (!existsSync(abs)) throw usage(`${given} does not exist`);
  const glob = escapeGlob(abs.split(path.sep).join('/'));
  if (statSync(abs).isDirectory()) {
    if (!hasSpec(abs, 0)) throw usage(`${given} holds no .spec contract`);
    return `${glob}/**/*.spec`;
  }
  if (!abs.endsWith('.spec')) throw usage(`${given} is not a .spec contract`);
  return glob;
}

/** Glob characters in a real path stand for themselves. */
function escapeGlob(p: string): string {
  let out = '';
  for (const c of p) out += GLOB_CHARACTERS.includes(c) ? `\\${c}` : c;
  return out;
}

const GLOB_CHARACTERS = '*?[]{}()!+@';

/** Digits only, at most 15 (a safe integer). */
function isWhole(text: string): boolean {
  return text.length > 0 && text.length <= 15 && [...text].every((c) => c >= '0' && c <= '9');
}

/** Whether a folder holds a .spec file (node_modules and hidden folders skipped, as Jest's haste map does by default), bounded in depth. */
function hasSpec(dir: string, depth: number): boolean {
  if (depth > 20) return false;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isFile() && e.name.endsWith('.spec')) return true;
    if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.') && hasSpec(path.join(dir, e.name), depth + 1)) return true;
  }
  return false;
}

/** The folder of accord-contracts itself (its jest-preset.js): from dist/accord-cli.js (bundled) or dist/cli/commands/test.js. */
function packageRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'jest-preset.js')) && existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new InternalError(`accord-contracts: cannot find jest-preset.js above ${__dirname}`);
  }
}
