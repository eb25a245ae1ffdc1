import type { HeaderSpec, PathSegment, QueryParam } from '../contract/model';
import { describePattern } from './describe';
import { bodyKind } from './generate';
import { matchJson, matchText } from './match';
import { effectiveElement, lookupType } from './resolve';
import { scalarAccepts } from './scalars';
import type { Occurs, Pattern, ScalarType, Scope, XmlContent, XmlElementPattern } from './types';

/**
 * Comparison: does pattern A accept every value pattern B accepts ("A
 * encompasses B")? Decided on the patterns themselves, never by sampling.
 * A and B each have their own Scope: an older and a newer contract name their
 * types independently. The answer is the list of every difference found, each
 * with its place and what A and B say there; an empty list means "yes".
 *
 * The compatibility check calls this twice per scenario: newer ⊇ older on the
 * request side, older ⊇ newer on the response side.
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

function run(c: Comparer, work: () => void): Difference[] {
  try {
    work();
  } catch (e) {
    if (e !== STOP) throw e;
  }
  return c.differences;
}

interface Named {
  p: Pattern;
  name?: string;
}

/** Follows refs, remembering the last type name passed through (for recursion-safe memoisation). */
function deref(p: Pattern, scope: Scope): Named {
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

/** One place in an element's child sequence, with the type name it came from when it came through a ref. */
interface SeqSlot {
  local: string;
  min: 0 | 1;
  max: 1 | typeof Infinity;
  pattern: XmlElementPattern;
  name?: string;
}

function combine(a: Occurs, b: Occurs): Occurs {
  if (a === 'multiple' || b === 'multiple') return 'multiple';
  if (a === 'optional' || b === 'optional') return 'optional';
  return 'once';
}

function seqSlot(pattern: XmlElementPattern, occurs: Occurs, name?: string): SeqSlot {
  return { local: pattern.local, min: occurs === 'once' ? 1 : 0, max: occurs === 'multiple' ? Infinity : 1, pattern, name };
}

interface Content {
  text?: Pattern;
  slots: SeqSlot[];
}

/** Like resolve.contentSlots, keeping the names of referenced types. */
function expandContent(content: readonly XmlContent[], scope: Scope): Content {
  const out: Content = { slots: [] };
  for (const c of content) {
    if (c.kind === 'xml') out.slots.push(seqSlot(c, c.occurs));
    else if (c.kind === 'xml-text') out.text ??= c.pattern;
    else {
      const target = lookupType(c.name, scope);
      if (target.kind === 'xml') out.slots.push(seqSlot(target, combine(c.occurs, target.occurs), c.name));
      else out.text ??= c.occurs === 'once' ? { kind: 'ref', name: c.name } : { kind: 'optional', inner: { kind: 'ref', name: c.name } };
    }
  }
  return out;
}

function occursWord(s: SeqSlot): string {
  return s.max === Infinity ? 'repeated' : s.min === 0 ? 'optional' : 'required';
}

function sequenceWords(slots: readonly SeqSlot[]): string {
  return `(${slots.map((s) => s.local + (s.max === Infinity ? '*' : s.min === 0 ? '?' : '')).join(', ') || 'none'})`;
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
      if (a.kind === 'optional') return this.value(a.inner, b.inner, path, mode);
      const absent = mode === 'json' ? matchJson(a, null, this.aScope) : matchText(a, '', this.aScope);
      if (absent.length > 0) this.add({ kind: 'optional', target: 'node', path, name: lastName(path), a: describePattern(a), b: describePattern(b) });
      return this.value(a, b.inner, path, mode);
    }
    if (a.kind === 'optional') return this.value(a.inner, b, path, mode);

    const values = finiteValues(b, mode);
    if (values) {
      const rejected = values.some((v) => (mode === 'json' ? matchJson(a, v, this.aScope) : matchText(a, v as string, this.aScope)).length > 0);
      if (rejected) this.typeDifference(a, b, path, mode);
      return;
    }
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
      this.value(af.pattern, bf.pattern, at, 'json');
    }
    for (const af of a.fields) {
      if (af.optional || bFields.has(af.key)) continue;
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

  /**
   * Child sequences as regular languages over node names (each slot once,
   * optional or repeated): every sequence B allows must be allowed by A.
   * Names one side lacks are reported first and left out; the rest is decided
   * slot by slot when every name occurs once on each side, and otherwise
   * exactly by walking B's automaton against the subset construction of A's.
   */
  private sequence(aAll: SeqSlot[], bAll: SeqSlot[], path: string): void {
    const aNames = new Set(aAll.map((s) => s.local));
    const bNames = new Set(bAll.map((s) => s.local));
    for (const s of bAll) {
      if (!aNames.has(s.local)) this.add({ kind: 'unexpected', target: 'node', path: `${path}/${s.local}`, name: s.local, a: 'no such node', b: `node <${s.local}> (${occursWord(s)})` });
    }
    for (const s of aAll) {
      if (s.min === 1 && !bNames.has(s.local)) this.add({ kind: 'missing', target: 'node', path: `${path}/${s.local}`, name: s.local, a: `node <${s.local}> (required)`, b: 'no such node' });
    }
    const A = aAll.filter((s) => bNames.has(s.local));
    const B = bAll.filter((s) => aNames.has(s.local));
    const m = A.length;
    const n = B.length;
    const orderDifference = (name: string) =>
      this.add({ kind: 'order', target: 'node', path, name, a: sequenceWords(aAll), b: sequenceWords(bAll) });

    // The usual case, decided slot by slot: each name once on both sides (so both keep the same names).
    // B's words fit A's iff the order is the same and each slot's count range fits; a pair of
    // names in the other order is a word B makes (every slot can be present) that A refuses.
    if (new Set(A.map((s) => s.local)).size === m && new Set(B.map((s) => s.local)).size === n) {
      const at = A.findIndex((s, i) => s.local !== B[i].local);
      if (at >= 0) orderDifference(B[at].local);
      const index = new Map(A.map((s, i) => [s.local, i]));
      for (const bs of B) {
        const as = A[index.get(bs.local)!];
        if (bs.min < as.min) this.add({ kind: 'optional', target: 'node', path: `${path}/${bs.local}`, name: bs.local, a: 'required', b: 'optional' });
        if (bs.max > as.max) this.add({ kind: 'repeated', target: 'node', path: `${path}/${bs.local}`, name: bs.local, a: 'at most one', b: 'repeated' });
      }
      for (const bs of B) {
        const as = A[index.get(bs.local)!];
        this.element(as.pattern, as.name, bs.pattern, bs.name, `${path}/${bs.local}${as.max === Infinity || bs.max === Infinity ? '[*]' : ''}`);
      }
      return;
    }

    // An A state is slot i with k (0 or 1) nodes taken there, encoded i * 2 + k.
    const close = (states: Iterable<number>): number[] => {
      const out = new Set<number>();
      const stack = [...states];
      while (stack.length) {
        const s = stack.pop()!;
        if (out.has(s)) continue;
        out.add(s);
        const i = s >> 1;
        const k = s & 1;
        if (i < m && k >= A[i].min) stack.push((i + 1) * 2);
      }
      return [...out].sort((x, y) => x - y);
    };
    const pairs = new Set<number>();
    const step = (states: number[], local: string, bi: number): number[] => {
      const next: number[] = [];
      for (const s of states) {
        const i = s >> 1;
        const k = s & 1;
        if (i < m && A[i].local === local && (k === 0 || A[i].max === Infinity)) {
          next.push(i * 2 + 1);
          pairs.add(i * n + bi);
        }
      }
      return close(next);
    };
    const accepting = (states: number[]) => states.includes(m * 2);
    const blocking = (states: number[]): SeqSlot[] => states.map((s) => [s >> 1, s & 1]).filter(([i, k]) => i < m && k === 0 && A[i].min === 1).map(([i]) => A[i]);
    const onlyOptionalInB = (local: string) => B.filter((s) => s.local === local).every((s) => s.min === 0);

    const visited = new Set<string>();
    const work: [number, number[]][] = [[0, close([0])]];
    while (work.length) {
      const [bs, as] = work.pop()!;
      const key = `${bs}|${as.join(',')}`;
      if (visited.has(key)) continue;
      visited.add(key);
      const bi = bs >> 1;
      const bk = bs & 1;
      if (bi === n) {
        if (!accepting(as)) {
          const need = blocking(as)[0];
          if (need && onlyOptionalInB(need.local)) this.add({ kind: 'optional', target: 'node', path: `${path}/${need.local}`, name: need.local, a: 'required', b: 'optional' });
          else orderDifference(need?.local ?? '');
        }
        continue;
      }
      const slot = B[bi];
      if (bk >= slot.min) work.push([(bi + 1) * 2, as]);
      if (bk === 0 || slot.max === Infinity) {
        const next = step(as, slot.local, bi);
        if (next.length > 0) {
          work.push([bi * 2 + 1, next]);
          continue;
        }
        const single = A.filter((s) => s.local === slot.local).every((s) => s.max === 1);
        const justTook = as.some((s) => (s & 1) === 1 && A[s >> 1].local === slot.local);
        const need = blocking(as).find((s) => s.local !== slot.local);
        if (slot.max === Infinity && single && justTook) {
          this.add({ kind: 'repeated', target: 'node', path: `${path}/${slot.local}`, name: slot.local, a: 'at most one', b: 'repeated' });
        } else if (need && onlyOptionalInB(need.local)) {
          this.add({ kind: 'optional', target: 'node', path: `${path}/${need.local}`, name: need.local, a: 'required', b: 'optional' });
        } else orderDifference(slot.local);
      }
    }

    for (const pair of [...pairs].sort((x, y) => x - y)) {
      const as = A[Math.floor(pair / n)];
      const bs = B[pair % n];
      const at = `${path}/${bs.local}${as.max === Infinity || bs.max === Infinity ? '[*]' : ''}`;
      this.element(as.pattern, as.name, bs.pattern, bs.name, at);
    }
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

function prefixed(where: string, ds: Difference[]): Difference[] {
  return ds.map((d) => ({ ...d, path: d.path ? `${where} ${d.path}` : where }));
}

/** Does A accept every value of B (JSON, or text when `mode` is 'text')? */
export function encompasses(a: Pattern, aScope: Scope, b: Pattern, bScope: Scope, mode: TextMode = 'json', opts: CompareOptions = {}): Difference[] {
  const c = new Comparer(aScope, bScope, opts.stopAtFirst, opts.stopAtFirst);
  return run(c, () => c.value(a, b, '', mode));
}

/**
 * Bodies, as the HTTP matcher reads them: XML, JSON or text by the pattern's
 * form. No pattern accepts any body; `where` is "REQUEST.BODY" or "RESPONSE.BODY".
 */
export function compareBodies(a: Pattern | undefined, aScope: Scope, b: Pattern | undefined, bScope: Scope, where: string, opts: CompareOptions = {}): Difference[] {
  if (!a) return [];
  if (!b) return [{ kind: 'type', target: 'value', path: where, a: describePattern(a), b: 'any body (none declared)', narrower: true }];
  const ka = bodyKind(a, aScope);
  const kb = bodyKind(b, bScope);
  const c = new Comparer(aScope, bScope, opts.stopAtFirst, opts.stopAtFirst);
  if (ka === 'text') {
    const ar = deref(a, aScope).p;
    if (ar.kind === 'scalar' && (ar.type === 'string' || ar.type === 'anything')) return [];
  }
  if (ka !== kb) {
    const ar = deref(a, aScope);
    const br = deref(b, bScope);
    return [{ kind: 'type', target: 'value', path: where, a: bodyWords(ar.p), b: bodyWords(br.p), narrower: false }];
  }
  if (ka === 'xml') {
    // `(Envelope?)` as a whole body: an empty body is then allowed too.
    let ar = deref(a, aScope);
    let br = deref(b, bScope);
    const aOptional = ar.p.kind === 'optional';
    if (ar.p.kind === 'optional') ar = deref(ar.p.inner, aScope);
    if (br.p.kind === 'optional') {
      if (!aOptional) return [{ kind: 'optional', target: 'node', path: where, a: 'required', b: 'optional' }];
      br = deref(br.p.inner, bScope);
    }
    if (ar.p.kind !== 'xml' || br.p.kind !== 'xml') return [{ kind: 'type', target: 'value', path: where, a: bodyWords(ar.p), b: bodyWords(br.p), narrower: false }];
    const ae = ar.p;
    const be = br.p;
    const aLocal = effectiveElement(ae, aScope).local;
    const bLocal = effectiveElement(be, bScope).local;
    if (aLocal !== bLocal) return [{ kind: 'type', target: 'value', path: where, a: `an XML document <${aLocal}>`, b: `an XML document <${bLocal}>`, narrower: false }];
    run(c, () => c.element(ae, ar.name, be, br.name, aLocal));
  } else run(c, () => c.value(a, b, '', ka === 'json' ? 'json' : 'text'));
  return prefixed(where, c.differences);
}

function bodyWords(p: Pattern): string {
  return p.kind === 'xml' ? `an XML document <${p.local}>` : describePattern(p);
}

/**
 * Header sets: A's matcher checks only the headers it declares, so B's extra
 * headers never matter; a header A requires must always be in B.
 */
export function compareHeaders(a: readonly HeaderSpec[], aScope: Scope, b: readonly HeaderSpec[], bScope: Scope, where: string, opts: CompareOptions = {}): Difference[] {
  const out: Difference[] = [];
  const c = new Comparer(aScope, bScope, opts.stopAtFirst, opts.stopAtFirst);
  for (const ah of a) {
    const bh = b.find((h) => h.name.toLowerCase() === ah.name.toLowerCase());
    const at = `${where} ${ah.name}`;
    if (!bh) {
      if (!ah.optional) out.push({ kind: 'missing', target: 'header', path: at, name: ah.name, a: `header ${ah.name} ${describePattern(ah.pattern)}`, b: 'no such header' });
      continue;
    }
    if (bh.optional && !ah.optional) out.push({ kind: 'optional', target: 'header', path: at, name: ah.name, a: 'required', b: 'optional' });
    if (opts.stopAtFirst && out.length > 0) return out;
    run(c, () => c.value(ah.pattern, bh.pattern, at, 'text'));
    if (opts.stopAtFirst && c.differences.length > 0) return c.differences;
  }
  return [...out, ...c.differences];
}

/** Query parameters: all optional; a parameter A does not declare is rejected by A. */
export function compareQuery(a: readonly QueryParam[], aScope: Scope, b: readonly QueryParam[], bScope: Scope, where: string, opts: CompareOptions = {}): Difference[] {
  const c = new Comparer(aScope, bScope, opts.stopAtFirst, opts.stopAtFirst);
  const out: Difference[] = [];
  for (const bq of b) {
    const aq = a.find((q) => q.name === bq.name);
    const at = `${where} ${bq.name}`;
    if (!aq) out.push({ kind: 'unexpected', target: 'query', path: at, name: bq.name, a: 'no such query parameter', b: `query parameter ${bq.name} ${describePattern(bq.pattern)}` });
    else run(c, () => c.value(aq.pattern, bq.pattern, at, 'text'));
    if (opts.stopAtFirst && out.length + c.differences.length > 0) break;
  }
  return [...out, ...c.differences];
}

/** Do two paths name the same endpoint: same length, equal literal segments (a parameter may face anything)? */
export function samePathShape(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((s, i) => s.pattern !== undefined || b[i].pattern !== undefined || s.name === b[i].name);
}

/** Path segments of two paths of the same shape: each of B's segment values must be accepted by A's. */
export function comparePath(a: readonly PathSegment[], aScope: Scope, b: readonly PathSegment[], bScope: Scope, where: string, opts: CompareOptions = {}): Difference[] {
  if (!samePathShape(a, b)) return [{ kind: 'type', target: 'value', path: where, a: `/${a.map((s) => s.name).join('/')}`, b: `/${b.map((s) => s.name).join('/')}`, narrower: false }];
  const c = new Comparer(aScope, bScope, opts.stopAtFirst, opts.stopAtFirst);
  a.forEach((as, i) => {
    const bs = b[i];
    if (opts.stopAtFirst && c.differences.length > 0) return;
    const at = `${where} ${bs.pattern ? bs.name : as.name}`;
    const ap: Pattern = as.pattern ?? { kind: 'literal', value: as.name };
    const bp: Pattern = bs.pattern ?? { kind: 'literal', value: bs.name };
    if (!as.pattern && !bs.pattern) return;
    run(c, () => c.value(ap, bp, at, 'text'));
  });
  return c.differences;
}
