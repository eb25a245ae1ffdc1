import type { Random } from '../random';
import type { ScalarRule } from './rule';
import type { XsdScalarType } from '../types';
import { xsdRegex } from './xsd-regex';

/*
 * Rows for XSD built-in types with a lexical space of their own (XML Schema
 * Part 2), so an imported `xs:unsignedByte` is checked and generated as one.
 * Names are XSD's, except the Name family, written in lower case (`qname`,
 * `ncname`, `xml-name`, `nmtoken`) so that contracts' own types called `Name`
 * or `ID` keep working. Tests of whole texts only: values arrive whitespace-
 * normalised (the row's `whiteSpace`) from the caller.
 *
 * Every regular expression here must stay linear on hostile text (docs/security.md).
 */

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const FLOAT = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?INF|NaN)$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/;
const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const DURATION = /^-?P(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?$/;
const G_YEAR = /^-?\d{4,}(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?$/;
const G_YEAR_MONTH = /^-?\d{4,}-(?:0[1-9]|1[0-2])(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?$/;
const G_MONTH = /^--(?:0[1-9]|1[0-2])(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?$/;
const G_MONTH_DAY = /^--(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?$/;
const G_DAY = /^---(?:0[1-9]|[12]\d|3[01])(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)?$/;
const LANGUAGE = /^[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*$/;

// The name types are XSD patterns themselves (\i, \c): matched by RE2 like any pattern facet.
const NCNAME = '[\\i-[:]][\\c-[:]]*';

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
const word = (r: Random) => `${r.pick(WORDS)}${r.int(1, 99)}`;
const pad = (n: number) => String(n).padStart(2, '0');

function integerRow(written: XsdScalarType, min?: bigint, max?: bigint): ScalarRule {
  const inRange = (t: string) => {
    if (!INTEGER.test(t)) return false;
    const v = BigInt(t);
    return (min === undefined || v >= min) && (max === undefined || v <= max);
  };
  const lo = min === undefined || min < 1n ? (max !== undefined && max < 1n ? (max < -100n ? max : -100n) : 1n) : min;
  const hi = max === undefined || max > 100n ? (lo > 100n ? lo : 100n) : max;
  const range =
    max !== undefined && max < 1n ? `${min === undefined ? 'at most' : `from ${min} to`} ${max}` : min !== undefined && max !== undefined ? `from ${min} to ${max}` : '';
  return {
    written,
    test: inRange,
    generate: (r) => String(lo + BigInt(r.int(0, Number(hi - lo)))),
    describe: `an integer${range ? ` ${range}` : min === 0n ? ' of 0 or more' : min === 1n ? ' of 1 or more' : ''}`,
    json: 'number',
    widens: [],
    whiteSpace: 'collapse',
    order: 'number',
    digits: true,
    bounds: [min, max],
  };
}

function textRow(written: XsdScalarType, describe: string, test: (t: string) => boolean, generate: (r: Random) => string, extra: Partial<ScalarRule> = {}): ScalarRule {
  return { written, test, generate, describe, json: 'string', widens: [], whiteSpace: 'collapse', measure: 'chars', ...extra };
}

function bytes(r: Random): number[] {
  return Array.from({ length: r.int(3, 9) }, () => r.int(0, 255));
}

const TWO_63 = 2n ** 63n;

export const XSD_SCALARS: Record<XsdScalarType, ScalarRule> = {
  integer: integerRow('integer'),
  long: integerRow('long', -TWO_63, TWO_63 - 1n),
  int: integerRow('int', -(2n ** 31n), 2n ** 31n - 1n),
  short: integerRow('short', -32768n, 32767n),
  byte: integerRow('byte', -128n, 127n),
  nonNegativeInteger: integerRow('nonNegativeInteger', 0n),
  positiveInteger: integerRow('positiveInteger', 1n),
  nonPositiveInteger: integerRow('nonPositiveInteger', undefined, 0n),
  negativeInteger: integerRow('negativeInteger', undefined, -1n),
  unsignedLong: integerRow('unsignedLong', 0n, 2n ** 64n - 1n),
  unsignedInt: integerRow('unsignedInt', 0n, 2n ** 32n - 1n),
  unsignedShort: integerRow('unsignedShort', 0n, 65535n),
  unsignedByte: integerRow('unsignedByte', 0n, 255n),
  decimal: {
    written: 'decimal',
    test: (t) => DECIMAL.test(t),
    generate: (r) => `${r.int(1, 100)}.${pad(r.int(0, 99))}`,
    describe: 'a decimal number',
    json: 'number',
    widens: [],
    whiteSpace: 'collapse',
    order: 'number',
    digits: true,
  },
  float: {
    written: 'float',
    test: (t) => FLOAT.test(t),
    generate: (r) => `${r.int(1, 100)}.5`,
    describe: 'a float',
    json: 'number',
    widens: [],
    whiteSpace: 'collapse',
    order: 'number',
  },
  double: {
    written: 'double',
    test: (t) => FLOAT.test(t),
    generate: (r) => `${r.int(1, 100)}.25`,
    describe: 'a double',
    json: 'number',
    widens: [],
    whiteSpace: 'collapse',
    order: 'number',
  },
  base64Binary: textRow(
    'base64Binary',
    'base64 data',
    (t) => BASE64.test(t.replaceAll(' ', '')),
    (r) => Buffer.from(bytes(r)).toString('base64'),
    { measure: 'base64' },
  ),
  hexBinary: textRow(
    'hexBinary',
    'hex data',
    (t) => HEX.test(t),
    (r) => Buffer.from(bytes(r)).toString('hex').toUpperCase(),
    { measure: 'hex' },
  ),
  duration: textRow(
    'duration',
    'a duration (PnYnMnDTnHnMnS)',
    (t) => DURATION.test(t) && !t.endsWith('P') && !t.endsWith('T'),
    (r) => (r.int(0, 1) ? `P${r.int(1, 30)}D` : `PT${r.int(1, 59)}M`),
    { measure: 'none', order: 'duration' },
  ),
  gYear: textRow(
    'gYear',
    'a year (YYYY)',
    (t) => G_YEAR.test(t),
    (r) => String(r.int(2000, 2030)),
    { measure: 'none', order: 'date' },
  ),
  gYearMonth: textRow(
    'gYearMonth',
    'a year and month (YYYY-MM)',
    (t) => G_YEAR_MONTH.test(t),
    (r) => `${r.int(2000, 2030)}-${pad(r.int(1, 12))}`,
    { measure: 'none', order: 'date' },
  ),
  gMonth: textRow(
    'gMonth',
    'a month (--MM)',
    (t) => G_MONTH.test(t),
    (r) => `--${pad(r.int(1, 12))}`,
    { measure: 'none', order: 'date' },
  ),
  gMonthDay: textRow(
    'gMonthDay',
    'a month and day (--MM-DD)',
    (t) => G_MONTH_DAY.test(t),
    (r) => `--${pad(r.int(1, 12))}-${pad(r.int(1, 28))}`,
    { measure: 'none', order: 'date' },
  ),
  gDay: textRow(
    'gDay',
    'a day of the month (---DD)',
    (t) => G_DAY.test(t),
    (r) => `---${pad(r.int(1, 28))}`,
    { measure: 'none', order: 'date' },
  ),
  anyURI: textRow(
    'anyURI',
    'a URI',
    () => true,
    (r) => `https://example.com/${r.pick(WORDS)}`,
  ),
  qname: textRow('qname', 'a qualified name (prefix:name)', (t) => xsdRegex(`(${NCNAME}:)?${NCNAME}`).test(t), word),
  ncname: textRow('ncname', 'a name without a colon (NCName)', (t) => xsdRegex(NCNAME).test(t), word),
  'xml-name': textRow('xml-name', 'an XML name', (t) => xsdRegex('\\i\\c*').test(t), word),
  // xs:ID and xs:IDREF: NCNames; generation makes each ID of a message unique and each IDREF name one of them (generate/index.ts).
  'xml-id': textRow('xml-id', 'an XML ID (a name without a colon, unique in its message)', (t) => xsdRegex(NCNAME).test(t), word),
  'xml-idref': textRow('xml-idref', 'a reference to an XML ID of the message (a name without a colon)', (t) => xsdRegex(NCNAME).test(t), word),
  nmtoken: textRow('nmtoken', 'a name token (NMTOKEN)', (t) => xsdRegex('\\c+').test(t), word),
  nmtokens: textRow('nmtokens', 'name tokens separated by spaces (NMTOKENS)', (t) => xsdRegex('\\c+( \\c+)*').test(t), word, { measure: 'items' }),
  token: textRow('token', 'a token (no leading, trailing or repeated spaces)', () => true, word),
  normalizedString: textRow('normalizedString', 'a string without line breaks or tabs', () => true, word, { whiteSpace: 'replace' }),
  language: textRow(
    'language',
    'a language tag (en, fr-CH)',
    (t) => LANGUAGE.test(t),
    (r) => r.pick(['en', 'fr', 'de', 'en-GB', 'fr-CH']),
  ),
};

/** The integer rows: each accepts every value of the integer rows whose bounds lie within its own. */
export const INTEGER_TYPES = (Object.keys(XSD_SCALARS) as XsdScalarType[]).filter((t) => XSD_SCALARS[t].bounds !== undefined);
