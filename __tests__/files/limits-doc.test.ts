import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as LIMITS from '../../src/limits';
import { DEFAULT_LOG_LIMITS } from '../../src/logs/limits';

/** docs/security.md lists every limit with the value the code uses: a limit changed or added without the page fails here. */
const doc = readFileSync(path.join(__dirname, '..', '..', 'docs', 'security.md'), 'utf8');

function row(name: string): string {
  const line = doc.split('\n').find((l) => l.startsWith(`| \`${name}\` |`));
  if (!line) throw new Error(`docs/security.md has no row for ${name}`);
  return line;
}

/** Every export of src/limits.ts (a number, or an object of numbers), so a limit added there must be documented. */
function flatten(name: string, value: unknown): [string, number][] {
  if (typeof value === 'number') return [[name, value]];
  return Object.entries(value as Record<string, number>).map(([k, v]) => [`${name}.${k}`, v]);
}

const limits: [string, number][] = [...Object.entries(LIMITS).flatMap(([k, v]) => flatten(k, v)), ...flatten('DEFAULT_LOG_LIMITS', DEFAULT_LOG_LIMITS)];

test.each(limits)('docs/security.md lists %s = %d', (name, value) => {
  expect(row(name)).toMatch(new RegExp(`\\| [^|]*\\b${value}\\b[^|]*\\|`));
});
