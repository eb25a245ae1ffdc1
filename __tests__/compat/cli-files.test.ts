import { nextVersionName } from '../../src/compat/naming';
import { accord, contract, TempRepo } from './git-repo';

/** `accord compatible <older> <newer>`: two files or two folders, no git needed. */
let dirs: TempRepo[] = [];
function folder(): TempRepo {
  const d = new TempRepo(false);
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs) d.remove();
  dirs = [];
});

const SQUARE = contract('math/api_math_v1.spec');

test('two files: compatible, then not, with the next version file named after the older one', () => {
  const d = folder().write('v1/api_math_v1.spec', SQUARE).write('v2/api_math_v1.spec', SQUARE.replace('Scenario: Cube of a number', 'Scenario: Cube, renamed'));
  let out = accord(d.dir, 'compatible', 'v1/api_math_v1.spec', 'v2/api_math_v1.spec');
  expect(out.stdout).toContain('Tests run: 2, Passed: 2, Failed: 0');
  expect(out.code).toBe(0);
  d.write('v2/api_math_v1.spec', SQUARE.replace(/response-body \(number\)/g, 'response-body (string)'));
  out = accord(d.dir, 'compatible', 'v1/api_math_v1.spec', 'v2/api_math_v1.spec');
  expect(out.code).toBe(1);
  expect(out.stdout).toContain('Tests run: 2, Passed: 0, Failed: 2');
  expect(out.stdout).toContain('POST /cube -> 200: RESPONSE.BODY was (number), now (string)');
  expect(out.stdout).toContain('[response-type-widened]');
  expect(out.stdout).toContain('write the new version in api_math_v2.spec');
});

test('two folders are paired by relative path; a file only in the newer folder is new', () => {
  const d = folder().write('old/math/api_math_v1.spec', SQUARE).write('new/math/api_math_v1.spec', SQUARE).write('new/soap/api_pet_v1.spec', contract('soap/api_pet_v1.spec'));
  const out = accord(d.dir, 'compatible', 'old', 'new', '--json');
  expect(out.code).toBe(0);
  const doc = JSON.parse(out.stdout);
  expect(doc.files.map((f: { file: string; status: string }) => `${f.file} ${f.status}`)).toEqual(['new/math/api_math_v1.spec compared', 'new/soap/api_pet_v1.spec new']);
  expect(doc).toMatchObject({ compatible: true, testsRun: 2, passed: 2, failed: 0 });
});

test('mistakes: missing file, file against folder, a file that is not a contract', () => {
  const d = folder().write('a.spec', SQUARE).write('dir/b.spec', SQUARE).write('a.txt', 'hello\nworld\n');
  const cases: [string[], RegExp][] = [
    [['nope.spec', 'a.spec'], /^accord compatible: no such file or folder: nope\.spec$/],
    [['a.spec', 'dir'], /^accord compatible: compare a file with a file or a folder with a folder/],
    // Each line used to be a Gherkin token list ("expected: #EOF, #Language, ..., got 'hello'").
    [['a.txt', 'a.txt'], /^accord compatible: a\.txt is not a contract: no Feature: line$/],
    [['a.spec'], /give two contracts/],
  ];
  for (const [args, message] of cases) {
    const out = accord(d.dir, 'compatible', ...args);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr.trimEnd()).toMatch(message);
    expect(out.stderr.trimEnd().split('\n')).toHaveLength(1);
  }
});

test('a broken contract: every error is shown, as the stub shows them (not the first and "(and 3 more errors)")', () => {
  const broken = 'Feature: x\n  Scenario: y\n    When FETCH /x\n  Scenario: z\n    When GET /z\n    Then status 2000\n';
  const d = folder().write('a.spec', SQUARE).write('bad.spec', broken).write('old/m.spec', broken).write('new/m.spec', broken.replace('/z', '/zz'));
  const out = accord(d.dir, 'compatible', 'a.spec', 'bad.spec');
  expect(out.code).toBe(2);
  expect(out.stdout).toBe('');
  expect(out.stderr.trimEnd().split('\n')).toEqual([
    'accord compatible: bad.spec:3: keyword "FETCH" not recognised (did you mean "PATCH"?); a step starts with one of: <METHOD> <path>, request-header, response-header, status, request-body, response-body, type, json, pattern, enum, form-field, request-part',
    'bad.spec:2: scenario "y" has no status: add e.g. "Then status 200" here or in the Background',
    'bad.spec:6: status must be an HTTP status code from 100 to 599, found "2000"',
  ]);
  expect(accord(d.dir, 'stub', 'bad.spec', '--port', '0').stderr).toBe(out.stderr.replace(/^accord compatible: /, 'accord stub: '));
  // Both versions and every file of a folder: all errors at once, not one run per fix.
  const folders = accord(d.dir, 'compatible', 'old', 'new');
  expect(folders.code).toBe(2);
  expect(folders.stderr).toContain('new/m.spec:3: keyword "FETCH"');
  expect(folders.stderr).toContain('old/m.spec:3: keyword "FETCH"');
  expect(folders.stderr.trimEnd().split('\n')).toHaveLength(6);
});

test('a Feature with no scenarios is an input error, as in the stub and the Jest preset', () => {
  const d = folder().write('a.spec', SQUARE).write('empty.spec', 'Feature: Nothing yet\n');
  const out = accord(d.dir, 'compatible', 'a.spec', 'empty.spec');
  expect(out.code).toBe(2);
  expect(out.stderr.trimEnd()).toBe('accord compatible: empty.spec:1: Feature "Nothing yet" has no scenarios: add one, e.g. "Scenario: <name>" with a request and a status');
  expect(accord(d.dir, 'stub', 'empty.spec', '--port', '0').stderr).toBe(out.stderr.replace(/^accord compatible: /, 'accord stub: '));
});

test('next version names (seed 9.2)', () => {
  expect(nextVersionName('contracts/api_math_v1.spec')).toBe('api_math_v2.spec');
  expect(nextVersionName('api_order_9.spec')).toBe('api_order_10.spec');
  expect(nextVersionName('petstore.spec')).toBe('petstore_v2.spec');
  expect(nextVersionName('api_1.qontract')).toBe('api_2.qontract');
});
