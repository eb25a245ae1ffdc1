import { AccordError } from '../../errors';
import type { HttpResponse } from '../../http/message';
import type { ExpectationInput, ScenarioRef } from '../admin/expectations';
import { selected, type CallFilter, type JournalEntry } from '../admin/journal';
import { printable } from '../../printable';
import type { ExportAccepted } from './export-examples';

/**
 * A stub running elsewhere (started by Jest's globalSetup, another process, a container),
 * driven over its HTTP API: what a test file has when it cannot hold the RunningStub itself.
 * The same calls as RunningStub's, asynchronous.
 */
export interface StubClient {
  /** Where the application under test sends its requests: the stub's URL, or a scope's (`…/_scope/<id>`). */
  url: string;
  /** Resolves with the expectation's id and scenario; rejects with the mismatch report when it breaks the contract. */
  expect(input: ExpectationInput): Promise<{ id: string; scenario: ScenarioRef }>;
  /** Removes one expectation; false when it was gone already. */
  remove(id: string): Promise<boolean>;
  /** Removes every expectation, empties the journal, puts every state machine back in `Started` and starts `{{sequence}}` again at 1. */
  reset(): Promise<void>;
  /** The named state machines (expectations' `state.name`) and the state each is in. */
  states(): Promise<{ name: string; state: string }[]>;
  /** Puts one state machine (or, without a name, every one) back in `Started`; false when nothing names that machine. */
  resetState(name?: string): Promise<boolean>;
  /** Puts a state machine in a state, as if an answer had moved it there. */
  setState(name: string, state: string): Promise<void>;
  calls(filter?: CallFilter): Promise<JournalEntry[]>;
  /**
   * A scope of the same stub: its own expectations and journal, and a reset that clears only
   * them, for requests sent to its `url` (`http://127.0.0.1:9000/_scope/<id>`). Give each test file
   * one, and test files running in parallel (Jest's workers) on one stub cannot see or reset one
   * another's. `id` (1 to 64 letters, digits, `-`, `_`): left out, a new random one.
   */
  scope(id?: string): StubClient;
}

export interface ConnectOptions {
  /**
   * Write each expectation the stub accepts as a consumer example (export-examples.ts):
   * `true` for `.accord/consumer-examples`, or a folder. Left out: `ACCORD_EXPORT_EXAMPLES` decides.
   */
  exportExamples?: boolean | string;
  /** The consumer's name, noted in each exported example; left out: `ACCORD_CONSUMER`. */
  consumer?: string;
}

/**
 * `url` may be `undefined` in its type because the documented use is
 * `connectStub(process.env.PETSTORE_URL)`, set by a Jest globalSetup: a missing one is a usage
 * error saying so, not a TypeError from deep inside.
 */
export function connectStub(url: string | undefined, options: ConnectOptions = {}): StubClient {
  if (typeof url !== 'string' || !['http://', 'https://'].some((scheme) => url.slice(0, scheme.length).toLowerCase() === scheme))
    throw new AccordError(
      'ACCORD_ERR_USAGE',
      `connectStub: the stub's URL must be an http:// or https:// URL, found ${url === undefined ? 'undefined' : JSON.stringify(String(url).slice(0, 100))} (is the environment variable your Jest globalSetup sets, such as PETSTORE_URL, set in this process?)`,
    );
  const base = url.endsWith('/') ? url.slice(0, -1) : url;
  // A scope of a scope is a scope of the stub: its path is replaced, not nested.
  const root = base.includes('/_scope/') ? base.slice(0, base.indexOf('/_scope/')) : base;
  const call = async (method: string, path: string, body = '', query: [string, string][] = [], extra: Record<string, string> = {}): Promise<HttpResponse> =>
    // Loaded on first use: the HTTP client (undici) doubled the stub's start-up, and a stub that is only served never needs it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose; require, not import(), so Jest needs no VM modules
    (require('../../http/client') as typeof import('../../http/client')).send(base, {
      method,
      path,
      query,
      headers: body ? { 'content-type': 'application/json', ...extra } : extra,
      body,
    });
  const ok = (r: HttpResponse, what: string): HttpResponse => {
    if (r.status >= 300) throw new AccordError('ACCORD_ERR_HTTP', `${what}: the stub at ${base} answered ${r.status}: ${r.body.trim()}`);
    return r;
  };
  return {
    url: base,
    async expect(input) {
      // This process exports it (with the test's title): a stub that exports too is told, so it is not written twice.
      const r = await call('POST', '/_accord/expectations', JSON.stringify(input), [], exportsHere(options) ? { 'x-accord-exported': '1' } : {});
      if (r.status === 400) throw new AccordError('ACCORD_ERR_USAGE', r.body.trim().replace('accord stub: ', ''));
      const accepted = JSON.parse(ok(r, 'setting an expectation').body) as { id: string; scenario: ScenarioRef; fault?: { scenario?: ScenarioRef; status: number } };
      exported(input, accepted, options);
      return { id: accepted.id, scenario: accepted.scenario };
    },
    async remove(id) {
      const r = await call('DELETE', `/_accord/expectations/${encodeURIComponent(id)}`);
      return r.status === 200;
    },
    async reset() {
      ok(await call('POST', '/_accord/reset'), 'resetting');
    },
    async states() {
      return JSON.parse(ok(await call('GET', '/_accord/states'), 'reading the states').body) as { name: string; state: string }[];
    },
    async resetState(name) {
      const r = await call('DELETE', name === undefined ? '/_accord/states' : `/_accord/states/${encodeURIComponent(name)}`);
      if (r.status === 404) return false;
      ok(r, 'resetting the states');
      return true;
    },
    async setState(name, state) {
      ok(await call('PUT', `/_accord/states/${encodeURIComponent(name)}`, JSON.stringify({ state })), 'setting a state');
    },
    async calls(filter = {}) {
      // The XML filters are applied here, on the entries the journal sends: the HTTP API takes the plain ones.
      const { nodes, xmlIncludes, ...plain } = filter;
      const query: [string, string][] = [];
      for (const [k, v] of Object.entries(plain)) if (v !== undefined) query.push([k, typeof v === 'object' ? v.id : String(v)]);
      const entries = JSON.parse(ok(await call('GET', '/_accord/requests', '', query), 'reading the journal').body) as JournalEntry[];
      return nodes === undefined && xmlIncludes === undefined ? entries : entries.filter((e) => selected(e, { nodes, xmlIncludes }));
    },
    scope(id) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:crypto only when a scope is made
      const name = id ?? (require('node:crypto') as typeof import('node:crypto')).randomBytes(9).toString('base64url');
      return connectStub(`${root}/_scope/${encodeURIComponent(name)}`, options);
    },
  };
}

/**
 * A value of a templated response (an expectation's response body text or header value holds
 * these, in any number, between other text): a node of the request body by path of local names
 * (`getOrder/orderId`, `/Envelope/Header/MessageID`, `getOrder/@id`; in JSON `order.id`), a path
 * parameter, query parameter or header of the request, or a generated value; Specmatic's spelling
 * (`{{REQUEST.BODY.id}}`, `{{REQUEST.QUERY-PARAMS.page}}`), which the stub reads alike, too. See
 * docs/stub.md, "Answers that echo the request".
 */
export type TemplateValue =
  | `{{request.body.${string}}}`
  | `{{request.path.${string}}}`
  | `{{request.query.${string}}}`
  | `{{request.headers.${string}}}`
  | `{{REQUEST.BODY.${string}}}`
  | `{{REQUEST.PATH.${string}}}`
  | `{{REQUEST.QUERY-PARAMS.${string}}}`
  | `{{REQUEST.HEADERS.${string}}}`
  | '{{now}}'
  | '{{today}}'
  | '{{uuid}}'
  | '{{sequence}}';
/** The export settings of this process (ACCORD_EXPORT_EXAMPLES or the option), when it exports. */
function exportsHere(options: ConnectOptions): import('./export-examples').ExportSettings | undefined {
  if (options.exportExamples === undefined && !process.env.ACCORD_EXPORT_EXAMPLES) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only a consumer that exports loads the writer
  const ex = require('./export-examples') as typeof import('./export-examples');
  return ex.exportSettings(options.exportExamples, options.consumer, process.env, process.cwd());
}

/** An accepted expectation written as a consumer example when exporting is on; named after the Jest test that set it, when there is one. */
export function exported(input: ExpectationInput, accepted: ExportAccepted, options: ConnectOptions = {}): void {
  const settings = exportsHere(options);
  if (!settings) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by exportsHere already
  const ex = require('./export-examples') as typeof import('./export-examples');
  const jest = (globalThis as { expect?: { getState?: () => { currentTestName?: string } } }).expect;
  const test = jest?.getState?.().currentTestName;
  const outcome = ex.exportExpectation(input, accepted, settings, process.cwd(), test);
  // Left out: one line saying why, so a consumer never believes a promise was published that was not.
  if ('omitted' in outcome) process.stderr.write(printable(ex.omittedLine(accepted, outcome.omitted, test)));
}
