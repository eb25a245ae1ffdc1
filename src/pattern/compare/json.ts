import { deref, type CompareContext } from './context';
import { describePattern } from '../describe';
import { matchText } from '../match/index';
import type { Pattern, Scope } from '../types';

/*
 * JSON structures: objects (required, optional and further keys, open or
 * closed), dictionaries, lists and fixed arrays, each pair of the same or
 * compatible kinds. Their members are compared back through the context's
 * `value`, so nested and recursive types go through the dispatcher and its
 * memo in ./compare. Paths are written the JSON way: "pets[*].id", "m.*".
 */

type Of<K extends Pattern['kind']> = Extract<Pattern, { kind: K }>;

const ANYTHING: Pattern = { kind: 'scalar', type: 'anything' };

function join(path: string, segment: string): string {
  if (!path) return segment.replace(/^[./]/, '');
  return path + segment;
}

export function compareObjects(c: CompareContext, a: Of<'object'>, b: Of<'object'>, path: string): void {
  const aFields = new Map(a.fields.map((f) => [f.key, f]));
  const bFields = new Map(b.fields.map((f) => [f.key, f]));
  for (const bf of b.fields) {
    const at = join(path, `.${bf.key}`);
    const af = aFields.get(bf.key);
    if (!af) {
      if (!a.open) c.add({ kind: 'unexpected', target: 'node', path: at, name: bf.key, a: 'no such key', b: `key "${bf.key}" ${describePattern(bf.pattern)}` });
      continue;
    }
    if (bf.optional && !af.optional) c.add({ kind: 'optional', target: 'node', path: at, name: bf.key, a: 'required', b: 'optional' });
    // An optional key may also hold null (as the matcher reads it).
    const nullable = (f: typeof af): Pattern => (f.optional ? { kind: 'optional', inner: f.pattern } : f.pattern);
    c.value(nullable(af), nullable(bf), at, 'json');
  }
  for (const af of a.fields) {
    if (bFields.has(af.key)) continue;
    // B's further keys may include this one, with any value.
    if (af.optional && b.open) c.value(af.pattern, ANYTHING, join(path, `.${af.key}`), 'json');
    if (af.optional) continue;
    c.add({ kind: 'missing', target: 'node', path: join(path, `.${af.key}`), name: af.key, a: `key "${af.key}" ${describePattern(af.pattern)}`, b: 'no such key' });
  }
  if (b.open && !a.open) c.add({ kind: 'open', target: 'node', path, a: 'only the keys listed', b: 'further keys ("...")' });
}

export function compareDictionaries(c: CompareContext, a: Of<'dictionary'>, b: Of<'dictionary'>, path: string): void {
  c.value(a.key, b.key, join(path, '.*'), 'text');
  c.value(a.value, b.value, join(path, '.*'), 'json');
}

/** A dictionary A against an object B: each of B's keys must be a key of A's, with a value A's values accept. */
export function dictionaryOverObject(c: CompareContext, a: Of<'dictionary'>, b: Of<'object'>, path: string): void {
  for (const f of b.fields) {
    if (matchText(a.key, f.key, c.aScope).length > 0)
      c.add({ kind: 'unexpected', target: 'node', path: join(path, `.${f.key}`), name: f.key, a: describePattern(a), b: `key "${f.key}"` });
    else c.value(a.value, f.pattern, join(path, `.${f.key}`), 'json');
  }
  if (b.open) c.value(a.value, ANYTHING, join(path, '.*'), 'json');
}

export function compareLists(c: CompareContext, a: Of<'list'>, b: Of<'list'>, path: string): void {
  c.value(a.inner, b.inner, join(path, '[*]'), 'json');
}

/** A list A against a fixed array B: each of B's items (or the items of a list spread into it) must be an item of A. */
export function listOverArray(c: CompareContext, a: Of<'list'>, b: Of<'array'>, path: string): void {
  b.items.forEach((item, i) => {
    const r = deref(item, c.bScope).p;
    if (r.kind === 'list') c.value(a.inner, r.inner, join(path, `[${i}]`), 'json');
    else c.value(a.inner, item, join(path, `[${i}]`), 'json');
  });
}

/** A fixed array A against a fixed array or a list B: item by item, with spread lists in the same places. */
export function compareArrays(c: CompareContext, a: Of<'array'>, b: Of<'array' | 'list'>, path: string): void {
  const spread = (items: Pattern[], scope: Scope) => items.map((i) => deref(i, scope).p.kind === 'list');
  if (b.kind === 'list') {
    const only = a.items.length === 1 ? deref(a.items[0], c.aScope).p : undefined;
    if (only?.kind === 'list') return c.value(only.inner, b.inner, join(path, '[*]'), 'json');
    return c.typeDifference(a, b, path, 'json', `a JSON array of ${a.items.length} item(s)`, describePattern(b));
  }
  const sa = spread(a.items, c.aScope);
  const sb = spread(b.items, c.bScope);
  if (a.items.length !== b.items.length || sa.some((s, i) => s !== sb[i])) {
    return c.typeDifference(a, b, path, 'json', `a JSON array of ${a.items.length} item(s)`, `a JSON array of ${b.items.length} item(s)`);
  }
  a.items.forEach((item, i) => c.value(item, b.items[i], join(path, `[${i}]`), 'json'));
}
