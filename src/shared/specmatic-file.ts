import path from 'node:path';
import { AccordError } from '../errors';
import { FILE_LIMITS, decodeText, readInputBytes } from '../files';
import { jsonErrorOffset } from '../json/locate';
import { readJson } from '../json/parse';
import { SETTINGS_YAML_LIMITS } from '../limits';
import { excerpt } from '../printable';

/**
 * A Specmatic settings file, parsed: JSON for `.json`, YAML otherwise. YAML is read with the
 * `yaml` package (loaded only here, so nothing else pays for it): one document, YAML 1.2's core
 * schema, no duplicate keys, at most SETTINGS_YAML_LIMITS.aliases aliases (a "billion laughs"
 * file is refused, not expanded), and no tag but the core ones (`!!str`, `!!int`, ...): a custom
 * tag (`!ruby/object`, `!!binary`) is refused rather than read as text. Every error says
 * file:line:column.
 */
export function readSpecmaticFile(file: string, shown: string = file): unknown {
  const bytes = readInputBytes(file, { what: "Specmatic's settings file", limit: FILE_LIMITS.settingsBytes, shown });
  const text = decodeText(bytes, shown, "Specmatic's settings file");
  return path.extname(file).toLowerCase() === '.json' ? fromJson(text, shown) : fromYaml(text, shown);
}

function fromJson(text: string, shown: string): unknown {
  const read = readJson(text);
  if ('value' in read) return read.value;
  const at = read.syntax ? jsonErrorOffset(text) : undefined;
  throw new AccordError('ACCORD_ERR_USAGE', excerpt(v8Words(firstLine(read.problem)), 200), { file: shown, ...(at !== undefined ? lineColumn(text, at) : {}) });
}

/** V8's words without its quote of the text and its position (the place is said as line:column). */
function v8Words(message: string): string {
  let end = message.length;
  for (const cut of [', "', ' in JSON at position ']) {
    const at = message.indexOf(cut);
    if (at >= 0 && at < end) end = at;
  }
  return message.slice(0, end);
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++)
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  return { line, column: offset - start + 1 };
}

const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`));

function fromYaml(text: string, shown: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a YAML settings file
  const YAML = require('yaml') as typeof import('yaml');
  const lineCounter = new YAML.LineCounter();
  const fail = (message: string, offset: number | undefined): AccordError => {
    const pos = offset === undefined ? undefined : lineCounter.linePos(offset);
    return new AccordError('ACCORD_ERR_USAGE', message, { file: shown, ...(pos ? { line: pos.line, column: pos.col } : {}) });
  };
  const options = { lineCounter, schema: 'core', version: '1.2', uniqueKeys: true, merge: false, prettyErrors: false, maxAliasCount: SETTINGS_YAML_LIMITS.aliases } as const;
  const doc = YAML.parseDocument(text, options);
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) throw fail(`not valid YAML: ${excerpt(firstLine(problem.message), 300)}`, problem.pos[0]);
  let refused: AccordError | undefined;
  YAML.visit(doc, (_key, node) => {
    const tag = (node as { tag?: string }).tag;
    if (typeof tag === 'string' && !CORE_TAGS.has(tag)) {
      refused = fail(`the tag ${excerpt(tag, 80)} is refused: Specmatic's settings are plain mappings, lists and values`, (node as { range?: [number] }).range?.[0]);
      return YAML.visit.BREAK;
    }
    return undefined;
  });
  if (refused) throw refused;
  try {
    return doc.toJS({ maxAliasCount: SETTINGS_YAML_LIMITS.aliases });
  } catch (e) {
    // The yaml package's one refusal at this stage: aliases that expand too far.
    if (e instanceof ReferenceError || (e instanceof Error && e.message.includes('alias')))
      throw new AccordError('ACCORD_ERR_LIMIT', `aliases expand past ${SETTINGS_YAML_LIMITS.aliases} copies: refused (SETTINGS_YAML_LIMITS.aliases)`, { file: shown });
    throw e;
  }
}

function firstLine(s: string): string {
  const nl = s.indexOf('\n');
  return nl < 0 ? s : s.slice(0, nl);
}
