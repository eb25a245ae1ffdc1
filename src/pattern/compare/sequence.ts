import { InternalError } from '../../errors';
import type { Difference } from './types';
import { boundsWords, combineOccurs, isOnce, occurs, withBounds } from '../occurs';
import { xmlElement } from '../xml-pattern';
import { lookupType } from '../resolve';
import { WILDCARD_WORD } from './choice';
import { ContentAutomaton } from '../content-automaton';
import type { Occurs, Pattern, Scope, XmlContent, XmlElementPattern } from '../types';

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
      // not (its nodes are reported). "Exactly one" is compared next, by compare-choice.ts.
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
  const { A, B } = sharedSlots(aAll, bAll, path, add);
  const report = sequenceReports(aAll, bAll, path, add);
  if (eachNameOnce(A) && eachNameOnce(B)) return compareSlotBySlot(A, B, path, report);
  return compareByAutomaton(A, B, path, report);
}

/** Reports the nodes one side lacks (any of B's, A's required ones) and returns the slots whose names both sides have. */
function sharedSlots(aAll: SeqSlot[], bAll: SeqSlot[], path: string, add: (d: Difference) => void): { A: SeqSlot[]; B: SeqSlot[] } {
  const aNames = new Set(aAll.map((s) => s.local));
  const bNames = new Set(bAll.map((s) => s.local));
  for (const s of bAll) {
    if (!aNames.has(s.local)) add({ kind: 'unexpected', target: 'node', path: `${path}/${s.local}`, name: s.local, a: 'no such node', b: `node <${s.local}> (${occursWord(s)})` });
  }
  for (const s of aAll) {
    if (s.min === 1 && !bNames.has(s.local))
      add({ kind: 'missing', target: 'node', path: `${path}/${s.local}`, name: s.local, a: `node <${s.local}> (required)`, b: 'no such node' });
  }
  return { A: aAll.filter((s) => bNames.has(s.local)), B: bAll.filter((s) => aNames.has(s.local)) };
}

/** What B's sequences may do that A's refuse, once both have the same names. */
interface SequenceReports {
  /** B may send fewer of a node than A requires. */
  fewer(local: string, aMin: number, bMin: number): void;
  /** B may send more of a node than A allows. */
  more(local: string, aMax: number, bMax: number): void;
  /** B allows an order of nodes that A refuses. */
  order(name: string): void;
}

function sequenceReports(aAll: readonly SeqSlot[], bAll: readonly SeqSlot[], path: string, add: (d: Difference) => void): SequenceReports {
  // The kinds stay 'optional' and 'repeated' (what the compatibility rules know); the words give the exact bounds.
  return {
    fewer: (local, aMin, bMin) => add({ kind: 'optional', target: 'node', path: `${path}/${local}`, name: local, a: minWords(aMin), b: bMin === 0 ? 'optional' : minWords(bMin) }),
    more: (local, aMax, bMax) =>
      add({
        kind: 'repeated',
        target: 'node',
        path: `${path}/${local}`,
        name: local,
        a: aMax === 1 ? 'at most one' : `at most ${aMax}`,
        b: bMax === Infinity ? 'repeated' : `up to ${bMax}`,
      }),
    order: (name) => add({ kind: 'order', target: 'node', path, name, a: sequenceWords(aAll), b: sequenceWords(bAll) }),
  };
}

function eachNameOnce(slots: readonly SeqSlot[]): boolean {
  return new Set(slots.map((s) => s.local)).size === slots.length;
}

/**
 * The usual case: each name once on both sides (so both keep the same names).
 * B's words fit A's iff the order is the same and each slot's count range fits; a pair of
 * names in the other order is a word B makes (every slot can be present) that A refuses.
 */
function compareSlotBySlot(A: readonly SeqSlot[], B: readonly SeqSlot[], path: string, report: SequenceReports): ChildPair[] {
  const at = A.findIndex((s, i) => s.local !== B[i].local);
  if (at >= 0) report.order(B[at].local);
  const index = new Map(A.map((s, i) => [s.local, i]));
  for (const bs of B) {
    const as = A[index.get(bs.local)!];
    if (bs.min < as.min) report.fewer(bs.local, as.min, bs.min);
    if (bs.max > as.max) report.more(bs.local, as.max, bs.max);
  }
  return B.map((bs) => childPair(A[index.get(bs.local)!], bs, path));
}

/*
 * B's state is slot i with k nodes taken there, encoded i * W + k (A's are content-automaton.ts's
 * configurations, the same idea). Past a slot's min an unbounded slot's count no longer matters, so k
 * stops there: W stays small unless a bound is large.
 */

function stateWidth(B: readonly SeqSlot[]): number {
  const cap = (s: SeqSlot) => (s.max === Infinity ? s.min : s.max);
  return Math.max(1, ...B.map(cap)) + 1;
}

function canTake(s: SeqSlot, k: number): boolean {
  return s.max === Infinity || k < s.max;
}

function took(s: SeqSlot, k: number): number {
  return s.max === Infinity ? Math.min(k + 1, s.min) : k + 1;
}

/** A's automaton (content-automaton.ts, a row of leaves) over sets of configurations: the subset construction. */
function subsetAutomaton(A: readonly SeqSlot[]) {
  // Leaves carry their slot's index in A; a row has no choice, so no limit on its size (one state a slot).
  const automaton = ContentAutomaton.build(
    A.map((s, i) => ({ min: s.min, max: s.max, i })),
    { maxStates: Infinity },
  );
  if (!automaton) throw new InternalError('an automaton without a state limit was refused as too large');
  const slotOf = (c: number) => {
    const leaf = automaton.leafOf(c);
    return leaf < 0 ? -1 : automaton.leaves[leaf].i;
  };
  return {
    start: automaton.initial(),
    /** The configurations after a node named `local`; `tookAt` hears each slot of A that could take it. */
    step: (states: readonly number[], local: string, tookAt: (i: number) => void): number[] =>
      automaton.step(
        states,
        (leaf) => A[leaf.i].local === local,
        (leaf) => tookAt(automaton.leaves[leaf].i),
      ),
    accepting: (states: readonly number[]) => automaton.accepts(states),
    /** The slots that still need nodes before the configurations can move on, in A's order. */
    blocking: (states: readonly number[]): SeqSlot[] =>
      states
        .filter((c) => slotOf(c) >= 0 && automaton.countOf(c) < A[slotOf(c)].min)
        .map(slotOf)
        .sort((x, y) => x - y)
        .map((i) => A[i]),
    /** Whether a configuration has just taken a node named `local` (it is in such a slot, past its first node). */
    justTook: (states: readonly number[], local: string) => states.some((c) => slotOf(c) >= 0 && automaton.countOf(c) > 0 && A[slotOf(c)].local === local),
  };
}

/** Exactly, when a name occurs more than once: each pair of B's state and A's set of states is visited once. */
function compareByAutomaton(A: readonly SeqSlot[], B: readonly SeqSlot[], path: string, report: SequenceReports): ChildPair[] {
  const n = B.length;
  const W = stateWidth(B);
  const automaton = subsetAutomaton(A);
  const pairs = new Set<number>();
  const visited = new Set<string>();
  const work: [number, number[]][] = [[0, automaton.start]];
  while (work.length) {
    const [bs, as] = work.pop()!;
    const key = `${bs}|${as.join(',')}`;
    if (visited.has(key)) continue;
    visited.add(key);
    const bi = Math.floor(bs / W);
    const bk = bs % W;
    if (bi === n) {
      // B's sequence may end here: A must be able to end too.
      if (!automaton.accepting(as)) {
        const need = automaton.blocking(as)[0];
        reportFewerOrOrder(need, need?.local ?? '', B, report);
      }
      continue;
    }
    const slot = B[bi];
    if (bk >= slot.min) work.push([(bi + 1) * W, as]);
    if (!canTake(slot, bk)) continue;
    const next = automaton.step(as, slot.local, (i) => pairs.add(i * n + bi));
    if (next.length > 0) work.push([bi * W + took(slot, bk), next]);
    else reportRefusedNode(slot, as, A, B, automaton, report);
  }
  return [...pairs].sort((x, y) => x - y).map((pair) => childPair(A[Math.floor(pair / n)], B[pair % n], path));
}

/** B sends a node A cannot take in any of the states `as`: one more than A allows, a node A still needed before it, or another order. */
function reportRefusedNode(
  slot: SeqSlot,
  as: readonly number[],
  A: readonly SeqSlot[],
  B: readonly SeqSlot[],
  automaton: ReturnType<typeof subsetAutomaton>,
  report: SequenceReports,
): void {
  const same = A.filter((s) => s.local === slot.local);
  const most = same.reduce((t, s) => t + s.max, 0);
  const need = automaton.blocking(as).find((s) => s.local !== slot.local);
  if (same.length === 1 && slot.max > most && automaton.justTook(as, slot.local)) report.more(slot.local, most, slot.max);
  else reportFewerOrOrder(need, slot.local, B, report);
}

/** A still needs nodes of `need`'s name: B sends fewer when every slot of B with that name allows fewer; otherwise the order differs at `orderName`. */
function reportFewerOrOrder(need: SeqSlot | undefined, orderName: string, B: readonly SeqSlot[], report: SequenceReports): void {
  const same = need ? B.filter((s) => s.local === need.local) : [];
  if (need && same.every((s) => s.min < need.min)) report.fewer(need.local, need.min, Math.min(...same.map((s) => s.min)));
  else report.order(orderName);
}
