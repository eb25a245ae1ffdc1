import type { Difference } from './compare-types';
import { combineOccurs } from './occurs';
import { lookupType } from './resolve';
import type { Scope, XmlContent } from './types';
import { CONTENT_AUTOMATON_LIMITS } from '../limits';

/*
 * Content with choices, compared exactly: "exactly one option per occurrence"
 * makes the sequences a content model allows a regular language over node
 * names, and every sequence B allows must be one A allows. compare-sequence.ts
 * compares the names and the bounds of each node first (a choice there is its
 * options' nodes, each optional); when that finds nothing, this looks for the
 * shortest sequence B allows that A refuses: a sequence turned into a choice,
 * a choice into a sequence, options regrouped. Both sides become automata
 * (bounded repetitions unrolled up to UNROLL times, then a loop: looser, never
 * stricter); B's states are walked against A's sets of states.
 */

/** A content model as written: nodes (by local name, a wildcard as one word) and choices of option sequences. */
export type ModelPart = { kind: 'node'; local: string; min: number; max: number } | { kind: 'choice'; options: ModelPart[][]; min: number; max: number };

/** Whether content has a choice, where compare-sequence.ts's view (options' nodes, each optional) is not exact. */
export function hasChoice(content: readonly XmlContent[]): boolean {
  return content.some((c) => c.kind === 'xml-choice');
}

/** An element's child content as a model to compare. */
export function modelOf(content: readonly XmlContent[], scope: Scope): ModelPart[] {
  const out: ModelPart[] = [];
  for (const c of content) {
    if (c.kind === 'xml') out.push({ kind: 'node', local: c.local, min: c.occurs.min, max: c.occurs.max });
    else if (c.kind === 'xml-any') out.push({ kind: 'node', local: WILDCARD_WORD, min: c.occurs.min, max: c.occurs.max });
    else if (c.kind === 'xml-choice') out.push({ kind: 'choice', options: c.options.map((o) => modelOf(o, scope)), min: c.occurs.min, max: c.occurs.max });
    else if (c.kind === 'xml-ref') {
      const target = lookupType(c.name, scope);
      if (target.kind === 'xml') out.push({ kind: 'node', local: target.local, ...combineOccurs(c.occurs, target.occurs) });
    }
  }
  return out;
}

/** How a wildcard stands among node names (compare-sequence.ts writes it so too): no XML name can be this. */
export const WILDCARD_WORD = '*any';

const { unroll: UNROLL, compareStates: MAX_STATES, compareVisits: MAX_VISITS } = CONTENT_AUTOMATON_LIMITS;

type State = { on?: string; next: number[] };

class Nfa {
  readonly states: State[] = [{ next: [] }];

  /** The entry of `parts` in a row, continuing to `next`. */
  seq(parts: readonly ModelPart[], next: number): number {
    let entry = next;
    for (let i = parts.length - 1; i >= 0; i--) entry = this.part(parts[i], entry);
    return entry;
  }

  private add(s: State): number {
    if (this.states.length >= MAX_STATES) throw new TooLarge();
    return this.states.push(s) - 1;
  }

  private once(p: ModelPart, next: number): number {
    if (p.kind === 'node') return this.add({ on: p.local, next: [next] });
    return this.add({ next: p.options.map((o) => this.seq(o, next)) });
  }

  private part(p: ModelPart, next: number): number {
    const min = Math.min(p.min, UNROLL);
    let entry: number;
    if (p.max === Infinity || p.max > UNROLL) {
      const loop = this.add({ next: [] });
      this.states[loop].next = [this.once(p, loop), next];
      entry = loop;
    } else {
      entry = next;
      for (let r = 0; r < p.max - min; r++) entry = this.add({ next: [this.once(p, entry), next] });
    }
    for (let r = 0; r < min; r++) entry = this.once(p, entry);
    return entry;
  }

  /** The states reachable without a node, sorted (equal sets, equal keys). */
  close(from: Iterable<number>): number[] {
    const out = new Set<number>();
    const stack = [...from];
    while (stack.length) {
      const s = stack.pop()!;
      if (out.has(s)) continue;
      out.add(s);
      if (this.states[s].on === undefined) stack.push(...this.states[s].next);
    }
    return [...out].sort((x, y) => x - y);
  }

  step(set: readonly number[], local: string): number[] {
    const next: number[] = [];
    for (const s of set) if (this.states[s].on === local) next.push(...this.states[s].next);
    return this.close(next);
  }

  /** The node names the states can take next. */
  names(set: readonly number[]): string[] {
    return [...new Set(set.map((s) => this.states[s].on).filter((x): x is string => x !== undefined))];
  }
}

class TooLarge extends Error {}

/**
 * Reports the first (shortest) sequence B allows that A refuses, if any: a node A cannot take
 * there ('unexpected', named after that node) or an end A cannot make yet ('optional', named after
 * a node A still needs). Says nothing when the automata would be too large.
 */
export function compareChoices(A: readonly ModelPart[], B: readonly ModelPart[], path: string, add: (d: Difference) => void): void {
  const a = new Nfa();
  const b = new Nfa();
  let aStart: number;
  let bStart: number;
  try {
    aStart = a.seq(A, 0);
    bStart = b.seq(B, 0);
  } catch (e) {
    if (e instanceof TooLarge) return;
    throw e;
  }
  // Breadth first, so the sequence reported is a shortest one; `via` walks back to it.
  type Visit = { b: number; a: number[]; via?: Visit; local?: string };
  const seen = new Set<string>();
  const queue: Visit[] = [];
  for (const s of b.close([bStart])) queue.push({ b: s, a: a.close([aStart]) });
  for (let q = 0; q < queue.length && q < MAX_VISITS; q++) {
    const v = queue[q];
    const key = `${v.b}|${v.a.join(',')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const state = b.states[v.b];
    if (state.on === undefined) {
      if (v.b === 0 && !v.a.includes(0)) {
        const need = a.names(v.a)[0] ?? '';
        add({ kind: 'optional', target: 'node', path: `${path}/${need}`, name: need, a: `node <${need}> ${after(v)}`, b: `nothing more ${after(v)}` });
        return;
      }
      continue;
    }
    const next = a.step(v.a, state.on);
    if (next.length === 0) {
      const expected = a.names(v.a);
      add({
        kind: 'unexpected',
        target: 'node',
        path: `${path}/${state.on}`,
        name: state.on,
        a: expected.length ? `${expected.map((n) => `<${n}>`).join(' or ')} ${after(v)}` : `nothing more ${after(v)}`,
        b: `node <${state.on}> ${after(v)}`,
      });
      return;
    }
    for (const s of b.close(state.next)) queue.push({ b: s, a: next, via: v, local: state.on });
  }

  function after(v: Visit): string {
    const names: string[] = [];
    for (let at: Visit | undefined = v; at; at = at.via) if (at.local !== undefined) names.unshift(at.local);
    return names.length ? `after (${names.join(', ')})` : 'first';
  }
}
