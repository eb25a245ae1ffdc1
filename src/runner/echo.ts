import { isTemplateCell } from '../contract/check-examples';
import { narrowToRow } from '../contract/narrow-row';
import { REQUEST_BODY_COLUMN, type ExampleRow, type TestCase } from '../contract/model';
import { ParsedBody } from '../http/body';
import type { HttpRequest } from '../http/message';
import type { RowTemplate } from '../stub/answer/response-template';

/**
 * An Examples row whose response cells echo the request (`| id | {{request.body.getPetRequest/id}} |`,
 * docs/stub.md): the stub fills them from each request, so the provider is held to the same. The
 * runner sends a generated value where the row's cell is a template (build-request.ts), then fills
 * the row's templated cells from the request it sent, with the stub's own template code (one
 * lookup: node paths prefix- and namespace-blind, path parameters, query, headers); row-values.ts
 * checks the answer has exactly those values in the places the columns name. Values made anew per
 * answer (`{{now}}`, `{{today}}`, `{{uuid}}`, `{{sequence}}`) are checked by type only, as before.
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

/** Compiled once per row (an AccordError, as the stub refuses the row at start-up, when it can never fit). */
const compiled = new WeakMap<ExampleRow, RowTemplate>();

/**
 * The values the row's echoing cells take from `sent`, the request as it went on the wire, each
 * with the template it came from (`{{request.body.getPetRequest/id}}`); none for a row without such a cell;
 * `tooLarge` when they would pass TEMPLATE_LIMITS.answerChars.
 */
export function echoedValues(tc: TestCase, sent: HttpRequest): { column: string; value: string; template: string }[] | { tooLarge: string } {
  if (!echoesRequest(tc)) return [];
  const row = tc.row!;
  const template = templates();
  let t = compiled.get(row);
  if (!t) {
    t = template.compileRowTemplate(tc.scenario, narrowToRow(tc.scenario, row), row);
    if (!t) return [];
    compiled.set(row, t);
  }
  return template.echoedCells(t, sent, new ParsedBody(sent.body));
}
