import { AccordError } from '../errors';
import { parsePlaceholder } from './placeholder';
import type { JsonField, Pattern } from './types';
import { readJson } from '../json/parse';

export function jsonPatternFromText(text: string): Pattern {
  const read = readJson(text);
  if ('value' in read) return jsonPatternFromValue(read.value);
  if (!read.syntax) throw new AccordError('ACCORD_ERR_JSON', read.problem);
  // Older contracts write keys unquoted ({name: "(string)"}); accept that form too.
  try {
    return jsonPatternFromValue(JSON.parse(text.replace(/([{,]\s*)([A-Za-z_$][\w$-]*\??)\s*:/g, '$1"$2":')));
  } catch {
    throw new AccordError('ACCORD_ERR_JSON', read.problem);
  }
}

export function jsonPatternFromValue(value: unknown): Pattern {
  if (typeof value === 'string') return parsePlaceholder(value) ?? { kind: 'literal', value };
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return { kind: 'literal', value };
  if (Array.isArray(value)) {
    const items = value.map(jsonPatternFromValue);
    // ["(Pet*)"] and ["(Pet)"] read as "a list of Pet" in Specmatic's JSON samples when alone.
    if (items.length === 1 && items[0].kind === 'list') return items[0];
    return { kind: 'array', items };
  }
  const fields: JsonField[] = [];
  let open = false;
  for (const [rawKey, v] of Object.entries(value as Record<string, unknown>)) {
    if (rawKey === '...') {
      open = true;
      continue;
    }
    const optional = rawKey.endsWith('?');
    const key = optional ? rawKey.slice(0, -1) : rawKey;
    const pattern = jsonPatternFromValue(v);
    if (pattern.kind === 'optional' && !optional) {
      // "(number?)" as a value: key required, value may be null.
      fields.push({ key, optional: false, pattern });
      continue;
    }
    fields.push({ key, optional, pattern });
  }
  return { kind: 'object', fields, open };
}
