import type { FormField } from '../contract/model';
import { matchText } from '../pattern/match/index';
import { append, at, type Mismatch, WHERE } from '../pattern/match/mismatch';
import type { Scope } from '../pattern/types';

/**
 * `form-field name (type)` steps against an `application/x-www-form-urlencoded`
 * body: every declared field present and of its type, no undeclared field (the
 * same rule as query parameters). Without this a form scenario would accept any body.
 */
export function matchForm(fields: readonly FormField[], body: string, scope: Scope): Mismatch[] {
  const given = new URLSearchParams(body);
  const out: Mismatch[] = [];
  const declared = new Set<string>();
  for (const f of fields) {
    declared.add(f.name);
    const value = given.get(f.name);
    const path = at(WHERE.requestFormField, f.name);
    if (value === null) out.push({ path, expected: `form field ${f.name}`, actual: 'no such field' });
    else append(out, matchText(f.pattern, value, scope, path));
  }
  for (const k of new Set(given.keys())) {
    if (!declared.has(k)) out.push({ path: at(WHERE.requestFormField, k), expected: 'no such form field', actual: `unexpected form field "${k}"` });
  }
  return out;
}
