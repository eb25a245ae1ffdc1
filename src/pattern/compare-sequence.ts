import type { Difference } from './compare-types';
import { combineOccurs } from './occurs';
import { lookupType } from './resolve';
import type { Occurs, Pattern, Scope, XmlContent, XmlElementPattern } from './types';

/*
 * Child sequences of XML elements: which orders and counts of child nodes
 * each side allows, and whether every sequence B allows is allowed by A.
 */

/** One place in an element's child sequence, with the type name it came from when it came through a ref. */
export interface SeqSlot {
  local: string;
  min: 0 | 1;
  max: 1 | typeof Infinity;
  pattern: XmlElementPattern;
  name?: string;
}

function seqSlot(pattern: XmlElementPattern, occurs: Occurs, name?: string): SeqSlot {
  return { local: pattern.local, min: occurs === 'once' ? 1 : 0, max: occurs === 'multiple' ? Infinity : 1, pattern, name };
}

export interface Content {
  text?: Pattern;
  slots: SeqSlot[];
}

/** Like resolve.contentSlots, keeping the names of referenced types. */
export function expandContent(content: readonly XmlContent[], scope: Scope): Content {
  const out: Content = { slots: [] };
  for (const c of content) {
    if (c.kind === 'xml') out.slots.push(seqSlot(c, c.occurs));
    else if (c.kind === 'xml-text') out.text ??= c.pattern;
    else {
      const target = lookupType(c.name, scope);
      if (target.kind === 'xml') out.slots.push(seqSlot(target, combineOccurs(c.occurs, target.occurs), c.name));
      else out.text ??= c.occurs === 'once' ? { kind: 'ref', name: c.name } : { kind: 'optional', inner: { kind: 'ref', name: c.name } };
    }
  }
  return out;
}

function occursWord(s: SeqSlot): string {
  return s.max === Infinity ? 'repeated' : s.min === 0 ? 'optional' : 'required';
}

export function sequenceWords(slots: readonly SeqSlot[]): string {
  return `(${slots.map((s) => s.local + (s.max === Infinity ? '*' : s.min === 0 ? '?' : '')).join(', ') || 'none'})`;
}

/** A child of B and the child of A it stands for: their contents are compared next. */
export interface ChildPair {
  a: SeqSlot;
  b: SeqSlot;
  path: string;
}

function childPair(a: SeqSlot, b: SeqSlot, path: string): ChildPair {
  return { a, b, path: `${path}/${b.local}${a.max === Infinity || b.max === Infinity ? '[*]' : ''}` };
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
      if (bs.min < as.min) add({ kind: 'optional', target: 'node', path: `${path}/${bs.local}`, name: bs.local, a: 'required', b: 'optional' });
      if (bs.max > as.max) add({ kind: 'repeated', target: 'node', path: `${path}/${bs.local}`, name: bs.local, a: 'at most one', b: 'repeated' });
    }
    return B.map((bs) => childPair(A[index.get(bs.local)!], bs, path));
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
  const blocking = (states: number[]): SeqSlot[] =>
    states
      .map((s) => [s >> 1, s & 1])
      .filter(([i, k]) => i < m && k === 0 && A[i].min === 1)
      .map(([i]) => A[i]);
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
        if (need && onlyOptionalInB(need.local)) add({ kind: 'optional', target: 'node', path: `${path}/${need.local}`, name: need.local, a: 'required', b: 'optional' });
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
        add({ kind: 'repeated', target: 'node', path: `${path}/${slot.local}`, name: slot.local, a: 'at most one', b: 'repeated' });
      } else if (need && onlyOptionalInB(need.local)) {
        add({ kind: 'optional', target: 'node', path: `${path}/${need.local}`, name: need.local, a: 'required', b: 'optional' });
      } else orderDifference(slot.local);
    }
  }

  return [...pairs].sort((x, y) => x - y).map((pair) => childPair(A[Math.floor(pair / n)], B[pair % n], path));
}
