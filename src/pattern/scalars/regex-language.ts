import type { Alternation, CharacterClass, Concatenation, Element, NFA, NoParent, Quantifier } from 'refa';
import { PATTERN_INCLUSION_LIMITS } from '../../limits';
import { xsdRegex, type XsdRegexNode } from './xsd-regex';

/*
 * The languages of XSD patterns, compared exactly: does every text that one set of patterns
 * (and length bounds) allows also fit another pattern? Regular languages are closed under
 * intersection and complement, so `B ⊆ A` is "B ∩ ¬A is empty", decided on finite automata
 * built by refa from the patterns accord has already parsed (`xsd-regex.ts`), never by sampling.
 * Determinising A for its complement can take exponentially many states, so every automaton is
 * built under PATTERN_INCLUSION_LIMITS; past it the answer is 'undecided'.
 */

let loaded: typeof import('refa') | undefined;
/** refa, loaded at the first comparison of two different patterns: stubs and test runs never need it. */
function refa(): typeof import('refa') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (see above)
  loaded ??= require('refa') as typeof import('refa');
  return loaded;
}

const MAX_CHAR = 0x10ffff;

/** What B's facets allow: every pattern (all must hold) and the length bounds. */
export interface TextLanguage {
  patterns: readonly string[];
  minLength?: number;
  maxLength?: number;
}

export type Inclusion = 'included' | 'not-included' | 'undecided';

/** Does every text of `b` fit `pattern`? */
export function languageWithin(b: TextLanguage, pattern: string): Inclusion {
  const limit = PATTERN_INCLUSION_LIMITS.automatonStates;
  const { DFA, NFA, TooManyNodesError, isDisjointWith } = refa();
  try {
    const outside = DFA.fromFA(nfa(xsdRegex(pattern).ast, limit), new DFA.LimitedNodeFactory(limit));
    outside.complement();
    let sent: NFA | undefined;
    for (const p of b.patterns) {
      const next = nfa(xsdRegex(p).ast, limit);
      sent = sent === undefined ? next : NFA.fromIntersection(sent, next, new NFA.LimitedNodeFactory(limit));
    }
    const lengths = lengthLanguage(b.minLength ?? 0, b.maxLength ?? Infinity, limit);
    if (lengths) sent = sent === undefined ? lengths : NFA.fromIntersection(sent, lengths, new NFA.LimitedNodeFactory(limit));
    sent ??= nfa({ t: 'rep', node: { t: 'set', ranges: [[0, MAX_CHAR]] }, min: 0, max: Infinity }, limit);
    return isDisjointWith(sent, outside, limit) ? 'included' : 'not-included';
  } catch (e) {
    if (e instanceof TooManyNodesError) return 'undecided';
    throw e;
  }
}

/** Any text of minLength..maxLength characters, or undefined when that is any text at all. */
function lengthLanguage(min: number, max: number, limit: number): NFA | undefined {
  if (min === 0 && max === Infinity) return undefined;
  return nfa({ t: 'rep', node: { t: 'set', ranges: [[0, MAX_CHAR]] }, min, max }, limit);
}

function nfa(ast: XsdRegexNode, limit: number): NFA {
  const { NFA } = refa();
  return NFA.fromRegex(concatenation(ast), { maxCharacter: MAX_CHAR }, {}, new NFA.LimitedNodeFactory(limit));
}

function concatenation(n: XsdRegexNode): NoParent<Concatenation> {
  return { type: 'Concatenation', elements: n.t === 'seq' ? n.items.map(element) : [element(n)] };
}

function element(n: XsdRegexNode): NoParent<Element> {
  switch (n.t) {
    case 'set': {
      const c: NoParent<CharacterClass> = {
        type: 'CharacterClass',
        characters: refa()
          .CharSet.empty(MAX_CHAR)
          .union(n.ranges.map(([min, max]) => ({ min, max }))),
      };
      return c;
    }
    case 'seq': {
      const a: NoParent<Alternation> = { type: 'Alternation', alternatives: [concatenation(n)] };
      return a;
    }
    case 'alt': {
      const a: NoParent<Alternation> = { type: 'Alternation', alternatives: n.alts.map(concatenation) };
      return a;
    }
    case 'rep': {
      const q: NoParent<Quantifier> = { type: 'Quantifier', lazy: false, min: n.min, max: n.max, alternatives: [concatenation(n.node)] };
      return q;
    }
  }
}
