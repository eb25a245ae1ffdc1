import type { Difference } from './compare-types';
import { boundsWords, combineOccurs, isOnce, occurs, withBounds } from './occurs';
import { xmlElement } from './xml-pattern';
import { lookupType } from './resolve';
import type { Occurs, Pattern, Scope, XmlContent, XmlElementPattern } from './types';

/*
 * Child sequences of XML elements: which orders and counts of child nodes
 * each side allows, and whether every sequence B allows is allowed by A.
 */

/** One place in an element's child sequence, with the type name it came from when it came through a ref. */
export interface SeqSlot {
  local: string;
  min: number;
  max: number;
  pattern: XmlElementPattern;
  name?: string;
}

function seqSlot(pattern: XmlElementPattern, occurs: Occurs, name?: string): SeqSlot {
  return { local: pattern.local, min: occurs.min, max: occurs.max, pattern, name };
}

export interface Content {
  text?: Pattern;
  slots: SeqSlot[];
}

/** Like resolve.contentSlots, keeping the names of referenced types. */
export function expandContent(content: readonly XmlContent[], scope: Scope, within?: Occurs): Content {
  const out: Content = { slots: [] };
  for (const c of content) {
    if (c.kind === 'xml') out.slots.push(seqSlot(c, within ? combineOccurs(within, c.occurs) : c.occurs));
    else if (c.kind === 'xml-text') out.text ??= c.pattern;
    else if (c.kind === 'xml-choice') {
      // Compared as every option's nodes in a row, each optional: an option added to a request or
      // removed from a response is compatible, one removed from a request or added to a response is
      // not (its nodes are reported). "Exactly one" itself is not compared.
      const each = occurs(0, c.occurs.max > 1 ? Infinity : 1);
      for (const o of c.options) out.slots.push(...expandContent(o, scope, within ? combineOccurs(within, each) : each).slots);
    } else if (c.kind === 'xml-any') {
      // A wildcard is a node named "any" in reports: one added to a response, or removed from a request, is a difference.
      out.slots.push(seqSlot(xmlElement(WILDCARD_WORD), within ? combineOccurs(within, c.occurs) : c.occurs));
    } else {
      const target = lookupType(c.name, scope);
      if (target.kind === 'xml') out.slots.push(seqSlot(target, combineOccurs(c.occurs, target.occurs), c.name));
      else out.text ??= isOnce(c.occurs) ? { kind: 'ref', name: c.name } : { kind: 'optional', inner: { kind: 'ref', name: c.name } };
    }
  }
  return out;
}

/** How a wildcard stands in a sequence compared: no XML name can be this. */
const WILDCARD_WORD = '*any';

function minWords(min: number): string {
  return min === 1 ? 'required' : `at least ${min}`;
}

function occursWord(s: SeqSlot): string {
  return boundsWords(s);
}

export function sequenceWords(slots: readonly SeqSlot[]): string {
  return `(${slots.map((s) => withBounds(s.local, s)).join(', ') || 'none'})`;
}

/** A child of B and the child of A it stands for: their contents are compared next. */
export interface ChildPair {
  a: SeqSlot;
  b: SeqSlot;
  path: string;
}

function childPair(a: SeqSlot, b: SeqSlot, path: string): ChildPair {
  return { a, b, path: `${path}/${b.local}${a.max > 1 || b.max > 1 ? '[*]' : ''}` };
}

/**
 * Child sequences as regular languages over node names (each slot once,
 * optional or repeated): every sequence B allows must be allowed by A.
 * Names one side lacks are reported first and left out; the rest is decided
 * slot by slot when every name occurs once on each side, and otherwise
 * exactly by walking B's automaton against the subset construction of A's.
 */
export function compareSequences(aAll: SeqSlot[], bAll: SeqSlot[], path: string, add: (d: Difference) => void): ChildPair[] {
  const aNames = new Set(aAll.map((s) => s.local));
  const bNames = new Set(bAll.map((s) => s.local));
  for (const s of bAll) {
    if (!aNames.has(s.local)) add({ kind: 'unexpected', target: 'node', path: `${path}/${s.local}`, name: s.local, a: 'no such node', b: `node <${s.local}> (${occursWord(s)})` });
  }
  for (const s of aAll) {
    if (s.min === 1 && !bNames.has(s.local))
      add({ kind: 'missing', target: 'node', path: `${path}/${s.local}`, name: s.local, a: `node <${s.local}> (required)`, b: 'no such node' });
  }
  const A = aAll.filter((s) => bNames.has(s.local));
  const B = bAll.filter((s) => aNames.has(s.local));
  const m = A.length;
  const n = B.length;
  // B may send fewer of a node than A requires, or more than A allows. The kinds stay 'optional' and 'repeated'
  // (what the compatibility rules know); the words give the exact bounds.
  const fewer = (local: string, aMin: number, bMin: number) =>
    add({ kind: 'optional', target: 'node', path: `${path}/${local}`, name: local, a: minWords(aMin), b: bMin === 0 ? 'optional' : minWords(bMin) });
  const more = (local: string, aMax: number, bMax: number) =>
    add({
      kind: 'repeated',
      target: 'node',
      path: `${path}/${local}`,
      name: local,
      a: aMax === 1 ? 'at most one' : `at most ${aMax}`,
      b: bMax === Infinity ? 'repeated' : `up to ${bMax}`,
    });
  const orderDifference = (name: string) => add({ kind: 'order', target: 'node', path, name, a: sequenceWords(aAll), b: sequenceWords(bAll) });

  // The usual case, decided slot by slot: each name once on both sides (so both keep the same names).
  // B's words fit A's iff the order is the same and each slot's count range fits; a pair of
  // names in the other order is a word B makes (every slot can be present) that A refuses.
  if (new Set(A.map((s) => s.local)).size === m && new Set(B.map((s) => s.local)).size === n) {
    const at = A.findIndex((s, i) => s.local !== B[i].local);
    if (at >= 0) orderDifference(B[at].local);
    const index = new Map(A.map((s, i) => [s.local, i]));
    for (const bs of B) {
      const as = A[index.get(bs.local)!];
      if (bs.min < as.min) fewer(bs.local, as.min, bs.min);
      if (bs.max > as.max) more(bs.local, as.max, bs.max);
    }
    return B.map((bs) => childPair(A[index.get(bs.local)!], bs, path));
  }

  // A state is slot i with k nodes taken there, encoded i * W + k. Past a slot's min an unbounded
  // slot's count no longer matters, so k stops there: W stays small unless a bound is large.
  const cap = (s: SeqSlot) => (s.max === Infinity ? s.min : s.max);
  const W = Math.max(1, ...A.map(cap), ...B.map(cap)) + 1;
  const took = (s: SeqSlot, k: number) => (s.max === Infinity ? Math.min(k + 1, s.min) : k + 1);
  const close = (states: Iterable<number>): number[] => {
    const out = new Set<number>();
    const stack = [...states];
    while (stack.length) {
      const s = stack.pop()!;
      if (out.has(s)) continue;
      out.add(s);
      const i = Math.floor(s / W);
      const k = s % W;
      if (i < m && k >= A[i].min) stack.push((i + 1) * W);
    }
    return [...out].sort((x, y) => x - y);
  };
  const canTake = (s: SeqSlot, k: number) => s.max === Infinity || k < s.max;
  const pairs = new Set<number>();
  const step = (states: number[], local: string, bi: number): number[] => {
    const next: number[] = [];
    for (const s of states) {
      const i = Math.floor(s / W);
      const k = s % W;
      if (i < m && A[i].local === local && canTake(A[i], k)) {
        next.push(i * W + took(A[i], k));
        pairs.add(i * n + bi);
      }
    }
    return close(next);
  };
  const accepting = (states: number[]) => states.includes(m * W);
  const blocking = (states: number[]): SeqSlot[] =>
    states
      .map((s) => [Math.floor(s / W), s % W])
      .filter(([i, k]) => i < m && k < A[i].min)
      .map(([i]) => A[i]);
  const fewerInB = (need: SeqSlot) => B.filter((s) => s.local === need.local).every((s) => s.min < need.min);

  const visited = new Set<string>();
  const work: [number, number[]][] = [[0, close([0])]];
  while (work.length) {
    const [bs, as] = work.pop()!;
    const key = `${bs}|${as.join(',')}`;
    if (visited.has(key)) continue;
    visited.add(key);
    const bi = Math.floor(bs / W);
    const bk = bs % W;
    if (bi === n) {
      if (!accepting(as)) {
        const need = blocking(as)[0];
        if (need && fewerInB(need)) fewer(need.local, need.min, Math.min(...B.filter((s) => s.local === need.local).map((s) => s.min)));
        else orderDifference(need?.local ?? '');
      }
      continue;
    }
    const slot = B[bi];
    if (bk >= slot.min) work.push([(bi + 1) * W, as]);
    if (canTake(slot, bk)) {
      const next = step(as, slot.local, bi);
      if (next.length > 0) {
        work.push([bi * W + took(slot, bk), next]);
        continue;
      }
      const same = A.filter((s) => s.local === slot.local);
      const most = same.reduce((t, s) => t + s.max, 0);
      const justTook = as.some((s) => s % W > 0 && A[Math.floor(s / W)].local === slot.local);
      const need = blocking(as).find((s) => s.local !== slot.local);
      if (same.length === 1 && slot.max > most && justTook) {
        more(slot.local, most, slot.max);
      } else if (need && fewerInB(need)) {
        fewer(need.local, need.min, Math.min(...B.filter((s) => s.local === need.local).map((s) => s.min)));
      } else orderDifference(slot.local);
    }
  }

  return [...pairs].sort((x, y) => x - y).map((pair) => childPair(A[Math.floor(pair / n)], B[pair % n], path));
}
