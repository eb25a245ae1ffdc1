import type { Random } from '../random';
import type { ScalarType } from '../types';

/*
 * The order of XSD's date, time and duration values (XSD 1.0 part 2, 3.2.6–3.2.14 and appendix
 * D), for range facets: checking a value against minInclusive and the rest, generating a value
 * inside them, and comparing two contracts' bounds. Dates and times become instants (a value
 * without a time zone is read as UTC); durations are compared through the four reference
 * date-times of 3.2.6.2, so P1M against P30D is indeterminate, as the standard says.
 */

/** a < b: -1, equal: 0, a > b: 1; NaN when the standard calls the two indeterminate; undefined when either is not a value of the type. */
export type Order = number | undefined;

// Written out whole (not built from parts at run time), so every expression is audited as it runs (docs/security.md).
const SHAPES: Partial<Record<ScalarType, RegExp>> = {
  date: /^(-?\d{4,})-(\d{2})-(\d{2})()()()(Z|[+-]\d{2}:?\d{2})?$/,
  datetime: /^(-?\d{4,})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}(?:\.\d{1,9})?))?(Z|[+-]\d{2}:?\d{2})?$/,
  time: /^()()()(\d{2}):(\d{2})(?::(\d{2}(?:\.\d{1,9})?))?(Z|[+-]\d{2}:?\d{2})?$/,
  gYear: /^(-?\d{4,})()()()()()(Z|[+-]\d{2}:?\d{2})?$/,
  gYearMonth: /^(-?\d{4,})-(\d{2})()()()()(Z|[+-]\d{2}:?\d{2})?$/,
  gMonth: /^()--(\d{2})()()()()(Z|[+-]\d{2}:?\d{2})?$/,
  gMonthDay: /^()--(\d{2})-(\d{2})()()()(Z|[+-]\d{2}:?\d{2})?$/,
  gDay: /^()()---(\d{2})()()()(Z|[+-]\d{2}:?\d{2})?$/,
};

/** Milliseconds of the instant a date or time text stands for (the fields it lacks taken from 2000-01-01T00:00Z), or undefined. */
export function instantOf(type: ScalarType, text: string): number | undefined {
  const m = SHAPES[type]?.exec(text.trim());
  if (!m) return undefined;
  // Every shape has the same seven groups (empty where the type has no such field).
  const [, y, mo, d, h, mi, s, tz] = m;
  if (y !== '' && y.replace('-', '').length > 6) return undefined;
  const ms = utc(y === '' ? 2000 : Number(y), mo === '' ? 1 : Number(mo), d === '' ? 1 : Number(d), h === '' ? 0 : Number(h), mi === '' ? 0 : Number(mi), s ? Number(s) : 0);
  return ms === undefined ? undefined : ms - offsetMinutes(tz) * 60_000;
}

function utc(y: number, mo: number, d: number, h: number, mi: number, s: number): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s >= 61) return undefined;
  const t = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0-99 as 1900-1999.
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(h, mi, 0, 0);
  const ms = t.getTime() + s * 1000;
  return Number.isNaN(ms) ? undefined : ms;
}

function offsetMinutes(tz: string | undefined): number {
  if (!tz || tz === 'Z') return 0;
  const digits = tz.slice(1).replace(':', '');
  const v = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  return tz[0] === '-' ? -v : v;
}

/** The text of an instant in the form of the type (UTC; a gYear as four digits or more). */
export function textOfInstant(type: ScalarType, ms: number): string {
  const t = new Date(ms);
  const y = t.getUTCFullYear();
  const year = y < 0 ? `-${String(-y).padStart(4, '0')}` : String(y).padStart(4, '0');
  const p = (n: number) => String(n).padStart(2, '0');
  const [mo, d, h, mi, s] = [t.getUTCMonth() + 1, t.getUTCDate(), t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds()];
  switch (type) {
    case 'date':
      return `${year}-${p(mo)}-${p(d)}`;
    case 'datetime':
      return `${year}-${p(mo)}-${p(d)}T${p(h)}:${p(mi)}:${p(s)}Z`;
    case 'time':
      return `${p(h)}:${p(mi)}:${p(s)}`;
    case 'gYear':
      return year;
    case 'gYearMonth':
      return `${year}-${p(mo)}`;
    case 'gMonth':
      return `--${p(mo)}`;
    case 'gMonthDay':
      return `--${p(mo)}-${p(d)}`;
    default:
      return `---${p(d)}`;
  }
}

/** The step between two neighbouring values the generator writes for the type, in milliseconds (a year is taken as 365 days). */
export function stepOf(type: ScalarType): number {
  const day = 86_400_000;
  return type === 'datetime' || type === 'time' ? 1000 : type === 'gYear' ? 366 * day : type === 'gYearMonth' || type === 'gMonth' ? 31 * day : day;
}

// ---------- durations ----------

const DURATION = /^(-)?P(?:(\d{1,9})Y)?(?:(\d{1,9})M)?(?:(\d{1,9})D)?(?:T(?:(\d{1,9})H)?(?:(\d{1,9})M)?(?:(\d{1,9}(?:\.\d{1,9})?)S)?)?$/;

/** A duration as months and seconds (both carry the sign), or undefined. */
export function durationOf(text: string): { months: number; seconds: number } | undefined {
  const m = DURATION.exec(text.trim());
  if (!m) return undefined;
  const sign = m[1] ? -1 : 1;
  const n = (i: number) => (m[i] ? Number(m[i]) : 0);
  return { months: sign * (n(2) * 12 + n(3)), seconds: sign * (n(4) * 86_400 + n(5) * 3600 + n(6) * 60 + n(7)) };
}

/** The reference date-times of XSD 1.0 part 2, 3.2.6.2: two durations are ordered when adding them to each gives the same order. */
const REFERENCES = [Date.UTC(1696, 8, 1), Date.UTC(1697, 1, 1), Date.UTC(1903, 2, 1), Date.UTC(1903, 6, 1)];

export function compareDurations(a: string, b: string): Order {
  const x = durationOf(a);
  const y = durationOf(b);
  if (!x || !y) return undefined;
  let order: number | undefined;
  for (const ref of REFERENCES) {
    const c = Math.sign(plus(ref, x) - plus(ref, y));
    if (order === undefined) order = c;
    else if (order !== c) return NaN;
  }
  return order;
}

function plus(ref: number, d: { months: number; seconds: number }): number {
  const t = new Date(ref);
  t.setUTCMonth(t.getUTCMonth() + d.months);
  return t.getTime() + d.seconds * 1000;
}

/** The text of a duration of these months and seconds (not negative), written as XSD writes one: `P1Y2M3DT4H5M6S`. */
export function textOfDuration(months: number, seconds: number): string {
  const mo = Math.max(0, Math.round(months));
  let s = Math.max(0, Math.round(seconds));
  const [days, hours, mins] = [Math.floor(s / 86_400), Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60)];
  s %= 60;
  const date = `${mo >= 12 ? `${Math.floor(mo / 12)}Y` : ''}${mo % 12 ? `${mo % 12}M` : ''}${days ? `${days}D` : ''}`;
  const time = `${hours ? `${hours}H` : ''}${mins ? `${mins}M` : ''}${s ? `${s}S` : ''}`;
  return `P${date}${time ? `T${time}` : ''}` === 'P' ? 'PT0S' : `P${date}${time ? `T${time}` : ''}`;
}

/** A duration between the bounds (either may be missing), drawn between them componentwise: months, then seconds. */
export function durationWithin(low: string | undefined, high: string | undefined, rng: Random): string {
  const lo = low === undefined ? undefined : durationOf(low);
  const hi = high === undefined ? undefined : durationOf(high);
  const t = 0.1 + rng.next() * 0.8;
  if (lo && hi) return textOfDuration(lo.months + t * (hi.months - lo.months), lo.seconds + t * (hi.seconds - lo.seconds));
  if (lo) return textOfDuration(lo.months + rng.int(0, 2), lo.seconds + rng.int(1, 3600));
  if (hi) return textOfDuration(hi.months * t, hi.seconds * t);
  return textOfDuration(0, rng.int(60, 86_400));
}

/** An instant between the bounds' instants (either may be missing), in the form of the type. */
export function instantWithin(type: ScalarType, low: number | undefined, high: number | undefined, rng: Random): string {
  const step = stepOf(type);
  const from = low ?? (high !== undefined ? high - 100 * step : Date.UTC(2024, 0, 1));
  const to = high ?? from + 100 * step;
  return textOfInstant(type, from + (0.1 + rng.next() * 0.8) * (to - from));
}
