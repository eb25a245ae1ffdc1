import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inert } from '../../src/printable';
import { formatCoverage } from '../../src/runner/coverage';
import { childEnv, plain } from '../helpers/child-env';
import { startServer, type Running } from '../helpers/servers';

/**
 * Issue 22, class 9: a CI runner obeys commands in a job's log. GitHub Actions reads a line that
 * starts with `::` after white space (`::warning::`, `::add-mask::`, `::stop-commands::`), and
 * `##[command]` anywhere in a line; Azure Pipelines reads `##vso[...]`. A value from a contract or a
 * service must never become one: not through `accord compatible`'s text report, not through Jest's
 * failure report of a service's body.
 */
const REPO = path.join(__dirname, '..', '..');
const BIN = path.join(REPO, 'bin', 'accord.js');
const JEST = require.resolve('jest/bin/jest');

/** A line a runner would read as a command, or a legacy command anywhere. */
function commands(output: string): string[] {
  return output.split(/\r\n|\r|\n/).filter((l) => /^\s*::/.test(l) || l.includes('##[') || l.includes('##vso['));
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-ci-commands-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('accord compatible: a value holding a newline does not start a line', () => {
  const older = `Feature: Pets

  Scenario: Get a pet
    When POST /pets
    And request-body {"kind": "(string)"}
    Then status 200
    And response-body {"st\\n::warning file=x.spec::key": "(string)", "note": "(string)"}
`;
  const newer = older
    .replace('{"kind": "(string)"}', '{"kind": "(string)", "k\\n  ::add-mask::Failed": "(string)"}')
    .replace('"st\\n::warning file=x.spec::key": "(string)"', '"st\\n::warning file=x.spec::key": "(number)"')
    .replace('"note": "(string)"', '"note": "(string)", "##[error]x": "(string)"');

  test.each(['text', 'github'])('--format %s', (format) => {
    writeFileSync(path.join(dir, 'old.spec'), older);
    writeFileSync(path.join(dir, 'new.spec'), newer);
    const r = spawnSync(process.execPath, [BIN, 'compatible', 'old.spec', 'new.spec', '--format', format], { cwd: dir, encoding: 'utf8', env: childEnv() });
    expect(r.status).toBe(1);
    const out = plain(r.stdout);
    if (format === 'text') {
      expect(commands(out)).toEqual([]);
      // Still readable: the key as the contract has it, its newline shown escaped.
      expect(out).toContain('>> RESPONSE.BODY st\\n::warning file=x.spec::key');
      expect(out).toContain('REQUEST.BODY k\\n  ::add-mask::Failed is a new required part of the request');
    } else {
      // Only accord's own commands start a line; a value's newline is the command's %0A.
      expect(commands(out).every((l) => l.startsWith('::error file=new.spec,') || l.startsWith('::notice file=new.spec,'))).toBe(true);
      expect(out).toContain('st%0A::warning file=x.spec::key');
    }
  });
});

describe('the Jest report of a service body', () => {
  let service: Running;
  const BODY = [
    '{"status": "broken",',
    '  ::warning file=src/app.ts,line=1::looks like accord',
    '\t::add-mask::Failed',
    '\u00a0::error::after a no-break space',
    '::stop-commands::token',
    'text ##[error]legacy ##vso[task.complete result=Succeeded]',
    '"end": 1}',
  ].join('\n');

  beforeAll(async () => {
    service = await startServer(() => ({ status: 500, type: 'application/json', body: BODY }));
    mkdirSync(path.join(dir, 'jest', 'contracts'), { recursive: true });
    writeFileSync(
      path.join(dir, 'jest', 'contracts', '::warning::pets.spec'),
      `Feature: Pets

  Scenario: Get a pet
    When GET /pets/1
    Then status 200
    And response-body {"status": "(string)"}

  @WIP
  Scenario: Adopt a pet
    When GET /pets/2
    Then status 200

  Scenario: Name a pet
    When POST /pets
    And request-body {"name\\n::warning::from a key": "(number)"}
    Then status 200
`,
    );
  });
  afterAll(() => service.close());

  test("no body line or key is read as a command: in the failure, the @WIP verdict, a negative test's name", async () => {
    const root = path.join(dir, 'jest');
    const config = path.join(root, 'jest.config.js');
    const own = { rootDir: root, testEnvironmentOptions: { accord: { baseUrl: service.url, coverageFile: false } } };
    writeFileSync(config, `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), ...${JSON.stringify(own)} };\n`);
    const output = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, [JEST, '--config', config, '--ci', '--no-cache', '--verbose'], { cwd: root, env: childEnv({ ACCORD_NEGATIVE: '1' }) });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('close', () => resolve(plain(out)));
    });
    expect(output).toContain('RESPONSE.STATUS: expected 200, found 500');
    expect(output).toContain('[accord] @WIP "Adopt a pet"');
    // A negative test's name holds the key: Jest prints it on a line of its own.
    expect(output).toContain('Name a pet [negative: missing name\\n::warning::from a key]');
    expect(commands(output)).toEqual([]);
    // Readable: the first colon (or hash) shown as accord shows an escape.
    expect(output).toContain('\\x3a:warning file=src/app.ts,line=1::looks like accord');
    expect(output).toContain('\\x3a:add-mask::Failed');
    expect(output).toContain('text \\x23#[error]legacy \\x23#vso[task.complete result=Succeeded]');
  }, 120_000);
});

test('the contract coverage summary: a contract file named ::warning::x.spec does not start a line', () => {
  const summary = formatCoverage(
    [
      {
        file: '/app/::warning::x.spec',
        feature: 'F',
        scenarios: 1,
        passed: 1,
        failed: 0,
        wip: 0,
        skipped: 0,
        notRun: 0,
        negative: { passed: 0, failed: 0, notRun: 0 },
        list: [],
        wsdl: { file: '/app/::error::a.wsdl', operations: 1, passed: 1, uncovered: [], list: [] },
      },
    ],
    '/app',
  );
  expect(commands(summary)).toEqual([]);
  expect(summary).toContain('  \\x3a:warning::x.spec: 1 scenario: 1 passed');
});

describe('inert', () => {
  test.each([
    ['::warning::x', '\\x3a:warning::x'],
    ['a\n  ::warning::x', 'a\n  \\x3a:warning::x'],
    ['a\r::warning::x', 'a\r\\x3a:warning::x'],
    ['a\n\u2003\u00a0::x', 'a\n\u2003\u00a0\\x3a:x'],
    ['a ::warning:: mid-line', 'a ::warning:: mid-line'],
    ['http://[::1]:80/ and ## headings', 'http://[::1]:80/ and ## headings'],
    ['###[x] ##vso[y]', '#\\x23#[x] \\x23#vso[y]'],
  ])('%j', (text, shown) => {
    expect(inert(text)).toBe(shown);
    expect(inert(inert(text))).toBe(shown);
  });

  test('linear: a megabyte of command lines', () => {
    const text = '\n ::x'.repeat(1 << 17) + '##['.repeat(1 << 17);
    const started = process.hrtime.bigint();
    const shown = inert(text);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
    expect(shown.startsWith('\n \\x3a:x')).toBe(true);
  });
});
