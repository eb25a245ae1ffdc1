import type { ScalarType } from '../types';
import { normaliseSpace } from './facets';
import { SCALARS } from './index';

/**
 * Whether two texts are the same value of a scalar type, compared as the type compares values
 * rather than as texts: white space as the type normalises it (and trimmed, since a Gherkin cell
 * cannot hold it at its ends), numbers by value (`10.50` is `10.5`, `+7` and `07` are `7`),
 * booleans as XSD reads them (`1` is `true`), date-times with a time zone as instants and without
 * trailing zeros in their seconds (`10:00:00.000Z` is `10:00:00Z`). For an Examples cell held
 * against a provider's answer (`expected` is the cell).
 */
export function sameScalarValue(type: ScalarType, expected: string, actual: string): boolean {
  if (expected === actual) return true;
  const row = SCALARS[type];
  const a = normaliseSpace(expected, row.whiteSpace).trim();
  const b = normaliseSpace(actual, row.whiteSpace).trim();
  if (a === b) return true;
  if (!row.test(a) || !row.test(b)) return false;
  if (row.order === 'number') {
    if (row.bounds) {
      try {
        return BigInt(a.replace(/^\+/, '')) === BigInt(b.replace(/^\+/, ''));
      } catch {
        return false;
      }
    }
    return Number(a) === Number(b);
  }
  if (type === 'boolean') return truth(a) === truth(b);
  if (type === 'datetime' || type === 'time') return instant(a) === instant(b);
  return false;
}

function truth(t: string): boolean {
  return t === 'true' || t === '1';
}

/** A date-time's (or time's) text with the zeros at the end of its fraction of a second dropped, and with a time zone as the instant it names. */
function instant(t: string): string {
  const trimmed = withoutTrailingZeros(t);
  if (/^\d{4}-/.test(trimmed) && /(Z|[+-]\d\d:?\d\d)$/.test(trimmed)) {
    const ms = Date.parse(trimmed.replace(' ', 'T'));
    if (Number.isFinite(ms)) return String(ms);
  }
  return trimmed;
}

/**
 * `10:00:00.500Z` as `10:00:00.5Z`, `10:00:00.000` as `10:00:00`: by hand, since an expression for it
 * (a lazy run of digits before a run of zeros) backtracks quadratically on a long fraction ending in 1.
 */
function withoutTrailingZeros(t: string): string {
  const dot = t.indexOf('.');
  if (dot < 3 || t[dot - 3] !== ':') return t;
  let end = dot + 1;
  while (end < t.length && t.charCodeAt(end) >= 48 && t.charCodeAt(end) <= 57) end++;
  let cut = end;
  while (cut > dot + 1 && t[cut - 1] === '0') cut--;
  return t.slice(0, cut === dot + 1 ? dot : cut) + t.slice(end);
}
