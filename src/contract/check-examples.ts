import { WHERE, at } from '../pattern/match/mismatch';
import { describePattern } from '../pattern/describe';
import { exampleValue } from '../pattern/generate/index';
import { namedPlaces, type Place } from '../pattern/generate/places';
import type { Pattern, Scope } from '../pattern/types';
import { quoted } from '../printable';
import { closest } from '../suggest';
import { REQUEST_BODY_COLUMN, type Scenario } from './model';

/** The column whose cell is the whole request body (Specmatic's convention). */

export interface ExampleProblem {
  line: number;
  message: string;
}

/**
 * Examples values against the places their columns name. A column names every
 * place of that name (a path parameter, query parameter, header, form field,
 * XML node or attribute, JSON key, `(name:type)`), in the request and the
 * response, and the generator uses a cell only where it fits. A cell that fits
 * none of them would be silently replaced by a generated value, so the test
 * would not send (nor the stub answer) what the row says: that is an error in
 * the contract, reported at the row. A column that names no place is allowed
 * (Specmatic ignores those too); an empty cell means "absent" and is not checked.
 */
export function checkExamples(s: Scenario): ExampleProblem[] {
  if (s.examples.length === 0) return [];
  const places = scenarioPlaces(s);
  const problems: ExampleProblem[] = [];
  for (const row of s.examples) {
    for (const [column, value] of row.values) {
      if (value === '' || column === REQUEST_BODY_COLUMN) continue;
      const named = places.filter((p) => (p.caseless ? p.key.toLowerCase() === column.toLowerCase() : p.key === column));
      // A cell with `{{…}}` is a response template (the stub fills it per request: stub/answer/response-template.ts checks it there).
      if (isTemplateCell(value)) {
        if (named.length > 0 && !named.some((p) => p.response)) {
          problems.push({
            line: row.line,
            message: `Examples value ${quoted(value)} in column ${quoted(column)} holds a placeholder, but the column names no place in the response of scenario "${s.name}" (placeholders fill answers only)`,
          });
        }
        continue;
      }
      if (named.length === 0 || named.some((p) => fits(value, p, s.scope))) continue;
      // A node named like its lookup (`<id>(id:string)</id>`) is one place, not two.
      const all = [...new Set(named.map((p) => `${describePattern(p.pattern)} at ${p.path}`))];
      const where = all.slice(0, 3);
      if (all.length > 3) where.push(`${all.length - 3} more`);
      problems.push({
        line: row.line,
        // Quoted cut short: a cell can be 30 KB, and the message is one line of a report.
        message: `Examples value ${quoted(value)} in column ${quoted(column)} fits no place the column names (${where.join('; ')}) in scenario "${s.name}"`,
      });
    }
  }
  return problems;
}

/**
 * Columns that name no place at all (`isbm` for `isbn`): allowed, as Specmatic allows them, but
 * their values go nowhere, and the test then fails for a reason far from the typo (a generated
 * value the service does not know). A warning, once per column, at the table's header, with the
 * nearest name the scenario does have.
 */
export function unusedColumns(s: Scenario, headerLines: readonly number[] = []): ExampleProblem[] {
  if (s.examples.length === 0) return [];
  const places = scenarioPlaces(s);
  const keys = [...new Set(places.map((p) => p.key))];
  const seen = new Set<string>();
  const problems: ExampleProblem[] = [];
  for (const [i, row] of s.examples.entries()) {
    for (const column of row.values.keys()) {
      if (seen.has(column) || column === REQUEST_BODY_COLUMN) continue;
      seen.add(column);
      // `(Type)` columns and `<part>_filename` (a file part's name) are Specmatic conventions, not places.
      if (column.startsWith('(') || (column.endsWith('_filename') && s.request.parts.some((p) => `${p.name}_filename` === column))) continue;
      if (places.some((p) => (p.caseless ? p.key.toLowerCase() === column.toLowerCase() : p.key === column))) continue;
      const near = closest(column, keys);
      problems.push({
        line: headerLines[i] ?? row.line,
        message: `Examples column ${quoted(column)} names no parameter, header, field, node or key of scenario "${s.name}", so its values are not used${near === undefined ? '' : ` (did you mean ${quoted(near)}?)`}`,
      });
    }
  }
  return problems;
}

interface ScenarioPlace extends Place {
  /** Header names compare without case. */
  caseless?: boolean;
  /** A place of the response (header or body). */
  response?: boolean;
}

/** Whether an Examples cell is a response template (`{{request.body.id}}`, `{{uuid}}`): not a value of the request side. */
export function isTemplateCell(value: string): boolean {
  return value.includes('{{');
}

/**
 * For a templated Examples cell once filled: why `value` fits none of the response places
 * `column` names (undefined when it fits one, or the column names none).
 */
export function responseCellChecker(s: Scenario): (column: string, value: string) => string | undefined {
  const places = scenarioPlaces(s).filter((p) => p.response);
  return (column, value) => {
    const named = places.filter((p) => (p.caseless ? p.key.toLowerCase() === column.toLowerCase() : p.key === column));
    if (named.length === 0 || named.some((p) => fits(value, p, s.scope))) return undefined;
    const all = [...new Set(named.map((p) => `${describePattern(p.pattern)} at ${p.path}`))].slice(0, 3);
    return `${quoted(value, 80)} fits no place column ${quoted(column)} names in the response (${all.join('; ')})`;
  };
}

function scenarioPlaces(s: Scenario): ScenarioPlace[] {
  const out: ScenarioPlace[] = [];
  const text = (key: string, pattern: Pattern, path: string, caseless = false) => out.push({ key, pattern, path, form: 'text', caseless });
  for (const seg of s.request.segments) if (seg.pattern) text(seg.name, seg.pattern, at(WHERE.requestPath, seg.name));
  for (const q of s.request.query) text(q.name, q.pattern, at(WHERE.requestQuery, q.name));
  for (const h of s.request.headers) text(h.name, h.pattern, at(WHERE.requestHeader, h.name), true);
  for (const f of s.request.formFields) text(f.name, f.pattern, at(WHERE.requestFormField, f.name));
  for (const p of s.request.parts) text(p.name, p.pattern, at(WHERE.requestPart, p.name));
  for (const h of s.response.headers) out.push({ key: h.name, pattern: h.pattern, path: at(WHERE.responseHeader, h.name), form: 'text', caseless: true, response: true });
  const body = (p: Pattern | undefined, side: string) => {
    if (!p) return;
    const response = side === WHERE.responseBody ? true : undefined;
    for (const place of namedPlaces(p, s.scope)) out.push({ ...place, path: place.path ? `${side} ${place.path}` : side, response });
  };
  body(s.request.body, WHERE.requestBody);
  body(s.response.body, WHERE.responseBody);
  return out;
}

function fits(value: string, place: Place, scope: Scope): boolean {
  try {
    return exampleValue(value, place.pattern, scope, place.form) !== undefined;
  } catch {
    return true; // a pattern that cannot be matched is reported elsewhere; do not add noise here
  }
}
