import { spawn, spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startExampleService } from '../../src/example/service';
import { startServer, type Running } from '../helpers/servers';
import { childEnv, plain } from '../helpers/child-env';
import { runJest, type JestRun } from '../helpers/jest-app';
import { installApp, PKG, REPO, type App } from '../helpers/packed-app';

/**
 * A user's application repository, made in a temp folder, with the packed
 * package installed by the README's own command (`npm install --save-dev
 * accord-contracts jest`, the tarball in place of the registry name) on Jest 30,
 * as a user would have them. Everything runs as `jest --preset accord-contracts`: the app's own
 * node_modules/.bin/jest, which `npx jest` runs (one test goes through npx itself; npx costs about
 * 0.8 s a call, and this file runs Jest 17 times). Jest 29 has its own app: jest29.test.ts.
 */
let installed: App;
let app: string;
let service: Running;
// jest-junit from this repository's own dependencies: one install fewer, and a reporter is found by path.
const JUNIT = require.resolve('jest-junit');

/** Runs Jest in the app without blocking this process, which serves the example service. */
function jest(args: string[], env: Record<string, string> = {}): Promise<JestRun> {
  // runJest gives the output without colours: CI may turn them on (CI=true colours Jest's code frames).
  return runJest(path.join(app, 'node_modules', '.bin', 'jest'), ['--preset', PKG.name, '--ci', ...args], {
    cwd: app,
    env: childEnv({ ACCORD_BASE_URL: service.url, ...env }),
    killAfterMs: 120_000,
  });
}

beforeAll(async () => {
  [installed, service] = await Promise.all([installApp(/^npm install --save-dev accord-contracts jest$/, () => 'jest@30'), startExampleService(0)]);
  app = installed.dir;
  cpSync(path.join(REPO, 'contracts'), path.join(app, 'contracts'), { recursive: true });
  // Files that only look like contracts: never collected.
  writeFileSync(path.join(app, 'contracts', 'helper.spec.ts'), 'this is not JavaScript and would fail if Jest ran it');
  writeFileSync(path.join(app, 'contracts', 'unit.spec.js'), 'test("a unit test", () => { throw new Error("collected by mistake"); });');
}, 300_000);

afterAll(async () => {
  await service?.close();
  if (app) rmSync(app, { recursive: true, force: true });
});

describe('jest --preset accord-contracts in an application repository', () => {
  it('collects exactly the .spec files', () => {
    const r = spawnSync('npx', ['jest', '--preset', PKG.name, '--listTests', '--json'], { cwd: app, encoding: 'utf8' });
    const files = (JSON.parse(r.stdout) as string[]).map((f) => path.relative(app, f)).sort();
    expect(files).toEqual(['contracts/math/api_math_v1.spec', 'contracts/pets/api_pets_v1.spec', 'contracts/soap/api_pet_v1.spec', 'contracts/soap/api_petstore_v1.spec']);
  });

  it('runs one test per scenario (per Examples row), the @WIP one skipped with its verdict, and exits 0', async () => {
    const r = await jest(['--verbose']);
    expect(r.output).toMatch(/Tests: +1 skipped, 9 passed, 10 total/);
    expect(r.output).toContain('○ skipped Adopt a pet (in progress)');
    expect(r.output).toContain('✓ Fetch a pet by id - example 2: petid=42');
    expect(r.output).toMatch(/\[accord\] @WIP "Adopt a pet \(in progress\)" \(.*api_pet_v1\.spec:62\) is in progress and skipped; it would have FAILED:/);
    expect(r.output).toContain('RESPONSE.STATUS: expected 200, found 500');
    expect(r.status).toBe(0);
  }, 120_000);

  it('fails the run with the mismatch path and a pointer into the .spec file', async () => {
    const wrong = await startServer(() => ({
      body: '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><p:getPetResponse xmlns:p="urn:p"><p:id>abc</p:id><p:name>Rex</p:name><p:type>dog</p:type><p:status>ok</p:status></p:getPetResponse></s:Body></s:Envelope>',
    }));
    try {
      const r = await jest(['contracts/soap/api_pet_v1.spec', '-t', 'Get a pet by id'], { ACCORD_BASE_URL: wrong.url });
      expect(r.status).toBe(1);
      expect(r.output).toContain('RESPONSE.BODY Envelope/Body/getPetResponse/id: expected a number, found "abc"');
      expect(r.output).toMatch(/api_pet_v1\.spec:3:1/);
      expect(r.output).toContain('> 3 |   Scenario: Get a pet by id');
      expect(r.output).not.toMatch(/at .*dist\/runner/);
      expect(r.output).toMatch(/Tests: +1 failed, 2 skipped, 3 total/);
    } finally {
      await wrong.close();
    }
  }, 120_000);

  it('keeps -t, --shard, test locations and jest-junit working', async () => {
    const only = await jest(['-t', 'Square']);
    expect(only.output).toMatch(/Tests: +9 skipped, 1 passed, 10 total/);

    const first = await jest(['--shard=1/2', '--json']);
    const second = await jest(['--shard=2/2', '--json']);
    const count = (run: JestRun) => JSON.parse(run.output.slice(run.output.indexOf('{'), run.output.lastIndexOf('}') + 1)).numTotalTests as number;
    expect(count(first) + count(second)).toBe(10);

    const out = path.join(app, 'results.json');
    await jest(['--json', '--testLocationInResults', `--outputFile=${out}`, 'contracts/math']);
    const results = JSON.parse(readFileSync(out, 'utf8'));
    const located = results.testResults[0].assertionResults.map((a: { title: string; location: { line: number } }) => [a.title, a.location.line]);
    expect(located).toEqual([
      ['Square of a number', 3],
      ['Cube of a number', 9],
    ]);

    // Test paths go first: --reporters takes every word after it.
    await jest(['contracts/soap/api_pet_v1.spec', '--reporters=default', `--reporters=${JUNIT}`], { JEST_JUNIT_OUTPUT_DIR: app });
    const junit = readFileSync(path.join(app, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase classname="[^"]*Adopt a pet \(in progress\)"[^>]*>\s*<skipped\/>/);
    expect(junit).toMatch(/<testsuite name="Pet lookup over SOAP" errors="0" failures="0" skipped="1"[^>]* tests="3">/);
  }, 180_000);

  it('turns a contract that does not parse into one failing test naming file and line, without a stack trace', async () => {
    writeFileSync(path.join(app, 'contracts', 'broken.spec'), 'Feature: broken\n  Scenario: s\n    When POST /ws\n    And request-body (Nope)\n    Then status 200\n');
    try {
      const r = await jest(['contracts/broken.spec']);
      expect(r.status).toBe(1);
      expect(r.output).toContain('contract error:');
      expect(r.output).toMatch(/broken\.spec:4: unknown type \(Nope\) in scenario "s"/);
      expect(r.output).not.toMatch(/at .*(dist|src)\/(contract|pattern|runner)/);
    } finally {
      rmSync(path.join(app, 'contracts', 'broken.spec'));
    }
  }, 120_000);

  it('a Feature with no scenarios and a file with no Feature line each fail as one test saying so, without a stack trace', async () => {
    // Jest used to fail the first with "Your test suite must contain at least one test" and its own stack.
    const files = { 'empty.spec': 'Feature: Nothing yet\n', 'notes.spec': 'Ideas for the pets API\n- list pets\n' };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(app, 'contracts', name), text);
    try {
      const r = await jest(['contracts/empty.spec', 'contracts/notes.spec']);
      expect(r.status).toBe(1);
      expect(r.output).toMatch(/empty\.spec:1: Feature "Nothing yet" has no scenarios: add one/);
      expect(r.output).toMatch(/contracts\/notes\.spec is not a contract: no Feature: line/);
      expect(r.output).toContain('Tests:       2 failed, 2 total');
      expect(r.output).not.toContain('must contain at least one test');
      expect(r.output).not.toMatch(/expected: #EOF/);
      expect(r.output).not.toMatch(/at .*(dist|src|node_modules)\//);
    } finally {
      for (const name of Object.keys(files)) rmSync(path.join(app, 'contracts', name));
    }
  }, 120_000);

  it('a @WIP tag on the Feature puts each of its scenarios in progress: run, reported skipped (cube would fail: the service answers 200)', async () => {
    writeFileSync(
      path.join(app, 'contracts', 'wip-feature.spec'),
      '@WIP\nFeature: wip feature\n  Scenario: square\n    When POST /square\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n  Scenario: cube\n    When POST /cube\n    And request-body (number)\n    Then status 201\n',
    );
    try {
      const r = await jest(['contracts/wip-feature.spec']);
      expect(r.status).toBe(0);
      expect(r.output).toContain('Tests:       2 skipped, 2 total');
    } finally {
      rmSync(path.join(app, 'contracts', 'wip-feature.spec'));
    }
  }, 120_000);

  it('says when a @WIP scenario would have passed, and still reports it skipped', async () => {
    writeFileSync(
      path.join(app, 'contracts', 'wip.spec'),
      'Feature: wip\n  @WIP\n  Scenario: square in progress\n    When POST /square\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n',
    );
    try {
      const r = await jest(['contracts/wip.spec']);
      expect(r.output).toMatch(/@WIP "square in progress" \(.*wip\.spec:3\) is in progress and skipped; it would have PASSED/);
      expect(r.output).toMatch(/Tests: +1 skipped, 1 total/);
      expect(r.status).toBe(0);
    } finally {
      rmSync(path.join(app, 'contracts', 'wip.spec'));
    }
  }, 120_000);

  it('puts the @WIP verdict on the skipped test in --json and jest-junit, with the column of its Scenario keyword, and --silent quiets the stderr copy', async () => {
    writeFileSync(
      path.join(app, 'contracts', 'wip.spec'),
      'Feature: wip\n  @WIP\n  Scenario: square in progress\n    When POST /square\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n',
    );
    // The file jest-junit reads test case properties from, as the README tells users to write it.
    writeFileSync(path.join(app, 'junitTestCaseProperties.js'), `module.exports = require('${PKG.name}/jest-junit-properties');\n`);
    const out = path.join(app, 'wip-results.json');
    try {
      const r = await jest(
        [
          'contracts/wip.spec',
          'contracts/soap/api_pet_v1.spec',
          '--silent',
          '--json',
          '--testLocationInResults',
          `--outputFile=${out}`,
          '--reporters=default',
          `--reporters=${JUNIT}`,
        ],
        {
          JEST_JUNIT_OUTPUT_DIR: app,
        },
      );
      expect(r.status).toBe(0);
      expect(r.output).not.toContain('[accord]');
      expect(r.output).not.toContain('would have');
      type Assertion = { title: string; status: string; failureMessages: string[]; location: { line: number; column: number } };
      const results: { name: string; assertionResults: Assertion[] }[] = JSON.parse(readFileSync(out, 'utf8')).testResults;
      const wip = (title: string) => results.flatMap((f) => f.assertionResults).find((a) => a.title === title)!;
      const passing = wip('square in progress');
      expect(passing.status).toBe('pending');
      expect(passing.failureMessages).toEqual([expect.stringMatching(/^@WIP "square in progress" \(.*wip\.spec:3\) is in progress and skipped; it would have PASSED$/)]);
      expect(passing.location).toEqual({ line: 3, column: 3 });
      const failing = wip('Adopt a pet (in progress)');
      expect(failing.status).toBe('pending');
      expect(failing.failureMessages[0]).toMatch(/it would have FAILED:\n[^]*RESPONSE\.STATUS: expected 200, found 500/);
      expect(failing.location).toEqual({ line: 62, column: 3 });
      // Every test's column is inside its line of the contract.
      const specLines = readFileSync(path.join(app, 'contracts', 'soap', 'api_pet_v1.spec'), 'utf8').split('\n');
      for (const a of results.find((f) => f.name.endsWith('api_pet_v1.spec'))!.assertionResults)
        expect(a.location.column).toBeLessThanOrEqual(specLines[a.location.line - 1].length);

      const junit = readFileSync(path.join(app, 'junit.xml'), 'utf8');
      expect(junit).toMatch(/<testcase classname="[^"]*square in progress"[^>]*>\s*<skipped\/>\s*<properties>\s*<property name="accord.wip" value="would have PASSED"\/>/);
      expect(junit).toMatch(
        /<testcase classname="[^"]*Adopt a pet \(in progress\)"[^>]*>\s*<skipped\/>\s*<properties>\s*<property name="accord.wip" value="would have FAILED"\/>\s*<property name="accord.wip.report" value="@WIP &quot;Adopt a pet/,
      );

      // Without --silent the verdict is printed for people as well, and never as a failure.
      const loud = await jest(['contracts/wip.spec']);
      expect(loud.output).toMatch(/\[accord\] @WIP "square in progress" .* it would have PASSED/);
      expect(loud.output).not.toContain('●');
    } finally {
      rmSync(path.join(app, 'contracts', 'wip.spec'));
      rmSync(path.join(app, 'junitTestCaseProperties.js'));
    }
  }, 180_000);

  it("an Examples row's test name, pasted from Jest's output into -t, runs exactly that test", async () => {
    const rows = Array.from({ length: 11 }, (_, i) => `      | ${i + 1} |`).join('\n');
    writeFileSync(
      path.join(app, 'contracts', 'rows.spec'),
      `Feature: Rows\n  Scenario Outline: Fetch a pet by id\n    When GET /pets/(petid:number)\n    Then status 200\n    And response-body {"petid": "(number)"}\n\n    Examples:\n      | petid |\n${rows}\n`,
    );
    try {
      const listed = await jest(['contracts/rows.spec', '--verbose']);
      const names = [...listed.output.matchAll(/✓ (.*?)(?: \(\d+ ms\))?$/gm)].map((m) => m[1]);
      expect(names).toHaveLength(11);
      expect(names[0]).toBe('Fetch a pet by id - example 1: petid=1');
      for (const name of [names[0], names[10]]) {
        const one = await jest(['contracts/rows.spec', '--verbose', '-t', name]);
        expect(one.output).toMatch(/Tests: +10 skipped, 1 passed, 11 total/);
        expect(one.output).toContain(`✓ ${name}`);
      }
    } finally {
      rmSync(path.join(app, 'contracts', 'rows.spec'));
    }
  }, 120_000);

  it('says how to point it at the service when no base URL is set', async () => {
    const r = await jest(['contracts/math'], { ACCORD_BASE_URL: '' });
    expect(r.status).toBe(1);
    expect(r.output).toContain('accord does not know where the service is: set ACCORD_BASE_URL');
  }, 120_000);

  it('reads the base URL from testEnvironmentOptions in the Jest config', async () => {
    writeFileSync(path.join(app, 'jest.config.js'), `module.exports = { testEnvironmentOptions: { accord: { baseUrl: ${JSON.stringify(service.url)} } } };`);
    try {
      const r = await jest(['contracts/math'], { ACCORD_BASE_URL: '' });
      expect(r.output).toMatch(/Tests: +2 passed, 2 total/);
      expect(r.status).toBe(0);
    } finally {
      rmSync(path.join(app, 'jest.config.js'));
    }
  }, 120_000);

  it('fails every test with a did-you-mean for a misspelt option, instead of running on defaults', async () => {
    writeFileSync(path.join(app, 'jest.config.js'), `module.exports = { testEnvironmentOptions: { accord: { baseURL: ${JSON.stringify(service.url)}, timeoutMs: 'soon' } } };`);
    try {
      const r = await jest(['contracts/math'], { ACCORD_BASE_URL: '' });
      expect(r.output).toMatch(/Tests: +2 failed, 2 total/);
      expect(r.output).toContain('unknown option "baseURL" in testEnvironmentOptions.accord (did you mean "baseUrl"?); the options are baseUrl, timeoutMs, seed');
      expect(r.output).toContain('testEnvironmentOptions.accord.timeoutMs must be a number of milliseconds above 0, found "soon"');
      expect(r.output).not.toMatch(/at .*dist\/runner/);
      expect(r.status).toBe(1);
    } finally {
      rmSync(path.join(app, 'jest.config.js'));
    }
  }, 120_000);

  it('--watchAll runs the contracts again when a .spec file changes (what vscode-jest and `--watch` rely on)', async () => {
    const spec = path.join(app, 'contracts', 'math', 'api_math_v1.spec');
    const original = readFileSync(spec, 'utf8');
    // Jest itself, not through npx, so that killing the child ends the watcher.
    const child = spawn(process.execPath, [path.join(app, 'node_modules', 'jest', 'bin', 'jest.js'), '--preset', PKG.name, '--watchAll', 'contracts/math'], {
      cwd: app,
      env: childEnv({ ACCORD_BASE_URL: service.url }),
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const until = async (re: RegExp) => {
      const started = Date.now();
      while (!re.test(plain(output))) {
        if (Date.now() - started > 60_000) throw new Error(`timed out waiting for ${re}:\n${plain(output)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    try {
      await until(/Tests: +2 passed, 2 total/);
      output = '';
      writeFileSync(spec, original.replace('Scenario: Cube of a number', 'Scenario: Cube of a whole number'));
      await until(/Tests: +2 passed, 2 total/);
      expect(plain(output)).toContain('Cube of a whole number');
    } finally {
      child.kill('SIGTERM');
      await exited;
      writeFileSync(spec, original);
    }
  }, 150_000);
});

describe('the installed package', () => {
  const installedDir = () => path.join(app, 'node_modules', PKG.name);

  it('installs the `accord` command: npx accord --version', () => {
    const r = spawnSync('npx', ['accord', '--version'], { cwd: app, encoding: 'utf8', env: childEnv() });
    expect(r.stdout.trim()).toBe(PKG.version);
    expect(r.status).toBe(0);
  });

  it('ships its licence, no source maps, no example service, and README/docs links that resolve inside it', () => {
    const files = listFiles(installedDir());
    expect(readFileSync(path.join(installedDir(), 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('dist/example/') || f.startsWith('__tests__/'))).toEqual([]);
    const docs = files.filter((f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')));
    expect(docs).toEqual(expect.arrayContaining(['README.md', 'docs/stub.md', 'docs/compatibility.md', 'docs/wsdl-import.md', 'docs/logs.md']));
    const broken: string[] = [];
    for (const doc of docs) {
      // Code spans hold text, not links (a regular expression such as `[T ]([01]\d)` reads like one).
      const prose = readFileSync(path.join(installedDir(), doc), 'utf8').replace(/`[^`\n]*`/g, '');
      for (const [, target] of prose.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(doc), target)).replace(/\/$/, '');
        if (!files.some((f) => f === resolved || f.startsWith(`${resolved}/`))) broken.push(`${doc}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('exports the documented API from the root, with types, and nothing under dist/', () => {
    const script = `
      const api = require(${JSON.stringify(PKG.name)});
      let deep;
      try { require(${JSON.stringify(`${PKG.name}/dist/index.js`)}); deep = 'resolved'; } catch (e) { deep = e.code; }
      const matchers = require.resolve(${JSON.stringify(`${PKG.name}/jest-matchers`)});
      console.log(JSON.stringify({ names: Object.keys(api).sort(), deep, matchers }));`;
    const r = spawnSync(process.execPath, ['-e', script], { cwd: app, encoding: 'utf8' });
    const { names, deep, matchers } = JSON.parse(r.stdout);
    expect(matchers).toMatch(/preset[\\/]jest-matchers\.js$/);
    expect(names).toEqual(expect.arrayContaining(DOCUMENTED));
    expect(names).not.toContain('startExampleService');
    expect(deep).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');

    // The types a TypeScript user gets, through `exports` (moduleResolution node16), checked strictly.
    writeFileSync(
      path.join(app, 'check.ts'),
      `import { ${DOCUMENTED.join(', ')} } from '${PKG.name}';
import type { StubOptions, RunningStub, Contract, CompatibilityVerdict, WsdlImportResult, ImportLogOptions, ErrorCode, StubClient, ExpectationInput, JournalEntry } from '${PKG.name}';
import type {} from '${PKG.name}/jest-matchers';
const client: StubClient = connectStub('http://127.0.0.1:9000');
const expectation: ExpectationInput = { request: { method: 'GET', path: '/pets/1' }, times: 1, delayMs: { min: 1, max: 5 }, fault: 'empty-response' };
const journal: Promise<JournalEntry[]> = client.calls({ path: '/ws' });
const byXml: Promise<JournalEntry[]> = client.calls({ nodes: { 'getBook/isbn': '9', 'getBook/@id': 1 }, xmlIncludes: '<getBook><isbn>(string)</isbn></getBook>' });
const matcherNames: string[] = Object.keys(accordMatchers);
const options: StubOptions = { contracts: ['contracts'], port: 0 };
const started: Promise<RunningStub> = startStub(options);
const wsdl: WsdlImportResult = importWsdl('x.wsdl', { soapVersion: '1.1' });
const older: Contract = parseContract('Feature: f', 'f.spec');
const verdict: CompatibilityVerdict = checkCompatibility(older, older);
const code: ErrorCode | undefined = new AccordError('ACCORD_ERR_USAGE', 'm').code;
const logs: ImportLogOptions = { examples: true };
export { started, wsdl, verdict, code, logs, expectation, journal, byXml, matcherNames, loadContract, importLogs, readExchanges, checkExchange, formatCompatibilityText, encompasses };
`,
    );
    const tsc = spawnSync(
      process.execPath,
      [
        require.resolve('typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--module',
        'node16',
        '--moduleResolution',
        'node16',
        '--types',
        'node',
        '--typeRoots',
        path.join(REPO, 'node_modules', '@types'),
        'check.ts',
      ],
      { cwd: app, encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 60_000);
});

/** What README.md and docs/ tell users to call. */
const DOCUMENTED = [
  'startStub',
  'importWsdl',
  'importLogs',
  'readExchanges',
  'checkExchange',
  'parseContract',
  'loadContract',
  'checkCompatibility',
  'formatCompatibilityText',
  'encompasses',
  'AccordError',
  'connectStub',
  'accordMatchers',
];

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'node_modules' ? [] : listFiles(path.join(dir, e.name), `${prefix}${e.name}/`)) : [`${prefix}${e.name}`],
  );
}
