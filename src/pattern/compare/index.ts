import { Stop, untilStopped } from '../../errors';
import { deref, type CompareContext } from './context';
import { compareArrays, compareDictionaries, compareLists, compareObjects, dictionaryOverObject, listOverArray } from './json';
import { acceptsValue, finiteValues } from './scalar';
import { looserFacet } from '../scalars/facets';
import { scalarAccepts } from '../scalars/index';
import { compareElements } from './xml';
import { describePattern } from '../describe';
import type { CompareOptions, Difference, TextMode } from './types';
import type { Pattern, Scope, XmlElementPattern } from '../types';

export { deref } from './context';
export { elementsIntersect, intersects } from './intersect';
export type { CompareOptions, Difference, DifferenceKind, DifferenceTarget, TextMode } from './types';

/**
 * Comparison: does pattern A accept every value pattern B accepts ("A
 * encompasses B")? Decided on the patterns themselves, never by sampling.
 * A and B each have their own Scope: an older and a newer contract name their
 * types independently. The answer is the list of every difference found, each
 * with its place and what A and B say there; an empty list means "yes".
 *
 * The compatibility check calls this twice per scenario: newer ⊇ older on the
 * request side, older ⊇ newer on the response side.
 *
 * This module keeps the entry points, the differences found, the memo of
 * compared type pairs and the dispatcher (`Comparer.value`) every part
 * recurses through. The parts: scalars, literals and enums in
 * compare-scalar.ts; JSON objects, dictionaries, lists and arrays in
 * compare-json.ts; XML elements in compare-xml.ts, their child sequences in
 * compare-sequence.ts; headers, query, path and whole bodies in
 * http/compare-http.ts. The JSON and XML parts call back through the
 * CompareContext interface (compare-context.ts).
 */

/** Thrown inside a comparison that stops at its first difference; never escapes this module. */
const STOP = new Stop('the first difference is found');

export function run(c: Comparer, work: () => void): Difference[] {
  untilStopped(STOP, work);
  return c.differences;
}

/**
 * One comparison: A's scope, B's scope, the differences found so far, and the
 * pairs of named types already compared (recursive types terminate: a pair
 * seen again adds nothing new).
 */
export class Comparer implements CompareContext {
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

  add(d: Difference): void {
    const key = `${d.kind}\u0000${d.path}\u0000${d.name ?? ''}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.differences.push(d);
    if (this.stopAtFirst) throw STOP;
  }

  /** Has this pair of named types been compared already (in this mode)? Marks it as compared. */
  visited(mode: string, aName: string | undefined, bName: string | undefined): boolean {
    if (aName === undefined || bName === undefined) return false;
    const key = `${mode}\u0000${aName}\u0000${bName}`;
    if (this.seen.has(key)) return true;
    this.seen.add(key);
    return false;
  }

  /**
   * The same for two composite patterns, by identity. Names alone do not end every recursion: when
   * one side unwraps an optional (`"next": "(Node?)"`) before the other, the two sides reach the
   * same pair of type bodies without both carrying a name, and the walk never ended.
   */
  private visitedPair(mode: string, a: Pattern, b: Pattern): boolean {
    return this.visited(`${mode}\u0001`, String(this.idOf(a)), String(this.idOf(b)));
  }

  private readonly ids = new Map<Pattern, number>();

  private idOf(p: Pattern): number {
    let id = this.ids.get(p);
    if (id === undefined) this.ids.set(p, (id = this.ids.size));
    return id;
  }

  typeDifference(a: Pattern, b: Pattern, path: string, mode: TextMode | 'xml', aWords?: string, bWords?: string, note?: string): void {
    if (this.probe) {
      this.add({ kind: 'type', target: 'value', path, a: '', b: '' });
      return;
    }
    const reverse = new Comparer(this.bScope, this.aScope, true, true);
    run(reverse, () => {
      if (mode === 'xml' && a.kind === 'xml' && b.kind === 'xml') reverse.element(b, undefined, a, undefined, path);
      else reverse.value(b, a, path, mode === 'xml' ? 'text' : mode);
    });
    const d: Difference = { kind: 'type', target: 'value', path, a: aWords ?? describePattern(a), b: bWords ?? describePattern(b), narrower: reverse.differences.length === 0 };
    if (note !== undefined) d.note = note;
    this.add(d);
  }

  /** A value: JSON (mode 'json') or text (XML text, headers, path segments, plain bodies). */
  value(aIn: Pattern, bIn: Pattern, path: string, mode: TextMode): void {
    const ar = deref(aIn, this.aScope);
    const br = deref(bIn, this.bScope);
    if (this.visited(mode, ar.name, br.name)) return;
    const a = ar.p;
    const b = br.p;
    if (a.kind === 'scalar' && a.type === 'anything') return;
    if (a.kind === 'scalar' && a.type === 'string' && !a.facets && mode === 'text' && b.kind !== 'xml') return;

    if (b.kind === 'optional') {
      // A keeps its optional wrapper: a null among B's values is still fine.
      if (a.kind === 'optional') return this.value(a, b.inner, path, mode);
      if (!acceptsValue(a, mode === 'json' ? null : '', mode, this.aScope))
        this.add({ kind: 'optional', target: 'node', path, name: lastName(path), a: describePattern(a), b: describePattern(b) });
      return this.value(a, b.inner, path, mode);
    }
    // Finite B (literals, enums, booleans, null): each value is put to A itself, optional or not.
    const values = finiteValues(b, mode);
    if (values) {
      const rejected = values.some((v) => !acceptsValue(a, v, mode, this.aScope));
      if (rejected) this.typeDifference(a.kind === 'optional' ? a.inner : a, b, path, mode);
      return;
    }
    if (a.kind === 'optional') return this.value(a.inner, b, path, mode);

    // A union B may send any member's value; a union A accepts B when one member does. A member A refuses is reported
    // as the whole union, so the difference says whether A is narrower ((int) after (int | date)) or another type.
    if (b.kind === 'union') {
      if (b.members.some((m) => encompasses(a, this.aScope, m, this.bScope, mode, { stopAtFirst: true }).length > 0)) this.typeDifference(a, b, path, mode);
      return;
    }
    if (a.kind === 'union') {
      if (!a.members.some((m) => encompasses(m, this.aScope, b, this.bScope, mode, { stopAtFirst: true }).length === 0)) this.typeDifference(a, b, path, mode);
      return;
    }
    if (a.kind === 'text-list' && b.kind === 'text-list') {
      this.value(a.item, b.item, path, mode);
      // Lists' length facets count items, as nmtokens' row does.
      const loose = looserFacet('nmtokens', a.facets, 'nmtokens', b.facets);
      if (loose !== undefined) this.typeDifference(a, b, path, mode, undefined, undefined, loose.note);
      return;
    }
    if (a.kind === 'scalar' && b.kind === 'scalar') {
      // Facets: B's must imply A's (a facet A adds or tightens lets B send what A refuses).
      if (!scalarAccepts(a.type, b.type, mode)) this.typeDifference(a, b, path, mode);
      else {
        const loose = looserFacet(a.type, a.facets, b.type, b.facets);
        if (loose !== undefined) this.typeDifference(a, b, path, mode, undefined, undefined, loose.note);
      }
      return;
    }
    if (COMPOSITE.has(a.kind) && COMPOSITE.has(b.kind) && this.visitedPair(mode, a, b)) return;
    if (a.kind === 'object' && b.kind === 'object') return compareObjects(this, a, b, path);
    if (a.kind === 'dictionary' && b.kind === 'dictionary') return compareDictionaries(this, a, b, path);
    if (a.kind === 'dictionary' && b.kind === 'object') return dictionaryOverObject(this, a, b, path);
    if (a.kind === 'list' && b.kind === 'list') return compareLists(this, a, b, path);
    if (a.kind === 'list' && b.kind === 'array') return listOverArray(this, a, b, path);
    if (a.kind === 'array' && (b.kind === 'array' || b.kind === 'list')) return compareArrays(this, a, b, path);
    if (a.kind === 'xml' && b.kind === 'xml') return this.element(a, ar.name, b, br.name, path);
    this.typeDifference(a, b, path, mode);
  }

  /** Two XML elements at the same place (their names were matched by the caller). */
  element(a: XmlElementPattern, aName: string | undefined, b: XmlElementPattern, bName: string | undefined, path: string): void {
    compareElements(this, a, aName, b, bName, path);
  }
}

/** Kinds that hold other patterns: where a recursive type can come back to itself. */
const COMPOSITE = new Set<Pattern['kind']>(['object', 'dictionary', 'list', 'array']);

function lastName(path: string): string | undefined {
  // The look-behind starts an attempt only where a name starts: without it every position of a long name scanned to its end (quadratic).
  const m = /(?<![^./\s[\]])([^./\s[\]]+)(\[\*\]|\[\d+\])?$/.exec(path);
  return m?.[1];
}

/** Does A accept every value of B (JSON, or text when `mode` is 'text')? */
export function encompasses(a: Pattern, aScope: Scope, b: Pattern, bScope: Scope, mode: TextMode = 'json', opts: CompareOptions = {}): Difference[] {
  const c = new Comparer(aScope, bScope, opts.stopAtFirst, opts.stopAtFirst);
  return run(c, () => c.value(a, b, '', mode));
}
