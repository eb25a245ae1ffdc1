import type { ExampleRow, Scenario } from '../../contract/model';
import type { HttpResponse } from '../../http/message';
import { generateBody, generateText, type BodyKind, type GenerateContext } from '../../pattern/generate/index';
import { createRandom, seedFrom, type Random } from '../../pattern/random';
import type { XmlTemplate } from './template';
import { XML_DECLARATION } from '../../xml/serialize';

/**
 * What an answer is made from: a served scenario and what was compiled for it at start-up. The
 * route table's Route (decide/route.ts) is one; answer/ reads no more of it than this.
 */
export interface Answerable {
  scenario: Scenario;
  /** Compiled XML response bodies, one per Examples row (key undefined: no row); absent where the core generator is used. */
  templates: Map<ExampleRow | undefined, XmlTemplate>;
  responseKind?: BodyKind;
  /** Sent unless the contract declares its own Content-Type response header. */
  contentType?: string;
  /** From the scenario's place: with the request's key, it seeds the values of the answer (requestRandom). */
  seed: number;
}

/**
 * The answer to a request that matched `route`: the scenario's status, its
 * response headers and a body generated from the contract. When the request
 * matched an Examples row, the row's values stand at the places its columns
 * name (so `| id | 7 |` answers `<id>7</id>`); everything else is generated.
 * `filled`: the row's values with its `{{…}}` cells filled from the request (fillRow).
 * XML bodies go through a template compiled at start-up (template.ts), which
 * draws exactly what the core generator would from `rng`.
 */
export function respond(route: Answerable, row: ExampleRow | undefined, rng: Random, filled?: ReadonlyMap<string, string>, placed?: GenerateContext['placed']): HttpResponse {
  const s = route.scenario;
  const values = filled ?? row?.values;
  const ctx: GenerateContext = { scope: s.scope, rng, examples: values, placed };
  const headers: Record<string, string> = {};
  for (const h of s.response.headers) {
    // Header names compare without case, as the row's columns name them (check-examples.ts, narrow-row.ts).
    const example = values?.get(h.name) ?? (values ? [...values].find(([k]) => k.toLowerCase() === h.name.toLowerCase())?.[1] : undefined);
    if (h.optional && example === '') continue;
    if (example !== undefined) placed?.(example.length);
    headers[h.name.toLowerCase()] = example ?? generateText(h.pattern, ctx);
  }
  let body = '';
  if (s.response.body) {
    const template = route.templates.get(row);
    body = template ? template(rng, values, placed) : generateBody(s.response.body, ctx).text;
    // A generated XML answer starts as a real service's does (XML_DECLARATION); an example file's is sent as given.
    if (route.responseKind === 'xml' && body !== '') body = XML_DECLARATION + body;
    if (route.contentType) headers['content-type'] = route.contentType;
  }
  return { status: s.response.status, headers, body };
}

/** An example file's response, as given; a copy, since the server adds Content-Length to it. */
export function fixedResponse(route: Answerable, given: HttpResponse): HttpResponse {
  const headers = { ...given.headers };
  if (given.body !== '' && headers['content-type'] === undefined && route.contentType) headers['content-type'] = route.contentType;
  return { status: given.status, headers, body: given.body };
}

/**
 * The values of a generated answer are drawn from a stream seeded by the scenario's place and
 * the request (`key`: see DispatchMemo.keyOf): the answer is a function of the request, as a
 * real service's data is. The same request gets the same answer, also after a restart; another
 * request (pet 11 rather than pet 10) gets values of its own.
 */
export function requestRandom(route: Answerable, key: string): Random {
  return createRandom(seedFrom(key, route.seed));
}
