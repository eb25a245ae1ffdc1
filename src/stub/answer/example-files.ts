import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Contract, Scenario } from '../../contract/model';
import { contractStem } from '../../contract/stem';
import { AccordError } from '../../errors';
import { FILE_LIMITS, readInputText } from '../../files';
import { excerpt } from '../../printable';
import type { HttpResponse } from '../../http/message';
import { formatMismatches, type Mismatch } from '../../pattern/match/mismatch';
import { readJson } from '../../json/parse';
import { EXAMPLE_SHAPE, fitExample, isObject, readExampleShape, type RawExample } from './fit-example';
import { compileTemplate, hasTemplate, withoutTemplate, type ResponseTemplate } from './response-template';
import { readStateRule, type StateRule } from './state-rule';

/**
 * Example files, in Specmatic's layout: JSON files in `<contract>_examples/`
 * (or the older `<contract>_data/`) beside `<contract>.spec`, each
 *   { "http-request":  { "method", "path", "query"?, "headers"?, "body"? },
 *     "http-response": { "status", "headers"?, "body"? } }
 * A request that carries the example's values gets the example's response as
 * given. Each file is checked at start-up: its request must match a scenario
 * of its contract and its response must satisfy that scenario, or the stub
 * does not start (an example that silently never answers helps nobody).
 */
export interface FixedExample {
  file: string;
  /** The scenario it belongs to, narrowed so that only requests with the example's values match. */
  scenario: Scenario;
  owner: Scenario;
  response: HttpResponse;
  /** A response with `{{…}}` placeholders, filled from each request (response-template.ts). */
  template?: ResponseTemplate;
  /** `"state": { name, requires?, becomes? }`: answers only in that state of the scope, and moves it (scenario-state.ts). */
  state?: StateRule;
}

export function exampleDirs(specFile: string): string[] {
  const base = contractStem(specFile);
  return [`${base}_examples`, `${base}_data`].filter((d) => statSync(d, { throwIfNoEntry: false })?.isDirectory() === true);
}

export function loadExampleFiles(contract: Contract, errors: AccordError[]): FixedExample[] {
  const out: FixedExample[] = [];
  for (const dir of exampleDirs(contract.file)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (e) {
      // Unreadable (permissions), or gone since it was found: the user's to fix, said with the folder.
      errors.push(new AccordError('ACCORD_ERR_IO', `cannot read the example folder: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { file: dir }, { cause: e }));
      continue;
    }
    const files = names.filter((f) => f.endsWith('.json')).sort();
    for (const name of files) {
      const file = path.join(dir, name);
      try {
        out.push(loadOne(file, contract));
      } catch (e) {
        if (!(e instanceof AccordError)) throw e;
        errors.push(e);
      }
    }
  }
  return out;
}

function loadOne(file: string, contract: Contract): FixedExample {
  const { ex, text, state } = readExample(file);
  // A templated response is checked apart (compileTemplate): the request picks the scenario.
  const templated = hasTemplate(ex);
  const fit = fitExample(templated ? withoutTemplate(ex) : ex, contract.scenarios, ` of ${contract.file}`);
  if (!fit.ok) throw invalid(file, fit.why, fit.mismatches);
  const r = ex.response!;
  let template: ResponseTemplate | undefined;
  try {
    template = templated ? compileTemplate(ex, fit.owner, fit.scenario, 'example file') : undefined;
  } catch (e) {
    if (!(e instanceof AccordError)) throw e;
    // Its place: the line of "http-response" in the file.
    const at = text.indexOf('"http-response"');
    throw new AccordError('ACCORD_ERR_USAGE', e.message, { file, line: at < 0 ? undefined : text.slice(0, at).split('\n').length });
  }
  return { file, scenario: fit.scenario, owner: fit.owner, response: { status: r.status!, headers: r.headers, body: r.body ?? '' }, template, state };
}

function readExample(file: string): { ex: RawExample; text: string; state?: StateRule } {
  const text = readInputText(file, { what: 'example file', limit: FILE_LIMITS.exampleBytes });
  const read = readJson(text);
  if ('problem' in read) throw new AccordError('ACCORD_ERR_JSON', `example file is ${excerpt(read.problem, 200)}`, { file });
  const bad = (message: string) => new AccordError('ACCORD_ERR_USAGE', `example file ${message}; expected ${EXAMPLE_SHAPE}`, { file });
  const ex = readExampleShape(read.value, bad);
  const rule = isObject(read.value) ? read.value.state : undefined;
  return { ex, text, state: rule === undefined ? undefined : readStateRule(rule, bad) };
}

function invalid(file: string, message: string, mismatches: Mismatch[]): AccordError {
  return new AccordError('ACCORD_ERR_USAGE', `example file: ${message}`, { file }, { details: formatMismatches(mismatches, '') });
}
