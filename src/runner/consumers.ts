import path from 'node:path';
import type { Contract, Scenario, ScenarioFact, TestCase } from '../contract/model';
import { contractStem } from '../contract/stem';
import { AccordError } from '../errors';
import { FILE_LIMITS, filesInside, readInputText } from '../files';
import { forwardedHeaders } from '../http/forward';
import type { HttpRequest } from '../http/message';
import { readJson } from '../json/parse';
import { formatMismatches } from '../pattern/match/mismatch';
import { excerpt } from '../printable';
import type { TypedPlace } from '../stub/answer/typed-request';

/**
 * Consumers' examples replayed by the provider's run (shared/consumer-examples.ts puts them
 * beside a pulled contract: `<contract>_consumers/<consumer>/*.json`). Each becomes a test of
 * its own, `consumer <name> › <example>`, that sends the consumer's request as recorded (see
 * replayRequest) and holds the provider's answer to the contract's scenario. An example that no longer fits the contract is
 * the consumer's to fix, not the provider's: it is declared skipped, its title and a warning
 * naming the consumer, the file and the mismatch.
 */
export interface ConsumerCase {
  consumer: string;
  file: string;
  title: string;
  /** The example's name (its `name`, else its file name). */
  name: string;
  /** The contract's scenario narrowed to the example's values; undefined when the example does not fit. */
  testCase?: TestCase;
  /** The example's request as recorded (method, path, query, headers, body); set when it fits. */
  request?: GivenRequest;
  /** Why it does not fit: the consumer's problem. */
  problem?: string;
  /** The provider state (machine = state) the consumer's expectation required: the provider's run must set it up (a states module). */
  needsState?: string;
}

export function consumersFolder(contractFile: string): string {
  return `${contractStem(contractFile)}_consumers`;
}

export function consumerCases(contract: Contract): ConsumerCase[] {
  const root = consumersFolder(contract.file);
  const files = filesInside(root, '.', '.json');
  if (files.length === 0) return [];
  // Loaded only for a contract that has consumer examples: the runner otherwise never needs the stub's fitting.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fit = require('../stub/answer/consumer-example') as typeof import('../stub/answer/consumer-example');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EXAMPLE_SHAPE } = require('../stub/answer/fit-example') as typeof import('../stub/answer/fit-example');
  const out: ConsumerCase[] = [];
  const titles = new Set<string>();
  for (const rel of files) {
    const [consumer, ...rest] = rel.split('/');
    if (rest.length === 0) continue;
    const file = path.join(root, rel);
    let name = path.basename(rel, '.json');
    const c: ConsumerCase = { consumer, file, title: '', name };
    try {
      const text = readInputText(file, { what: 'example file', limit: FILE_LIMITS.exampleBytes });
      const read = readJson(text);
      if ('problem' in read) throw new AccordError('ACCORD_ERR_JSON', `not valid JSON: ${excerpt(read.problem, 200)}`);
      const given = (read.value as { name?: unknown } | null)?.name;
      if (typeof given === 'string' && given.trim() !== '') c.name = name = excerpt(given.trim(), 120);
      const {
        raw,
        fit: fitted,
        state,
      } = fit.fitConsumerExample(
        read.value,
        contract.scenarios,
        ` of ${path.basename(contract.file)}`,
        (m) => new AccordError('ACCORD_ERR_USAGE', `the example ${m}; expected ${EXAMPLE_SHAPE}`),
      );
      if (fitted.ok) {
        // The state the consumer's test relied on is a provider state: set up by the states module's handler of that machine.
        const needs: ScenarioFact | undefined = state?.requires === undefined ? undefined : { kind: 'fact', name: state.name, value: state.requires, line: 1 };
        const scenario = needs ? { ...fitted.scenario, facts: [...(fitted.scenario.facts ?? []), needs] } : fitted.scenario;
        c.testCase = { scenario, name };
        c.request = { ...raw.request, givenBody: raw.givenBody, typed: fitted.typed?.places };
        if (needs) c.needsState = `${needs.name} = ${JSON.stringify(needs.value)}`;
      } else c.problem = `${fitted.why}${fitted.mismatches.length > 0 ? `\n${formatMismatches(fitted.mismatches, '  ')}` : ''}`;
    } catch (e) {
      if (!(e instanceof AccordError)) throw e;
      c.problem = e.message;
    }
    let title = `consumer ${consumer} › ${name}`;
    if (titles.has(title)) title = `${title} (${path.basename(rel)})`;
    titles.add(title);
    c.title = c.problem === undefined ? title : `${title} [skipped: no longer fits the contract, ${consumer}'s to fix]`;
    out.push(c);
  }
  return out;
}

/** The warning a provider's run prints for an example that no longer fits: whose, which file, what. */
export function consumerProblem(c: ConsumerCase): string {
  return `consumer ${c.consumer}'s example ${c.file} no longer fits the contract (skipped; the consumer's to fix, not the provider's): ${c.problem}`;
}

/** A consumer's request as its example file records it; `givenBody` false when the file has no body. */
export interface GivenRequest extends HttpRequest {
  givenBody: boolean;
  /** Its typed placeholders (`(int)`): sent as values of their types, generated as for the contract's own tests. */
  typed?: readonly TypedPlace[];
}

/**
 * What the provider's run sends for a consumer's example: the consumer's request as recorded, not a
 * generated one (the consumer's expectations are the provider's tests). Its method, path, query,
 * headers and body are sent as the file has them (a body given as a JSON value is sent as its JSON
 * text). What the file leaves out that the contract requires is filled from the scenario as for a
 * generated request (`built`): a required header (SOAPAction, an API version), Content-Type when
 * there is a body (an HTTP client adds it), the body when the file has none. Optional headers and
 * optional body nodes the consumer never sent stay out. Hop-by-hop headers and Content-Length of the
 * recording are not sent: the client sets its own.
 */
export function replayRequest(given: GivenRequest, built: HttpRequest, scenario: Scenario): HttpRequest {
  const typed = given.typed ?? [];
  // A typed body is generated from the scenario narrowed to the example (its literal values and its placeholders' types).
  const bodyTyped = typed.some((t) => t.where === 'xml' || t.where === 'json');
  const body = given.givenBody && !bodyTyped ? given.body : built.body;
  const headers: Record<string, string> = {};
  for (const h of scenario.request.headers) {
    const name = h.name.toLowerCase();
    if (!h.optional && built.headers[name] !== undefined) headers[name] = built.headers[name];
  }
  if (body !== '' && built.headers['content-type'] !== undefined) headers['content-type'] = built.headers['content-type'];
  const recorded = forwardedHeaders(given.headers) as Record<string, string>;
  delete recorded['content-length'];
  for (const t of typed) if (t.where === 'header' && built.headers[t.name] !== undefined) recorded[t.name] = built.headers[t.name];
  const query = given.query.map(([k, v]): [string, string] => {
    if (!typed.some((t) => t.where === 'query' && t.name === k)) return [k, v];
    return [k, built.query.find(([b]) => b === k)?.[1] ?? v];
  });
  return { method: given.method, path: typed.some((t) => t.where === 'path') ? built.path : given.path, query, headers: { ...headers, ...recorded }, body };
}
