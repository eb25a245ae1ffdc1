import { MAX_OVERLAP_DEPTH } from '../../limits';
import { deref } from './context';
import { acceptsValue, finiteValues } from './scalar';
import type { TextMode } from './types';
import { contentSlots, effectiveElement, type Slot } from '../resolve';
import { scalarAccepts } from '../scalars/index';
import type { Pattern, Scope, XmlElementPattern } from '../types';

/*
 * Intersection: can some value fit both A and B? The compatibility check asks it of two scenarios'
 * requests (two scenarios overlap when some request fits both). Decided on the patterns, leaning to
 * "yes": a "yes" only makes the check compare the two scenarios' answers, a wrong "no" would leave a
 * break unseen. "No" is said where it is certain: different literals or enum values, a JSON number
 * against a JSON string, different element names, a node one side requires that the other cannot have.
 */

/** Texts tried on two scalar types neither of which holds the other: one fitting both proves they meet (`2020` is a gYear and an integer). */
const PROBES: readonly string[] = [
  '',
  '0',
  '1',
  '42',
  '-1',
  '1.5',
  '2020',
  '12',
  'true',
  'false',
  'a',
  'en',
  'abc',
  'AB',
  'a:b',
  'urn:a',
  'http://a.b/c',
  'x@y.z',
  '2020-01-01',
  '2020-01-01T00:00:00Z',
  '00:00:00',
  '2020-01',
  '--01',
  '---01',
  '--01-01',
  'P1D',
  'AAAA',
  '00000000-0000-0000-0000-000000000000',
];

class Intersection {
  private readonly seen = new Set<string>();
  constructor(
    readonly aScope: Scope,
    readonly bScope: Scope,
  ) {}

  value(aIn: Pattern, bIn: Pattern, mode: TextMode, depth: number): boolean {
    if (depth > MAX_OVERLAP_DEPTH) return true;
    const ar = deref(aIn, this.aScope);
    const br = deref(bIn, this.bScope);
    if (ar.name !== undefined && br.name !== undefined) {
      // A pair of named types met again (a recursive type): what is below was or is being decided.
      const key = `${mode}\u0000${ar.name}\u0000${br.name}`;
      if (this.seen.has(key)) return true;
      this.seen.add(key);
    }
    const a = ar.p;
    const b = br.p;
    if ((a.kind === 'scalar' && a.type === 'anything') || (b.kind === 'scalar' && b.type === 'anything')) return true;
    if (a.kind === 'optional' && b.kind === 'optional') return true; // both may be left out (or null)
    if (a.kind === 'optional') return this.value(a.inner, b, mode, depth + 1);
    if (b.kind === 'optional') return this.value(a, b.inner, mode, depth + 1);
    const av = finiteValues(a, mode);
    if (av) return av.some((v) => acceptsValue(b, v, mode, this.bScope));
    const bv = finiteValues(b, mode);
    if (bv) return bv.some((v) => acceptsValue(a, v, mode, this.aScope));
    if (a.kind === 'union') return a.members.some((m) => this.value(m, b, mode, depth + 1));
    if (b.kind === 'union') return b.members.some((m) => this.value(a, m, mode, depth + 1));
    if (a.kind === 'scalar' && b.kind === 'scalar') {
      if (scalarAccepts(a.type, b.type, mode) || scalarAccepts(b.type, a.type, mode)) return true;
      if (mode === 'json') return false;
      return PROBES.some((t) => acceptsValue(a, t, mode, this.aScope) && acceptsValue(b, t, mode, this.bScope));
    }
    if (a.kind === 'xml' && b.kind === 'xml') return this.element(a, b, depth + 1);
    if (mode === 'json') return this.json(a, b, depth);
    // Text: a list of items against a scalar, and the like: left undecided ("yes").
    return true;
  }

  private json(a: Pattern, b: Pattern, depth: number): boolean {
    if (a.kind === 'object' && b.kind === 'object') {
      for (const af of a.fields) {
        const bf = b.fields.find((f) => f.key === af.key);
        if (!bf) {
          if (!af.optional && !b.open) return false;
          continue;
        }
        if (af.optional && bf.optional) continue;
        if (!this.value(af.pattern, bf.pattern, 'json', depth + 1)) return false;
      }
      for (const bf of b.fields) if (!bf.optional && !a.open && !a.fields.some((f) => f.key === bf.key)) return false;
      return true;
    }
    const kindOf = (p: Pattern): string => (p.kind === 'list' || p.kind === 'array' ? 'array' : p.kind === 'dictionary' ? 'object' : p.kind);
    const ka = kindOf(a);
    const kb = kindOf(b);
    // A scalar never holds a JSON object or array; arrays and dictionaries are taken to meet (an empty one fits both).
    if (ka === 'scalar' || kb === 'scalar' || ka === 'text-list' || kb === 'text-list') return false;
    return ka === kb;
  }

  /** Two elements meet when names agree, every attribute both require meets, and no node one side requires is one the other cannot have. */
  element(a: XmlElementPattern, b: XmlElementPattern, depth: number): boolean {
    if (depth > MAX_OVERLAP_DEPTH) return true;
    if (a.local !== b.local && !a.anyName && !b.anyName) return false;
    const ea = effectiveElement(a, this.aScope);
    const eb = effectiveElement(b, this.bScope);
    for (const aa of ea.attributes) {
      const ba = eb.attributes.find((x) => x.local === aa.local);
      if (!ba) {
        if (!aa.optional && eb.anyAttribute === undefined) return false;
        continue;
      }
      if (aa.optional && ba.optional) continue;
      if (!this.value(aa.pattern, ba.pattern, 'text', depth + 1)) return false;
    }
    for (const ba of eb.attributes) if (!ba.optional && ea.anyAttribute === undefined && !ea.attributes.some((x) => x.local === ba.local)) return false;
    // A nil element has no content; derived types may bring content of their own: both are left undecided ("yes").
    if ((ea.nillable && eb.nillable) || ea.derived || eb.derived || ea.abstract || eb.abstract) return true;
    const sa = contentSlots(ea.content, this.aScope);
    const sb = contentSlots(eb.content, this.bScope);
    const ta = textOnly(sa);
    const tb = textOnly(sb);
    if (ta && tb) return this.value(ta, tb, 'text', depth + 1);
    const na = childNames(sa);
    const nb = childNames(sb);
    if (!this.childrenFit(na, nb) || !this.childrenFit(nb, na)) return false;
    for (const [name, x] of na.direct) {
      const y = nb.direct.get(name);
      if (!x || !y || (x.min === 0 && y.min === 0)) continue;
      if (!this.element(x.pattern, y.pattern, depth + 1)) return false;
    }
    return true;
  }

  /** Every node X requires has a place in Y's content. */
  private childrenFit(x: Children, y: Children): boolean {
    if (y.wildcard) return true;
    for (const [name, slot] of x.direct) if (slot && slot.min > 0 && !y.all.has(name)) return false;
    return true;
  }
}

interface Children {
  /** Nodes directly in the sequence, by local name; undefined when the name comes more than once (left undecided). */
  direct: Map<string, { pattern: XmlElementPattern; min: number } | undefined>;
  /** Every local name that may appear, choices included. */
  all: Set<string>;
  /** A wildcard or an any-named node: any name may appear. */
  wildcard: boolean;
}

function childNames(slots: readonly Slot[]): Children {
  const out: Children = { direct: new Map(), all: new Set(), wildcard: false };
  const walk = (ss: readonly Slot[], top: boolean): void => {
    for (const s of ss) {
      if (s.kind === 'text') continue;
      if (s.kind === 'any') out.wildcard = true;
      else if (s.kind === 'choice') for (const o of s.options) walk(o, false);
      else {
        if (s.pattern.anyName) out.wildcard = true;
        out.all.add(s.pattern.local);
        if (top) out.direct.set(s.pattern.local, out.direct.has(s.pattern.local) ? undefined : { pattern: s.pattern, min: s.min });
      }
    }
  };
  walk(slots, true);
  return out;
}

function textOnly(slots: readonly Slot[]): Pattern | undefined {
  return slots.length === 1 && slots[0].kind === 'text' ? slots[0].pattern : undefined;
}

/** Can some value fit both A and B (JSON, or text when `mode` is 'text')? Each pattern is read in its own scope. */
export function intersects(a: Pattern, aScope: Scope, b: Pattern, bScope: Scope, mode: TextMode = 'json'): boolean {
  return new Intersection(aScope, bScope).value(a, b, mode, 0);
}

/** Can some XML element fit both A and B? */
export function elementsIntersect(a: XmlElementPattern, aScope: Scope, b: XmlElementPattern, bScope: Scope): boolean {
  return new Intersection(aScope, bScope).element(a, b, 0);
}
