import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../../src/cli/main';
import { childEnv } from '../helpers/child-env';

/**
 * The built CLI (`npm run build` first): an error is said by the command that failed, in the words
 * its own lines use, so a CI log with several accord steps shows which one said it. It said a bare
 * `accord: …` whatever the command.
 */
const BIN = path.join(__dirname, '..', '..', 'bin', 'accord.js');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-prefix-'));
  writeFileSync(path.join(dir, 'notes.txt'), 'just text\n');
  writeFileSync(path.join(dir, 'a.spec'), 'Feature: A\n  Scenario: one\n    When GET /a\n    Then status 200\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function accord(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', env: childEnv(), timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('a command: `accord compatible: ` and the error, exit 2', () => {
  const r = accord('compatible', 'gone.spec', 'a.spec');
  expect(r.stderr).toBe('accord compatible: no such file or folder: gone.spec\n');
  expect(r.code).toBe(2);
});

test('a sub-command: `accord import wsdl: ` (its own refusal, made by hand, too), exit 2', () => {
  const missing = accord('import', 'wsdl', 'gone.wsdl');
  expect(missing.stderr).toMatch(/^accord import wsdl: no such file: .*gone\.wsdl\n$/);
  expect(missing.code).toBe(2);
  const notWsdl = accord('import', 'wsdl', 'notes.txt');
  expect(notWsdl.stderr).toMatch(/^accord import wsdl: notes\.txt: not a WSDL: it is not XML/);
  expect(notWsdl.code).toBe(2);
});

test('a sub-command two levels down: the whole path', () => {
  const r = accord('compatible', 'git', 'file', 'a.spec');
  expect(r.stderr).toMatch(/^accord compatible git file: not a git work tree: /);
  expect(r.code).toBe(2);
  // Its own refusals and warnings say the same words.
  const format = accord('compatible', 'git', 'file', 'a.spec', '--format', 'xml');
  expect(format.stderr).toBe('accord compatible git file: unknown --format "xml": use one of text, json, junit, github, sarif, html\n');
  expect(format.code).toBe(2);
});

test('no command resolved: commander says it, as before, exit 2', () => {
  const unknown = accord('bogus');
  expect(unknown.stderr).toMatch(/^error: unknown command 'bogus'/);
  expect(unknown.code).toBe(2);
  const option = accord('--bogus');
  expect(option.stderr).toMatch(/^error: unknown option '--bogus'/);
  expect(option.code).toBe(2);
});

test('an internal error (a bug) gets the same prefix, with its stack, exit 1', async () => {
  // A caller's bug the CLI cannot mistake for a user's: no working folder (run() is the CLI's door, here without a path).
  let err = '';
  const code = await run(['compatible', 'a.spec', 'a.spec'], { cwd: undefined as unknown as string, stdout: () => undefined, stderr: (s) => (err += s) });
  expect(err).toMatch(/^accord compatible: internal error \(please report it\): .*TypeError.*\n\s+at /);
  expect(code).toBe(1);
});
