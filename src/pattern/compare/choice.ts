import type { Difference } from './types';
import { combineOccurs } from '../occurs';
import { lookupType } from '../resolve';
import type { Scope, XmlContent } from '../types';
import { CONTENT_AUTOMATON_LIMITS } from '../../limits';
import { ContentAutomaton } from '../content-automaton';

/*
 * Content with choices, compared exactly: "exactly one option per occurrence"
 * makes the sequences a content model allows a regular language over node
 * names, and every sequence B allows must be one A allows. compare-sequence.ts
 * compares the names and the bounds of each node first (a choice there is its
 * options' nodes, each optional); when that finds nothing, this looks for the
 * shortest sequence B allows that A refuses: a sequence turned into a choice,
 * a choice into a sequence, options regrouped. Both sides become automata
 * (content-automaton.ts, bounds above CONTENT_AUTOMATON_LIMITS.unroll read as
 * "any number more": looser, never stricter); B's configurations are walked
 * against A's sets of configurations.
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

const { compareStates: MAX_STATES, compareVisits: MAX_VISITS } = CONTENT_AUTOMATON_LIMITS;

type Node = Extract<ModelPart, { kind: 'node' }>;

/**
 * Reports the first (shortest) sequence B allows that A refuses, if any: a node A cannot take
 * there ('unexpected', named after that node) or an end A cannot make yet ('optional', named after
 * a node A still needs). Says nothing when the automata would be too large.
 */
export function compareChoices(A: readonly ModelPart[], B: readonly ModelPart[], path: string, add: (d: Difference) => void): void {
  const a = ContentAutomaton.build<Node>(A, { maxStates: MAX_STATES, looseLeaves: true });
  const b = a && ContentAutomaton.build<Node>(B, { maxStates: MAX_STATES, looseLeaves: true });
  if (!a || !b) return;
  const names = (set: readonly number[]) => [...new Set(a.open(set).map((n) => n.local))];
  // Breadth first, so the sequence reported is a shortest one; `via` walks back to it.
  type Visit = { b: number; a: number[]; via?: Visit; local?: string };
  const seen = new Set<string>();
  const queue: Visit[] = [];
  for (const s of b.initial()) queue.push({ b: s, a: a.initial() });
  for (let q = 0; q < queue.length && q < MAX_VISITS; q++) {
    const v = queue[q];
    const key = `${v.b}|${v.a.join(',')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const taken = b.take(v.b);
    if (taken < 0) {
      if (v.b === 0 && !a.accepts(v.a)) {
        const need = names(v.a)[0] ?? '';
        add({ kind: 'optional', target: 'node', path: `${path}/${need}`, name: need, a: `node <${need}> ${after(v)}`, b: `nothing more ${after(v)}` });
        return;
      }
      continue;
    }
    const local = b.leaves[b.leafOf(v.b)].local;
    const next = a.step(v.a, (n) => n.local === local);
    if (next.length === 0) {
      const expected = names(v.a);
      add({
        kind: 'unexpected',
        target: 'node',
        path: `${path}/${local}`,
        name: local,
        a: expected.length ? `${expected.map((n) => `<${n}>`).join(' or ')} ${after(v)}` : `nothing more ${after(v)}`,
        b: `node <${local}> ${after(v)}`,
      });
      return;
    }
    for (const s of b.close([taken])) queue.push({ b: s, a: next, via: v, local });
  }

  function after(v: Visit): string {
    const names: string[] = [];
    for (let at: Visit | undefined = v; at; at = at.via) if (at.local !== undefined) names.unshift(at.local);
    return names.length ? `after (${names.join(', ')})` : 'first';
  }
}
