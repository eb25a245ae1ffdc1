import type { Random } from '../random';
import type { ScalarType } from '../types';

/**
 * How a scalar's value is carried in JSON: a JSON string (checked by the
 * row's lexical test), a number, a boolean, null only, `''` or null (`empty`),
 * or any JSON value (`anything`).
 */
export type JsonForm = 'string' | 'number' | 'boolean' | 'null' | 'empty' | 'any';

/**
 * One row per scalar placeholder: everything accord knows about it. Matching,
 * generation, comparison, the contract parser and printer and reports all read
 * the row; adding a scalar is adding a row.
 */
export interface ScalarRule {
  /** How the placeholder is written inside `( )`. */
  written: string;
  /** The lexical check on text (XML text, headers, path segments; JSON strings of form 'string'). */
  test(text: string): boolean;
  /** A sample as text; `jsonOf` turns it into the JSON value. */
  generate(rng: Random): string;
  /** Report words: "expected a number". */
  describe: string;
  json: JsonForm;
  /** The types whose every value this one accepts too ('all': every text), for compatibility. */
  widens: 'all' | readonly ScalarType[];
  /** Every value, when there are finitely many: as texts and as JSON values. */
  values?: { text: readonly string[]; json: readonly unknown[] };
  /** XSD whiteSpace: text is normalised this way before it is checked ('preserve' when absent). */
  whiteSpace?: 'replace' | 'collapse';
  /** What length facets count: characters, octets (hex, base64), space-separated items; 'none': they do not apply. Default: characters for JSON strings. */
  measure?: 'chars' | 'hex' | 'base64' | 'items' | 'none';
  /** Which order bound facets (min, max…) use: numbers, dates and times as instants, or durations (temporal.ts). */
  order?: 'number' | 'date' | 'duration';
  /** totalDigits and fractionDigits apply. */
  digits?: boolean;
  /** Integer types: the inclusive range (undefined: unbounded on that side). */
  bounds?: [bigint | undefined, bigint | undefined];
}
