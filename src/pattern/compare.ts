import { compareSequences, expandContent, sequenceWords, type Content, type SeqSlot } from './compare-sequence';
import { describePattern } from './describe';
import { matchJson, matchText } from './match';
import { effectiveElement, lookupType } from './resolve';
import { scalarAccepts } from './scalars';
import type { Pattern, ScalarType, Scope, XmlElementPattern } from './types';

/**
 * Comparison: does pattern A accept every value pattern B accepts ("A
 * encompasses B")? Decided on the patterns themselves, never by sampling.
 * A and B each have their own Scope: an older and a newer contract name their
 * types independently. The answer is the list of every difference found, each
 * with its place and what A and B say there; an empty list means "yes".
 *
 * The compatibility check calls this twice per scenario: newer ⊇ older on the
 * request side, older ⊇ newer on the response side. Child sequences are in
 * compare-sequence.ts; headers, query, path and whole bodies in compare-http.ts.
 */

export type DifferenceKind =
  /** B can produce a value of a type A does not accept. */
  | 'type'
  /** B can produce a node, key, attribute or query parameter A does not allow. */
  | 'unexpected'
  /** A requires a node, key, attribute or header that B never has. */
  | 'missing'
  /** A requires it; B may leave it out (or, for a JSON value, make it null). */
  | 'optional'
  /** A allows one such node in a row; B may repeat it. */
  | 'repeated'
  /** B may send the node as xsi:nil; A may not. */
  | 'nillable'
  /** B's child nodes may come in a sequence A's order does not allow. */
  | 'order'
  /** B's JSON object may carry keys beyond its own; A's object is closed. */
  | 'open';

/** What a difference is about: the part of a message it names. */
export type DifferenceTarget = 'node' | 'header' | 'query' | 'value';

export interface Difference {
  kind: DifferenceKind;
  target: DifferenceTarget;
  /** "Envelope/Body/getPetResponse/name", "pets[*].id", "" for the root. */
  path: string;
  /** The node, key, attribute, header or parameter concerned (kinds other than 'type'). */
  name?: string;
  /** What A says here, in report words: "(number)", "node <id>", "required". */
  a: string;
  /** What B says here. */
  b: string;
  /** For 'type': B accepts every value of A (A is strictly narrower), so the change only narrows or widens. */
  narrower?: boolean;
}

export type TextMode = 'json' | 'text';

/** Options of the entry functions. `stopAtFirst`: answer yes or no quickly; at most one difference is returned. */
export interface CompareOptions {
  stopAtFirst?: boolean;
}

/** Thrown inside a comparison that stops at its first difference; never escapes this module. */
const STOP = Symbol('stop');

export function run(c: Comparer, work: () => void): Difference[] {
  try {
    work();
  } catch (e) {
    if (e !== STOP) throw e;
  }
  return c.differences;
}

export interface Named {
  p: Pattern;
  name?: string;
}

/** Follows refs, remembering the last type name passed through (for recursion-safe memoisation). */
export function deref(p: Pattern, scope: Scope): Named {
  let name: string | undefined;
  let cur = p;
  for (let i = 0; cur.kind === 'ref' || cur.kind === 'lookup'; i++) {
    if (i > 64) break;
    if (cur.kind === 'lookup') {
      cur = cur.inner;
      continue;
    }
    name = cur.name;
    cur = lookupType(cur.name, scope);
  }
  return { p: cur, name };
}

function join(path: string, segment: string): string {
  if (!path) return segment.replace(/^[./]/, '');
  return path + segment;
}

const ANYTHING: Pattern = { kind: 'scalar', type: 'anything' };
const EMPTY_TEXT: Pattern = { kind: 'scalar', type: 'empty' };

/** Finite patterns: every value they accept, listed (JSON values, or texts). */
function finiteValues(p: Pattern, mode: TextMode): unknown[] | undefined {
  switch (p.kind) {
    case 'literal':
      return mode === 'json' ? [p.value] : [String(p.value ?? '')];
    case 'enum':
      return mode === 'json' && p.base === 'number' ? p.values.map(Number) : p.values;
    case 'scalar':
      if (p.type === 'boolean') return mode === 'json' ? [true, false] : ['true', 'false'];
      if (p.type === 'null') return mode === 'json' ? [null] : ['', 'null'];
      if (p.type === 'empty') return mode === 'json' ? ['', null] : [''];
      return undefined;
    default:
      return undefined;
  }
}

const JSON_STRINGS = new Set<ScalarType>(['string', 'date', 'datetime', 'time', 'uuid', 'email', 'url', 'number-in-string']);

/** Scalar inclusion where JSON types are distinct: a JSON string never holds a JSON number. */
function jsonScalarAccepts(wide: ScalarType, narrow: ScalarType): boolean {
  if (wide === narrow || wide === 'anything') return true;
  if (wide === 'string') return JSON_STRINGS.has(narrow);
  if (wide === 'empty') return narrow === 'null';
  return false;
}

/** Scalar inclusion on text (XML text, headers, path segments): every text is a string. */
function textScalarAccepts(wide: ScalarType, narrow: ScalarType): boolean {
  if (wide === 'string' || wide === 'anything') return true;
  return scalarAccepts(wide, narrow);
}

/**
 * One comparison: A's scope, B's scope, the differences found so far, and the
 * pairs of named types already compared (recursive types terminate: a pair
 * seen again adds nothing new).
 */
export class Comparer {
  readonly differences: Difference[] = [];
  private readonly seen = new Set<string>();
  private readonly reported = new Set<string>();

  constructor(
    readonly aScope: Scope,
    readonly bScope: Scope,
    /** A probe only answers yes or no: it does not work out the direction of type differences. */
    private readonly probe = false,
    private readonly stopAtFirst = false,
  ) {}

  private add(d: Difference): void {
    const key = `${d.kind}\u0000${d.path}\u0000${d.name ?? ''}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.differences.push(d);
    if (this.stopAtFirst) throw STOP;
  }

  /** Has this pair of named types been compared already (in this mode)? Marks it as compared. */
  private visited(mode: string, aName: string | undefined, bName: string | undefined): boolean {
    if (aName === undefined || bName === undefined) return false;
    const key = `${mode}\u0000${aName}\u0000${bName}`;
    if (this.seen.has(key)) return true;
    this.seen.add(key);
    return false;
  }

  private typeDifference(a: Pattern, b: Pattern, path: string, mode: TextMode | 'xml', aWords?: string, bWords?: string): void {
    if (this.probe) {
      this.add({ kind: 'type', target: 'value', path, a: '', b: '' });
      return;
    }
    const reverse = new Comparer(this.bScope, this.aScope, true, true);
    run(reverse, () => {
      if (mode === 'xml' && a.kind === 'xml' && b.kind === 'xml') reverse.element(b, undefined, a, undefined, path);
      else reverse.value(b, a, path, mode === 'xml' ? 'text' : mode);
    });
    this.add({ kind: 'type', target: 'value', path, a: aWords ?? describePattern(a), b: bWords ?? describePattern(b), narrower: reverse.differences.length === 0 });
  }

  /** A value: JSON (mode 'json') or text (XML text, headers, path segments, plain bodies). */
  value(aIn: Pattern, bIn: Pattern, path: string, mode: TextMode): void {
    const ar = deref(aIn, this.aScope);
    const br = deref(bIn, this.bScope);
    if (this.visited(mode, ar.name, br.name)) return;
    const a = ar.p;
    const b = br.p;
    if (a.kind === 'scalar' && a.type === 'anything') return;
    if (a.kind === 'scalar' && a.type === 'string' && mode === 'text' && b.kind !== 'xml') return;

    if (b.kind === 'optional') {
      // A keeps its optional wrapper: a null among B's values is still fine.
      if (a.kind === 'optional') return this.value(a, b.inner, path, mode);
      const absent = mode === 'json' ? matchJson(a, null, this.aScope) : matchText(a, '', this.aScope);
      if (absent.length > 0) this.add({ kind: 'optional', target: 'node', path, name: lastName(path), a: describePattern(a), b: describePattern(b) });
      return this.value(a, b.inner, path, mode);
    }
    // Finite B (literals, enums, booleans, null): each value is put to A itself, optional or not.
    const values = finiteValues(b, mode);
    if (values) {
      const rejected = values.some((v) => (mode === 'json' ? matchJson(a, v, this.aScope) : matchText(a, v as string, this.aScope)).length > 0);
      if (rejected) this.typeDifference(a.kind === 'optional' ? a.inner : a, b, path, mode);
      return;
    }
    if (a.kind === 'optional') return this.value(a.inner, b, path, mode);

    if (a.kind === 'scalar' && b.kind === 'scalar') {
      const ok = mode === 'json' ? jsonScalarAccepts(a.type, b.type) : textScalarAccepts(a.type, b.type);
      if (!ok) this.typeDifference(a, b, path, mode);
      return;
    }
    if (a.kind === 'object' && b.kind === 'object') return this.object(a, b, path);
    if (a.kind === 'dictionary' && b.kind === 'dictionary') {
      this.value(a.key, b.key, join(path, '.*'), 'text');
      return this.value(a.value, b.value, join(path, '.*'), 'json');
    }
    if (a.kind === 'dictionary' && b.kind === 'object') {
      for (const f of b.fields) {
        if (matchText(a.key, f.key, this.aScope).length > 0) this.add({ kind: 'unexpected', target: 'node', path: join(path, `.${f.key}`), name: f.key, a: describePattern(a), b: `key "${f.key}"` });
        else this.value(a.value, f.pattern, join(path, `.${f.key}`), 'json');
      }
      if (b.open) this.value(a.value, ANYTHING, join(path, '.*'), 'json');
      return;
    }
    if (a.kind === 'list' && b.kind === 'list') return this.value(a.inner, b.inner, join(path, '[*]'), 'json');
    if (a.kind === 'list' && b.kind === 'array') {
      b.items.forEach((item, i) => {
        const r = deref(item, this.bScope).p;
        if (r.kind === 'list') this.value(a.inner, r.inner, join(path, `[${i}]`), 'json');
        else this.value(a.inner, item, join(path, `[${i}]`), 'json');
      });
      return;
    }
    if (a.kind === 'array' && (b.kind === 'array' || b.kind === 'list')) return this.array(a, b, path);
    if (a.kind === 'xml' && b.kind === 'xml') return this.element(a, ar.name, b, br.name, path);
    this.typeDifference(a, b, path, mode);
  }

  private object(a: Extract<Pattern, { kind: 'object' }>, b: Extract<Pattern, { kind: 'object' }>, path: string): void {
    const aFields = new Map(a.fields.map((f) => [f.key, f]));
    const bFields = new Map(b.fields.map((f) => [f.key, f]));
    for (const bf of b.fields) {
      const at = join(path, `.${bf.key}`);
      const af = aFields.get(bf.key);
      if (!af) {
        if (!a.open) this.add({ kind: 'unexpected', target: 'node', path: at, name: bf.key, a: 'no such key', b: `key "${bf.key}" ${describePattern(bf.pattern)}` });
        continue;
      }
      if (bf.optional && !af.optional) this.add({ kind: 'optional', target: 'node', path: at, name: bf.key, a: 'required', b: 'optional' });
      // An optional key may also hold null (as the matcher reads it).
      const nullable = (f: typeof af): Pattern => (f.optional ? { kind: 'optional', inner: f.pattern } : f.pattern);
      this.value(nullable(af), nullable(bf), at, 'json');
    }
    for (const af of a.fields) {
      if (bFields.has(af.key)) continue;
      // B's further keys may include this one, with any value.
      if (af.optional && b.open) this.value(af.pattern, ANYTHING, join(path, `.${af.key}`), 'json');
      if (af.optional) continue;
      this.add({ kind: 'missing', target: 'node', path: join(path, `.${af.key}`), name: af.key, a: `key "${af.key}" ${describePattern(af.pattern)}`, b: 'no such key' });
    }
    if (b.open && !a.open) this.add({ kind: 'open', target: 'node', path, a: 'only the keys listed', b: 'further keys ("...")' });
  }

  private array(a: Extract<Pattern, { kind: 'array' }>, b: Extract<Pattern, { kind: 'array' | 'list' }>, path: string): void {
    const spread = (items: Pattern[], scope: Scope) => items.map((i) => deref(i, scope).p.kind === 'list');
    if (b.kind === 'list') {
      const only = a.items.length === 1 ? deref(a.items[0], this.aScope).p : undefined;
      if (only?.kind === 'list') return this.value(only.inner, b.inner, join(path, '[*]'), 'json');
      return this.typeDifference(a, b, path, 'json', `a JSON array of ${a.items.length} item(s)`, describePattern(b));
    }
    const sa = spread(a.items, this.aScope);
    const sb = spread(b.items, this.bScope);
    if (a.items.length !== b.items.length || sa.some((s, i) => s !== sb[i])) {
      return this.typeDifference(a, b, path, 'json', `a JSON array of ${a.items.length} item(s)`, `a JSON array of ${b.items.length} item(s)`);
    }
    a.items.forEach((item, i) => this.value(item, b.items[i], join(path, `[${i}]`), 'json'));
  }

  /** Two XML elements at the same place (their names were matched by the caller). */
  element(aIn: XmlElementPattern, aName: string | undefined, bIn: XmlElementPattern, bName: string | undefined, path: string): void {
    const aKey = aIn.typeRef ?? aName;
    const bKey = bIn.typeRef ?? bName;
    if (this.visited('xml', aKey, bKey)) return;
    const a = effectiveElement(aIn, this.aScope);
    const b = effectiveElement(bIn, this.bScope);
    if (a.local !== b.local) {
      this.add({ kind: 'type', target: 'value', path, a: `node <${a.local}>`, b: `node <${b.local}>`, narrower: false });
      return;
    }
    if (b.nillable && !a.nillable) this.add({ kind: 'nillable', target: 'node', path, name: a.local, a: 'not nillable', b: 'nillable (xsi:nil="true")' });

    const aAttrs = new Map(a.attributes.map((x) => [x.local, x]));
    const bAttrs = new Map(b.attributes.map((x) => [x.local, x]));
    for (const ba of b.attributes) {
      const at = `${path}/@${ba.local}`;
      const aa = aAttrs.get(ba.local);
      if (!aa) {
        this.add({ kind: 'unexpected', target: 'node', path: at, name: `@${ba.local}`, a: 'no such attribute', b: `attribute ${ba.local} ${describePattern(ba.pattern)}` });
        continue;
      }
      if (ba.optional && !aa.optional) this.add({ kind: 'optional', target: 'node', path: at, name: `@${ba.local}`, a: 'required', b: 'optional' });
      this.value(aa.pattern, ba.pattern, at, 'text');
    }
    for (const aa of a.attributes) {
      if (aa.optional || bAttrs.has(aa.local)) continue;
      this.add({ kind: 'missing', target: 'node', path: `${path}/@${aa.local}`, name: `@${aa.local}`, a: `attribute ${aa.local} ${describePattern(aa.pattern)}`, b: 'no such attribute' });
    }

    const ac = expandContent(a.content, this.aScope);
    const bc = expandContent(b.content, this.bScope);
    if (ac.text || bc.text) {
      const aText = ac.text ?? (ac.slots.length === 0 ? EMPTY_TEXT : undefined);
      const bText = bc.text ?? (bc.slots.length === 0 ? EMPTY_TEXT : undefined);
      if (aText && bText) this.value(aText, bText, path, 'text');
      else this.add({ kind: 'type', target: 'value', path, a: contentWords(ac), b: contentWords(bc), narrower: false });
      if (!aText || !bText) return;
    }
    this.sequence(ac.slots, bc.slots, path);
  }

  /** Children in order: the sequences first, then each pair of children that stand for each other. */
  private sequence(aAll: SeqSlot[], bAll: SeqSlot[], path: string): void {
    for (const { a, b, path: at } of compareSequences(aAll, bAll, path, (d) => this.add(d))) this.element(a.pattern, a.name, b.pattern, b.name, at);
  }
}

function contentWords(c: Content): string {
  if (c.text) return describePattern(c.text);
  if (c.slots.length === 0) return 'no content';
  return `child nodes ${sequenceWords(c.slots)}`;
}

function lastName(path: string): string | undefined {
  const m = /([^./\s[\]]+)(\[\*\]|\[\d+\])?$/.exec(path);
  return m?.[1];
}

/** Does A accept every value of B (JSON, or text when `mode` is 'text')? */
export function encompasses(a: Pattern, aScope: Scope, b: Pattern, bScope: Scope, mode: TextMode = 'json', opts: CompareOptions = {}): Difference[] {
  const c = new Comparer(aScope, bScope, opts.stopAtFirst, opts.stopAtFirst);
  return run(c, () => c.value(a, b, '', mode));
}
