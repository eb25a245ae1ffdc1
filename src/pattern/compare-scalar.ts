import { unreachable } from '../errors';
import type { TextMode } from './compare-types';
import { matchJson, matchText } from './match';
import { scalarAccepts } from './scalars';
import type { Pattern, ScalarType, Scope } from './types';

/*
 * The leaves of a value comparison: scalar types, literals, enums, booleans
 * and null. Scalar inclusion is decided per mode (a JSON string never holds
 * a JSON number; every text is a string); a finite pattern is instead listed
 * value by value and each value put to the accepting pattern's own matcher.
 * Plain functions, no recursion: the dispatcher in ./compare calls them.
 */

/** Finite patterns: every value they accept, listed (JSON values, or texts). */
export function finiteValues(p: Pattern, mode: TextMode): unknown[] | undefined {
  switch (p.kind) {
    case 'literal':
      return mode === 'json' ? [p.value] : [String(p.value ?? '')];
    case 'enum':
      return mode === 'json' && p.base === 'number' ? p.values.map(Number) : p.values;
    case 'scalar':
      if (p.type === 'boolean') return mode === 'json' ? [true, false] : ['true', 'false'];
      if (p.type === 'null') return mode === 'json' ? [null] : ['', 'null'];
      if (p.type === 'empty') return mode === 'json' ? ['', null] : [''];
      return undefined;
    case 'ref':
    case 'optional':
    case 'list':
    case 'lookup':
    case 'object':
    case 'array':
    case 'dictionary':
    case 'xml':
      return undefined;
    default:
      return unreachable(p, 'pattern kind');
  }
}

/** Does A's matcher accept this value (a JSON value, or a text when `mode` is 'text')? */
export function acceptsValue(a: Pattern, v: unknown, mode: TextMode, scope: Scope): boolean {
  return (mode === 'json' ? matchJson(a, v, scope) : matchText(a, v as string, scope)).length === 0;
}

const JSON_STRINGS = new Set<ScalarType>(['string', 'date', 'datetime', 'time', 'uuid', 'email', 'url', 'number-in-string']);

/** Scalar inclusion where JSON types are distinct: a JSON string never holds a JSON number. */
function jsonScalarAccepts(wide: ScalarType, narrow: ScalarType): boolean {
  if (wide === narrow || wide === 'anything') return true;
  if (wide === 'string') return JSON_STRINGS.has(narrow);
  if (wide === 'empty') return narrow === 'null';
  return false;
}

/** Scalar inclusion on text (XML text, headers, path segments): every text is a string. */
function textScalarAccepts(wide: ScalarType, narrow: ScalarType): boolean {
  if (wide === 'string' || wide === 'anything') return true;
  return scalarAccepts(wide, narrow);
}

/** Does scalar type `wide` accept every value of scalar type `narrow`, in this mode? */
export function scalarContains(wide: ScalarType, narrow: ScalarType, mode: TextMode): boolean {
  return mode === 'json' ? jsonScalarAccepts(wide, narrow) : textScalarAccepts(wide, narrow);
}
