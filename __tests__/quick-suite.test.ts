import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm run test:quick` (jest.quick.config.js) leaves out the files __tests__/quick-exclusions.js
 * names, by a rule: every file that starts Jest in a child, drives a browser, needs a real SOAP
 * stack or runs Jest's watch mode is named, with that class; the exhaustive and the slow are
 * named by hand. Kept here: no name points at nothing, no file of a detected class is missing from
 * the list, and Jest, given the quick config, runs every other file and none of the named ones.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { EXCLUDED } = require('./quick-exclusions.js') as { EXCLUDED: Exclusion[] };

interface Exclusion {
  file: string;
  class: string;
  why: string;
}

const ROOT = path.join(__dirname, '..');
const CLASSES = ['jest-in-jest', 'browser', 'interop', 'watch', 'exhaustive', 'slow'];

/** What a file's source shows of the detected classes: the helpers and arguments that start each. */
const MARKERS: Record<string, string[]> = {
  'jest-in-jest': ['helpers/jest-app', 'helpers/parallel-jest', 'helpers/packed-app', "require.resolve('jest/bin/jest')", "[BIN, 'test'", "'accord', 'test'"],
  browser: ["report/browser'", "from './browser'", 'playwright'],
  interop: ["interop/stacks'", "from './stacks'", 'helpers/ws-addressing'],
  watch: ["'--watchAll'"],
};

/** Every test file under __tests__, as a path from there with `/`. */
function testFiles(dir = __dirname, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : e.name.endsWith('.test.ts') ? [`${prefix}${e.name}`] : [],
  );
}

/** The classes a file's source shows. */
function detected(source: string): string[] {
  return Object.keys(MARKERS).filter((c) => MARKERS[c].some((m) => source.includes(m)));
}

/** What is wrong with `excluded` for these files (path → source): one line each. */
function problems(excluded: readonly Exclusion[], files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  const named = new Map<string, Exclusion>();
  for (const e of excluded) {
    if (named.has(e.file)) out.push(`${e.file}: named twice`);
    named.set(e.file, e);
    if (!files.has(e.file)) out.push(`${e.file}: named, but there is no such test file`);
    if (!CLASSES.includes(e.class)) out.push(`${e.file}: class "${e.class}" is none of ${CLASSES.join(', ')}`);
    if (!e.why.trim()) out.push(`${e.file}: no reason given`);
  }
  for (const [file, source] of files) {
    // This file names the markers without being of their classes.
    const classes = file === 'quick-suite.test.ts' ? [] : detected(source);
    if (classes.length === 0) continue;
    const e = named.get(file);
    if (!e) out.push(`${file}: ${classes.join(' and ')} (from its source), but test:quick runs it`);
    else if (!classes.includes(e.class) && CLASSES.slice(0, 4).includes(e.class)) out.push(`${file}: named as ${e.class}, its source shows ${classes.join(' and ')}`);
  }
  return out;
}

const FILES = new Map(testFiles().map((f) => [f, readFileSync(path.join(__dirname, f), 'utf8')]));

test('every file named exists, and every file that starts Jest, a browser, a SOAP stack or a watcher is named', () => {
  expect(problems(EXCLUDED, FILES)).toEqual([]);
  expect(EXCLUDED.length).toBeGreaterThan(20);
});

test('the check says so when a name points at nothing, a detected file is missing, or a class or reason is wrong', () => {
  const files = new Map([
    ['runner/a.test.ts', "import { runJestApp } from '../helpers/jest-app';"],
    ['report/b.test.ts', "import { page } from './browser';"],
    ['stub/c.test.ts', 'plain'],
  ]);
  expect(problems([{ file: 'runner/a.test.ts', class: 'jest-in-jest', why: 'Jest' }], files)).toEqual(['report/b.test.ts: browser (from its source), but test:quick runs it']);
  expect(
    problems(
      [
        { file: 'runner/a.test.ts', class: 'browser', why: 'Jest' },
        { file: 'report/b.test.ts', class: 'browser', why: ' ' },
        { file: 'stub/gone.test.ts', class: 'quick', why: 'x' },
      ],
      files,
    ),
  ).toEqual([
    'report/b.test.ts: no reason given',
    'stub/gone.test.ts: named, but there is no such test file',
    'stub/gone.test.ts: class "quick" is none of jest-in-jest, browser, interop, watch, exhaustive, slow',
    'runner/a.test.ts: named as browser, its source shows jest-in-jest',
  ]);
});

test('Jest, given jest.quick.config.js, runs every test file but the named ones; jest.config.js runs them all', () => {
  const list = (config: string) => {
    const r = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--config', config, '--listTests'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    return r.stdout
      .split('\n')
      .filter((l) => l.endsWith('.test.ts'))
      .map((l) => path.relative(__dirname, l).split(path.sep).join('/'))
      .sort();
  };
  const all = [...FILES.keys()].sort();
  const names = new Set(EXCLUDED.map((e) => e.file));
  expect(list('jest.config.js')).toEqual(all);
  expect(list('jest.quick.config.js')).toEqual(all.filter((f) => !names.has(f)));
}, 60_000);
