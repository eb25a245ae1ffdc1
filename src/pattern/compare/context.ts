import type { Difference, TextMode } from './types';
import { followed, type Followed } from '../resolve';
import type { Pattern, Scope, XmlElementPattern } from '../types';

/*
 * What the parts of a comparison share: the small interface through which
 * the JSON and XML parts (compare-json.ts, compare-xml.ts) call back into the
 * comparer that owns the differences and the memo of compared type pairs
 * (`Comparer` in ./compare), and the ref-following every part needs. Kept
 * apart from ./compare so the parts can use it without importing their caller.
 */

/** The comparer as its parts see it (implemented by `Comparer` in ./compare). */
export interface CompareContext {
  readonly aScope: Scope;
  readonly bScope: Scope;
  /** Records a difference, once per kind, path and name; may end the comparison (stopAtFirst). */
  add(d: Difference): void;
  /** Has this pair of named types been compared already (in this mode)? Marks it as compared. */
  visited(mode: string, aName: string | undefined, bName: string | undefined): boolean;
  /** A type difference at `path`, with whether B is in fact narrower than A. */
  typeDifference(a: Pattern, b: Pattern, path: string, mode: TextMode | 'xml', aWords?: string, bWords?: string): void;
  /** Compares two values (the dispatcher): every part recurses through here. */
  value(a: Pattern, b: Pattern, path: string, mode: TextMode): void;
  /** Compares two XML elements at the same place. */
  element(a: XmlElementPattern, aName: string | undefined, b: XmlElementPattern, bName: string | undefined, path: string): void;
}

/** Follows refs and lookups, remembering the last type name passed through (for recursion-safe memoisation). */
export function deref(p: Pattern, scope: Scope): Followed {
  return followed(p, scope, { lookup: true });
}
