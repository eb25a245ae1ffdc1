import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { AccordError } from '../../errors';
import { readJson } from '../../json/parse';
import { hasControl, printable } from '../../printable';
import { STUB_LIMITS } from '../../limits';
import { acceptedOf, describeExpectation, type Accepted, type Expectation, type ExpectationInput } from './expectations';
import { isObject } from '../answer/fit-example';
import type { CallFilter, JournalEntry } from './journal';
import { stateName } from '../answer/state-rule';
import type { ScopeState } from './scope-state';
import { splitTarget } from '../../http/target';

/**
 * The stub's own HTTP API, under `/_accord/` (and Specmatic's `/_specmatic/expectations`, so
 * existing Specmatic setups keep working): expectations, the request journal, reset. Contracts
 * cannot serve these paths.
 */
export const ADMIN_PREFIXES = ['/_accord/', '/_specmatic/'];

export function isAdminPath(url: string): boolean {
  // One character test keeps this off the cost of every ordinary request.
  return url.charCodeAt(1) === 95 && (url.startsWith(ADMIN_PREFIXES[0]) || url.startsWith(ADMIN_PREFIXES[1]));
}

/**
 * Told of each expectation accepted through the API, with who set it: the `consumer` and `test`
 * keys of the posted JSON (what a zeep, Java or .NET consumer gives, as Jest gives its test's
 * title), so the stub can export it as connectStub does (export-examples.ts).
 */
export type OnExpected = (input: ExpectationInput, accepted: Accepted, by: SetBy) => void;

/** Who set an expectation over the API: the consumer's name and the test's title, when given. */
export interface SetBy {
  consumer?: string;
  test?: string;
}

export function answerAdmin(state: ScopeState, method: string, url: string, text: string, res: ServerResponse, certificate?: string, onExpected?: OnExpected): void {
  const target = splitTarget(url);
  let path = target.path;
  while (path.endsWith('/')) path = path.slice(0, -1);
  const query = new URLSearchParams(target.query);
  const m = method.toUpperCase();
  try {
    if (path === '/_accord/expectations') {
      if (m === 'POST')
        return created(
          res,
          expectFrom(state, jsonOf(text), (v) => v, onExpected),
        );
      if (m === 'GET') return jsonList(res, state.expectations.list(), describeExpectation);
      if (m === 'DELETE') {
        state.expectations.clear();
        return json(res, 200, { removed: 'all' });
      }
    } else if (path.startsWith('/_accord/expectations/') || path.startsWith('/_specmatic/http-stub/')) {
      if (m === 'DELETE') {
        const id = decoded(path.slice(path.lastIndexOf('/') + 1));
        return state.expectations.remove(id) ? json(res, 200, { removed: id }) : text404(res, `accord stub: no expectation "${id}" (used up, removed or never set)\n`);
      }
    } else if (path === '/_accord/requests') {
      if (m === 'GET') return jsonList(res, state.journal.calls(filterOf(query)), (e) => e);
      if (m === 'DELETE') {
        state.journal.clear();
        return json(res, 200, { cleared: true });
      }
    } else if (path === '/_accord/reset') {
      if (m === 'POST') {
        state.reset();
        return json(res, 200, { reset: true });
      }
    } else if (path === '/_accord/states') {
      if (m === 'GET') return json(res, 200, state.stateList());
      if (m === 'DELETE') {
        state.resetState();
        return json(res, 200, { reset: 'all' });
      }
    } else if (path.startsWith('/_accord/states/')) {
      const name = stateName(decoded(path.slice('/_accord/states/'.length)), 'state machine name', usage);
      if (m === 'GET') {
        const known = state.stateList().find((x) => x.name === name);
        return known ? json(res, 200, known) : text404(res, `accord stub: no state machine "${name}" (no expectation or example names it)\n`);
      }
      if (m === 'DELETE') {
        return state.resetState(name) ? json(res, 200, { reset: name }) : text404(res, `accord stub: no state machine "${name}" (no expectation or example names it)\n`);
      }
      if (m === 'PUT') {
        state.states.set(name, stateName(stateOfBody(jsonOf(text)), '"state"', usage));
        return json(res, 200, { name, state: state.states.stateOf(name) });
      }
    } else if (path === '/_accord/certificate') {
      if (m === 'GET') return certificate ? plain(res, 200, certificate, 'application/x-pem-file') : text404(res, 'accord stub: this stub serves plain HTTP: no certificate\n');
    } else if (path === '/_specmatic/expectations') {
      if (m === 'POST') return created(res, expectFrom(state, jsonOf(text), fromSpecmatic, onExpected), 200);
    } else {
      return text404(res, `accord stub: ${method} ${path} is not part of the stub's API (see docs/stub.md)\n`);
    }
    return plain(res, 405, `accord stub: ${method} is not allowed on ${path}\n`);
  } catch (e) {
    // Anything else is a bug: the server's guard answers 500 and logs it.
    if (!(e instanceof AccordError)) throw e;
    plain(res, e.code === 'ACCORD_ERR_LIMIT' ? 413 : 400, `accord stub: ${e.describe()}\n`);
  }
}

/**
 * Why a request to the stub's API is refused, or undefined. Any web page the developer opens can
 * send requests to 127.0.0.1; these rules keep it from driving the stub:
 * - `Host` must be a name this stub answers to (an IP address, `localhost`, the address it was told
 *   to listen on, or one of `allowedHosts`): a DNS-rebinding page sends its own domain;
 * - an `Origin` (browsers send one with every cross-site request but a plain GET) must be on a
 *   loopback address or one of `allowedHosts`;
 * - a request that sends a body must say it is JSON: a browser cannot send that to another site
 *   without asking first (a CORS preflight), which the API never allows; an HTML form or a
 *   `text/plain` fetch can.
 * Clients outside a browser (the Jest client, curl, Specmatic's) send none of what is refused.
 */
export function adminRefusal(req: IncomingMessage, allowedHosts: ReadonlySet<string>): { status: number; why: string } | undefined {
  const host = req.headers.host;
  if (host !== undefined && !hostAllowed(hostName(host), allowedHosts)) {
    return { status: 403, why: `Host ${JSON.stringify(host.slice(0, 100))} is not a name this stub answers its API on (allow it with --allow-host)` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, allowedHosts)) {
    return {
      status: 403,
      why: `requests from the web page at ${JSON.stringify(origin.slice(0, 100))} may not use the stub's API (only pages on a loopback address or an --allow-host name may)`,
    };
  }
  if (req.method === 'OPTIONS') return { status: 403, why: "the stub's API allows no cross-origin requests (it answers no CORS preflight, even with --cors)" };
  const type = req.headers['content-type'];
  const hasBody = type !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && req.method !== 'GET' && req.method !== 'HEAD' && !isJson(type)) {
    return { status: 415, why: `the stub's API takes JSON: send Content-Type: application/json (was ${type === undefined ? 'none' : JSON.stringify(type.slice(0, 100))})` };
  }
  return undefined;
}

function isJson(type: string | undefined): boolean {
  if (type === undefined) return false;
  const media = type.split(';', 1)[0].trim().toLowerCase();
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}

/** `127.0.0.1:9000` → `127.0.0.1`, `[::1]:9000` → `::1`, `Localhost.` → `localhost`. */
function hostName(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') < 0 ? undefined : h.indexOf(']'));
  const colon = h.lastIndexOf(':');
  if (colon >= 0) h = h.slice(0, colon);
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

function hostAllowed(name: string, allowed: ReadonlySet<string>): boolean {
  // An address cannot be rebound: only a domain name can be made to point at 127.0.0.1 by whoever owns it.
  return isIP(name) !== 0 || isLocalhost(name) || allowed.has(name);
}

function isLocalhost(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}

function originAllowed(origin: string, allowed: ReadonlySet<string>): boolean {
  let name: string;
  try {
    name = hostName(new URL(origin).host);
  } catch {
    return false; // "null" (a sandboxed page, a file), or not a URL
  }
  return isLocalhost(name) || name === '::1' || name.startsWith('127.') || allowed.has(name);
}

/** A path segment percent-decoded; a malformed escape is the client's mistake (400), not a crash. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AccordError('ACCORD_ERR_USAGE', `the id ${JSON.stringify(segment.slice(0, 100))} is not valid percent-encoding`);
  }
}

/**
 * A JSON array sent an item at a time, each after the socket took the one before: the list of
 * expectations or calls can be far longer than the longest string V8 can make (about 512 MiB),
 * and hundreds of megabytes written at once fail (ENOBUFS) instead of waiting.
 */
function jsonList<T>(res: ServerResponse, items: readonly T[], shape: (item: T) => unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  let i = 0;
  const more = (): void => {
    try {
      while (i < items.length && !res.destroyed) {
        let chunk = i === 0 ? '[' : ',';
        while (i < items.length && chunk.length < 64 * 1024) chunk += (chunk.length > 1 ? ',' : '') + itemJson(items[i++], shape);
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      if (!res.destroyed) res.end(items.length === 0 ? '[]' : ']');
    } catch {
      res.destroy();
    }
  };
  more();
}

function itemJson<T>(item: T, shape: (item: T) => unknown): string {
  try {
    return JSON.stringify(shape(item));
  } catch (e) {
    // One item past V8's longest string (a huge body of escaped characters): named, not sent.
    if (!(e instanceof RangeError)) throw e;
    return JSON.stringify({ omitted: 'too large to send as JSON' });
  }
}

/**
 * An expectation posted to the API, registered: the `consumer` and `test` keys (who set it, for
 * the export) are taken off before the rest is read as an expectation, and checked as a name
 * and a title are (a string, printable, bounded).
 */
function expectFrom(state: ScopeState, posted: unknown, read: (v: unknown) => unknown, onExpected: OnExpected | undefined): Expectation {
  if (!isObject(posted) || (posted.consumer === undefined && posted.test === undefined)) {
    const e = state.expect(read(posted));
    if (onExpected) onExpected(e.input, acceptedOf(e), {});
    return e;
  }
  const { consumer, test, ...rest } = posted;
  const by: SetBy = {};
  if (consumer !== undefined) by.consumer = setByText(consumer, 'consumer', 'the consumer\'s name, such as "billing-ui"');
  if (test !== undefined) by.test = setByText(test, 'test', 'the title of the test that set it');
  const e = state.expect(read(rest));
  if (onExpected) onExpected(e.input, acceptedOf(e), by);
  return e;
}

function setByText(v: unknown, key: string, what: string): string {
  if (typeof v !== 'string' || v.trim() === '' || v.length > STUB_LIMITS.setByChars || hasControl(v))
    throw new AccordError('ACCORD_ERR_USAGE', `expectation has a "${key}" that is not ${what}: one line of printable text, at most ${STUB_LIMITS.setByChars} characters`);
  return v;
}

/** Specmatic's expectation JSON, read into accord's. */
function fromSpecmatic(v: unknown): ExpectationInput {
  const known = ['http-request', 'http-response', 'delay-in-seconds', 'http-stub-id'];
  if (!isObject(v)) throw new AccordError('ACCORD_ERR_USAGE', 'expectation is not a JSON object');
  const unknown = Object.keys(v).filter((k) => !known.includes(k));
  if (unknown.length > 0)
    throw new AccordError('ACCORD_ERR_USAGE', `expectation has keys accord does not support: ${unknown.map((k) => `"${k}"`).join(', ')} (supported: ${known.join(', ')})`);
  const seconds = v['delay-in-seconds'];
  const delayMs = seconds === undefined ? undefined : typeof seconds === 'number' ? seconds * 1000 : NaN;
  return { request: v['http-request'], response: v['http-response'], ...(delayMs === undefined ? {} : { delayMs }) } as ExpectationInput;
}

function filterOf(q: URLSearchParams): CallFilter {
  const f: CallFilter = {};
  for (const key of ['method', 'path', 'scenario', 'expectation', 'bodyIncludes'] as const) {
    const v = q.get(key);
    if (v !== null) f[key] = v;
  }
  const by = q.get('answeredBy');
  if (by !== null) f.answeredBy = by as JournalEntry['answeredBy'];
  const unmatched = q.get('unmatched');
  if (unmatched !== null) f.unmatched = unmatched !== 'false';
  return f;
}

/** `{"state": "…"}` and nothing else: a misspelt key (`{"stat": …}`) is named, not taken for a bad state. */
function stateOfBody(v: unknown): unknown {
  const shape = 'must be {"state": "<state>"}';
  if (!isObject(v)) throw usage(`body of PUT /_accord/states/<name> ${shape}`);
  const unknown = Object.keys(v).filter((k) => k !== 'state');
  if (unknown.length > 0) throw usage(`body of PUT /_accord/states/<name> ${shape}, not unknown keys ${unknown.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}`);
  if (v.state === undefined) throw usage(`body of PUT /_accord/states/<name> ${shape}: "state" is missing`);
  return v.state;
}

/** A request's mistake, said as the stub's API says it (400). */
function usage(problem: string): AccordError {
  return new AccordError('ACCORD_ERR_USAGE', `the ${problem}`);
}

function jsonOf(text: string): unknown {
  const read = readJson(text);
  if ('problem' in read) throw new AccordError('ACCORD_ERR_JSON', `the expectation is ${read.problem}`);
  return read.value;
}

function created(res: ServerResponse, e: Expectation, status = 201): void {
  json(res, status, acceptedOf(e));
}

function json(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function text404(res: ServerResponse, text: string): void {
  plain(res, 404, text);
}

function plain(res: ServerResponse, status: number, text: string, type = 'text/plain; charset=utf-8'): void {
  const t = printable(text);
  res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(t)) });
  res.end(t);
}
