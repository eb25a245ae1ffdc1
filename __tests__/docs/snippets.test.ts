import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import forge from 'node-forge';
import ts from 'typescript';
import { parseContract, testCases } from '../../src/contract/load';
import { startExampleService } from '../../src/example/service';
import { resolveRunnerConfig } from '../../src/runner/config';
import { formatCaseReport, runCase } from '../../src/runner/run-case';
import { selfSignedCertificate } from '../../src/stub/tls';
import { childEnv, plain } from '../helpers/child-env';
import { startServer, type Running } from '../helpers/servers';
import { runCommand } from './commands';
import { normalise, readBlocks, showsSample, type Block } from './markdown';
import { makeWorkspace, MATH, MATH_BROKEN, REPO, type Workspace } from './workspace';

/**
 * Every fenced block of README.md and docs/*.md runs here, as its `<!-- snippet: ... -->`
 * comment says: `sh` commands in a workspace shaped like a user's project, `output` samples
 * compared with what the command prints, `js`/`ts` through the package's public name,
 * `contract` parsed and run against the example service, `custom` by a handler below, and
 * `not-run (reason)` only with a reason. A block without a comment fails.
 */
const FILES = [
  'README.md',
  ...readdirSync(path.join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const BLOCKS = readBlocks(REPO, FILES);
const where = (b: Block) => `${b.file}:${b.line}`;

let service: Running;
const workspaces: string[] = [];

beforeAll(async () => {
  service = await startExampleService(0);
});

afterAll(async () => {
  await service?.close();
  for (const w of workspaces) rmSync(w, { recursive: true, force: true });
});

function workspace(setup?: string): Workspace {
  const w = makeWorkspace(setup);
  workspaces.push(w.dir);
  return w;
}

/** Docs show a service at 127.0.0.1:8080; the example service stands in for it. */
const serviceAt = () => ({ 'http://127.0.0.1:8080': service.url });

function expectSample(actual: string, sample: string, folders: string[]): void {
  const verdict = showsSample(normalise(plain(actual), folders), normalise(sample));
  if (!verdict.ok) throw new Error(verdict.why);
}

/** `"...": "..."` in a sample object allows more keys; a string ending in `...` is a prefix. */
function expectJsonShape(actual: unknown, sample: unknown, at = '$'): void {
  if (typeof sample === 'string' && sample.endsWith('...')) {
    expect(typeof actual).toBe('string');
    if (!(actual as string).startsWith(sample.slice(0, -3))) throw new Error(`${at}: "${actual}" does not start with "${sample.slice(0, -3)}"`);
  } else if (Array.isArray(sample)) {
    if (!Array.isArray(actual) || actual.length !== sample.length) throw new Error(`${at}: expected ${sample.length} items, found ${JSON.stringify(actual)}`);
    sample.forEach((s, i) => expectJsonShape(actual[i], s, `${at}[${i}]`));
  } else if (sample !== null && typeof sample === 'object') {
    const a = actual as Record<string, unknown>;
    const keys = Object.keys(sample).filter((k) => k !== '...');
    if (!('...' in sample)) expect(Object.keys(a).sort()).toEqual(keys.sort());
    for (const k of keys) expectJsonShape(a[k], (sample as Record<string, unknown>)[k], `${at}.${k}`);
  } else if (actual !== sample) {
    throw new Error(`${at}: expected ${JSON.stringify(sample)}, found ${JSON.stringify(actual)}`);
  }
}

/** `expr; // literal` lines become checks: the docs' comments say what the expression gives. */
function withChecks(code: string): string {
  return code
    .split('\n')
    .map((l, i) => {
      const m = /^(\s*)([^/]+?);\s*\/\/\s*(true|false|-?\d+|'[^']*'|"[^"]*")\s*$/.exec(l);
      return m ? `${m[1]}__check(${m[2]}, ${m[3]}, ${i + 1});` : l;
    })
    .join('\n');
}

const CHECK = `const __check = (actual: unknown, expected: unknown, line: number) => {
  const n = (v: unknown) => (typeof v === 'string' ? v.replace(/127\\.0\\.0\\.1:\\d+/g, '127.0.0.1:PORT') : v);
  if (n(actual) !== n(expected)) throw new Error('snippet line ' + line + ': expected ' + JSON.stringify(expected) + ', found ' + JSON.stringify(actual));
};
`;

/** What a JS snippet may take as given: the texts it names but does not define. */
const GIVEN = `const olderText = ${JSON.stringify(MATH)};
const newerText = ${JSON.stringify(MATH_BROKEN)};
`;

function runNode(file: string, cwd: string): void {
  const r = spawnSync(process.execPath, [file], { cwd, encoding: 'utf8', timeout: 30_000, env: childEnv() });
  if (r.status !== 0) throw new Error(`the snippet failed (exit ${r.status}${r.signal ? `, ${r.signal}` : ''}):\n${r.stdout}${r.stderr}`);
}

function typecheck(file: string, cwd: string): void {
  const tsc = spawnSync(
    process.execPath,
    [
      require.resolve('typescript/bin/tsc'),
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--target',
      'es2022',
      '--module',
      'node16',
      '--moduleResolution',
      'node16',
      '--types',
      'node',
      '--typeRoots',
      path.join(REPO, 'node_modules', '@types'),
      file,
    ],
    { cwd, encoding: 'utf8' },
  );
  if (tsc.status !== 0) throw new Error(`the snippet does not type-check against the package's types:\n${tsc.stdout}${tsc.stderr}`);
}

type Handler = (block: Block, arg?: string) => Promise<void>;

const KINDS: Record<string, Handler> = {
  async sh(block, setup) {
    const w = workspace(setup);
    for (const line of block.text.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'))) {
      const r = await runCommand(line, w.dir, { substitute: { ...w.hashes, ...serviceAt() } });
      if (r.code !== 0) throw new Error(`${line}\nexited ${r.code}:\n${r.output}`);
    }
  },

  /** A sample of what a command prints: `$ command` as its first line, or `output [setup]: command` in the comment. */
  async output(block, arg = '') {
    const [, setup, given] = /^([\w-]+)?\s*(?::\s*(.*))?$/.exec(arg.trim()) ?? [];
    const lines = block.text.split('\n');
    const command = given ?? lines[0].replace(/^\$ /, '');
    const sample = given ? block.text : lines.slice(1).join('\n');
    if (!given && !lines[0].startsWith('$ ')) throw new Error(`${where(block)}: an output sample starts with "$ <command>" or names its command in the comment`);
    const w = workspace(setup);
    const r = await runCommand(command, w.dir, { substitute: { ...w.hashes, ...serviceAt() } });
    if (block.lang === 'json') expectJsonShape(JSON.parse(r.stdout), JSON.parse(sample));
    else expectSample(r.output, sample, [w.dir]);
  },

  async js(block, setup) {
    const w = workspace(setup);
    const code = `${GIVEN}(async () => {\n${withChecks(block.text)}\n})().catch((e) => { console.error(e); process.exitCode = 1; });\n`;
    const file = path.join(w.dir, 'snippet.js');
    writeFileSync(file, ts.transpileModule(CHECK + code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS } }).outputText);
    runNode(file, w.dir);
  },

  async ts(block, setup) {
    const w = workspace(setup);
    const code = CHECK + withChecks(block.text);
    writeFileSync(path.join(w.dir, 'snippet.mts'), code);
    typecheck('snippet.mts', w.dir);
    writeFileSync(path.join(w.dir, 'snippet.mjs'), ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 } }).outputText);
    runNode(path.join(w.dir, 'snippet.mjs'), w.dir);
  },

  /** A complete contract: it parses, and every test it makes passes against the example service. */
  async contract(block) {
    const contract = parseContract(block.text, `${block.file}.spec`);
    const cases = testCases(contract);
    expect(cases.length).toBeGreaterThan(0);
    for (const tc of cases) {
      const r = await runCase(tc, { baseUrl: service.url });
      if (!r.passed) throw new Error(formatCaseReport(r, service.url));
    }
  },

  async custom(block, id = '') {
    const handler = CUSTOM[id];
    if (!handler) throw new Error(`${where(block)}: no custom handler "${id}" in snippets.test.ts`);
    await handler(block);
  },

  async 'not-run'(block, reason = '') {
    if (!/^\(.{10,}\)$/.test(reason.trim())) throw new Error(`${where(block)}: not-run needs a reason in parentheses, found "${reason}"`);
  },
};

/** Every `{ env: NAME }` in a configuration, and every `tls` block (with the variable its passphrase names). */
function referencesOf(v: unknown, refs = new Set<string>(), tls: Record<string, unknown>[] = []): { refs: Set<string>; tls: Record<string, unknown>[] } {
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.env === 'string') refs.add(o.env);
    for (const [k, c] of Object.entries(o)) {
      if (k === 'tls' && c && typeof c === 'object') tls.push(c as Record<string, unknown>);
      referencesOf(c, refs, tls);
    }
  }
  return { refs, tls };
}

let docsPair: ReturnType<typeof selfSignedCertificate> | undefined;

const CUSTOM: Record<string, Handler> = {
  /**
   * A `testEnvironmentOptions.accord` of "Testing a protected service": accord accepts it as written,
   * in every environment it defines, once its variables are set and its certificate files exist.
   */
  async 'readme-protected-config'(block) {
    const accord = runInNewContext(block.text) as Record<string, unknown>;
    const { refs, tls } = referencesOf(accord);
    const env: Record<string, string> = Object.fromEntries([...refs].map((r) => [r, `value-of-${r}`]));
    const w = workspace();
    const pair = (docsPair ??= selfSignedCertificate('127.0.0.1'));
    for (const t of tls)
      for (const k of ['cert', 'key', 'ca', 'pfx'] as const) {
        const file = t[k];
        if (typeof file !== 'string') continue;
        mkdirSync(path.dirname(path.join(w.dir, file)), { recursive: true });
        if (k === 'pfx') {
          const passphrase = env[(t.passphrase as { env: string }).env];
          const p12 = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(pair.key), [forge.pki.certificateFromPem(pair.cert)], passphrase, { algorithm: '3des' });
          writeFileSync(path.join(w.dir, file), Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'));
        } else writeFileSync(path.join(w.dir, file), k === 'key' ? pair.key : pair.cert);
      }
    const environments = Object.keys((accord.environments as object | undefined) ?? {});
    for (const chosen of ['', ...environments]) expect([chosen, resolveRunnerConfig(accord, { ...env, ACCORD_ENV: chosen }, w.dir).problems]).toEqual([chosen, []]);
    // And each secret is one: without its variable the configuration is refused, naming it.
    for (const r of refs) {
      const without = { ...env, ACCORD_ENV: environments.find((e) => JSON.stringify((accord.environments as Record<string, unknown>)[e]).includes(`"${r}"`)) ?? '' };
      delete (without as Record<string, string>)[r];
      expect(resolveRunnerConfig(accord, without, w.dir).problems.join('\n')).toContain(`names the environment variable ${r}, which is not set`);
    }
  },

  /** The install line is the one the pack tests run (jest-preset.test.ts); the Jest line runs here. */
  async 'readme-install'(block) {
    const [install, run, ...rest] = block.text.split('\n');
    expect(install).toBe('npm install --save-dev accord-contracts jest');
    expect(rest).toEqual([]);
    const w = workspace('app');
    const r = await runCommand(run, w.dir, { substitute: serviceAt() });
    expect(plain(r.output)).toMatch(/Tests: +1 skipped, 9 passed, 10 total/);
    expect(r.code).toBe(0);
  },

  async 'readme-jest-config'(block) {
    const w = workspace('app');
    writeFileSync(path.join(w.dir, 'jest.config.js'), block.text.split('http://127.0.0.1:8080').join(service.url));
    const r = await runCommand('npx jest', w.dir, { env: { ACCORD_BASE_URL: '' } });
    expect(plain(r.output)).toMatch(/Tests: +1 skipped, 9 passed, 10 total/);
    expect(r.code).toBe(0);
  },

  /** Contracts as a Jest project beside a unit project: the coverage summary and the threshold, from the top-level reporter. */
  async 'readme-projects'(block) {
    const w = workspace('app');
    writeFileSync(path.join(w.dir, 'jest.config.js'), block.text.split('http://127.0.0.1:8080').join(service.url));
    mkdirSync(path.join(w.dir, 'src'));
    writeFileSync(path.join(w.dir, 'src', 'sum.test.js'), "test('sum', () => expect(1 + 1).toBe(2));\n");
    const r = await runCommand('npx jest', w.dir, { env: { ACCORD_BASE_URL: '' } });
    expect(plain(r.output)).toMatch(/Tests: +1 skipped, 10 passed, 11 total/);
    expect(plain(r.output)).toContain('all contracts: 8 scenarios: 7 passed, 0 failed, 1 WIP, 0 skipped, 0 not run');
    expect(r.code).toBe(0);
    // The threshold is enforced: a contract whose scenario fails (the service answers no such path) brings it below 100 %.
    writeFileSync(path.join(w.dir, 'contracts', 'math', 'extra.spec'), 'Feature: Extra\n  Scenario: Nowhere\n    When GET /nowhere\n    Then status 200\n');
    const short = await runCommand('npx jest', w.dir, { env: { ACCORD_BASE_URL: '' } });
    expect(plain(short.output)).toContain('87.5 % of scenarios (not @WIP, not skipped) passed, below the threshold of 100 % (coverageThreshold.scenarios)');
    expect(short.code).toBe(1);
  },

  /** The start of a Jest failure, against a service that answers an id that is not a number. */
  async 'readme-failure'(block) {
    const wrong = await startServer(() => ({
      body: '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><p:getPetResponse xmlns:p="urn:p"><p:id>abc</p:id><p:name>Rex</p:name><p:type>dog</p:type><p:status>ok</p:status></p:getPetResponse></s:Body></s:Envelope>',
    }));
    try {
      const w = workspace('app');
      const r = await runCommand('npx jest --preset accord-contracts contracts/soap/api_pet_v1.spec -t Get', w.dir, { env: { ACCORD_BASE_URL: wrong.url } });
      expect(r.code).toBe(1);
      expectSample(r.output, `…\n${block.text}\n…`, [w.dir]);
    } finally {
      await wrong.close();
    }
  },

  async 'readme-wip'(block) {
    const w = workspace('app');
    const r = await runCommand('npx jest --preset accord-contracts contracts/soap/api_pet_v1.spec', w.dir, { env: { ACCORD_BASE_URL: service.url } });
    expect(r.code).toBe(0);
    expectSample(r.output, `…\n${block.text}\n…`, [w.dir]);
  },

  /** The two files of a globalSetup/globalTeardown pair, run as Jest would: setup, a call, teardown. */
  async 'stub-global-setup'(block) {
    const w = workspace();
    const files = block.text.split(/^(?=\/\/ \S+\.js$)/m);
    expect(files.map((f) => f.split('\n')[0])).toEqual(['// jest.global-setup.js', '// jest.global-teardown.js']);
    for (const f of files) writeFileSync(path.join(w.dir, f.split('\n')[0].slice(3)), f);
    writeFileSync(
      path.join(w.dir, 'run.js'),
      `(async () => {
        await require('./jest.global-setup.js')();
        const res = await fetch(process.env.PETSTORE_URL + '/square', { method: 'POST', body: '3' });
        if (res.status !== 200) throw new Error('the stub answered ' + res.status + ': ' + (await res.text()));
        await require('./jest.global-teardown.js')();
      })().catch((e) => { console.error(e); process.exitCode = 1; });`,
    );
    runNode(path.join(w.dir, 'run.js'), w.dir);
  },

  /** The usage line names exactly the options `--help` lists. */
  async 'wsdl-usage'(block) {
    const r = await runCommand('accord import wsdl --help', REPO);
    const options = (text: string) => [...new Set([...text.matchAll(/--[a-z-]+/g)].map((m) => m[0]))].filter((o) => o !== '--help').sort();
    expect(block.text.startsWith('accord import wsdl <wsdl_file_or_url>')).toBe(true);
    expect(options(block.text)).toEqual(options(r.output));
  },
};

describe('README.md and docs/ snippets', () => {
  it('every code block says how it is tested', () => {
    expect(BLOCKS.length).toBeGreaterThan(20);
    expect(BLOCKS.filter((b) => !b.how).map(where)).toEqual([]);
    const unknown = BLOCKS.filter((b) => b.how && !(/^[\w-]+/.exec(b.how)![0] in KINDS)).map((b) => `${where(b)}: ${b.how}`);
    expect(unknown).toEqual([]);
  });

  it('every custom handler is used by a block', () => {
    const used = BLOCKS.filter((b) => b.how?.startsWith('custom ')).map((b) => b.how!.slice('custom '.length));
    expect(Object.keys(CUSTOM).sort()).toEqual([...new Set(used)].sort());
  });

  it.each(BLOCKS.filter((b) => b.how).map((b) => [`${where(b)} ${b.how}`, b] as const))(
    '%s',
    async (_name, block) => {
      const [, kind, rest] = /^([\w-]+)(.*)$/.exec(block.how!)!;
      await KINDS[kind](block, rest.trim() || undefined);
    },
    120_000,
  );
});
