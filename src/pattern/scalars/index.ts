import { INTEGER_TYPES, XSD_SCALARS } from './xsd';
import type { ScalarType } from '../types';
import type { Random } from '../random';
import type { ScalarRule } from './rule';

export type { JsonForm, ScalarRule } from './rule';

// Every regular expression here must stay linear on hostile text (docs/security.md): no two
// neighbouring repeats may both take the same character. The old `\d+\.?\d*` let a run of digits
// split between `\d+` and `\d*` in n ways, so 30,000 digits and an `x` took seconds.
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(Z|[+-]\d{2}:\d{2})?$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DATETIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const URL_RE = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/\S+$/;

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

export const SCALARS: Record<ScalarType, ScalarRule> = {
  number: {
    written: 'number',
    test: (t) => NUMBER.test(t),
    generate: (r) => String(r.int(1, 100)),
    describe: 'a number',
    json: 'number',
    widens: ['number-in-string', 'decimal', ...INTEGER_TYPES],
    order: 'number',
    digits: true,
  },
  'number-in-string': {
    written: 'number in string',
    test: (t) => NUMBER.test(t),
    generate: (r) => String(r.int(1, 100)),
    describe: 'a number in a string',
    json: 'string',
    widens: ['number', 'decimal', ...INTEGER_TYPES],
    order: 'number',
    digits: true,
  },
  string: { written: 'string', test: () => true, generate: (r) => `${r.pick(WORDS)}${r.int(1, 99)}`, describe: 'a string', json: 'string', widens: 'all' },
  boolean: {
    written: 'boolean',
    // XSD's boolean: .NET, Axis and PHP services write 1 and 0 as often as true and false.
    test: (t) => t === 'true' || t === 'false' || t === '1' || t === '0',
    generate: (r) => (r.int(0, 1) === 1 ? 'true' : 'false'),
    describe: 'a boolean',
    json: 'boolean',
    widens: [],
    // The canonical texts: what is generated and compared; 1 and 0 are other ways to write them.
    values: { text: ['true', 'false'], json: [true, false] },
    whiteSpace: 'collapse',
  },
  null: {
    written: 'null',
    test: (t) => t === '' || t === 'null',
    generate: () => '',
    describe: 'null',
    json: 'null',
    widens: ['empty'],
    values: { text: ['', 'null'], json: [null] },
  },
  empty: { written: 'empty', test: (t) => t === '', generate: () => '', describe: 'empty', json: 'empty', widens: [], values: { text: [''], json: ['', null] } },
  date: {
    order: 'date',
    written: 'date',
    test: (t) => DATE.test(t) && validDate(t.slice(0, 10)),
    generate: (r) => isoDate(r),
    describe: 'a date (YYYY-MM-DD)',
    json: 'string',
    widens: [],
    // xs:date, xs:dateTime and xs:time collapse white space and may carry a time zone (Java services write 2024-03-07Z, 2024-03-07+01:00).
    whiteSpace: 'collapse',
  },
  datetime: {
    order: 'date',
    written: 'datetime',
    test: (t) => DATETIME.test(t) && validDate(t.slice(0, 10)),
    generate: (r) => `${isoDate(r)}T${pad(r.int(0, 23))}:${pad(r.int(0, 59))}:${pad(r.int(0, 59))}Z`,
    describe: 'a date-time (ISO 8601)',
    json: 'string',
    widens: [],
    whiteSpace: 'collapse',
  },
  time: {
    order: 'date',
    written: 'time',
    test: (t) => TIME.test(t),
    generate: (r) => `${pad(r.int(0, 23))}:${pad(r.int(0, 59))}:${pad(r.int(0, 59))}`,
    describe: 'a time (hh:mm:ss)',
    json: 'string',
    widens: [],
    whiteSpace: 'collapse',
  },
  uuid: {
    written: 'uuid',
    test: (t) => UUID.test(t),
    generate: (r) => {
      const h = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[r.int(0, 15)]).join('');
      return `${h(8)}-${h(4)}-4${h(3)}-${'89ab'[r.int(0, 3)]}${h(3)}-${h(12)}`;
    },
    describe: 'a UUID',
    json: 'string',
    widens: [],
  },
  email: { written: 'email', test: isEmail, generate: (r) => `${r.pick(WORDS)}${r.int(1, 99)}@example.com`, describe: 'an email address', json: 'string', widens: [] },
  url: { written: 'url', test: (t) => URL_RE.test(t), generate: (r) => `https://example.com/${r.pick(WORDS)}`, describe: 'a URL', json: 'string', widens: [] },
  anything: { written: 'anything', test: () => true, generate: (r) => `${r.pick(WORDS)}${r.int(1, 99)}`, describe: 'anything', json: 'any', widens: 'all' },
  ...XSD_SCALARS,
};

// What the XSD rows widen to follows from their lexical spaces: wider integer ranges, decimals over integers, floats over decimals.
for (const t of INTEGER_TYPES) {
  const [lo, hi] = SCALARS[t].bounds!;
  SCALARS[t].widens = INTEGER_TYPES.filter((n) => {
    const [nlo, nhi] = SCALARS[n].bounds!;
    return (lo === undefined || (nlo !== undefined && nlo >= lo)) && (hi === undefined || (nhi !== undefined && nhi <= hi));
  });
}
SCALARS.decimal.widens = INTEGER_TYPES;
SCALARS.float.widens = ['double', 'decimal', ...INTEGER_TYPES];
SCALARS.double.widens = ['float', 'decimal', ...INTEGER_TYPES];
SCALARS.token.widens = ['language', 'qname', 'ncname', 'xml-id', 'xml-idref', 'xml-name', 'nmtoken', 'nmtokens', 'anyURI'];
SCALARS.normalizedString.widens = ['token', ...SCALARS.token.widens];
SCALARS['xml-name'].widens = ['qname', 'ncname', 'xml-id', 'xml-idref'];
SCALARS.qname.widens = ['ncname', 'xml-id', 'xml-idref'];
SCALARS.nmtoken.widens = ['ncname', 'xml-id', 'xml-idref', 'xml-name', 'qname'];
// An ID and an IDREF have the NCName's texts: the three accept one another's (what makes them differ is within a message).
SCALARS.ncname.widens = ['xml-id', 'xml-idref'];
SCALARS['xml-id'].widens = ['ncname', 'xml-idref'];
SCALARS['xml-idref'].widens = ['ncname', 'xml-id'];

export const SCALAR_NAMES = new Set<string>(Object.keys(SCALARS));

const BY_WRITTEN = new Map<string, ScalarType>(Object.entries(SCALARS).map(([type, row]) => [row.written, type as ScalarType]));

export function isScalarName(name: string): name is ScalarType {
  return SCALAR_NAMES.has(name);
}

/** The scalar a placeholder's text names (`number`, `number in string`), if any. */
export function scalarWritten(inner: string): ScalarType | undefined {
  return BY_WRITTEN.get(inner) ?? (isScalarName(inner) ? inner : undefined);
}

/** Does a JSON value fit the scalar: its JSON form, and for JSON strings the lexical test. */
export function jsonAccepts(type: ScalarType, value: unknown): boolean {
  const row = SCALARS[type];
  switch (row.json) {
    case 'string':
      return typeof value === 'string' && row.test(value);
    case 'number':
      return typeof value === 'number' && row.test(String(value));
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'empty':
      return value === '' || value === null;
    case 'any':
      return true;
  }
}

/**
 * The JSON value a text stands for as this scalar ("10" is 10 for a number,
 * "true" is true for a boolean, "null" is null for null); the text itself when
 * it cannot be one (a later match reports it).
 */
export function jsonOf(type: ScalarType, text: string): unknown {
  switch (SCALARS[type].json) {
    case 'number':
      return text.trim() === '' || Number.isNaN(Number(text)) ? text : Number(text);
    case 'boolean':
      return text === 'true' || text === 'false' ? text === 'true' : text;
    case 'null':
      return text === '' || text === 'null' ? null : text;
    default:
      return text;
  }
}

/**
 * Does scalar `wide` accept every value of scalar `narrow`? On text ('text'),
 * what the rows' `widens` say; in JSON the two must also share a JSON form (a
 * JSON string never holds a JSON number). Finite types (boolean, null, empty)
 * are compared value by value by the caller, not here.
 */
export function scalarAccepts(wide: ScalarType, narrow: ScalarType, mode: 'json' | 'text'): boolean {
  if (wide === narrow) return true;
  const w = SCALARS[wide];
  if (mode === 'json' && w.json === 'any') return true;
  const widens = w.widens === 'all' || w.widens.includes(narrow);
  return widens && (mode === 'text' || w.json === SCALARS[narrow].json);
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

/**
 * `YYYY-MM-DD` (as DATE and DATETIME have already checked: month 01-12, day 01-31) names a day of the
 * proleptic Gregorian calendar. Counted by hand: building a Date and printing it back for every value was
 * 3-5% of a log check pass (CPU profile of a 20 MB log).
 */
function validDate(ymd: string): boolean {
  const year = Number(ymd.slice(0, 4));
  const month = Number(ymd.slice(5, 7));
  const day = Number(ymd.slice(8, 10));
  if (!(month >= 1 && month <= 12 && day >= 1)) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31);
}
