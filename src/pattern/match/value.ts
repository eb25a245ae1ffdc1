import { unreachable } from '../../errors';
import { append, type Mismatch, shown } from './mismatch';
import { resolve } from '../resolve';
import { describeScalar, normaliseSpace, violatedFacet } from '../scalars/facets';
import { sameScalarValue } from '../scalars/equal';
import { jsonAccepts, SCALARS } from '../scalars/index';
import type { EnumPattern, Pattern, ScalarPattern, Scope, TextListPattern } from '../types';
import { describePattern } from '../describe';
import { parseJson } from '../../json/parse';

/** Matching text (headers, query, path segments, XML text, plain bodies) and JSON values; see match.ts. */
// ---------- text (headers, query, path segments, XML text, plain bodies) ----------

export function matchText(pattern: Pattern, text: string | undefined, scope: Scope, path = ''): Mismatch[] {
  const p = resolve(pattern, scope);
  if (text === undefined) {
    if (p.kind === 'optional') return [];
    return [{ path, expected: describePattern(p), actual: 'nothing' }];
  }
  switch (p.kind) {
    case 'scalar':
      return matchScalar(p, text, path, text);
    case 'text-list':
      return matchTextList(p, text, scope, path);
    case 'union':
      return p.members.some((m) => matchText(m, text, scope, path).length === 0) ? [] : [{ path, expected: `one of ${describePattern(p)}`, actual: shown(text) }];
    case 'literal':
      return String(p.value ?? '') === text || (p.as !== undefined && sameScalarValue(p.as, String(p.value ?? ''), text))
        ? []
        : [{ path, expected: shown(String(p.value ?? '')), actual: shown(text) }];
    case 'enum':
      return enumHas(p, text) ? [] : [{ path, expected: `one of ${p.values.map((v) => shown(v)).join(', ')}`, actual: shown(text) }];
    case 'optional':
      return text === '' ? [] : matchText(p.inner, text, scope, path);
    case 'lookup':
      return matchText(p.inner, text, scope, path);
    case 'object':
    case 'array':
    case 'list':
    case 'dictionary': {
      // A JSON structure carried as text (a form field or a header holding JSON).
      let parsed: unknown;
      try {
        parsed = parseJson(text);
      } catch {
        return [{ path, expected: describePattern(p), actual: shown(text) }];
      }
      return matchJson(p, parsed, scope, path);
    }
    case 'xml':
      return [{ path, expected: describePattern(p), actual: shown(text) }];
    default:
      return unreachable(p, 'pattern kind');
  }
}

// ---------- JSON ----------

export function matchJson(pattern: Pattern, value: unknown, scope: Scope, path = '', limit = Infinity): Mismatch[] {
  const p = resolve(pattern, scope);
  const here = path;
  switch (p.kind) {
    case 'scalar':
      if (!jsonAccepts(p.type, value)) return [{ path: here, expected: describeScalar(p.type, p.facets), actual: shown(value) }];
      return p.facets && (typeof value === 'string' || typeof value === 'number') ? matchScalar(p, String(value), here, value) : [];
    case 'text-list':
    case 'union':
      return typeof value === 'string' ? matchText(p, value, scope, here) : [{ path: here, expected: describePattern(p), actual: shown(value) }];
    case 'literal':
      return value === p.value || (p.as !== undefined && jsonAccepts(p.as, value) && typeof value !== 'object' && sameScalarValue(p.as, String(p.value), String(value)))
        ? []
        : [{ path: here, expected: shown(p.value), actual: shown(value) }];
    case 'enum':
      return p.values.includes(String(value)) && (p.base === 'number' ? typeof value === 'number' : typeof value === 'string')
        ? []
        : [{ path: here, expected: `one of ${p.values.join(', ')}`, actual: shown(value) }];
    case 'optional':
      return value === null || value === undefined ? [] : matchJson(p.inner, value, scope, here, limit);
    case 'lookup':
      return matchJson(p.inner, value, scope, here, limit);
    case 'list': {
      if (!Array.isArray(value)) return [{ path: here, expected: 'a JSON array', actual: shown(value) }];
      const out: Mismatch[] = [];
      for (let i = 0; i < value.length && out.length < limit; i++) append(out, matchJson(p.inner, value[i], scope, `${here}[${i}]`, limit - out.length));
      return out;
    }
    case 'array':
      return matchJsonArray(p.items, value, scope, here, limit);
    case 'object': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return [{ path: here, expected: 'a JSON object', actual: shown(value) }];
      const obj = value as Record<string, unknown>;
      const out: Mismatch[] = [];
      const known = new Set<string>();
      for (const f of p.fields) {
        if (out.length >= limit) return out;
        known.add(f.key);
        const at = here ? `${here}.${f.key}` : f.key;
        if (!(f.key in obj)) {
          if (!f.optional) out.push({ path: at, expected: `key "${f.key}" (${describePattern(f.pattern)})`, actual: 'no such key' });
          continue;
        }
        if (f.optional && obj[f.key] === null) continue;
        append(out, matchJson(f.pattern, obj[f.key], scope, at, limit - out.length));
      }
      if (!p.open) {
        for (const k of Object.keys(obj)) {
          if (out.length >= limit) break;
          if (!known.has(k)) out.push({ path: here ? `${here}.${k}` : k, expected: 'no such key', actual: `unexpected key "${k}"` });
        }
      }
      return out;
    }
    case 'dictionary': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return [{ path: here, expected: 'a JSON object', actual: shown(value) }];
      const out: Mismatch[] = [];
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (out.length >= limit) break;
        const at = here ? `${here}.${k}` : k;
        append(out, matchText(p.key, k, scope, at));
        append(out, matchJson(p.value, v, scope, at, limit - out.length));
      }
      return out;
    }
    case 'xml':
      return [{ path: here, expected: 'an XML document', actual: shown(value) }];
    default:
      return [];
  }
}

/**
 * A text against a scalar: normalised as the type's XSD whiteSpace says, its
 * lexical form checked, then each facet; a broken facet is named as written.
 */
function matchScalar(p: ScalarPattern, text: string, path: string, actual: unknown): Mismatch[] {
  const row = SCALARS[p.type];
  const t = normaliseSpace(text, row.whiteSpace);
  if (!row.test(t)) return [{ path, expected: describeScalar(p.type, p.facets), actual: shown(actual) }];
  const broken = p.facets && violatedFacet(p.type, p.facets, t);
  return broken ? [{ path, expected: describeScalar(p.type, p.facets), actual: `${shown(actual)} (breaks ${broken})` }] : [];
}

/**
 * An enumeration's value, read as its base type reads text (XSD compares values, not texts):
 * white space normalised as the base says (an enumeration of xs:token or xs:int takes
 * " A " for "A"), and numbers by value ("+5" and "05" are 5).
 */
function enumHas(p: EnumPattern, text: string): boolean {
  if (p.values.includes(text)) return true;
  const row = SCALARS[p.base];
  const t = normaliseSpace(text, row.whiteSpace);
  if (p.values.includes(t)) return true;
  if (row.order !== 'number' || !row.test(t)) return false;
  // Integers as BigInt: two 64-bit ids a unit apart are the same Number.
  const value = (x: string) => (row.bounds ? BigInt(x) : Number(x));
  const n = value(t);
  return p.values.some((v) => row.test(v) && value(v) === n);
}

/** `(list T)`: each space-separated item a T; the list's facets count items (nmtokens' row measures so) and see the whole text. */
function matchTextList(p: TextListPattern, text: string, scope: Scope, path: string): Mismatch[] {
  const t = normaliseSpace(text, 'collapse');
  const out: Mismatch[] = [];
  const items = t === '' ? [] : t.split(' ');
  for (let i = 0; i < items.length && out.length < 10; i++) {
    for (const m of matchText(p.item, items[i], scope, path)) out.push({ ...m, expected: `item ${i + 1} of the list: ${m.expected}` });
  }
  const broken = p.facets && violatedFacet('nmtokens', p.facets, t);
  if (broken) out.push({ path, expected: describePattern(p), actual: `${shown(text)} (breaks ${broken})` });
  return out;
}

function matchJsonArray(items: Pattern[], value: unknown, scope: Scope, path: string, limit: number): Mismatch[] {
  if (!Array.isArray(value)) return [{ path, expected: 'a JSON array', actual: shown(value) }];
  const out: Mismatch[] = [];
  let i = 0;
  for (let k = 0; k < items.length && out.length < limit; k++) {
    const item = resolve(items[k], scope);
    if (item.kind === 'list') {
      const rest = items.length - k - 1;
      while (i < value.length - rest && out.length < limit) {
        append(out, matchJson(item.inner, value[i], scope, `${path}[${i}]`, limit - out.length));
        i++;
      }
      continue;
    }
    if (i >= value.length) {
      out.push({ path: `${path}[${i}]`, expected: describePattern(item), actual: 'nothing (array too short)' });
      continue;
    }
    append(out, matchJson(item, value[i], scope, `${path}[${i}]`, limit - out.length));
    i++;
  }
  for (; i < value.length && out.length < limit; i++) out.push({ path: `${path}[${i}]`, expected: 'no more items', actual: shown(value[i]) });
  return out;
}
