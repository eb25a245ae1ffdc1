import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FILE_LIMITS } from '../../src/files';
import { DEFAULT_MAX_BODY } from '../../src/http/client';
import { MAX_JSON_DEPTH } from '../../src/json/parse';
import { DEFAULT_LOG_LIMITS } from '../../src/logs/limits';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/stub/server';
import { MAX_NESTING } from '../../src/wsdl/emit-context';
import { DEFAULT_XML_LIMITS } from '../../src/xml/parse';

/** docs/security.md lists every limit with the value the code uses: a limit changed or added without the page fails here. */
const doc = readFileSync(path.join(__dirname, '..', '..', 'docs', 'security.md'), 'utf8');

function row(name: string): string {
  const line = doc.split('\n').find((l) => l.startsWith(`| \`${name}\` |`));
  if (!line) throw new Error(`docs/security.md has no row for ${name}`);
  return line;
}

const limits: [string, number][] = [
  ...Object.entries(FILE_LIMITS).map(([k, v]) => [`FILE_LIMITS.${k}`, v] as [string, number]),
  ...Object.entries(DEFAULT_LOG_LIMITS).map(([k, v]) => [`DEFAULT_LOG_LIMITS.${k}`, v] as [string, number]),
  ...Object.entries(DEFAULT_XML_LIMITS).map(([k, v]) => [`DEFAULT_XML_LIMITS.${k}`, v] as [string, number]),
  ['MAX_JSON_DEPTH', MAX_JSON_DEPTH],
  ['DEFAULT_MAX_BODY_BYTES', DEFAULT_MAX_BODY_BYTES],
  ['DEFAULT_MAX_BODY', DEFAULT_MAX_BODY],
  ['MAX_NESTING', MAX_NESTING],
];

test.each(limits)('docs/security.md lists %s = %d', (name, value) => {
  expect(row(name)).toMatch(new RegExp(`\\| [^|]*\\b${value}\\b[^|]*\\|`));
});
