import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AccordError, InternalError } from '../../errors';
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

const REPORTERS = ['default', 'junit', 'html'] as const;
/** Where `--reporter html` writes the report when accord.config.json's `test.report` names no file. */
const HTML_REPORT = 'accord-report.html';
/** Jest's own configuration files: accord test does not read them, and says so. */
const JEST_CONFIGS = ['jest.config.js', 'jest.config.ts', 'jest.config.mjs', 'jest.config.cjs', 'jest.config.cts', 'jest.config.mts', 'jest.config.json'];

/**
 * `accord test [contracts...] --base-url <url>`: the contracts run through Jest with accord's
 * preset, for a provider that has no Jest configuration of its own (a Java or .NET service,
 * perhaps with no package.json at all): same tests, output, exit codes, coverage and JUnit report
 * as `jest --preset accord-contracts`, in one line of CI. The project's own Jest when it has one,
 * else the Jest accord-contracts depends on (so `npx accord-contracts test` needs nothing
 * installed). accord's settings come from accord.config.json (its `test` block: what
 * `testEnvironmentOptions.accord` holds for the preset); a Jest config file is not read, and a
 * note says so. The configuration is passed to Jest as JSON (`--config`), so nothing is written
 * into the project.
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
    .option(
      '--reporter <name>',
      `junit: also write junit.xml; html: also write the HTML report (${HTML_REPORT}, or accord.config.json's test.report) (repeatable; Jest's output and the coverage summary always)`,
      (v: string, p?: string[]) => [...(p ?? []), v],
    )
    .addHelpText(
      'after',
      '\nSettings (base URL, environments, auth, TLS, WS-Security, coverage gate, report) are read from accord.config.json: { "test": { "baseUrl": ..., "auth": ... } }; see README, "accord test".\n\nExamples:\n  npx accord-contracts test contracts --base-url http://127.0.0.1:8080 --reporter junit --reporter html\n  accord test contracts/soap --base-url http://127.0.0.1:8080 --reporter junit\n  accord test contracts -t "Get a pet" --base-url http://127.0.0.1:8080 -- --ci --runInBand\n',
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

async function runTests(contracts: string[], opts: TestCliOptions, given: string[], io: Io): Promise<number> {
  const usage = (message: string) => new ExitError(EXIT_USAGE, `accord test: ${message}`);
  const env: Record<string, string> = {};
  const cwd = io.cwd;
  const settings = testSettings(cwd, usage, io);
  const baseUrl = opts.baseUrl ?? process.env.ACCORD_BASE_URL;
  if ((baseUrl === undefined || baseUrl === '') && settings.baseUrl === undefined && settings.environments === undefined)
    throw usage('give the service to test: --base-url http://127.0.0.1:8080 (or ACCORD_BASE_URL, or "baseUrl" in accord.config.json\'s "test")');
  if (baseUrl !== undefined && baseUrl !== '') {
    if (!isHttpUrl(baseUrl)) throw usage(`--base-url must be an http:// or https:// URL such as http://127.0.0.1:8080, found ${quoted(baseUrl)}`);
    env.ACCORD_BASE_URL = baseUrl;
  }
  // The options typed, so the runner's hints name them (not "set ACCORD_BASE_URL" to one who typed --base-url).
  const givenAs = [opts.baseUrl !== undefined && '--base-url', opts.timeout !== undefined && '--timeout'].filter((x): x is string => typeof x === 'string');
  if (givenAs.length > 0) env.ACCORD_GIVEN_AS = givenAs.join(',');
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
  if (unknown !== undefined) throw usage(`unknown --reporter ${quoted(unknown)}: use ${REPORTERS.join(', ')}`);

  const root = packageRoot();
  const project = createRequire(path.join(cwd, 'package.json'));
  const own = createRequire(path.join(root, 'package.json'));
  // The project's Jest when it has one (its version, its plugins); else the one accord-contracts depends on.
  const jest = resolveFrom(project, 'jest/package.json') ?? resolveFrom(own, 'jest/package.json');
  if (!jest) throw usage('Jest is not installed, and accord test runs the contracts with it: npm install --save-dev jest (accord-contracts normally brings it)');
  const junit = reporters.includes('junit') ? (resolveFrom(project, 'jest-junit') ?? resolveFrom(own, 'jest-junit')) : undefined;
  if (reporters.includes('junit') && !junit) throw usage('jest-junit is not installed, and --reporter junit writes its report with it: npm install --save-dev jest-junit');

  const { jestArgs, extraReporters } = takeReporters(given);
  if (!jestArgs.some((a) => a === '--config' || a === '-c' || a.startsWith('--config='))) {
    const config = jestConfigOf(cwd);
    if (config)
      io.stderr(
        `accord test: ${config} is not read (accord test runs with its own Jest configuration); accord's settings go in accord.config.json under "test" (base URL, environments, auth, TLS, WS-Security, coverage gate, report), or run jest --preset accord-contracts to use ${config}\n`,
      );
  }

  const testMatch = contracts.length === 0 ? ['**/*.spec'] : contracts.map((c) => matchOf(c, cwd, usage));
  // The preset's own configuration (absolute paths), not `preset: <path>`: Jest resolves a preset from the rootDir's node_modules.
  const { createPreset } = own('./preset/create-preset.js') as { createPreset: () => Record<string, unknown> };
  const preset = createPreset();
  const accord: Record<string, unknown> = { ...settings };
  if (reporters.includes('html') && accord.report === undefined) accord.report = HTML_REPORT;
  const config = {
    ...preset,
    rootDir: cwd,
    roots: [cwd],
    testMatch,
    ...(Object.keys(accord).length > 0 ? { testEnvironmentOptions: { ...(preset.testEnvironmentOptions as object | undefined), accord } } : {}),
    reporters: [
      'default',
      path.join(root, 'preset', 'coverage-reporter.js'),
      ...(junit ? [[junit, junitOptions(root)]] : []),
      // Reporters given after `--` (--reporters) join accord's rather than replacing them: junit.xml and the coverage summary stay.
      ...extraReporters.filter((r) => r !== 'default'),
    ],
  };
  const bin = path.join(path.dirname(jest), binOf(jest));
  // The preset's environment takes jest-environment-node from this Jest when the project has none (preset/environment.js).
  env.ACCORD_JEST = jest;
  const args = [bin, '--config', JSON.stringify(config), '--rootDir', cwd, ...(opts.testNamePattern !== undefined ? ['-t', opts.testNamePattern] : []), ...jestArgs];
  return new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('error', reject);
    // Killed by a signal (Ctrl+C reaches Jest too): a run that did not finish did not pass.
    child.on('exit', (code) => resolve(code ?? EXIT_FAILED));
  });
}

/**
 * jest-junit's settings for a CI's test view: each case's `classname` is its contract's feature
 * (the describe block) and its `name` the scenario, not both "Feature scenario"; a `file` attribute
 * (the contract, from the project folder) lets the view group by file and link to it; @WIP
 * properties from the preset. JEST_JUNIT_* variables still win, as jest-junit documents.
 */
function junitOptions(root: string): Record<string, string> {
  return {
    classNameTemplate: '{classname}',
    titleTemplate: '{title}',
    addFileAttribute: 'true',
    testCasePropertiesDirectory: path.join(root, 'preset'),
    testCasePropertiesFile: 'jest-junit-properties.js',
  };
}

/** `--reporters X` and `--reporters=X` taken out of Jest's arguments, to be added to accord's own rather than replace them. */
function takeReporters(args: string[]): { jestArgs: string[]; extraReporters: string[] } {
  const jestArgs: string[] = [];
  const extraReporters: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--reporters' && i + 1 < args.length) extraReporters.push(args[++i]);
    else if (a.startsWith('--reporters=')) extraReporters.push(a.slice('--reporters='.length));
    else jestArgs.push(a);
  }
  return { jestArgs, extraReporters };
}

/** The Jest configuration this folder has (a jest.config.* file or package.json's "jest"), by name; undefined when none. */
function jestConfigOf(cwd: string): string | undefined {
  const file = JEST_CONFIGS.find((f) => existsSync(path.join(cwd, f)));
  if (file) return file;
  const pkg = path.join(cwd, 'package.json');
  try {
    if (existsSync(pkg) && 'jest' in (JSON.parse(readFileSync(pkg, 'utf8')) as object)) return 'package.json\'s "jest"';
  } catch {
    // Not JSON: Jest would say so if it read it; accord test does not.
  }
  return undefined;
}

/** accord.config.json's `test` block (the runner's settings), or nothing. */
function testSettings(cwd: string, usage: (m: string) => ExitError, io: Io): Record<string, unknown> & { baseUrl?: unknown; environments?: unknown } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only by accord test
  const { readProjectConfig, settingsNotice } = require('../../shared/config') as typeof import('../../shared/config');
  try {
    const config = readProjectConfig(cwd);
    const notice = config && settingsNotice(config, 'accord test');
    if (notice) io.stderr(`${notice}\n`);
    return config?.test ?? {};
  } catch (e) {
    if (e instanceof AccordError) throw usage(e.describe());
    throw e;
  }
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
