import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compareVersions, formatText, type FileReport } from '../../src/compat';
import { readGolden } from '../helpers/golden';

export const FIXTURES = path.join(__dirname, '..', 'fixtures', 'compat');

/** Fixture pairs: `<group>/<name>/base.spec` (older) and `revision.spec` (newer). */
export function fixtureNames(group: 'breaks' | 'compatible'): string[] {
  return readdirSync(path.join(FIXTURES, group)).sort();
}

export function compareFixture(group: 'breaks' | 'compatible', name: string): FileReport {
  const dir = path.join(FIXTURES, group, name);
  const read = (f: string) => ({ label: f, text: readFileSync(path.join(dir, f), 'utf8') });
  return compareVersions({ file: 'api_v1.spec', older: read('base.spec'), newer: read('revision.spec'), olderWhere: 'base', newerWhere: 'revision' });
}

/** Golden text report beside the pair; `npm run golden` rewrites it. */
export function golden(group: 'breaks' | 'compatible', name: string, report: FileReport): { actual: string; expected: string } {
  const file = path.join(FIXTURES, group, name, 'expected.txt');
  const actual = formatText([report]);
  return { actual, expected: readGolden(file, actual) };
}
