import { AccordError } from '../../errors';
import type { Random } from '../random';
import { SCALARS, type ScalarRule } from './index';
import type { Facets, ScalarType } from '../types';
import { languageWithin } from './regex-language';
import { xsdRegex } from './xsd-regex';
import { compareDurations, durationWithin, instantOf, instantWithin } from './temporal';

/*
 * Facets on a scalar: how they are written inside a placeholder, checked,
 * described in reports, satisfied by generation and compared. One module, so
 * `(string maxLength=18 pattern="[A-Z0-9]{18}")` means the same everywhere.
 */

/** The facet names in the order they are written. */
export const FACET_KEYS = ['length', 'minLength', 'maxLength', 'min', 'minExclusive', 'max', 'maxExclusive', 'totalDigits', 'fractionDigits', 'pattern'] as const;
type FacetKey = (typeof FACET_KEYS)[number];

const COUNTS = new Set<FacetKey>(['length', 'minLength', 'maxLength', 'totalDigits', 'fractionDigits']);
const BOUNDS = new Set<FacetKey>(['min', 'max', 'minExclusive', 'maxExclusive']);

// ---------- writing and reading ----------

/** ` minLength=1 pattern="[A-Z]+"`: the facets as written after the type name (empty when there are none). */
export function facetsText(f: Facets | undefined): string {
  if (!f) return '';
  let out = '';
  for (const k of FACET_KEYS) {
    const v = f[k];
    if (v === undefined) continue;
    if (k === 'pattern') for (const p of v as string[]) out += ` pattern="${p.replaceAll('"', '""')}"`;
    else out += ` ${k}=${String(v)}`;
  }
  return out;
}

/**
 * Splits a placeholder's inside into its type and its facets: `string
 * maxLength=18 pattern="a b"` is `string` and the two facets. A quoted value
 * is taken as written up to the next lone `"` (`""` is a quote), so an XSD
 * pattern needs no further escaping.
 */
export function splitFacets(inner: string): { head: string; facets?: Facets } {
  const at = firstFacet(inner);
  if (at < 0) return { head: inner };
  const facets: Facets = {};
  let i = at;
  const n = inner.length;
  while (i < n) {
    while (i < n && inner[i] === ' ') i++;
    if (i >= n) break;
    const eq = inner.indexOf('=', i);
    const key = inner.slice(i, eq);
    if (eq < 0 || !(FACET_KEYS as readonly string[]).includes(key)) throw facetError(`"${inner.slice(i, i + 30)}" is not a facet: expected one of ${FACET_KEYS.join(', ')}`);
    i = eq + 1;
    let value = '';
    if (inner[i] === '"') {
      i++;
      for (;;) {
        if (i >= n) throw facetError(`the value of ${key} is not closed with "`);
        if (inner[i] === '"') {
          if (inner[i + 1] !== '"') break;
          i++;
        }
        value += inner[i++];
      }
      i++;
    } else {
      const end = inner.indexOf(' ', i);
      value = inner.slice(i, end < 0 ? n : end);
      i = end < 0 ? n : end;
    }
    setFacet(facets, key as FacetKey, value);
  }
  return { head: inner.slice(0, at).trim(), facets };
}

/** Where the facets start: the first ` name=` outside quotes, or -1. */
function firstFacet(inner: string): number {
  for (let i = inner.indexOf(' '); i >= 0; i = inner.indexOf(' ', i + 1)) {
    let j = i;
    while (inner[j] === ' ') j++;
    const eq = inner.indexOf('=', j);
    if (eq > j && /^[A-Za-z]+$/.test(inner.slice(j, eq))) return j;
  }
  return -1;
}

function setFacet(f: Facets, key: FacetKey, value: string): void {
  if (key === 'pattern') {
    xsdRegex(value);
    (f.pattern ??= []).push(value);
    return;
  }
  if (f[key] !== undefined) throw facetError(`${key} is given twice`);
  if (COUNTS.has(key)) {
    if (!/^\d{1,9}$/.test(value)) throw facetError(`${key}=${value}: expected a whole number`);
    (f as Record<string, number>)[key] = Number(value);
    return;
  }
  if (!NUMERIC.test(value) && !/^[\w:.+-]{1,64}$/.test(value)) throw facetError(`${key}=${value}: expected a number or a date`);
  (f as Record<string, string>)[key] = value;
}

function facetError(message: string): AccordError {
  return new AccordError('ACCORD_ERR_CONTRACT_TYPE', message);
}

/** Facets that cannot apply to a type (`(boolean maxLength=3)`), named for a contract error. */
export function inapplicableFacet(type: ScalarType, f: Facets): string | undefined {
  const row = SCALARS[type];
  for (const k of FACET_KEYS) {
    if (f[k] === undefined) continue;
    if ((k === 'length' || k === 'minLength' || k === 'maxLength') && measureOf(row) === 'none') return k;
    if (BOUNDS.has(k) && !row.order) return k;
    if ((k === 'totalDigits' || k === 'fractionDigits') && !row.digits) return k;
  }
  return undefined;
}

// ---------- checking ----------

export function measureOf(row: ScalarRule): NonNullable<ScalarRule['measure']> {
  return row.measure ?? (row.json === 'string' ? 'chars' : 'none');
}

/** XSD whiteSpace: `replace` turns tabs and line breaks into spaces; `collapse` also trims and joins runs of spaces. */
export function normaliseSpace(text: string, how: ScalarRule['whiteSpace']): string {
  if (how === undefined) return text;
  const replaced = text.replace(/[\t\n\r]/g, ' ');
  return how === 'replace'
    ? replaced
    : replaced
        .split(' ')
        .filter((w) => w !== '')
        .join(' ');
}

/** How long a value is in the unit length facets count for this type. */
export function lengthOf(text: string, row: ScalarRule): number {
  switch (measureOf(row)) {
    case 'hex':
      return text.length / 2;
    case 'base64': {
      const t = text.replaceAll(' ', '');
      return (t.length / 4) * 3 - (t.endsWith('==') ? 2 : t.endsWith('=') ? 1 : 0);
    }
    case 'items':
      return text === '' ? 0 : text.split(' ').length;
    default:
      return [...text].length;
  }
}

/** The first facet a (normalised, lexically valid) value breaks, as written (`maxLength=18`), or undefined. */
export function violatedFacet(type: ScalarType, f: Facets, text: string): string | undefined {
  const row = SCALARS[type];
  if (f.length !== undefined || f.minLength !== undefined || f.maxLength !== undefined) {
    const len = lengthOf(text, row);
    if (f.length !== undefined && len !== f.length) return `length=${f.length}`;
    if (f.minLength !== undefined && len < f.minLength) return `minLength=${f.minLength}`;
    if (f.maxLength !== undefined && len > f.maxLength) return `maxLength=${f.maxLength}`;
  }
  for (const k of ['min', 'minExclusive', 'max', 'maxExclusive'] as const) {
    const bound = f[k];
    if (bound === undefined) continue;
    const c = compareOrdered(text, bound, type);
    if (c === undefined) continue;
    // Neither before nor after (P1M against P30D): not "at least", so the facet is not met (XSD 1.0 part 2, 3.2.6.2).
    if (Number.isNaN(c)) return `${k}=${bound}`;
    if ((k === 'min' && c < 0) || (k === 'minExclusive' && c <= 0) || (k === 'max' && c > 0) || (k === 'maxExclusive' && c >= 0)) return `${k}=${bound}`;
  }
  if (f.totalDigits !== undefined || f.fractionDigits !== undefined) {
    const d = digitsOf(text);
    if (d && f.totalDigits !== undefined && d.total > f.totalDigits) return `totalDigits=${f.totalDigits}`;
    if (d && f.fractionDigits !== undefined && d.fraction > f.fractionDigits) return `fractionDigits=${f.fractionDigits}`;
  }
  for (const p of f.pattern ?? []) if (!xsdRegex(p).test(text)) return `pattern="${p}"`;
  return undefined;
}

/** Significant digits of a decimal text, or undefined when it is not a plain decimal (1e3, INF). */
function digitsOf(text: string): { total: number; fraction: number } | undefined {
  const m = NUMERIC.exec(text);
  if (!m) return undefined;
  const int = trimZeros(m[2], 'start');
  const frac = trimZeros(m[3] ?? '', 'end');
  return { total: Math.max(1, int.length + frac.length), fraction: frac.length };
}

/** Leading or trailing zeros off, by hand: `/0+$/` retries from every zero of a long run (quadratic). */
function trimZeros(digits: string, side: 'start' | 'end'): string {
  let a = 0;
  let b = digits.length;
  if (side === 'start') while (a < b && digits[a] === '0') a++;
  else while (b > a && digits[b - 1] === '0') b--;
  return digits.slice(a, b);
}

const NUMERIC = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * Compares a value with a bound of the type: numbers exactly (as decimals, whatever their size), dates and times as the
 * instants they stand for (time zones applied), durations as XSD orders them (NaN when indeterminate); undefined when
 * either is not a value of the type.
 */
function compareOrdered(text: string, bound: string, type: ScalarType): number | undefined {
  const order = SCALARS[type].order;
  if (order === 'date') {
    const [a, b] = [instantOf(type, text), instantOf(type, bound)];
    return a === undefined || b === undefined ? undefined : Math.sign(a - b);
  }
  if (order === 'duration') return compareDurations(text, bound);
  if (order !== 'number') return undefined;
  const a = decimalParts(text);
  const b = decimalParts(bound);
  if (!a || !b) {
    const x = Number(text);
    const y = Number(bound);
    return Number.isNaN(x) || Number.isNaN(y) ? undefined : Math.sign(x - y);
  }
  const scale = Math.max(a.frac.length, b.frac.length);
  const av = a.sign * BigInt(a.int + a.frac.padEnd(scale, '0'));
  const bv = b.sign * BigInt(b.int + b.frac.padEnd(scale, '0'));
  return av < bv ? -1 : av > bv ? 1 : 0;
}

function decimalParts(text: string): { sign: bigint; int: string; frac: string } | undefined {
  const m = NUMERIC.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  return { sign: m[1] === '-' ? -1n : 1n, int: m[2] || '0', frac: m[3] ?? '' };
}

// ---------- describing ----------

/** "a string of at most 18 characters matching [A-Z0-9]{18}". */
export function describeScalar(type: ScalarType, f: Facets | undefined): string {
  const row = SCALARS[type];
  if (!f) return row.describe;
  const parts: string[] = [];
  const unit = { chars: 'characters', hex: 'octets', base64: 'octets', items: 'items', none: '' }[measureOf(row)];
  if (f.length !== undefined) parts.push(`of exactly ${f.length} ${unit}`);
  else if (f.minLength !== undefined && f.maxLength !== undefined) parts.push(`of ${f.minLength} to ${f.maxLength} ${unit}`);
  else if (f.minLength !== undefined) parts.push(`of at least ${f.minLength} ${unit}`);
  else if (f.maxLength !== undefined) parts.push(`of at most ${f.maxLength} ${unit}`);
  if (f.totalDigits !== undefined) parts.push(`of at most ${f.totalDigits} digits`);
  if (f.fractionDigits !== undefined) parts.push(`with at most ${f.fractionDigits} after the point`);
  const bounds: string[] = [];
  if (f.min !== undefined) bounds.push(`≥ ${f.min}`);
  if (f.minExclusive !== undefined) bounds.push(`> ${f.minExclusive}`);
  if (f.max !== undefined) bounds.push(`≤ ${f.max}`);
  if (f.maxExclusive !== undefined) bounds.push(`< ${f.maxExclusive}`);
  if (bounds.length) parts.push(bounds.join(' and '));
  if (f.pattern) parts.push(`matching ${f.pattern.join(' and ')}`);
  return [row.describe, ...parts].join(' ');
}

// ---------- generating ----------

/**
 * A value of the type that satisfies every facet: from the pattern when there
 * is one, else the row's own sample fitted to lengths, bounds and digits. Tries
 * a few times with longer repetitions; the last try is returned when none fits
 * (a pattern whose language misses the length facets), and matching says why.
 */
export function generateScalar(type: ScalarType, f: Facets | undefined, rng: Random): string {
  const row = SCALARS[type];
  if (!f) return row.generate(rng);
  let last = '';
  for (let attempt = 0; attempt < 40; attempt++) {
    last = candidate(type, f, rng, attempt);
    const text = normaliseSpace(last, row.whiteSpace);
    if (row.test(text) && violatedFacet(type, f, text) === undefined) return last;
  }
  return last;
}

function candidate(type: ScalarType, f: Facets, rng: Random, attempt: number): string {
  const row = SCALARS[type];
  if (f.pattern) {
    const want = targetLength(f);
    const re = xsdRegex(f.pattern[attempt % f.pattern.length]);
    // A length the facets ask for is aimed at first (a pattern text of exactly that length, if there is one);
    // later attempts draw freely, for facets the length cannot settle (a maxLength below the pattern's shortest).
    const aimed = want !== undefined && attempt < 20 && measureOf(row) === 'chars' ? re.generateOfLength(rng, lengthFor(f, want, attempt)) : undefined;
    return aimed ?? re.generate(rng, want === undefined ? 1 + (attempt % 8) : Math.max(1, want));
  }
  if (row.order === 'number' && (f.min ?? f.max ?? f.minExclusive ?? f.maxExclusive ?? f.totalDigits ?? f.fractionDigits) !== undefined) return numberWithin(row, f, rng);
  const low = f.min ?? f.minExclusive;
  const high = f.max ?? f.maxExclusive;
  if (row.order === 'duration' && (low ?? high) !== undefined) return durationWithin(low, high, rng);
  if (row.order === 'date' && (low ?? high) !== undefined) {
    const at = (b: string | undefined) => (b === undefined ? undefined : instantOf(type, b));
    return instantWithin(type, at(low), at(high), rng);
  }
  const want = targetLength(f);
  if (want === undefined) return row.generate(rng);
  const m = measureOf(row);
  if (m === 'hex')
    return Buffer.from(Array.from({ length: want }, () => rng.int(0, 255)))
      .toString('hex')
      .toUpperCase();
  if (m === 'base64') return Buffer.from(Array.from({ length: want }, () => rng.int(0, 255))).toString('base64');
  if (m === 'items') return Array.from({ length: Math.max(want, 1) }, () => row.generate(rng)).join(' ');
  let text = row.generate(rng);
  while ([...text].length < want) text += row.generate(rng);
  return [...text].slice(0, want).join('');
}

/** The length to aim at on this attempt: the target, then others within minLength..maxLength (the pattern may not reach the target). */
function lengthFor(f: Facets, want: number, attempt: number): number {
  if (f.length !== undefined || attempt === 0) return want;
  const lo = f.minLength ?? 0;
  const hi = f.maxLength ?? Math.max(lo, want) + 8;
  return lo + (attempt % (hi - lo + 1));
}

/** A length within the length facets: near the row's usual sample, never past the maximum. */
function targetLength(f: Facets): number | undefined {
  if (f.length !== undefined) return f.length;
  if (f.minLength === undefined && f.maxLength === undefined) return undefined;
  const lo = f.minLength ?? 0;
  const hi = f.maxLength ?? Math.max(lo, 8);
  return Math.max(lo, Math.min(hi, Math.max(lo, 8)));
}

/** A decimal inside the bounds with no more digits than allowed; integers for integer types. */
function numberWithin(row: ScalarRule, f: Facets, rng: Random): string {
  const integer = row.bounds !== undefined;
  const fraction = integer ? 0 : Math.min(f.fractionDigits ?? 2, 2);
  const scale = 10 ** fraction;
  const lo = lowest(row, f);
  const hi = highest(row, f);
  let from = lo ?? (hi !== undefined && hi < 1 ? hi - 100 : 1);
  let to = hi ?? from + 100;
  if (f.totalDigits !== undefined) {
    const cap = 10 ** (f.totalDigits - fraction) - 1;
    from = Math.max(from, -cap);
    to = Math.min(to, cap);
  }
  if (to - from > 100) to = from + 100;
  const exclusive = (v: number) => (f.minExclusive !== undefined && v <= Number(f.minExclusive)) || (f.maxExclusive !== undefined && v >= Number(f.maxExclusive));
  for (let i = 0; i < 20; i++) {
    const v = Math.round((from + rng.next() * (to - from)) * scale) / scale;
    if (!exclusive(v) && v >= from && v <= to) if (fraction === 0) return String(Math.round(v));
    const fixed = trimZeros(v.toFixed(fraction), 'end');
    return fixed.endsWith('.') ? fixed.slice(0, -1) : fixed;
  }
  return String(Math.ceil(from));
}

function lowest(row: ScalarRule, f: Facets): number | undefined {
  const c = [f.min, f.minExclusive, row.bounds?.[0]].filter((x) => x !== undefined).map(Number);
  return c.length ? Math.max(...c) : undefined;
}

function highest(row: ScalarRule, f: Facets): number | undefined {
  const c = [f.max, f.maxExclusive, row.bounds?.[1]].filter((x) => x !== undefined).map(Number);
  return c.length ? Math.min(...c) : undefined;
}

// ---------- comparing ----------

/**
 * A facet of A that B's facets do not imply (B may send a value A refuses), as
 * written, or undefined when every value B's facets allow passes A's. A pattern
 * of A is implied when every text B's patterns and lengths allow fits it, decided
 * exactly on finite automata (`regex-language.ts`); when that is too large to
 * decide, only the same pattern in B implies it, and the result carries a note.
 */
export function looserFacet(aType: ScalarType, a: Facets | undefined, bType: ScalarType, b: Facets | undefined): LooseFacet | undefined {
  const facet = looserNonPattern(aType, a, bType, b);
  if (facet !== undefined) return { facet };
  const bb = b ?? {};
  for (const p of a?.pattern ?? []) {
    if ((bb.pattern ?? []).includes(p)) continue;
    const within = languageWithin({ patterns: bb.pattern ?? [], minLength: bb.length ?? bb.minLength, maxLength: bb.length ?? bb.maxLength }, p);
    if (within === 'included') continue;
    return within === 'undecided' ? { facet: `pattern="${p}"`, note: PATTERN_UNDECIDED } : { facet: `pattern="${p}"` };
  }
  return undefined;
}

/** A facet A's side has that B's does not imply, and why it is reported. */
export interface LooseFacet {
  facet: string;
  /** Said when the facet could not be compared exactly. */
  note?: string;
}

export const PATTERN_UNDECIDED = 'the patterns are too complex to compare exactly, so only identical patterns count as the same';

function looserNonPattern(aType: ScalarType, a: Facets | undefined, bType: ScalarType, b: Facets | undefined): string | undefined {
  if (!a) return undefined;
  const bb = b ?? {};
  const [bMinLen, bMaxLen] = [bb.length ?? bb.minLength ?? 0, bb.length ?? bb.maxLength ?? Infinity];
  if (a.length !== undefined && (bMinLen !== a.length || bMaxLen !== a.length)) return `length=${a.length}`;
  if (a.minLength !== undefined && bMinLen < a.minLength) return `minLength=${a.minLength}`;
  if (a.maxLength !== undefined && bMaxLen > a.maxLength) return `maxLength=${a.maxLength}`;
  const bRow = SCALARS[bType];
  const bLow = bb.min ?? bb.minExclusive ?? (bRow.bounds?.[0] !== undefined ? String(bRow.bounds[0]) : undefined);
  const bHigh = bb.max ?? bb.maxExclusive ?? (bRow.bounds?.[1] !== undefined ? String(bRow.bounds[1]) : undefined);
  // B's bound against A's; when they cannot be ordered (not values of A's type, or indeterminate durations), the side that reports a difference.
  const order = (x: string, y: string, unknown: number) => {
    const c = compareOrdered(x, y, aType);
    return c === undefined || Number.isNaN(c) ? unknown : c;
  };
  const lowExclusive = bb.min === undefined && bb.minExclusive !== undefined;
  const highExclusive = bb.max === undefined && bb.maxExclusive !== undefined;
  if (a.min !== undefined && (bLow === undefined || order(bLow, a.min, -1) < 0)) return `min=${a.min}`;
  if (a.minExclusive !== undefined && (bLow === undefined || order(bLow, a.minExclusive, -1) < (lowExclusive ? 0 : 1))) return `minExclusive=${a.minExclusive}`;
  if (a.max !== undefined && (bHigh === undefined || order(bHigh, a.max, 1) > 0)) return `max=${a.max}`;
  if (a.maxExclusive !== undefined && (bHigh === undefined || order(bHigh, a.maxExclusive, 1) > (highExclusive ? 0 : -1))) return `maxExclusive=${a.maxExclusive}`;
  if (a.totalDigits !== undefined && (bb.totalDigits === undefined || bb.totalDigits > a.totalDigits)) return `totalDigits=${a.totalDigits}`;
  const bFraction = bb.fractionDigits ?? (bRow.bounds !== undefined ? 0 : undefined);
  if (a.fractionDigits !== undefined && (bFraction === undefined || bFraction > a.fractionDigits)) return `fractionDigits=${a.fractionDigits}`;
  return undefined;
}
