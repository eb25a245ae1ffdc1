import { Stop, untilStopped } from '../errors';
import { CONTENT_AUTOMATON_LIMITS } from '../limits';

/*
 * One automaton for an XML content model, shared by matching (align.ts), the
 * compatibility check (compare-choice.ts, compare-sequence.ts) and the row
 * that order reports read (child-order.ts through rowOf), so that what a body
 * may hold and what two contracts are compared on is one construction.
 *
 * Thompson's construction, built back to front: state 0 is the end. A leaf
 * (an element, a wildcard, a node name) is one state that counts the
 * children it takes, so its own bounds are exact; a choice's repetition is
 * copied up to UNROLL times, then read as a loop (looser, never stricter).
 * A configuration is a state with the count taken at its leaf, encoded
 * state * width + k. An unbounded leaf's count stops mattering at its min, so
 * k stops there too.
 */

const { unroll: UNROLL } = CONTENT_AUTOMATON_LIMITS;

/** A choice of option rows, repeated min..max times (resolve.ts's ChoiceSlot, compare-choice.ts's model). */
export interface Choice<L> {
  kind: 'choice';
  options: readonly (readonly Part<L>[])[];
  min: number;
  max: number;
}

/** A content model's part: a leaf (anything with bounds that is not a choice) or a choice. */
export type Part<L> = L | Choice<L>;

export type State = { op: 'leaf'; leaf: number; next: number } | { op: 'split'; to: number[] } | { op: 'end' };

/** The content model is larger than the limit the caller gave: matching reports no fit, comparing says nothing. */
const TOO_LARGE = new Stop('more states than the limit');

export interface AutomatonOptions {
  /** At most this many states (CONTENT_AUTOMATON_LIMITS.matchStates or compareStates); `build` gives undefined above. */
  maxStates: number;
  /**
   * A leaf's bounds read as a choice's are: a min above UNROLL as UNROLL, a max above UNROLL as unbounded.
   * The comparison reads them so (its walk visits each count), matching exactly.
   */
  looseLeaves?: boolean;
}

function isChoice<L extends { min: number; max: number }>(p: Part<L>): p is Choice<L> {
  return (p as { kind?: unknown }).kind === 'choice';
}

export class ContentAutomaton<L extends { min: number; max: number }> {
  readonly states: State[] = [{ op: 'end' }];
  /** The leaves, one per leaf state (a leaf inside a copied choice once per copy), in the order built (back to front). */
  readonly leaves: L[] = [];
  /** Per leaf: its bounds as the automaton counts them. */
  readonly min: number[] = [];
  readonly max: number[] = [];
  /** Per leaf: whether it may take more than one child (its own max, or a repeated choice around it). */
  readonly repeated: boolean[] = [];
  /** The start state, and the configuration width (the largest count kept, plus one). */
  readonly start: number;
  readonly width: number;

  /** The automaton of `parts`, or undefined when it would have more states than `options.maxStates`. */
  static build<L extends { min: number; max: number }>(parts: readonly Part<L>[], options: AutomatonOptions): ContentAutomaton<L> | undefined {
    return untilStopped(TOO_LARGE, () => new ContentAutomaton<L>(parts, options));
  }

  private constructor(
    parts: readonly Part<L>[],
    private readonly options: AutomatonOptions,
  ) {
    this.start = this.seq(parts, 0, false);
    let cap = 1;
    for (let i = 0; i < this.leaves.length; i++) cap = Math.max(cap, this.max[i] === Infinity ? this.min[i] : this.max[i]);
    this.width = cap + 1;
  }

  private seq(parts: readonly Part<L>[], next: number, repeat: boolean): number {
    let entry = next;
    for (let i = parts.length - 1; i >= 0; i--) entry = this.part(parts[i], entry, repeat);
    return entry;
  }

  private add(s: State): number {
    if (this.states.length >= this.options.maxStates) throw TOO_LARGE;
    return this.states.push(s) - 1;
  }

  private part(s: Part<L>, next: number, repeat: boolean): number {
    if (!isChoice(s)) {
      const loose = this.options.looseLeaves === true;
      this.leaves.push(s);
      this.min.push(loose ? Math.min(s.min, UNROLL) : s.min);
      this.max.push(loose && s.max > UNROLL ? Infinity : s.max);
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

  /** The state of a configuration. */
  stateOf(c: number): State {
    return this.states[Math.floor(c / this.width)];
  }

  /** The leaf of a configuration at a leaf state, else -1. */
  leafOf(c: number): number {
    const s = this.states[Math.floor(c / this.width)];
    return s.op === 'leaf' ? s.leaf : -1;
  }

  /** How many children the configuration's leaf has taken (capped at an unbounded leaf's min). */
  countOf(c: number): number {
    return c % this.width;
  }

  /** Calls `to` with each configuration one step without a child from `c`: a split's targets, or past a leaf that has its min. */
  epsilon(c: number, to: (t: number) => void): void {
    const s = this.states[Math.floor(c / this.width)];
    if (s.op === 'split') for (const t of s.to) to(t * this.width);
    else if (s.op === 'leaf' && c % this.width >= this.min[s.leaf]) to(s.next * this.width);
  }

  /** The configuration after `c` takes a child at its leaf, or -1 when `c` is no leaf or its leaf is full. */
  take(c: number): number {
    const s = this.states[Math.floor(c / this.width)];
    if (s.op !== 'leaf') return -1;
    const k = c % this.width;
    const max = this.max[s.leaf];
    if (max === Infinity) return c - k + Math.min(k + 1, this.min[s.leaf]);
    return k < max ? c + 1 : -1;
  }

  /** The configurations reachable from `from` without a child, sorted (equal sets, equal keys). */
  close(from: Iterable<number>): number[] {
    const out = new Set<number>();
    const stack = [...from];
    const push = (t: number) => {
      if (!out.has(t)) stack.push(t);
    };
    while (stack.length) {
      const c = stack.pop()!;
      if (out.has(c)) continue;
      out.add(c);
      this.epsilon(c, push);
    }
    return [...out].sort((x, y) => x - y);
  }

  /** The configurations a set moves to on a child that `fits` the leaf; `took` hears each leaf that takes it. */
  step(set: readonly number[], fits: (leaf: L) => boolean, took?: (leaf: number) => void): number[] {
    const next: number[] = [];
    for (const c of set) {
      const t = this.take(c);
      if (t < 0) continue;
      const leaf = this.leafOf(c);
      if (!fits(this.leaves[leaf])) continue;
      next.push(t);
      took?.(leaf);
    }
    return this.close(next);
  }

  /** The start configuration's closure. */
  initial(): number[] {
    return this.close([this.start * this.width]);
  }

  /** Whether a set of configurations may end here. */
  accepts(set: readonly number[]): boolean {
    return set.includes(0);
  }

  /** The leaves that can take a child in the set, in the set's order, each once. */
  open(set: readonly number[]): L[] {
    const out = new Set<L>();
    for (const c of set) if (this.take(c) >= 0) out.add(this.leaves[this.leafOf(c)]);
    return [...out];
  }
}

/**
 * The leaves of a content model in a row, a choice's leaves optional (and unbounded when the
 * choice repeats): the model order reports (child-order.ts) and header filtering read.
 */
export function rowOf<L extends { min: number; max: number }>(parts: readonly Part<L>[], loose = false, repeat = false): L[] {
  const out: L[] = [];
  for (const s of parts) {
    if (isChoice(s)) {
      for (const o of s.options) out.push(...rowOf(o, true, repeat || s.max > 1));
    } else out.push(loose || repeat ? { ...s, min: loose ? 0 : s.min, max: repeat ? Infinity : s.max } : s);
  }
  return out;
}
