import type { XmlElement } from '../xml/tree';
import type { AnySlot, ElementSlot, NodeSlot } from './resolve';
import type { XmlWildcardPattern } from './types';
import { CONTENT_AUTOMATON_LIMITS } from '../limits';

/*
 * Which content slot each child element fills. A content model without
 * choices is a row of slots, each taking a run of children (by local name,
 * or by namespace for a wildcard): a greedy try, then a memoised search.
 * With choices it is a small automaton (Thompson's construction, bounded
 * repetitions unrolled up to UNROLL times, then a loop) simulated over the
 * children, one set of states per position, so thousands of children cost
 * no recursion; the path found is walked back to name each child's slot.
 */

/** A slot that takes children itself: an element or a wildcard. */
export type Leaf = ElementSlot | AnySlot;

/** The namespace URI of a child; undefined when its prefix is declared nowhere the matcher sees. */
export type NamespaceOf = (child: XmlElement) => string | undefined;

export interface Alignment {
  /** The leaves of the content, in order; `assigned[k]` is the leaf child k fills. */
  leaves: readonly Leaf[];
  assigned: ArrayLike<number>;
  /** Per leaf: a child there is named with its index in a path (it may occur more than once). */
  repeated: boolean[];
}

const { unroll: UNROLL, matchStates: MAX_STATES } = CONTENT_AUTOMATON_LIMITS;

export function fits(leaf: Leaf, child: XmlElement, nsOf: NamespaceOf): boolean {
  if (leaf.kind === 'element') return child.local === leaf.pattern.local || leaf.pattern.anyName === true;
  return wildcardAllows(leaf.wildcard, nsOf(child));
}

/** XSD's namespace constraint of a wildcard; a namespace that cannot be told is allowed. */
export function wildcardAllows(w: Pick<XmlWildcardPattern, 'namespace' | 'targetNamespace'>, ns: string | undefined): boolean {
  if (ns === undefined) return true;
  const tns = w.targetNamespace ?? '';
  for (const token of words(w.namespace)) {
    if (token === '##any') return true;
    if (token === '##other') return ns !== '' && ns !== tns;
    if (token === '##local' ? ns === '' : token === '##targetNamespace' ? ns === tns : ns === token) return true;
  }
  return false;
}

/** A whitespace-separated list (XSD's `namespace` attribute), split without a regular expression. */
export function words(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const ch of s) {
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out.length ? out : ['##any'];
}

export function alignChildren(slots: readonly NodeSlot[], children: XmlElement[], nsOf: NamespaceOf): Alignment | undefined {
  if (slots.every((s): s is Leaf => s.kind !== 'choice')) {
    const assigned = alignRow(slots, children, nsOf);
    return assigned ? { leaves: slots, assigned, repeated: slots.map((s) => s.max > 1) } : undefined;
  }
  return alignAutomaton(slots, children, nsOf);
}

/** Every leaf of a content model in order, with a choice's leaves optional (repeated when it repeats): for reports. */
export function flatLeaves(slots: readonly NodeSlot[], loose = false, repeat = false): Leaf[] {
  const out: Leaf[] = [];
  for (const s of slots) {
    if (s.kind === 'choice') {
      for (const o of s.options) out.push(...flatLeaves(o, true, repeat || s.max > 1));
    } else out.push(loose || repeat ? { ...s, min: loose ? 0 : s.min, max: repeat ? Infinity : s.max } : s);
  }
  return out;
}

// ---------- a row of leaves ----------

function alignRow(slots: readonly Leaf[], children: XmlElement[], nsOf: NamespaceOf): ArrayLike<number> | undefined {
  const n = slots.length;
  const m = children.length;
  // Typed when large: `new Array(m)` of 60,000 children is a dictionary-mode array, slow to fill.
  // Plain when small: a typed array costs microseconds to make, and matching makes one per element.
  const result: number[] | Int32Array = m > 1024 ? new Int32Array(m) : new Array<number>(m);
  // Each slot taking all it can is the search's first try, and nearly always the answer.
  if (greedy(slots, children, result, nsOf)) return result;
  // failed[i * (m + 1) + j]: slots i.. cannot take children j.. A table while it is small; past a
  // million cells (a type of many nodes, a payload of many children) a set of the few states visited.
  const cells = (n + 1) * (m + 1);
  const table = cells <= 1_000_000 ? new Uint8Array(cells) : undefined;
  const set = table ? undefined : new Set<number>();
  const go = (i: number, j: number): boolean => {
    if (i === n) return j === m;
    const key = i * (m + 1) + j;
    if (table ? table[key] : set!.has(key)) return false;
    const slot = slots[i];
    let k = 0;
    while (j + k < m && k < slot.max && fits(slot, children[j + k], nsOf)) k++;
    for (let take = k; take >= slot.min; take--) {
      if (!go(i + 1, j + take)) continue;
      // Filled once the rest has succeeded: filling before each try made a failed alignment quadratic.
      for (let t = 0; t < take; t++) result[j + t] = i;
      return true;
    }
    if (table) table[key] = 1;
    else set!.add(key);
    return false;
  };
  return go(0, 0) ? result : undefined;
}

/** The alignment where each slot takes as many children as it can, if that one works. */
function greedy(slots: readonly Leaf[], children: XmlElement[], result: number[] | Int32Array, nsOf: NamespaceOf): boolean {
  let j = 0;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i];
    let k = 0;
    while (j < children.length && k < slot.max && fits(slot, children[j], nsOf)) {
      result[j++] = i;
      k++;
    }
    if (k < slot.min) return false;
  }
  return j === children.length;
}

// ---------- content with choices ----------

type State = { op: 'leaf'; leaf: number; next: number } | { op: 'split'; to: number[] } | { op: 'end' };

class Program {
  readonly states: State[] = [{ op: 'end' }];
  readonly leaves: Leaf[] = [];
  readonly repeated: boolean[] = [];

  seq(slots: readonly NodeSlot[], next: number, repeat: boolean): number {
    let entry = next;
    for (let i = slots.length - 1; i >= 0; i--) entry = this.slot(slots[i], entry, repeat);
    return entry;
  }

  private add(s: State): number {
    if (this.states.length >= MAX_STATES) throw new TooLarge();
    return this.states.push(s) - 1;
  }

  private slot(s: NodeSlot, next: number, repeat: boolean): number {
    if (s.kind !== 'choice') {
      this.leaves.push(s);
      this.repeated.push(repeat || s.max > 1);
      return this.add({ op: 'leaf', leaf: this.leaves.length - 1, next });
    }
    const rep = repeat || s.max > 1;
    const once = (after: number) => this.add({ op: 'split', to: s.options.map((o) => this.seq(o, after, rep)) });
    let entry: number;
    if (s.max > UNROLL) {
      const loop = this.add({ op: 'split', to: [] });
      (this.states[loop] as { to: number[] }).to = [...s.options.map((o) => this.seq(o, loop, rep)), next];
      entry = loop;
    } else {
      entry = next;
      for (let r = 0; r < s.max - Math.min(s.min, UNROLL); r++) entry = this.add({ op: 'split', to: [once(entry), next] });
    }
    for (let r = 0; r < Math.min(s.min, UNROLL); r++) entry = once(entry);
    return entry;
  }
}

class TooLarge extends Error {}

function alignAutomaton(slots: readonly NodeSlot[], children: XmlElement[], nsOf: NamespaceOf): Alignment | undefined {
  const program = new Program();
  let start: number;
  try {
    start = program.seq(slots, 0, false);
  } catch (e) {
    if (e instanceof TooLarge) return undefined;
    throw e;
  }
  const { states, leaves } = program;
  // A configuration is a state with the count taken at its leaf: state * W + k. An unbounded
  // leaf's count stops mattering at its min, so k stops there too.
  const cap = (l: Leaf) => (l.max === Infinity ? l.min : l.max);
  const W = Math.max(1, ...leaves.map(cap)) + 1;
  const m = children.length;
  // reach[j]: the configurations after j children, each with [configuration before, the consuming one].
  const reach: Map<number, [number, number]>[] = [];
  const close = (seeds: Map<number, [number, number]>): Map<number, [number, number]> => {
    const stack = [...seeds.keys()];
    while (stack.length) {
      const c = stack.pop()!;
      const via = seeds.get(c)!;
      const s = states[Math.floor(c / W)];
      const k = c % W;
      const next: number[] = [];
      if (s.op === 'split') next.push(...s.to);
      else if (s.op === 'leaf' && k >= leaves[s.leaf].min) next.push(s.next);
      for (const t of next) {
        if (seeds.has(t * W)) continue;
        seeds.set(t * W, via);
        stack.push(t * W);
      }
    }
    return seeds;
  };
  reach.push(close(new Map([[start * W, [-1, -1]]])));
  for (let j = 0; j < m; j++) {
    const seeds = new Map<number, [number, number]>();
    for (const c of reach[j].keys()) {
      const s = states[Math.floor(c / W)];
      if (s.op !== 'leaf') continue;
      const leaf = leaves[s.leaf];
      const k = c % W;
      if (!(leaf.max === Infinity || k < leaf.max) || !fits(leaf, children[j], nsOf)) continue;
      const to = Math.floor(c / W) * W + (leaf.max === Infinity ? Math.min(k + 1, leaf.min) : k + 1);
      if (!seeds.has(to)) seeds.set(to, [c, to]);
    }
    if (seeds.size === 0) return undefined;
    reach.push(close(seeds));
  }
  if (!reach[m].has(0)) return undefined;
  const assigned = m > 1024 ? new Int32Array(m) : new Array<number>(m);
  let c = 0;
  for (let j = m; j > 0; j--) {
    const [before, consumer] = reach[j].get(c)!;
    assigned[j - 1] = (states[Math.floor(consumer / W)] as { leaf: number }).leaf;
    c = before;
  }
  return { leaves, assigned, repeated: program.repeated };
}
