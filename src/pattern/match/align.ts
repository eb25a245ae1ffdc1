import type { XmlElement } from '../../xml/tree';
import type { AnySlot, ElementSlot, NodeSlot } from '../resolve';
import { CONTENT_AUTOMATON_LIMITS } from '../../limits';
import { ContentAutomaton, rowOf } from '../content-automaton';
import { wildcardAllows } from '../wildcard';

/*
 * Which content slot each child element fills. A content model without
 * choices is a row of slots, each taking a run of children (by local name,
 * or by namespace for a wildcard): a greedy try, then a memoised search.
 * With choices it is the content model's automaton (content-automaton.ts)
 * simulated over the children, one set of configurations per position, so
 * thousands of children cost no recursion; the path found is walked back to
 * name each child's slot.
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

export function fits(leaf: Leaf, child: XmlElement, nsOf: NamespaceOf): boolean {
  if (leaf.kind === 'element') return child.local === leaf.pattern.local || leaf.pattern.anyName === true;
  return wildcardAllows(leaf.wildcard, nsOf(child));
}

export function alignChildren(slots: readonly NodeSlot[], children: XmlElement[], nsOf: NamespaceOf): Alignment | undefined {
  if (slots.every((s): s is Leaf => s.kind !== 'choice')) {
    const assigned = alignRow(slots, children, nsOf);
    return assigned ? { leaves: slots, assigned, repeated: slots.map((s) => s.max > 1) } : undefined;
  }
  return alignAutomaton(slots, children, nsOf);
}

/** Every leaf of a content model in order, with a choice's leaves optional (repeated when it repeats): for reports. */
export function flatLeaves(slots: readonly NodeSlot[]): Leaf[] {
  return rowOf<Leaf>(slots);
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

/** One set of configurations per position, each with [configuration before, the consuming one]; walked back for the path. */
function alignAutomaton(slots: readonly NodeSlot[], children: XmlElement[], nsOf: NamespaceOf): Alignment | undefined {
  const automaton = ContentAutomaton.build<Leaf>(slots, { maxStates: CONTENT_AUTOMATON_LIMITS.matchStates });
  if (!automaton) return undefined;
  const { leaves } = automaton;
  const m = children.length;
  // reach[j]: the configurations after j children, each with [configuration before, the consuming one].
  const reach: Map<number, [number, number]>[] = [];
  const close = (seeds: Map<number, [number, number]>): Map<number, [number, number]> => {
    const stack = [...seeds.keys()];
    let via: [number, number];
    const reached = (t: number) => {
      if (seeds.has(t)) return;
      seeds.set(t, via);
      stack.push(t);
    };
    while (stack.length) {
      const c = stack.pop()!;
      via = seeds.get(c)!;
      automaton.epsilon(c, reached);
    }
    return seeds;
  };
  reach.push(close(new Map([[automaton.start * automaton.width, [-1, -1]]])));
  for (let j = 0; j < m; j++) {
    const seeds = new Map<number, [number, number]>();
    for (const c of reach[j].keys()) {
      const to = automaton.take(c);
      if (to < 0 || seeds.has(to) || !fits(leaves[automaton.leafOf(c)], children[j], nsOf)) continue;
      seeds.set(to, [c, to]);
    }
    if (seeds.size === 0) return undefined;
    reach.push(close(seeds));
  }
  if (!reach[m].has(0)) return undefined;
  const assigned = m > 1024 ? new Int32Array(m) : new Array<number>(m);
  let c = 0;
  for (let j = m; j > 0; j--) {
    const [before, consumer] = reach[j].get(c)!;
    assigned[j - 1] = automaton.leafOf(consumer);
    c = before;
  }
  return { leaves, assigned, repeated: automaton.repeated };
}
