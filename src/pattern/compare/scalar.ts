import { unreachable } from '../../errors';
import type { TextMode } from './types';
import { matchJson, matchText } from '../match/index';
import { SCALARS } from '../scalars/index';
import type { Pattern, Scope } from '../types';

/*
 * The leaves of a value comparison: scalar types, literals, enums, booleans
 * and null. Scalar inclusion is the rows' (scalars.ts `scalarAccepts`); a
 * finite pattern is instead listed value by value and each value put to the accepting pattern's own matcher.
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
      return mode === 'json' ? SCALARS[p.type].values?.json.slice() : SCALARS[p.type].values?.text.slice();
    case 'text-list':
    case 'union':
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
