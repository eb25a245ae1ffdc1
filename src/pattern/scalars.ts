import type { ScalarType } from './types';
import type { Random } from './random';

/**
 * One row per scalar placeholder: how a text value is recognised and how a
 * sample is made. `widens` lists the types whose values this one also accepts,
 * which the compatibility check uses (string accepts every text value).
 */
interface ScalarRule {
  test(text: string): boolean;
  generate(rng: Random): string;
  describe: string;
}

// Every regular expression here must stay linear on hostile text (docs/security.md): no two
// neighbouring repeats may both take the same character. The old `\d+\.?\d*` let a run of digits
// split between `\d+` and `\d*` in n ways, so 30,000 digits and an `x` took seconds.
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DATETIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const URL_RE = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/\S+$/;

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

export const SCALARS: Record<ScalarType, ScalarRule> = {
  number: { test: (t) => NUMBER.test(t), generate: (r) => String(r.int(1, 100)), describe: 'a number' },
  'number-in-string': { test: (t) => NUMBER.test(t), generate: (r) => String(r.int(1, 100)), describe: 'a number in a string' },
  string: { test: () => true, generate: (r) => `${r.pick(WORDS)}${r.int(1, 99)}`, describe: 'a string' },
  boolean: { test: (t) => t === 'true' || t === 'false', generate: (r) => (r.int(0, 1) === 1 ? 'true' : 'false'), describe: 'a boolean' },
  null: { test: (t) => t === '' || t === 'null', generate: () => '', describe: 'null' },
  empty: { test: (t) => t === '', generate: () => '', describe: 'empty' },
  date: { test: (t) => DATE.test(t) && validDate(t.slice(0, 10)), generate: (r) => isoDate(r), describe: 'a date (YYYY-MM-DD)' },
  datetime: {
    test: (t) => DATETIME.test(t) && validDate(t.slice(0, 10)),
    generate: (r) => `${isoDate(r)}T${pad(r.int(0, 23))}:${pad(r.int(0, 59))}:${pad(r.int(0, 59))}Z`,
    describe: 'a date-time (ISO 8601)',
  },
  time: { test: (t) => TIME.test(t), generate: (r) => `${pad(r.int(0, 23))}:${pad(r.int(0, 59))}:${pad(r.int(0, 59))}`, describe: 'a time (hh:mm:ss)' },
  uuid: {
    test: (t) => UUID.test(t),
    generate: (r) => {
      const h = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[r.int(0, 15)]).join('');
      return `${h(8)}-${h(4)}-4${h(3)}-${'89ab'[r.int(0, 3)]}${h(3)}-${h(12)}`;
    },
    describe: 'a UUID',
  },
  email: { test: isEmail, generate: (r) => `${r.pick(WORDS)}${r.int(1, 99)}@example.com`, describe: 'an email address' },
  url: { test: (t) => URL_RE.test(t), generate: (r) => `https://example.com/${r.pick(WORDS)}`, describe: 'a URL' },
  anything: { test: () => true, generate: (r) => `${r.pick(WORDS)}${r.int(1, 99)}`, describe: 'anything' },
};

export const SCALAR_NAMES = new Set<string>(Object.keys(SCALARS));

export function isScalarName(name: string): name is ScalarType {
  return SCALAR_NAMES.has(name);
}

/**
 * Text types that accept every value of `narrow`: `string` holds everything,
 * `number-in-string` equals number on text. Used for compatibility.
 */
export function scalarAccepts(wide: ScalarType, narrow: ScalarType): boolean {
  if (wide === narrow) return true;
  if (wide === 'anything') return true;
  if (wide === 'string') return narrow !== 'null' && narrow !== 'anything';
  if ((wide === 'number' && narrow === 'number-in-string') || (wide === 'number-in-string' && narrow === 'number')) return true;
  if (wide === 'null' && narrow === 'empty') return true;
  return false;
}

/**
 * local@domain: no white space, one @, and a dot inside the domain (neither its first nor its
 * last character). Scanned by hand: `^[^\s@]+@[^\s@]+\.[^\s@]+$`, the obvious expression,
 * backtracks over every dot of a long domain, quadratic in V8.
 */
function isEmail(t: string): boolean {
  const at = t.indexOf('@');
  if (at < 1 || t.indexOf('@', at + 1) >= 0 || /\s/.test(t)) return false;
  const dot = t.indexOf('.', at + 2);
  return dot > 0 && dot < t.length - 1;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function isoDate(r: Random): string {
  return `${r.int(2000, 2030)}-${pad(r.int(1, 12))}-${pad(r.int(1, 28))}`;
}

function validDate(ymd: string): boolean {
  const d = new Date(`${ymd}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === ymd;
}
