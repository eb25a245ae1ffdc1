import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { loadContract } from '../../src/contract/load';
import { AccordError } from '../../src/errors';
import { expectGolden } from '../helpers/golden';

/**
 * Parser golden tests, as gherkin keeps them: each `good/*.spec` beside the
 * model it reads into (`.model.json`), each `bad/*.spec` beside the errors it
 * gets (`.errors.txt`). `npm run golden` rewrites the expected files from what
 * the parser does now; review the diff before committing it.
 */
const DIR = path.join(__dirname, '..', 'fixtures', 'parser');

function specs(kind: 'good' | 'bad'): string[] {
  return readdirSync(path.join(DIR, kind))
    .filter((f) => f.endsWith('.spec'))
    .sort();
}

/** The model as plain, stable JSON: maps as sorted objects, file paths relative to the fixtures. */
function modelJson(value: unknown): string {
  return `${JSON.stringify(
    value,
    function (key, v: unknown) {
      if (key === 'file' && typeof v === 'string') return path.relative(DIR, v);
      if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Map<unknown, unknown>).entries === 'function' && typeof (v as Map<unknown, unknown>).get === 'function') {
        const entries = [...(v as Map<string, unknown>).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        return Object.fromEntries(entries);
      }
      return v;
    },
    2,
  )}\n`;
}

function errorsText(e: unknown): string {
  if (!(e instanceof AccordError)) throw e;
  return `${e
    .describe()
    .split(DIR + path.sep)
    .join('')}\n`;
}

describe('good contracts read into their golden model', () => {
  it.each(specs('good'))('%s', (name) => {
    const file = path.join(DIR, 'good', name);
    expectGolden(file.replace(/\.spec$/, '.model.json'), modelJson(loadContract(file)));
  });
});

describe('bad contracts get their golden errors', () => {
  it.each(specs('bad'))('%s', (name) => {
    const file = path.join(DIR, 'bad', name);
    let caught: unknown;
    try {
      loadContract(file);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(AccordError);
    expectGolden(file.replace(/\.spec$/, '.errors.txt'), errorsText(caught));
  });
});

test('every golden file has its .spec', () => {
  for (const kind of ['good', 'bad'] as const) {
    const dir = path.join(DIR, kind);
    const orphans = readdirSync(dir).filter((f) => !f.endsWith('.spec') && !existsSync(path.join(dir, f.replace(/\.(model\.json|errors\.txt)$/, '.spec'))));
    expect(orphans).toEqual([]);
  }
});
