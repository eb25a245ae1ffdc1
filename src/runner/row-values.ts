import { isTemplateCell } from '../contract/check-examples';
import { narrowResponse } from '../contract/narrow-row';
import { REQUEST_BODY_COLUMN, STUB_VALUES_TAG, stubValueColumns, type TestCase } from '../contract/model';
import { matchResponse } from '../http/match-response';
import type { HttpRequest, HttpResponse } from '../http/message';
import { shown, WHERE, type Mismatch } from '../pattern/match/mismatch';
import { isPlaceholder } from '../pattern/placeholder';
import { echoedValues } from './echo';

/**
 * An Examples row is a promise about the answer as well as the request: a response cell
 * (`| orderId | name | city |` … `| 7 | Bob Builder | Paris |`) is what the stub answers for the
 * row, and in the provider's run what the provider must answer there. A column names every place
 * of its name, in the request and the response, so a column used in both (an `orderId` sent and
 * answered) is a promise too. Compared as the stub answers it: only where the value fits the
 * declared type, and as a value of that type (`10.50` is `10.5` for a decimal, `1` is `true` for
 * a boolean). Not checked beyond the type: an empty cell (absent), a placeholder cell (`(string)`),
 * a value made anew per answer (`{{uuid}}`), and the columns a `@stub-values` tag makes the stub's
 * only (model.ts). A mismatch says which cell: `expected "Paris" (Examples row 1, column city)`.
 */
export function matchRowResponse(tc: TestCase, sent: HttpRequest, res: HttpResponse): Mismatch[] {
  const plain = matchResponse(tc.scenario, res);
  if (!tc.row || res.status !== tc.scenario.response.status) return plain;
  const echoed = echoedValues(tc, sent);
  // Too large to hold the answer to (TEMPLATE_LIMITS.answerChars): a failure that says so, never a pass unchecked.
  if (!Array.isArray(echoed)) return [...plain, { path: WHERE.responseBody, expected: `the values the row's {{…}} cells take from the request sent`, actual: echoed.tooLarge }];
  const cells = [...rowCells(tc), ...echoed.map((c) => ({ column: c.column, value: c.value, source: `the request's ${c.template}` }))];
  if (cells.length === 0) return plain;
  const narrowed = narrowResponse(tc.scenario, new Map(cells.map((c) => [c.column, c.value])));
  // Where the answer is not even of the declared type, that is what is said (`expected a number, found "10"`), not the value.
  const wrongType = new Set(plain.map((m) => m.path));
  const out = [...plain];
  for (const m of matchResponse(narrowed, res)) {
    if (wrongType.has(m.path)) continue;
    const cell = cells.find((c) => sameShown(m.expected, c.value));
    out.push(cell ? { ...m, expected: `${m.expected} (${cell.source})` } : m);
  }
  return out;
}

/** The row's response cells the provider is held to, each with the words that name it. */
function rowCells(tc: TestCase): { column: string; value: string; source: string }[] {
  const row = tc.row!;
  const stubOnly = stubValueColumns([...tc.scenario.tags, ...(row.tags ?? [])]);
  if (stubOnly === 'all') return [];
  const n = tc.scenario.examples.indexOf(row) + 1;
  const out: { column: string; value: string; source: string }[] = [];
  for (const [column, value] of row.values) {
    if (column === REQUEST_BODY_COLUMN || value === '' || isTemplateCell(value) || isPlaceholder(value) || stubOnly.has(column)) continue;
    out.push({ column, value, source: `Examples row ${n > 0 ? n : '?'}, column ${column}` });
  }
  return out;
}

/** Whether the mismatches came from a row's cell: the failure then says how to make cells the stub's only. */
export function fromRowCell(mismatches: readonly Mismatch[]): boolean {
  // From the last mark on, anchored at both ends: unanchored, the expression would read on from every mark in a long text.
  return mismatches.some((m) => {
    const at = m.expected.lastIndexOf(' (Examples row ');
    return at >= 0 && /^ \(Examples row \S+, column [^)]*\)$/.test(m.expected.slice(at));
  });
}

/** The hint under such a failure. */
export const STUB_VALUES_HINT = `An Examples row's response cells are what the provider must answer; for values the stub answers but the provider need not, tag the Scenario Outline or its Examples block ${STUB_VALUES_TAG} (or ${STUB_VALUES_TAG}:<column>,<column>).`;

/** Whether the literal's words in a mismatch are this value's: text as is, or in JSON the number or boolean it went in as. */
function sameShown(expected: string, value: string): boolean {
  if (expected === shown(value)) return true;
  if (value === 'true' || value === 'false') return expected === value;
  return value.trim() !== '' && Number.isFinite(Number(value)) && expected === shown(Number(value));
}
