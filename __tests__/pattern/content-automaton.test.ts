import { alignChildren } from '../../src/pattern/match/align';
import { compareChoices, type ModelPart } from '../../src/pattern/compare/choice';
import { compareSequences } from '../../src/pattern/compare/sequence';
import type { Difference } from '../../src/pattern/compare/types';
import { ContentAutomaton, type Part } from '../../src/pattern/content-automaton';
import type { NodeSlot } from '../../src/pattern/resolve';
import { xmlElement } from '../../src/pattern/xml-pattern';
import type { XmlElement } from '../../src/xml/tree';
import { FULL_DEPTH } from '../helpers/depth';

/*
 * The content-model automaton, exhaustively on small models: every model of a small grammar (rows and
 * choices of up to three names, each 0..1, 1..1, 0..2 or 1..*, a choice inside a row), every sequence of
 * child names up to length 5. Matching (the automaton itself and align.ts, which uses it) must accept
 * exactly what a plain backtracking matcher accepts, and the comparison (compare-choice.ts) must find a
 * sequence B allows that A refuses exactly when enumeration finds one, and a shortest one.
 *
 * `npm test` checks a fixed quarter of the larger loops (every model and every word still, each
 * pair or (model, word) whose index sum is a multiple of 4: the same quarter each run), about 20 s
 * instead of 80; ACCORD_TEST_DEPTH=full (`npm run test:deep`, and CI) checks all of it.
 */

type Leaf = { kind: 'node'; local: string; min: number; max: number };
type Model = Part<Leaf>[];

const OCCURS: [number, number][] = [
  [0, 1],
  [1, 1],
  [0, 2],
  [1, Infinity],
];

function leaves(alphabet: string[]): Leaf[] {
  return alphabet.flatMap((local) => OCCURS.map(([min, max]) => ({ kind: 'node' as const, local, min, max })));
}

/** Every model with `n` leaves: a row of leaves, a choice of rows, or a row holding one such choice. */
function models(alphabet: string[], n: number): Model[] {
  const ls = leaves(alphabet);
  const rowsOf = (k: number): Leaf[][] => (k === 0 ? [[]] : rowsOf(k - 1).flatMap((r) => ls.map((l) => [...r, l])));
  // The ways to split k leaves into option rows of at least one leaf each.
  const splits = (k: number): number[][] => (k === 0 ? [[]] : Array.from({ length: k }, (_, i) => i + 1).flatMap((first) => splits(k - first).map((rest) => [first, ...rest])));
  const choices = (k: number): Part<Leaf>[] =>
    splits(k).flatMap((sizes) =>
      OCCURS.flatMap(([min, max]) => {
        let options: Leaf[][][] = [[]];
        for (const size of sizes) options = options.flatMap((o) => rowsOf(size).map((r) => [...o, r]));
        return options.map((o) => ({ kind: 'choice' as const, options: o, min, max }));
      }),
    );
  const out: Model[] = [...rowsOf(n)];
  for (let inChoice = 1; inChoice <= n; inChoice++) {
    const rest = n - inChoice;
    for (const c of choices(inChoice)) {
      if (rest === 0) out.push([c]);
      for (const r of rest > 0 ? rowsOf(rest) : []) {
        out.push([c, ...r]);
        out.push([...r, c]);
      }
    }
  }
  return out;
}

function words(alphabet: string[], length: number): string[][] {
  const out: string[][] = [[]];
  for (let i = 0, from = 0; i < length; i++) {
    const to = out.length;
    for (let w = from; w < to; w++) for (const a of alphabet) out.push([...out[w], a]);
    from = to;
  }
  return out;
}

/**
 * The reference: a backtracking matcher written from the definition. `prefix`: whether the word can be
 * continued into one the model allows (the input running out where the model wants a node is fine).
 */
function reference(model: Model, word: readonly string[], prefix = false): boolean {
  const seq = (parts: readonly Part<Leaf>[], i: number, pos: number, k: (p: number) => boolean): boolean =>
    i === parts.length ? k(pos) : rep(parts[i], 0, pos, (p) => seq(parts, i + 1, p, k));
  const rep = (part: Part<Leaf>, count: number, pos: number, k: (p: number) => boolean): boolean => {
    if (count >= part.min && k(pos)) return true;
    if (count >= part.max) return false;
    // One more occurrence; past the min, one that takes nothing leads nowhere new.
    return once(part, pos, (p) => !(count >= part.min && p === pos) && rep(part, count + 1, p, k));
  };
  const once = (part: Part<Leaf>, pos: number, k: (p: number) => boolean): boolean => {
    if (part.kind === 'choice') return part.options.some((o) => seq(o, 0, pos, k));
    if (pos === word.length) return prefix;
    return word[pos] === part.local && k(pos + 1);
  };
  return seq(model, 0, 0, (p) => p === word.length);
}

/** Whether the automaton accepts each word of `ws` (made by words(): a word's prefixes come before it), sharing prefixes. */
function automatonAccepts(a: ContentAutomaton<Leaf>, ws: readonly string[][]): boolean[] {
  const sets = new Map<string, number[]>([['', a.initial()]]);
  return ws.map((w) => {
    let set = sets.get(w.join(' '));
    if (!set) {
      set = a.step(sets.get(w.slice(0, -1).join(' '))!, (l) => l.local === w[w.length - 1]);
      sets.set(w.join(' '), set);
    }
    return a.accepts(set);
  });
}

/** Whether a model names its leaves a, b, c in order of first use: every other model is one of these renamed. */
function canonical(model: readonly Part<Leaf>[]): boolean {
  const names: string[] = [];
  const walk = (parts: readonly Part<Leaf>[]): void => {
    for (const p of parts) {
      if (p.kind === 'choice') p.options.forEach(walk);
      else names.push(p.local);
    }
  };
  walk(model);
  let next = 'a';
  for (const n of names) {
    if (n > next) return false;
    if (n === next) next = String.fromCharCode(next.charCodeAt(0) + 1);
  }
  return true;
}

function asSlots(model: readonly Part<Leaf>[]): NodeSlot[] {
  return model.map((p) =>
    p.kind === 'choice' ? { kind: 'choice', options: p.options.map(asSlots), min: p.min, max: p.max } : { kind: 'element', pattern: xmlElement(p.local), min: p.min, max: p.max },
  );
}

function show(model: readonly Part<Leaf>[]): string {
  const bounds = (p: { min: number; max: number }) => `{${p.min},${p.max === Infinity ? '*' : p.max}}`;
  return model.map((p) => (p.kind === 'choice' ? `(${p.options.map(show).join(' | ')})${bounds(p)}` : `${p.local}${bounds(p)}`)).join(' ');
}

/** The whole depth, or the fixed quarter (see above). */
const FULL = FULL_DEPTH;
const STRIDE = FULL ? 1 : 4;
const DEPTH = FULL ? 'all of them' : 'a fixed quarter of them (ACCORD_TEST_DEPTH=full for all)';
const sampled = (i: number, j: number) => (i + j) % STRIDE === 0;

const ALPHABET3 = ['a', 'b', 'c'];
const ALPHABET2 = ['a', 'b'];
// Models up to renaming (a word over the whole alphabet tells renamed models apart anyway).
const SMALL = [...models(ALPHABET3, 1), ...models(ALPHABET3, 2)].filter(canonical);
const LARGER = models(ALPHABET2, 3).filter(canonical);

describe('matching: the automaton and align.ts accept exactly what a backtracking matcher does', () => {
  it.each([
    ['up to two names of a, b, c', 'all of them', SMALL, words(ALPHABET3, 5), 1],
    ['three names of a, b', DEPTH, LARGER, words(ALPHABET2, 5), STRIDE],
  ])('%s: every model, every word up to length 5, (model, word) pairs: %s', (_, _depth, all, ws, stride) => {
    expect(all.length).toBeGreaterThan(200);
    const wrong: string[] = [];
    for (const [m, model] of all.entries()) {
      const byAutomaton = automatonAccepts(ContentAutomaton.build<Leaf>(model, { maxStates: 20_000 })!, ws);
      const slots = asSlots(model);
      for (const [i, word] of ws.entries()) {
        if ((m + i) % stride !== 0) continue;
        const expected = reference(model, word);
        const children = word.map((local) => ({ local }) as XmlElement);
        const alignment = alignChildren(slots, children, () => undefined);
        const got = [byAutomaton[i], alignment !== undefined];
        // An alignment found must put each child in a leaf of its name.
        const misplaced = alignment && word.some((local, k) => (alignment.leaves[alignment.assigned[k]] as { pattern: { local: string } }).pattern.local !== local);
        if (got.some((g) => g !== expected) || misplaced) wrong.push(`${show(model)} on (${word.join(' ')}): expected ${expected}, got ${got.join('/')}`);
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });
});

describe('comparison: compare-choice.ts finds a sequence B allows and A refuses exactly when one exists', () => {
  // Every pair of models with up to two names of a and b; their words up to length 5, as bit sets.
  const all = [...models(ALPHABET2, 1), ...models(ALPHABET2, 2)];
  const ws = words(ALPHABET2, 5);
  const index = new Map(ws.map((w, i) => [w.join(' '), i]));
  const table = all.map((model) => ({
    model,
    accepts: ws.map((w) => reference(model, w)),
    viable: ws.map((w) => reference(model, w, true)),
    // Bounded: no word longer than 4 (so every word and every word's next node is within the enumeration).
    bounded: ws.every((w) => w.length < 5 || !reference(model, w, true)),
  }));

  /** The sequence a difference is about, read from its words ("node <x> after (a, b)", "nothing more first"). */
  function witness(d: Difference): { prefix: string[]; node?: string } {
    const b = String(d.b);
    const after = /after \(([^)]*)\)$/.exec(b);
    const prefix = after ? after[1].split(', ') : [];
    return d.kind === 'unexpected' ? { prefix, node: d.name } : { prefix };
  }

  it(`every model, every sequence up to length 5, pairs: ${DEPTH}`, () => {
    expect(all.length).toBeGreaterThan(500);
    const wrong: string[] = [];
    let found = 0;
    let exact = 0;
    // A named canonically: every other pair is one of these renamed.
    for (const [a, A] of table.filter((t) => canonical(t.model)).entries()) {
      for (const [b, B] of table.entries()) {
        if (!sampled(a, b)) continue;
        const differences: Difference[] = [];
        compareChoices(A.model as ModelPart[], B.model as ModelPart[], '/r', (d) => differences.push(d));
        // The shortest sequence (by what is read before the refusal) where B goes on and A cannot, by enumeration.
        let shortest = Infinity;
        for (let i = 0; i < ws.length; i++) {
          const w = ws[i];
          if (B.accepts[i] && !A.accepts[i]) shortest = Math.min(shortest, w.length);
          if (B.viable[i] && !A.viable[i]) shortest = Math.min(shortest, w.length - 1);
        }
        const label = `A ${show(A.model)} / B ${show(B.model)}`;
        if (differences.length > 1) wrong.push(`${label}: ${differences.length} differences`);
        if (differences.length === 0) {
          if (shortest < 5) wrong.push(`${label}: none found, enumeration finds one after ${shortest} nodes`);
          if (B.bounded) exact++;
          continue;
        }
        found++;
        const { prefix, node } = witness(differences[0]);
        const at = index.get([...prefix, ...(node ? [node] : [])].join(' '));
        if (at === undefined) {
          // Longer than the enumeration: only possible when B is unbounded and nothing shorter differs.
          if (B.bounded || shortest < 5) wrong.push(`${label}: reported after (${prefix.join(' ')}) beyond the words enumerated`);
          continue;
        }
        const valid = node ? B.viable[at] && !A.viable[at] : B.accepts[at] && !A.accepts[at];
        if (!valid) wrong.push(`${label}: ${JSON.stringify(differences[0])} is no difference`);
        else if (prefix.length !== shortest) wrong.push(`${label}: reported after ${prefix.length} nodes, a difference exists after ${shortest}`);
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    // Both verdicts are exercised, and many pairs are decided exactly (B's language bounded).
    expect(found).toBeGreaterThan(1000 / STRIDE);
    expect(exact).toBeGreaterThan(1000 / STRIDE);
  });
});

describe('comparison: compare-sequence.ts finds a difference in rows of nodes exactly when one exists', () => {
  // Rows of up to three nodes named a or b (a name twice takes the automaton's way), every pair.
  const rows = [...models(ALPHABET2, 1), ...models(ALPHABET2, 2), ...models(ALPHABET2, 3)].filter((m) => m.every((p) => p.kind !== 'choice')) as Leaf[][];
  const ws = words(ALPHABET2, 5);
  const table = rows.map((row) => ({
    row,
    slots: row.map((l) => ({ local: l.local, min: l.min, max: l.max, pattern: xmlElement(l.local) })),
    accepts: ws.map((w) => reference(row, w)),
    // Bounded within the enumeration: no word longer than 5.
    bounded: row.reduce((t, l) => t + l.max, 0) <= 5,
  }));

  it(`every row, every sequence up to length 5, pairs: ${DEPTH}`, () => {
    expect(rows.length).toBeGreaterThan(500);
    const wrong: string[] = [];
    let found = 0;
    for (const [a, A] of table.filter((t) => canonical(t.row)).entries()) {
      for (const [b, B] of table.entries()) {
        if (!sampled(a, b)) continue;
        let reported = 0;
        compareSequences(A.slots, B.slots, '/r', () => reported++);
        const differs = ws.some((_, i) => B.accepts[i] && !A.accepts[i]);
        const label = `A ${show(A.row)} / B ${show(B.row)}`;
        if (reported > 0) found++;
        if (differs && reported === 0) wrong.push(`${label}: none reported, enumeration finds one`);
        // Every word B allows up to length 5 fits A: a difference only where B allows longer words.
        if (!differs && reported > 0 && B.bounded) wrong.push(`${label}: ${reported} reported, enumeration finds none`);
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(found).toBeGreaterThan(10_000 / STRIDE);
  });
});

describe('the size limit', () => {
  it('a model above the limit is not built: build gives undefined, and no exception reaches its users', () => {
    const choice: Part<Leaf> = { kind: 'choice', options: [[{ kind: 'node', local: 'a', min: 1, max: 1 }]], min: 8, max: 8 };
    expect(ContentAutomaton.build<Leaf>([choice], { maxStates: 8 })).toBeUndefined();
    expect(ContentAutomaton.build<Leaf>([choice], { maxStates: 20 })!.states.length).toBeLessThan(20);
  });
});
