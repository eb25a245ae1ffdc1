import { isTemplateCell } from '../contract/check-examples';
import { REQUEST_BODY_COLUMN, type ExampleRow, type Scenario, type TestCase } from '../contract/model';
import { ParsedBody } from '../http/body';
import { matchResponse } from '../http/match-response';
import type { HttpRequest, HttpResponse } from '../http/message';
import { shown, WHERE, type Mismatch } from '../pattern/match/mismatch';
import type { RowTemplate } from '../stub/answer/response-template';

/**
 * An Examples row whose response cells echo the request (`| id | {{request.body.getPetRequest/id}} |`,
 * docs/stub.md): the stub fills them from each request, so the provider is held to the same. The
 * runner sends a generated value where the row's cell is a template (build-request.ts), then fills
 * the row's templated cells from the request it sent, with the stub's own template code (one
 * lookup: node paths prefix- and namespace-blind, path parameters, query, headers), and checks the
 * answer has exactly those values in the places the columns name. Values made anew per answer
 * (`{{now}}`, `{{today}}`, `{{uuid}}`, `{{sequence}}`) are checked by type only, as before.
 *
 * The stub's template code is loaded only for a row that has such a cell (the architecture's
 * `runner → stub` exception): a run of contracts without one never loads it.
 */
export function echoesRequest(tc: TestCase): boolean {
  return tc.row !== undefined && [...tc.row.values].some(([column, v]) => column !== REQUEST_BODY_COLUMN && isTemplateCell(v));
}

// Loaded only for a row with a templated cell (architecture.md: runner -> stub).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const templates = () => require('../stub/answer/response-template') as typeof import('../stub/answer/response-template');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const exampleRows = () => require('../stub/answer/example-rows') as typeof import('../stub/answer/example-rows');

/** Compiled once per row (an AccordError, as the stub refuses the row at start-up, when it can never fit). */
const compiled = new WeakMap<ExampleRow, RowTemplate>();

/**
 * Every way `res` differs from the scenario of `tc` with its row's echoed cells filled from
 * `sent`, the request as it went on the wire. A mismatch of an echoed value says so after the
 * expected value: `expected "4711" (the request's {{request.body.getPetRequest/id}})`.
 */
export function matchEchoedResponse(tc: TestCase, sent: HttpRequest, res: HttpResponse): Mismatch[] {
  const plain = matchResponse(tc.scenario, res);
  const row = tc.row!;
  const template = templates();
  const rows = exampleRows();
  let t = compiled.get(row);
  if (!t) {
    t = template.compileRowTemplate(tc.scenario, rows.narrowToRow(tc.scenario, row), row);
    if (!t) return plain;
    compiled.set(row, t);
  }
  const cells = template.echoedCells(t, sent, new ParsedBody(sent.body));
  // Too large to hold the answer to (TEMPLATE_LIMITS.answerChars): a failure that says so, never a pass unchecked.
  if (!Array.isArray(cells)) return [...plain, { path: WHERE.responseBody, expected: `the values the row's {{…}} cells take from the request sent`, actual: cells.tooLarge }];
  if (cells.length === 0 || res.status !== tc.scenario.response.status) return plain;
  const narrowed: Scenario = rows.narrowResponse(tc.scenario, new Map(cells.map((c) => [c.column, c.value])));
  const known = new Set(plain.map((m) => `${m.path}\n${m.expected}`));
  return matchResponse(narrowed, res).map((m) => {
    if (known.has(`${m.path}\n${m.expected}`)) return m;
    const cell = cells.find((c) => sameShown(m.expected, c.value));
    return cell ? { ...m, expected: `${m.expected} (the request's ${cell.template})` } : m;
  });
}

/** Whether a literal's words in a mismatch are this value's: text as is, or in JSON the number or boolean it went in as. */
function sameShown(expected: string, value: string): boolean {
  if (expected === shown(value)) return true;
  if (value === 'true' || value === 'false') return expected === value;
  return value.trim() !== '' && Number.isFinite(Number(value)) && expected === shown(Number(value));
}
