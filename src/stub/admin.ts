import type { ServerResponse } from 'node:http';
import { AccordError } from '../errors';
import { readJson } from '../json/parse';
import { printable } from '../printable';
import { describeExpectation, refOf, type Expectation, type ExpectationInput } from './expectations';
import { isObject } from './fit-example';
import type { CallFilter, JournalEntry } from './journal';
import type { StubState } from './state';

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

export function answerAdmin(state: StubState, method: string, url: string, text: string, res: ServerResponse, certificate?: string): void {
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  while (path.endsWith('/')) path = path.slice(0, -1);
  const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const m = method.toUpperCase();
  try {
    if (path === '/_accord/expectations') {
      if (m === 'POST') return created(res, state.expect(jsonOf(text)));
      if (m === 'GET') return json(res, 200, state.expectations.list().map(describeExpectation));
      if (m === 'DELETE') {
        state.expectations.clear();
        return json(res, 200, { removed: 'all' });
      }
    } else if (path.startsWith('/_accord/expectations/') || path.startsWith('/_specmatic/http-stub/')) {
      if (m === 'DELETE') {
        const id = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
        return state.expectations.remove(id) ? json(res, 200, { removed: id }) : text404(res, `accord stub: no expectation "${id}" (used up, removed or never set)\n`);
      }
    } else if (path === '/_accord/requests') {
      if (m === 'GET') return json(res, 200, state.journal.calls(filterOf(query)));
      if (m === 'DELETE') {
        state.journal.clear();
        return json(res, 200, { cleared: true });
      }
    } else if (path === '/_accord/reset') {
      if (m === 'POST') {
        state.reset();
        return json(res, 200, { reset: true });
      }
    } else if (path === '/_accord/certificate') {
      if (m === 'GET') return certificate ? plain(res, 200, certificate, 'application/x-pem-file') : text404(res, 'accord stub: this stub serves plain HTTP: no certificate\n');
    } else if (path === '/_specmatic/expectations') {
      if (m === 'POST') return created(res, state.expect(fromSpecmatic(jsonOf(text))), 200);
    } else {
      return text404(res, `accord stub: ${method} ${path} is not part of the stub's API (see docs/stub.md)\n`);
    }
    return plain(res, 405, `accord stub: ${method} is not allowed on ${path}\n`);
  } catch (e) {
    if (!(e instanceof AccordError)) throw e;
    plain(res, 400, `accord stub: ${e.describe()}\n`);
  }
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

function jsonOf(text: string): unknown {
  const read = readJson(text);
  if ('problem' in read) throw new AccordError('ACCORD_ERR_JSON', `the expectation is ${read.problem}`);
  return read.value;
}

function created(res: ServerResponse, e: Expectation, status = 201): void {
  json(res, status, { id: e.id, scenario: refOf(e.owner) });
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
