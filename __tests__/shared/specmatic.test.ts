import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { accord, TempRepo } from '../compat/git-repo';
import { childEnv, plain } from '../helpers/child-env';
import { run } from '../../src/cli/main';
import { readProjectConfig } from '../../src/shared/config';
import { translateSpecmatic } from '../../src/shared/specmatic';

/**
 * A team moving from Specmatic keeps its specmatic.json / specmatic.yaml: with no
 * accord.config.json, `accord contracts pull`, `accord stub` and `accord test` read it (v1
 * `sources`, v2 `contracts`), say which file they read, and `accord config migrate` writes the
 * equivalent accord.config.json. A real git repository (bare, in a temp folder) holds the contracts.
 */
const REPO = path.join(__dirname, '..', '..');
const spec = (feature: string, p: string) =>
  `Feature: ${feature}\n\n  Scenario: ${feature} call\n    When POST ${p}\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n`;

let shared: TempRepo;
let bare: string;
const dirs: string[] = [];

beforeAll(() => {
  shared = new TempRepo();
  shared
    .write(
      'contracts/math/api_math_v1.spec',
      'Feature: Math\n\n  Scenario: Math call\n    When POST /square\n    And request-body {"n": "(number)"}\n    Then status 200\n    And response-body {"square": "(number)"}\n',
    )
    .write('contracts/orders/api_orders_v1.spec', spec('Orders', '/orders'))
    .write('contracts/openapi/pets.yaml', 'openapi: 3.0.0\n');
  shared.commit('contracts');
  bare = mkdtempSync(path.join(tmpdir(), 'accord-specmatic-bare-'));
  spawnSync('git', ['clone', '-q', '--bare', shared.dir, path.join(bare, 'contracts.git')]);
});

afterAll(() => {
  shared.remove();
  rmSync(bare, { recursive: true, force: true });
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-specmatic-project-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const url = () => path.join(bare, 'contracts.git');
const MATH = '.accord/provides/contracts/contracts/math/api_math_v1.spec';
const ORDERS = '.accord/consumes/contracts/contracts/orders/api_orders_v1.spec';

/** The four forms a team may have: v1 and v2, JSON and YAML. */
const forms: Record<string, () => [string, string]> = {
  'specmatic.json, version 1': () => [
    'specmatic.json',
    JSON.stringify({
      sources: [{ provider: 'git', repository: url(), branch: 'main', provides: ['contracts/math/api_math_v1.spec'], consumes: ['contracts/orders/api_orders_v1.spec'] }],
    }),
  ],
  'specmatic.yaml, version 1': () => [
    'specmatic.yaml',
    `sources:\n  - provider: git\n    repository: ${url()}\n    branch: main\n    provides:\n      - contracts/math/api_math_v1.spec\n    consumes:\n      - contracts/orders/api_orders_v1.spec\n`,
  ],
  'specmatic.json, version 2': () => [
    'specmatic.json',
    JSON.stringify({
      version: 2,
      contracts: [
        { git: { url: url(), branch: 'main' }, provides: ['contracts/math/api_math_v1.spec'], consumes: [{ port: 9001, specs: ['contracts/orders/api_orders_v1.spec'] }] },
      ],
    }),
  ],
  'specmatic.yaml, version 2': () => [
    'specmatic.yaml',
    `version: 2\ncontracts:\n  - git:\n      url: ${url()}\n      branch: main\n    provides:\n      - contracts/math/api_math_v1.spec\n      - contracts/openapi/pets.yaml\n    consumes:\n      - contracts/orders/api_orders_v1.spec\n`,
  ],
};

test.each(Object.keys(forms))(
  '%s: accord contracts pull fetches what it provides and consumes, and says which file it read',
  (form) => {
    const [file, text] = forms[form]();
    const dir = project({ [file]: text });
    const r = accord(dir, 'contracts', 'pull');
    expect(r.stderr).toContain(`accord contracts pull: read Specmatic's settings from ${file} (there is no accord.config.json)`);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('contracts: branch main at');
    expect(readFileSync(path.join(dir, MATH), 'utf8')).toContain('POST /square');
    expect(readFileSync(path.join(dir, ORDERS), 'utf8')).toContain('POST /orders');
    // The OpenAPI file is named by the v2 YAML's provides: noted, not pulled.
    expect(existsSync(path.join(dir, '.accord/provides/contracts/contracts/openapi'))).toBe(false);
  },
  30_000,
);

test('accord stub with no arguments serves the consumed contracts of specmatic.yaml; jest --preset collects the provided ones', async () => {
  const [file, text] = forms['specmatic.yaml, version 2']();
  const dir = project({ [file]: text });
  const before = accord(dir, 'stub', '--port', '0');
  expect(before.code).toBe(2);
  expect(before.stderr).toContain('run accord contracts pull first');
  expect(accord(dir, 'contracts', 'pull').code).toBe(0);

  // Specmatic's own clone of the contract repository, left by a run of Specmatic: the consumed contract there is no test.
  mkdirSync(path.join(dir, '.specmatic/repos/contracts/contracts/orders'), { recursive: true });
  writeFileSync(path.join(dir, '.specmatic/repos/contracts/contracts/orders/api_orders_v1.spec'), spec('Orders', '/orders'));
  const config = path.join(dir, 'jest.config.js');
  writeFileSync(config, `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), rootDir: ${JSON.stringify(dir)} };\n`);
  const list = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--config', config, '--listTests', '--json'], { cwd: dir, encoding: 'utf8' });
  expect((JSON.parse(list.stdout) as string[]).map((f) => path.relative(dir, f))).toEqual([MATH]);
  rmSync(config);

  const stub = spawn(process.execPath, [path.join(REPO, 'bin', 'accord.js'), 'stub', '--port', '0'], { cwd: dir, env: childEnv() });
  let err = '';
  stub.stderr.on('data', (d: Buffer) => (err += d.toString()));
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let out = '';
      stub.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const at = out.indexOf('listening on http://127.0.0.1:');
        if (at >= 0 && out.indexOf('\n', at) > 0)
          resolve(
            out
              .slice(at + 'listening on '.length, out.indexOf('\n', at))
              .trim()
              .split(' ')[0],
          );
      });
      stub.on('close', () => reject(new Error(`stub exited: ${out}${err}`)));
    });
    const res = await fetch(`${base}/orders`, { method: 'POST', body: '3', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
    expect(Number(await res.text())).not.toBeNaN();
    expect((await fetch(`${base}/square`, { method: 'POST', body: '3' })).status).toBe(404);
    expect(plain(err)).toContain("accord stub: read Specmatic's settings from specmatic.yaml");
  } finally {
    stub.kill('SIGTERM');
  }
}, 60_000);

/** A provider of POST /square: `{"square": n²}` for `{"n": n}`, 400 for anything else (accord's negative tests send that). */
function squareService(answer: (n: number) => unknown): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      let n: unknown;
      try {
        const parsed = JSON.parse(body) as Record<string, unknown>;
        n = parsed && typeof parsed === 'object' && Object.keys(parsed).length === 1 ? parsed.n : undefined;
      } catch {
        n = undefined;
      }
      if (req.url !== '/square' || typeof n !== 'number') res.writeHead(400, { 'content-type': 'text/plain' }).end('not {"n": number}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(n)));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

function accordTest(cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const e = childEnv(env);
    delete e.ACCORD_BASE_URL;
    const child = spawn(process.execPath, [path.join(REPO, 'bin', 'accord.js'), 'test', '--', '--ci'], { cwd, env: e });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: plain(out) }));
  });
}

test("accord test runs what specmatic.yaml provides against the environment's base URL, and fails against a wrong service", async () => {
  const good = await squareService((n) => ({ square: n * n }));
  const bad = await squareService(() => ({ square: 'nine' }));
  try {
    const yaml = `version: 2\ncontracts:\n  - git:\n      url: ${url()}\n    provides: [contracts/math/api_math_v1.spec]\nenvironments:\n  staging:\n    baseurls:\n      api_math_v1.spec: ${good.url}\n  broken:\n    baseurls:\n      api_math_v1.spec: ${bad.url}\ntest:\n  timeoutInMilliseconds: 4000\n  resiliencyTests:\n    enable: all\n`;
    const dir = project({ 'specmatic.yaml': yaml });
    expect(accord(dir, 'contracts', 'pull').code).toBe(0);
    const passed = await accordTest(dir, { ACCORD_ENV: 'staging' });
    expect(passed.out).toContain("accord test: read Specmatic's settings from specmatic.yaml");
    expect(passed.out).toContain('Math call');
    // resiliencyTests: all became negative tests: the invalid request is sent too, and refused.
    expect(passed.out).toContain('Math call [negative:');
    expect(passed.out).toContain('Tests:       ');
    expect(passed.out).not.toContain('✕');
    expect(passed.code).toBe(0);
    const failed = await accordTest(dir, { ACCORD_ENV: 'broken' });
    expect(failed.out).toContain('✕ Math call');
    expect(failed.code).toBe(1);
  } finally {
    good.server.close();
    bad.server.close();
  }
}, 120_000);

test('accord config migrate writes the accord.config.json that gives the same settings, and refuses to overwrite one', () => {
  const [file, text] = forms['specmatic.yaml, version 2']();
  const dir = project({ [file]: `${text}environments:\n  staging:\n    baseurls:\n      api_math_v1.spec: http://127.0.0.1:8080\nstub:\n  generative: true\ncolour: blue\n` });
  const read = readProjectConfig(dir)!;
  expect(read.specmatic).toBeDefined();
  const r = accord(dir, 'config', 'migrate');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('wrote accord.config.json from specmatic.yaml (1 source, test settings)');
  expect(r.stdout).toContain('specmatic.yaml: colour: not a setting of Specmatic');
  expect(r.stdout).toContain('specmatic.yaml: stub.generative:');
  expect(r.stdout).toContain('specmatic.yaml: contracts[0].provides[1]: "contracts/openapi/pets.yaml" is an OpenAPI contract');
  expect(r.stdout).toContain('3 fields have no meaning here');
  const migrated = readProjectConfig(dir)!;
  expect(migrated.file).toBe(path.join(dir, 'accord.config.json'));
  expect(migrated.specmatic).toBeUndefined();
  expect({ sources: migrated.sources, test: migrated.test }).toEqual({ sources: read.sources, test: read.test });
  expect(migrated.test).toEqual({ environments: { staging: { baseUrl: 'http://127.0.0.1:8080' } } });
  // With accord.config.json there, it is what the commands read: no line about Specmatic's file.
  const pulled = accord(dir, 'contracts', 'pull');
  expect(pulled.code).toBe(0);
  expect(pulled.stderr).toBe('');

  const again = accord(dir, 'config', 'migrate');
  expect(again.code).toBe(2);
  expect(again.stderr).toContain('accord.config.json exists; use --force');
  writeFileSync(path.join(dir, 'ci.json'), JSON.stringify({ sources: [{ provider: 'git', repository: url(), consumes: ['contracts/orders'] }] }));
  const forced = accord(dir, 'config', 'migrate', '--from', 'ci.json', '--force');
  expect(forced.code).toBe(0);
  expect(JSON.parse(readFileSync(path.join(dir, 'accord.config.json'), 'utf8'))).toEqual({ sources: [{ git: url(), provides: [], consumes: ['contracts/orders'] }] });
  const other = accord(dir, 'config', 'migrate', '--from', 'ci.json', '-o', 'sub.json');
  expect(other.code).toBe(0);
  expect(existsSync(path.join(dir, 'sub.json'))).toBe(true);
  // -o -: the settings on stdout, what is said about them on stderr, nothing written (accord.config.json is there and stays).
  const before = readFileSync(path.join(dir, 'accord.config.json'), 'utf8');
  const printed = accord(dir, 'config', 'migrate', '-o', '-');
  expect(printed.code).toBe(0);
  expect(JSON.parse(printed.stdout)).toEqual({
    sources: [{ git: url(), branch: 'main', provides: ['contracts/math/api_math_v1.spec'], consumes: ['contracts/orders/api_orders_v1.spec'] }],
    test: { environments: { staging: { baseUrl: 'http://127.0.0.1:8080' } } },
  });
  expect(printed.stderr).toContain('wrote standard output from specmatic.yaml');
  expect(printed.stderr).toContain('specmatic.yaml: colour:');
  expect(readFileSync(path.join(dir, 'accord.config.json'), 'utf8')).toBe(before);
}, 60_000);

test('unreadable settings are exit 2 with file:line, for the commands and for migrate', async () => {
  const cases: [string, string, string][] = [
    ['specmatic.yaml', `version: 2\ncontracts:\n  - git: [unclosed\n    provides: []\n`, 'specmatic.yaml:4:'],
    ['specmatic.yaml', 'sources: !ruby/object:Gem::Installer\n  a: 1\n', 'specmatic.yaml:1:10: not valid YAML: Unresolved tag'],
    ['specmatic.yaml', 'sources: !!binary aGk=\n', 'specmatic.yaml:1:19: the tag tag:yaml.org,2002:binary is refused'],
    ['specmatic.yaml', 'a: 1\na: 2\n', 'specmatic.yaml:2:1: not valid YAML: Map keys must be unique'],
    ['specmatic.yaml', 'a: 1\n---\nb: 2\n', 'specmatic.yaml:2:'],
    ['specmatic.json', '{\n  "sources": [\n    { "provider": "git" "repository": "x" }\n  ]\n}\n', 'specmatic.json:3:25: not valid JSON'],
    ['specmatic.yaml', 'version: 3\nsystemUnderTest: {}\n', 'version "3": accord reads Specmatic\'s settings of version 1 and 2'],
    ['specmatic.yaml', 'version: 2\ncontracts:\n  - git: { branch: main }\n', 'contracts[0].git.url is missing'],
    ['specmatic.yaml', `version: 2\ncontracts:\n  - git: { url: "--upload-pack=touch x" }\n`, 'specmatic.yaml: contracts[0]: "git" cannot start with "-"'],
    ['specmatic.yaml', `version: 2\ncontracts:\n  - git: { url: x }\n    provides: [../../etc/passwd.spec]\n`, 'leaves the repository'],
  ];
  for (const [i, [file, text, expected]] of cases.entries()) {
    const dir = project({ [file]: text });
    for (const args of [['contracts', 'pull'], ['stub'], ['config', 'migrate']]) {
      // The built command for the first case; the same CLI in this process for the others (spawning 30 takes half a minute).
      const r = i === 0 ? accord(dir, ...args) : await inProcess(dir, args);
      expect({ args, text, code: r.code }).toEqual({ args, text, code: 2 });
      expect(r.stderr).toContain(expected);
      expect(r.stderr).not.toContain('    at ');
    }
    expect(existsSync(path.join(dir, 'accord.config.json'))).toBe(false);
  }
  // A billion laughs: aliases past the bound are refused, not expanded.
  const laugh = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (const n of ['b', 'c', 'd', 'e'])
    laugh.push(
      `${n}: &${n} [${Array(10)
        .fill(`*${String.fromCharCode(n.charCodeAt(0) - 1)}`)
        .join(', ')}]`,
    );
  const dir = project({ 'specmatic.yaml': `${laugh.join('\n')}\n` });
  const r = await inProcess(dir, ['config', 'migrate']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('specmatic.yaml');
  expect(r.stderr).toContain('alias');
  const missing = project({});
  expect(accord(missing, 'config', 'migrate', '--from', 'nope.yaml').code).toBe(2);
  const none = accord(missing, 'config', 'migrate');
  expect(none.code).toBe(2);
  expect(none.stderr).toContain('no specmatic.yaml, specmatic.yml, specmatic.json');
}, 120_000);

async function inProcess(cwd: string, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { cwd, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('the translation (a pure function): every field has a note saying what it became or why it has no meaning here', () => {
  const notes = (value: unknown) => translateSpecmatic(value, 'specmatic.yaml').notes.map((n) => `${n.field}: ${n.dropped ? 'dropped' : 'kept'}`);

  test('version as text, as Specmatic reads it: "2" is 2, absent or 0 is 1', () => {
    expect(translateSpecmatic({ version: '2', contracts: [{ git: { url: 'x' } }] }, 'f').settings.sources).toEqual([{ git: 'x', provides: [], consumes: [] }]);
    expect(translateSpecmatic({ version: 0, sources: [{ provider: 'git', repository: 'x' }] }, 'f').settings.sources).toEqual([{ git: 'x', provides: [], consumes: [] }]);
    expect(() => translateSpecmatic({ version: 'two' }, 'f')).toThrow('version "two"');
  });

  test("version 1's aliases: type, test, stub, contract_repositories", () => {
    const t = translateSpecmatic({ contract_repositories: [{ type: 'git', repository: 'https://h/team/c.git', test: ['a.spec'], stub: ['b.spec'] }] }, 'specmatic.json');
    expect(t.settings).toEqual({ sources: [{ git: 'https://h/team/c.git', provides: ['a.spec'], consumes: ['b.spec'] }] });
    expect(t.notes).toEqual([]);
  });

  test('the same repository twice gets a second name; filesystem and web sources are noted with what to run', () => {
    const t = translateSpecmatic(
      {
        version: 2,
        contracts: [
          { git: { url: 'https://h/c.git', branch: 'main' }, provides: ['a.spec'] },
          { git: { url: 'https://h/c.git', branch: 'next' }, consumes: ['b.spec'] },
          { filesystem: { directory: 'specs' }, consumes: ['local.spec'], provides: ['mine.spec'] },
        ],
      },
      'specmatic.yaml',
    );
    expect(t.settings.sources.map((s) => s.name ?? '(default)')).toEqual(['(default)', 'c-2']);
    expect(t.sourceFields).toEqual(['contracts[0]', 'contracts[1]']);
    expect(t.notes.map((n) => n.text).join('\n')).toContain('accord test specs/mine.spec runs what it provides, accord stub specs/local.spec serves what it consumes');
    expect(notes({ sources: [{ provider: 'web', repository: 'x' }] })).toEqual(['sources[0]: dropped', 'sources[0].repository: dropped']);
  });

  test('unknown fields, at every level, are noted; none is ignored silently', () => {
    expect(
      notes({
        colour: 'blue',
        sources: [{ provider: 'git', repository: 'x', colour: 1 }],
        test: { colour: 1, validateResponseValues: true },
        stub: { colour: 1, delayInMilliseconds: 50 },
        environments: { qa: { colour: 1 } },
        contracts: [],
      }),
    ).toEqual([
      'colour: dropped',
      'contracts: dropped',
      'sources[0].colour: dropped',
      'test.colour: dropped',
      'test.validateResponseValues: dropped',
      'stub.colour: dropped',
      'stub.delayInMilliseconds: dropped',
      'environments.qa.colour: dropped',
    ]);
    for (const key of ['auth', 'pipeline', 'hooks', 'repository', 'report', 'security', 'examples', 'workflow', 'virtualService', 'ignoreInlineExamples'])
      expect(notes({ [key]: {} })).toEqual([`${key}: dropped`]);
  });

  test("an environment's base URL: the provided contract's, the one all agree on, or none (several are not guessed)", () => {
    const envs = (baseurls: Record<string, string>) =>
      translateSpecmatic({ sources: [{ provider: 'git', repository: 'x', provides: ['c/api.spec'] }], environments: { qa: { baseurls } } }, 'f');
    expect(envs({ 'api.spec': 'http://a:1', 'auth.spec': 'http://b:2' }).settings.test).toEqual({ environments: { qa: { baseUrl: 'http://a:1' } } });
    expect(envs({ 'x.spec': 'http://a:1', 'y.spec': 'http://a:1' }).settings.test).toEqual({ environments: { qa: { baseUrl: 'http://a:1' } } });
    const several = envs({ 'x.spec': 'http://a:1', 'y.spec': 'http://b:2' });
    expect(several.settings.test).toBeUndefined();
    expect(several.notes[0].text).toContain('several addresses (http://a:1, http://b:2)');
    expect(envs({ 'api.spec': 'ftp://a' }).settings.test).toBeUndefined();
  });

  test('resiliency tests and the time-out', () => {
    expect(translateSpecmatic({ test: { resiliencyTests: { enable: 'all' }, timeoutInMilliseconds: 2500 } }, 'f').settings.test).toEqual({ negative: true, timeoutMs: 2500 });
    expect(translateSpecmatic({ test: { resiliencyTests: { enable: 'positiveOnly' } } }, 'f').settings.test).toBeUndefined();
    expect(() => translateSpecmatic({ test: { resiliencyTests: { enable: 'most' } } }, 'f')).toThrow('must be all, positiveOnly or none');
    expect(() => translateSpecmatic({ test: { timeoutInMilliseconds: 'soon' } }, 'f')).toThrow('a number of milliseconds');
  });

  test('contracts accord does not read are noted and left out: OpenAPI, GraphQL, protobuf; a provided WSDL is kept with a note', () => {
    const t = translateSpecmatic(
      { version: 2, contracts: [{ git: { url: 'x' }, provides: ['a.yaml', 'b.json', 'c.graphql', 'd.wsdl', 'e.spec', 'folder'], consumes: ['f.yml', 'g.proto'] }] },
      'f',
    );
    expect(t.settings.sources[0]).toEqual({ git: 'x', provides: ['d.wsdl', 'e.spec', 'folder'], consumes: [] });
    expect(t.notes.map((n) => `${n.field}: ${n.dropped ? 'dropped' : 'kept'}`)).toEqual([
      'contracts[0].provides[0]: dropped',
      'contracts[0].provides[1]: dropped',
      'contracts[0].provides[2]: dropped',
      'contracts[0].provides[3]: kept',
      'contracts[0].consumes[0]: dropped',
      'contracts[0].consumes[1]: dropped',
    ]);
  });
});

test('accord.config.json and package.json "accord" win over Specmatic\'s file, which is then not read at all', () => {
  const dir = project({ 'specmatic.yaml': 'this: [is not read\n', 'package.json': JSON.stringify({ name: 'app', accord: { sources: [] } }) });
  expect(readProjectConfig(dir)?.file).toBe(`${path.join(dir, 'package.json')} ("accord")`);
  mkdirSync(path.join(dir, 'sub'));
  writeFileSync(path.join(dir, 'sub', 'specmatic.json'), JSON.stringify({ sources: [] }));
  writeFileSync(path.join(dir, 'sub', 'specmatic.yaml'), 'sources: []\n');
  const both = readProjectConfig(path.join(dir, 'sub'))!;
  expect(both.file).toBe(path.join(dir, 'sub', 'specmatic.yaml'));
  expect(both.specmatic?.notRead).toEqual([path.join(dir, 'sub', 'specmatic.json')]);
});
