import type { RE2JS } from 're2js';
import { AccordError } from '../../errors';
import { XSD_PATTERN_LIMITS } from '../../limits';
import type { Random } from '../random';

/*
 * XSD `pattern` facets. They come from WSDL files and contracts, so they are
 * input: a pattern is parsed here (XSD regular-expression syntax, implicitly
 * anchored), translated to RE2 syntax with every character class spelled out
 * as code-point ranges, and matched by re2js, a port of RE2: linear in the text
 * whatever the pattern, never V8's backtracking engine. The same parse drives
 * generation, so a value made for `[A-Z0-9]{18}` has 18 such characters.
 *
 * Approximations (docs/wsdl-import.md): `\i` and `\c` use XML 1.0 fifth
 * edition's name characters; `\p{Is…}` knows the common blocks only (others
 * are refused); categories (`\p{L}`, `\d`, `\w`) use this Node.js's Unicode
 * tables, for the Basic Multilingual Plane only (see `category`).
 */

/** Sorted, disjoint code-point ranges [lo, hi]. */
type Ranges = [number, number][];

/** A parsed pattern: alternation, sequence, repetition (max may be Infinity), character set. */
export type XsdRegexNode =
  { t: 'alt'; alts: XsdRegexNode[] } | { t: 'seq'; items: XsdRegexNode[] } | { t: 'rep'; node: XsdRegexNode; min: number; max: number } | { t: 'set'; ranges: Ranges };
type Node = XsdRegexNode;

const MAX_CP = 0x10ffff;
const ALL: Ranges = [
  [0, 0xd7ff],
  [0xe000, MAX_CP],
];

/** A compiled pattern: `test` matches a whole text, `generate` makes one. */
export interface XsdRegex {
  source: string;
  /** The parsed pattern (what `pattern/compare/regex-language.ts` turns into an automaton). */
  ast: XsdRegexNode;
  test(text: string): boolean;
  generate(rng: Random, spread: number): string;
  /** A text of exactly `length` characters, or undefined when the pattern has none of that length. */
  generateOfLength(rng: Random, length: number): string | undefined;
}

const cache = new Map<string, XsdRegex>();

/** Parses and compiles an XSD pattern; an AccordError (ACCORD_ERR_CONTRACT_TYPE) says why one cannot be used. */
export function xsdRegex(source: string): XsdRegex {
  const known = cache.get(source);
  if (known) return known;
  if (source.length > XSD_PATTERN_LIMITS.sourceChars) throw bad(source, `longer than ${XSD_PATTERN_LIMITS.sourceChars} characters`);
  const ast = new Parser(source).parse();
  if (size(ast) > XSD_PATTERN_LIMITS.expandedSize) throw bad(source, 'its repetitions expand too far');
  let re: RE2JS;
  try {
    re = engine().compile(toRe2(ast));
  } catch (e) {
    throw bad(source, (e as Error).message);
  }
  const compiled: XsdRegex = {
    source,
    ast,
    test: (t) => re.matches(t),
    generate: (rng, spread) => generate(ast, rng, spread),
    generateOfLength: (rng, length) => ofLength(ast, rng, length, new Map()),
  };
  if (cache.size > 1000) cache.clear();
  cache.set(source, compiled);
  return compiled;
}

let re2: typeof RE2JS | undefined;
/** re2js, loaded at the first pattern: it is a large module (about 15 ms of a stub's start) that most contracts never need. */
function engine(): typeof RE2JS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (see above)
  re2 ??= (require('re2js') as typeof import('re2js')).RE2JS;
  return re2;
}

function bad(source: string, why: string): AccordError {
  const shown = source.length > 60 ? `${source.slice(0, 60)}…` : source;
  return new AccordError('ACCORD_ERR_CONTRACT_TYPE', `pattern "${shown}" cannot be used: ${why}`);
}

// ---------- parsing ----------

class Parser {
  private i = 0;
  private readonly cps: number[];
  constructor(private readonly source: string) {
    this.cps = Array.from(source, (c) => c.codePointAt(0)!);
  }

  parse(): Node {
    const n = this.alternation(0);
    if (this.i < this.cps.length) throw this.error(`unexpected "${String.fromCodePoint(this.cps[this.i])}"`);
    return n;
  }

  private error(why: string): AccordError {
    return bad(this.source, `${why} at character ${this.i + 1}`);
  }

  private peek(): number | undefined {
    return this.cps[this.i];
  }

  private eat(c: string): boolean {
    if (this.cps[this.i] === c.codePointAt(0)) {
      this.i++;
      return true;
    }
    return false;
  }

  private alternation(depth: number): Node {
    if (depth > XSD_PATTERN_LIMITS.nesting) throw this.error('groups nest too deep');
    const alts = [this.branch(depth)];
    while (this.eat('|')) alts.push(this.branch(depth));
    return alts.length === 1 ? alts[0] : { t: 'alt', alts };
  }

  private branch(depth: number): Node {
    const items: Node[] = [];
    for (let c = this.peek(); c !== undefined && c !== 0x7c && c !== 0x29; c = this.peek()) items.push(this.piece(depth));
    return { t: 'seq', items };
  }

  private piece(depth: number): Node {
    const atom = this.atom(depth);
    const c = this.peek();
    if (c === 0x3f) return this.quantified(atom, 0, 1);
    if (c === 0x2a) return this.quantified(atom, 0, Infinity);
    if (c === 0x2b) return this.quantified(atom, 1, Infinity);
    if (c === 0x7b) {
      this.i++;
      const min = this.number();
      let max = min;
      if (this.eat(',')) max = this.peek() === 0x7d ? Infinity : this.number();
      if (!this.eat('}')) throw this.error('a quantifier {n,m} is not closed');
      if (max < min) throw this.error(`{${min},${max}}: the maximum is below the minimum`);
      return { t: 'rep', node: atom, min, max };
    }
    return atom;
  }

  private quantified(atom: Node, min: number, max: number): Node {
    this.i++;
    // Lazy quantifiers are not XSD; a `?` after one (Java/.NET habit) changes nothing in a full match.
    if (this.peek() === 0x3f) this.i++;
    return { t: 'rep', node: atom, min, max };
  }

  private number(): number {
    const start = this.i;
    while (this.peek() !== undefined && this.peek()! >= 0x30 && this.peek()! <= 0x39) this.i++;
    if (start === this.i) throw this.error('a quantifier needs a number');
    const n = Number(String.fromCodePoint(...this.cps.slice(start, this.i)));
    if (n > XSD_PATTERN_LIMITS.repeat) throw this.error(`a count above ${XSD_PATTERN_LIMITS.repeat}`);
    return n;
  }

  private atom(depth: number): Node {
    const c = this.peek()!;
    if (c === 0x28) {
      this.i++;
      // `(?:` is not XSD, but patterns written for Java or .NET use it: a plain group.
      if (this.peek() === 0x3f && this.cps[this.i + 1] === 0x3a) this.i += 2;
      const inner = this.alternation(depth + 1);
      if (!this.eat(')')) throw this.error('a group is not closed');
      return inner;
    }
    if (c === 0x5b) return { t: 'set', ranges: this.classExpr() };
    if (c === 0x2e) {
      this.i++;
      return {
        t: 'set',
        ranges: subtract(ALL, [
          [0x0a, 0x0a],
          [0x0d, 0x0d],
        ]),
      };
    }
    if (c === 0x5c) return { t: 'set', ranges: this.escape() };
    if (c === 0x2a || c === 0x2b || c === 0x3f || c === 0x7b) throw this.error('a quantifier with nothing before it');
    if (c === 0x5d || c === 0x7d) throw this.error(`an unescaped "${String.fromCodePoint(c)}"`);
    this.i++;
    return { t: 'set', ranges: [[c, c]] };
  }

  /** `[...]`, `[^...]`, `[...-[...]]`. */
  private classExpr(): Ranges {
    this.i++;
    const negated = this.eat('^');
    let ranges: Ranges = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw this.error('a character class is not closed');
      if (c === 0x5d && !first) {
        this.i++;
        break;
      }
      if (c === 0x2d && this.cps[this.i + 1] === 0x5b) {
        this.i++;
        const minus = this.classExpr();
        if (!this.eat(']')) throw this.error('a subtraction must end its class');
        ranges = subtract(union(ranges), minus);
        return negated ? subtract(ALL, ranges) : ranges;
      }
      first = false;
      if (c === 0x5c) {
        const esc = this.escape();
        ranges.push(...esc);
        if (esc.length === 1 && esc[0][0] === esc[0][1] && this.rangeFollows()) ranges.push(this.rangeTo(esc[0][0]));
        continue;
      }
      this.i++;
      if (this.rangeFollows()) ranges.push(this.rangeTo(c));
      else ranges.push([c, c]);
    }
    const set = union(ranges);
    return negated ? subtract(ALL, set) : set;
  }

  private rangeFollows(): boolean {
    return this.peek() === 0x2d && this.cps[this.i + 1] !== undefined && this.cps[this.i + 1] !== 0x5d && this.cps[this.i + 1] !== 0x5b;
  }

  private rangeTo(lo: number): [number, number] {
    this.i++;
    let hi = this.peek()!;
    if (hi === 0x5c) {
      const esc = this.escape();
      if (esc.length !== 1 || esc[0][0] !== esc[0][1]) throw this.error('a range must end in one character');
      hi = esc[0][0];
    } else this.i++;
    if (hi < lo) throw this.error('a range ends before it starts');
    return [lo, hi];
  }

  private escape(): Ranges {
    this.i++;
    const c = this.peek();
    if (c === undefined) throw this.error('a pattern cannot end in a backslash');
    this.i++;
    const ch = String.fromCodePoint(c);
    switch (ch) {
      case 'n':
        return [[0x0a, 0x0a]];
      case 'r':
        return [[0x0d, 0x0d]];
      case 't':
        return [[0x09, 0x09]];
      case 's':
        return SPACE;
      case 'S':
        return subtract(ALL, SPACE);
      case 'i':
        return NAME_START;
      case 'I':
        return subtract(ALL, NAME_START);
      case 'c':
        return NAME_CHAR;
      case 'C':
        return subtract(ALL, NAME_CHAR);
      case 'd':
        return category('Nd');
      case 'D':
        return subtract(ALL, category('Nd'));
      case 'w':
        return WORD();
      case 'W':
        return subtract(ALL, WORD());
      case 'p':
      case 'P': {
        const set = this.property();
        return ch === 'p' ? set : subtract(ALL, set);
      }
      default:
        if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) throw this.error(`unknown escape \\${ch}`);
        return [[c, c]];
    }
  }

  private property(): Ranges {
    if (!this.eat('{')) throw this.error('\\p needs {name}');
    const start = this.i;
    while (this.peek() !== undefined && this.peek() !== 0x7d) this.i++;
    const name = String.fromCodePoint(...this.cps.slice(start, this.i));
    if (!this.eat('}')) throw this.error('\\p{ is not closed');
    if (name.startsWith('Is')) {
      const block = BLOCKS[name.slice(2)];
      if (!block) throw this.error(`block ${name} is not known to accord`);
      return [block];
    }
    if (!Object.hasOwn(CATEGORY_RUNS, name)) throw this.error(`unknown category ${name}`);
    return category(name);
  }
}

// ---------- character sets ----------

function union(ranges: Ranges): Ranges {
  const sorted = ranges.slice().sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function subtract(a: Ranges, b: Ranges): Ranges {
  const minus = union(b);
  const out: Ranges = [];
  for (const [lo0, hi] of union(a)) {
    let lo = lo0;
    for (const [mlo, mhi] of minus) {
      if (mhi < lo || mlo > hi) continue;
      if (mlo > lo) out.push([lo, mlo - 1]);
      lo = mhi + 1;
      if (lo > hi) break;
    }
    if (lo <= hi) out.push([lo, hi]);
  }
  return out;
}

const SPACE: Ranges = [
  [0x09, 0x0a],
  [0x0d, 0x0d],
  [0x20, 0x20],
];

const NAME_START: Ranges = union([
  [0x3a, 0x3a],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
  [0xc0, 0xd6],
  [0xd8, 0xf6],
  [0xf8, 0x2ff],
  [0x370, 0x37d],
  [0x37f, 0x1fff],
  [0x200c, 0x200d],
  [0x2070, 0x218f],
  [0x2c00, 0x2fef],
  [0x3001, 0xd7ff],
  [0xf900, 0xfdcf],
  [0xfdf0, 0xfffd],
  [0x10000, 0xeffff],
]);

const NAME_CHAR: Ranges = union([...NAME_START, [0x2d, 0x2e], [0x30, 0x39], [0xb7, 0xb7], [0x300, 0x36f], [0x203f, 0x2040]]);

/** Common Unicode blocks for `\p{IsName}`. */
const BLOCKS: Record<string, [number, number]> = {
  BasicLatin: [0x0, 0x7f],
  'Latin-1Supplement': [0x80, 0xff],
  'LatinExtended-A': [0x100, 0x17f],
  'LatinExtended-B': [0x180, 0x24f],
  IPAExtensions: [0x250, 0x2af],
  Greek: [0x370, 0x3ff],
  Cyrillic: [0x400, 0x4ff],
  Hebrew: [0x590, 0x5ff],
  Arabic: [0x600, 0x6ff],
  Thai: [0xe00, 0xe7f],
  LatinExtendedAdditional: [0x1e00, 0x1eff],
  GeneralPunctuation: [0x2000, 0x206f],
  CurrencySymbols: [0x20a0, 0x20cf],
  Hiragana: [0x3040, 0x309f],
  Katakana: [0x30a0, 0x30ff],
  CJKUnifiedIdeographs: [0x4e00, 0x9fff],
  HangulSyllables: [0xac00, 0xd7af],
};

/**
 * The general categories XSD names, each as runs of its characters (literals: no expression is built from input).
 * Each made when first asked for: building all 36 Unicode property classes cost every start that loads this module about 4 ms.
 */
const CATEGORY_RUNS: Record<string, () => RegExp> = {
  L: () => /\p{L}+/gu,
  Lu: () => /\p{Lu}+/gu,
  Ll: () => /\p{Ll}+/gu,
  Lt: () => /\p{Lt}+/gu,
  Lm: () => /\p{Lm}+/gu,
  Lo: () => /\p{Lo}+/gu,
  M: () => /\p{M}+/gu,
  Mn: () => /\p{Mn}+/gu,
  Mc: () => /\p{Mc}+/gu,
  Me: () => /\p{Me}+/gu,
  N: () => /\p{N}+/gu,
  Nd: () => /\p{Nd}+/gu,
  Nl: () => /\p{Nl}+/gu,
  No: () => /\p{No}+/gu,
  P: () => /\p{P}+/gu,
  Pc: () => /\p{Pc}+/gu,
  Pd: () => /\p{Pd}+/gu,
  Ps: () => /\p{Ps}+/gu,
  Pe: () => /\p{Pe}+/gu,
  Pi: () => /\p{Pi}+/gu,
  Pf: () => /\p{Pf}+/gu,
  Po: () => /\p{Po}+/gu,
  Z: () => /\p{Z}+/gu,
  Zs: () => /\p{Zs}+/gu,
  Zl: () => /\p{Zl}+/gu,
  Zp: () => /\p{Zp}+/gu,
  S: () => /\p{S}+/gu,
  Sm: () => /\p{Sm}+/gu,
  Sc: () => /\p{Sc}+/gu,
  Sk: () => /\p{Sk}+/gu,
  So: () => /\p{So}+/gu,
  C: () => /\p{C}+/gu,
  Cc: () => /\p{Cc}+/gu,
  Cf: () => /\p{Cf}+/gu,
  Co: () => /\p{Co}+/gu,
  Cn: () => /\p{Cn}+/gu,
};

let everyBmpCodePoint: string | undefined;
const categories = new Map<string, Ranges>();

/**
 * A Unicode general category as ranges, read from this Node.js's own tables:
 * one string of every code point of the Basic Multilingual Plane, matched in
 * runs by the native engine (a fixed, linear expression over accord's own
 * text, not over input). Only the BMP: all of Unicode took a second and more
 * per category; characters beyond it are in no category here (so `\p{L}`
 * refuses them and `\w`, a complement, accepts them).
 */
function category(name: string): Ranges {
  const known = categories.get(name);
  if (known) return known;
  if (everyBmpCodePoint === undefined) {
    const codes: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (c < 0xd800 || c > 0xdfff) codes.push(c);
    const parts: string[] = [];
    for (let i = 0; i < codes.length; i += 4096) parts.push(String.fromCharCode(...codes.slice(i, i + 4096)));
    everyBmpCodePoint = parts.join('');
  }
  const re = CATEGORY_RUNS[name]();
  const ranges: Ranges = [];
  for (const m of everyBmpCodePoint.matchAll(re)) ranges.push([m[0].charCodeAt(0), m[0].charCodeAt(m[0].length - 1)]);
  // A run may reach across the surrogates, left out of the string: they are no characters.
  const set = subtract(ranges, [[0xd800, 0xdfff]]);
  categories.set(name, set);
  return set;
}

let word: Ranges | undefined;
function WORD(): Ranges {
  word ??= subtract(ALL, union([...category('P'), ...category('Z'), ...category('C')]));
  return word;
}

// ---------- RE2 ----------

function toRe2(n: Node): string {
  switch (n.t) {
    case 'alt':
      return `(?:${n.alts.map(toRe2).join('|')})`;
    case 'seq':
      return n.items.map(toRe2).join('');
    case 'rep': {
      const inner = `(?:${toRe2(n.node)})`;
      if (n.max === Infinity) return n.min === 0 ? `${inner}*` : n.min === 1 ? `${inner}+` : `${inner}{${n.min},}`;
      return `${inner}{${n.min},${n.max}}`;
    }
    case 'set':
      if (n.ranges.length === 0) return '[^\\x{0}-\\x{10FFFF}]';
      return `[${n.ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('')}]`;
  }
}

function hex(cp: number): string {
  return `\\x{${cp.toString(16)}}`;
}

/** How many characters a pattern can ask the engine to track: repetitions multiply. */
function size(n: Node): number {
  switch (n.t) {
    case 'alt':
      return n.alts.reduce((s, a) => s + size(a), 0);
    case 'seq':
      return n.items.reduce((s, a) => s + size(a), 0) + 1;
    case 'rep':
      return size(n.node) * Math.max(1, n.max === Infinity ? n.min + 1 : n.max);
    case 'set':
      return 1;
  }
}

// ---------- generation ----------

/** Characters generation prefers: letters and digits, then other printable ASCII, then anything allowed. */
const PREFERRED: Ranges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x61, 0x7a],
];
const PRINTABLE: Ranges = [[0x21, 0x7e]];

function generate(n: Node, rng: Random, spread: number): string {
  switch (n.t) {
    case 'alt':
      return generate(n.alts[rng.int(0, n.alts.length - 1)], rng, spread);
    case 'seq':
      return n.items.map((i) => generate(i, rng, spread)).join('');
    case 'rep': {
      const top = n.max === Infinity ? n.min + spread : Math.min(n.max, n.min + spread);
      const count = rng.int(n.min, Math.max(n.min, top));
      let out = '';
      for (let k = 0; k < count; k++) out += generate(n.node, rng, spread);
      return out;
    }
    case 'set':
      return String.fromCodePoint(pick(n.ranges, rng));
  }
}

type Span = [min: number, max: number];

/** The shortest and longest texts a node matches, in characters (max may be Infinity). */
function span(n: Node, memo: Map<Node, Span>): Span {
  const known = memo.get(n);
  if (known) return known;
  let s: Span;
  switch (n.t) {
    case 'set':
      s = [1, 1];
      break;
    case 'alt': {
      const all = n.alts.map((a) => span(a, memo));
      s = [Math.min(...all.map((x) => x[0])), Math.max(...all.map((x) => x[1]))];
      break;
    }
    case 'seq':
      s = n.items.map((i) => span(i, memo)).reduce<Span>((acc, x) => [acc[0] + x[0], acc[1] + x[1]], [0, 0]);
      break;
    case 'rep': {
      const [lo, hi] = span(n.node, memo);
      s = [n.min * lo, n.max === 0 || hi === 0 ? 0 : n.max * hi];
      break;
    }
  }
  memo.set(n, s);
  return s;
}

/** `count` lengths, each within [lo, hi], adding up to `total` (the caller checked that they can). */
function split(total: number, count: number, lo: number, hi: number, rng: Random): number[] {
  const out: number[] = [];
  let left = total;
  for (let k = 0; k < count; k++) {
    const rest = count - k - 1;
    const len = rng.int(Math.max(lo, left - (rest === 0 ? 0 : rest * hi)), Math.min(hi, left - rest * lo));
    out.push(len);
    left -= len;
  }
  return out;
}

/**
 * A text of the node of exactly `want` characters: lengths are handed down so that the facets' length
 * (an 18-character id, 25 digits of `[0-9]+`) is met on purpose, not by chance. Undefined when no text of
 * that length matches. The work is linear in `want` and the pattern's size.
 */
function ofLength(n: Node, rng: Random, want: number, memo: Map<Node, Span>): string | undefined {
  const [lo, hi] = span(n, memo);
  if (want < lo || want > hi) return undefined;
  switch (n.t) {
    case 'set':
      return String.fromCodePoint(pick(n.ranges, rng));
    case 'alt': {
      const fitting = n.alts.filter((a) => {
        const [l, h] = span(a, memo);
        return l <= want && want <= h;
      });
      return ofLength(fitting[rng.int(0, fitting.length - 1)], rng, want, memo);
    }
    case 'seq': {
      const spans = n.items.map((i) => span(i, memo));
      let left = want;
      let out = '';
      for (let i = 0; i < n.items.length; i++) {
        const after = spans.slice(i + 1).reduce<Span>((acc, x) => [acc[0] + x[0], acc[1] + x[1]], [0, 0]);
        const len = rng.int(Math.max(spans[i][0], left - after[1]), Math.min(spans[i][1], left - after[0]));
        const part = ofLength(n.items[i], rng, len, memo);
        if (part === undefined) return undefined;
        out += part;
        left -= len;
      }
      return out;
    }
    case 'rep': {
      if (want === 0) return '';
      const [clo, chi] = span(n.node, memo);
      const fewest = Math.max(n.min, 1, chi === Infinity ? 1 : Math.ceil(want / chi));
      const most = Math.min(n.max, clo > 0 ? Math.floor(want / clo) : Math.max(want, n.min));
      if (fewest > most) return undefined;
      let out = '';
      for (const len of split(want, rng.int(fewest, most), clo, chi, rng)) {
        const part = ofLength(n.node, rng, len, memo);
        if (part === undefined) return undefined;
        out += part;
      }
      return out;
    }
  }
}

function pick(ranges: Ranges, rng: Random): number {
  for (const prefer of [PREFERRED, PRINTABLE, [[0xa0, 0xd7ff]] as Ranges, ALL]) {
    const within = subtract(ranges, subtract(ALL, prefer));
    const total = within.reduce((s, [lo, hi]) => s + hi - lo + 1, 0);
    if (total === 0) continue;
    let k = rng.int(0, Math.min(total, 1_000_000) - 1);
    for (const [lo, hi] of within) {
      if (k <= hi - lo) return lo + k;
      k -= hi - lo + 1;
    }
  }
  // An empty class (`[a-[a]]`) matches nothing: the value made cannot match, and matching will say so.
  return 0x3f;
}
