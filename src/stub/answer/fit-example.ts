import { validateHeaderName, validateHeaderValue } from 'node:http';
import { endpointText, type Scenario } from '../../contract/model';
import { formatLocation } from '../../errors';
import { ParsedBody } from '../../http/body';
import { matchRequest, splitPath } from '../../http/match-request';
import { matchResponse } from '../../http/match-response';
import type { HttpRequest, HttpResponse } from '../../http/message';
import { patternFromText } from '../../pattern/body';
import type { Mismatch } from '../../pattern/match/mismatch';
import { WHERE } from '../../pattern/match/mismatch';
import type { Pattern, XmlElementPattern } from '../../pattern/types';
import { AccordError } from '../../errors';
import { quoted } from '../../printable';
import { isBookkeepingAttribute } from '../../xml/bookkeeping';
import type { XmlElement } from '../../xml/tree';
import { resolveEncodedReferences } from '../../xml/multi-ref';
import { narrowToRow } from './example-rows';
import { NOT_SOAP, soapVersionOfBody, soapVersionOfPattern } from './soap-version';
import { splitTarget } from '../../http/target';
import { closeness } from '../../http/closeness';
import { isProbeMismatch, placeTyped, PROBE, typedMismatches, typedRequest, type TypedRequest } from './typed-request';

/**
 * A request/response pair given by a user in Specmatic's JSON shape
 *   { "http-request":  { "method", "path", "query"?, "headers"?, "body"? },
 *     "http-response": { "status", "headers"?, "body"? } }
 * and the check that it fits a contract. Example files and expectations both go
 * through here, so "fits the contract" means one thing.
 */
export interface RawExample {
  request: HttpRequest;
  /** Undefined when only a request is given (an expectation that answers with a fault or a generated body). */
  response?: RawResponse;
  /** Header names and values the example gives. */
  givenHeaders: [string, string][];
  givenBody: boolean;
}

/** A response as given: the status and body may be left out (then the contract's status, a generated body). */
export interface RawResponse {
  status?: number;
  headers: Record<string, string>;
  body?: string;
}

export type Fit =
  /** `typed`: the request holds typed placeholders (typed-request.ts); a request must then fit `owner` as well as `scenario`. */
  | { ok: true; owner: Scenario; scenario: Scenario; typed?: TypedRequest }
  | { ok: false; why: string; mismatches: Mismatch[] }
  /** The request fits no scenario at all: not even the method and path are served. */
  | { ok: false; why: string; mismatches: []; unknownEndpoint: true };

export const EXAMPLE_SHAPE = '{"http-request": {"method", "path", "query"?, "headers"?, "body"?}, "http-response": {"status", "headers"?, "body"?}}';

/**
 * Reads the JSON shape above; `shape(message)` makes the error for a wrong one.
 * `responseRequired: false` lets "http-response" be absent and its status and body left out.
 */
export function readExampleShape(json: unknown, shape: (message: string) => Error, responseRequired = true): RawExample {
  if (!isObject(json)) throw shape('is not a JSON object');
  const req = json['http-request'];
  const res = json['http-response'];
  if (!isObject(req) || typeof req.method !== 'string' || typeof req.path !== 'string' || !req.path.startsWith('/'))
    throw shape('has no valid "http-request" (method and a path starting with /)');
  let response: RawResponse | undefined;
  if (res !== undefined || responseRequired) {
    if (!isObject(res)) throw shape('has no valid "http-response" (status from 100 to 599)');
    const status = res.status;
    if (status === undefined ? responseRequired : typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
      throw shape('has no valid "http-response" (status from 100 to 599)');
    const headers = stringRecord(res.headers);
    const bad = invalidHeader(headers);
    if (bad) throw shape(`has a response header that is not valid HTTP: ${bad}`);
    response = { status: status as number | undefined, headers, body: res.body === undefined ? undefined : bodyText(res.body) };
  }
  const { path, query } = splitTarget(req.path);
  if (isObject(req.query)) for (const [k, v] of Object.entries(req.query)) query.push([k, String(v)]);
  const requestHeaders = stringRecord(req.headers);
  return {
    request: { method: req.method.toUpperCase(), path, query, headers: requestHeaders, body: bodyText(req.body) },
    response,
    givenHeaders: Object.entries(requestHeaders),
    givenBody: req.body !== undefined,
  };
}

/**
 * The first scenario (`named` first, when given) whose request the example's request matches and whose response the
 * example's response satisfies, narrowed so that only requests carrying the example's
 * values match it; else why not, with the closest scenario's mismatches.
 */
export function fitExample(ex: RawExample, scenarios: readonly Scenario[], of = '', named?: string): Fit {
  // The scenario an example names (an exported expectation names the one it was checked against) is tried first.
  if (named !== undefined && scenarios.some((s) => s.name === named)) scenarios = [...scenarios.filter((s) => s.name === named), ...scenarios.filter((s) => s.name !== named)];
  // Typed placeholders (`(number)`, `(OrderId)`) are matched as a probe value, then compared by type.
  const typed = typedRequest(ex.request);
  const request = typed?.probe ?? ex.request;
  const body = new ParsedBody(request.body);
  const segments = splitPath(request.path);
  let closest: { s: Scenario; mismatches: Mismatch[] } | undefined;
  let wrongResponse: { s: Scenario; mismatches: Mismatch[] } | undefined;
  const version = soapVersionOfBody(body);
  for (const s of scenarios) {
    if (s.unsupported) continue;
    // A SOAP 1.2 envelope is not a SOAP 1.1 scenario's request (dispatch.ts compares versions likewise).
    if (version !== NOT_SOAP && (soapVersionOfPattern(s.request.body, s.scope) ?? version) !== version) continue;
    const m = matchRequest(s, request, body, segments);
    if (!m.endpoint) continue;
    // A header the example leaves out is not constrained beyond the contract (SOAPAction, when the body names the operation).
    // A body the example leaves out is any body the contract takes (an expectation whose answer echoes the request).
    m.mismatches = m.mismatches.filter(
      (x) => !(x.actual === 'no such header' && x.path.startsWith(HEADER_PLACE)) && (ex.givenBody || !x.path.startsWith(WHERE.requestBody)) && !(typed && isProbeMismatch(x)),
    );
    if (m.mismatches.length === 0 && typed) m.mismatches = typedMismatches(s, typed);
    if (m.mismatches.length > 0) {
      // The scenario the request got furthest into is the one meant (as the stub's 400 report ranks), then the fewest mismatches.
      if (!closest || closer(m.mismatches, closest.mismatches)) closest = { s, mismatches: m.mismatches };
      continue;
    }
    const wrong = ex.response ? responseFits(s, ex.response) : [];
    if (wrong.length === 0) {
      const narrowed = narrow(s, ex, request, segments);
      return typed ? { ok: true, owner: s, scenario: placeTyped(narrowed, s, typed), typed } : { ok: true, owner: s, scenario: narrowed };
    }
    // Two scenarios may take the same request (a success and a fault): the response picks one.
    wrongResponse ??= { s, mismatches: wrong };
  }
  if (wrongResponse)
    return { ok: false, why: `its response does not satisfy scenario "${wrongResponse.s.name}" (${where(wrongResponse.s)})`, mismatches: wrongResponse.mismatches };
  if (closest) return { ok: false, why: `its request matches no scenario${of}; closest is "${closest.s.name}" (${where(closest.s)})`, mismatches: closest.mismatches };
  return { ok: false, why: `no scenario${of} is at ${endpointText(ex.request)}`, mismatches: [], unknownEndpoint: true };
}

/** Whether mismatches `a` reach deeper into the body than `b` (or as deep, and fewer). */
function closer(a: readonly Mismatch[], b: readonly Mismatch[]): boolean {
  const ca = closeness(a, WHERE.requestBody);
  const cb = closeness(b, WHERE.requestBody);
  return ca !== cb ? ca > cb : a.length < b.length;
}

/**
 * How a response differs from the scenario's: a left-out status is the scenario's, a left-out
 * body is generated from the contract (so it fits and is not compared).
 */
export function responseFits(s: Scenario, r: RawResponse): Mismatch[] {
  const response: HttpResponse = { status: r.status ?? s.response.status, headers: r.headers, body: r.body ?? '' };
  return matchResponse(r.body === undefined ? { ...s, response: { ...s.response, body: undefined } } : s, response);
}

/**
 * Headers an example may show but that do not pick it: transport details, and
 * Content-Type, whose parameters (charset) vary by client while the body itself
 * is compared. A scenario that declares one of them still has it checked.
 */
const IGNORED_HEADERS = new Set(['content-type', 'content-length', 'host', 'connection', 'transfer-encoding', 'accept-encoding', 'user-agent']);

/**
 * The owning scenario, with the example's path, query, header and body values as literals.
 * `probe`: the request with PROBE at its typed placeholders (the request itself when it has none),
 * whose literal values are placed here; placeTyped puts the placeholders in.
 */
function narrow(s: Scenario, ex: RawExample, probe: HttpRequest, segments: string[]): Scenario {
  const literal = (value: string): Pattern => ({ kind: 'literal', value });
  const query = new Map(ex.request.query);
  const headers = s.request.headers.map((h) => {
    const v = ex.request.headers[h.name.toLowerCase()];
    return v === undefined ? h : { ...h, optional: false, pattern: literal(v) };
  });
  for (const [name, value] of ex.givenHeaders) {
    if (IGNORED_HEADERS.has(name) || headers.some((h) => h.name.toLowerCase() === name)) continue;
    headers.push({ name, optional: false, pattern: literal(value), line: s.request.line });
  }
  let body = s.request.body;
  let scope = s.scope;
  if (ex.givenBody) {
    const carried = s.request.body ? xmlValues(probe.body) : undefined;
    if (carried) {
      // The contract's body, with the example's values at the nodes it names and those nodes required:
      // nodes it leaves out (an empty Header, an optional element) are what the contract says, not forbidden.
      const narrowed = narrowToRow({ ...s, request: { ...s.request, headers: [] } }, { line: s.request.line, values: carried.values });
      const types = [...narrowed.scope.types.values()];
      // Every value must have found its node in the contract (not one under `(anything)`); else the body is compared as written.
      if (allPlaced(carried.values, [narrowed.request.body!, ...types])) {
        scope = { types: new Map([...narrowed.scope.types].map(([k, p]) => [k, required(p, carried.names)])) };
        body = required(narrowed.request.body!, carried.names);
      } else body = patternFromText(ex.request.body);
    } else {
      try {
        body = patternFromText(ex.request.body);
      } catch {
        body = literal(ex.request.body.trim());
      }
    }
  }
  return {
    ...s,
    scope,
    request: {
      ...s.request,
      segments: segments.map((name) => ({ name, pattern: literal(name) })),
      query: s.request.query.map((q) => (query.has(q.name) ? { ...q, pattern: literal(query.get(q.name)!) } : q)),
      headers,
      body,
    },
  };
}

const HEADER_PLACE = `${WHERE.requestHeader} `;

/**
 * An XML body's values by node name (text-only elements, attributes) and the names of all its
 * elements, its SOAP-encoded references read; undefined when it is not XML or names one node with
 * two values (a list: then the body is compared as written).
 */
function xmlValues(text: string): { values: Map<string, string>; names: Set<string> } | undefined {
  const parsed = new ParsedBody(text).asXml();
  if (parsed instanceof AccordError) return undefined;
  // SOAP-encoded multi-reference values (Axis sends every rpc/encoded parameter so) are read as the tree
  // they stand for, as the requests matched against the example are; one whose references cannot be read is compared as written.
  const read = resolveEncodedReferences(parsed);
  if (read.problems.length > 0) return undefined;
  const xml = read.root;
  const values = new Map<string, string>();
  const names = new Set<string>();
  let clash = false;
  const put = (k: string, v: string) => {
    // A typed placeholder's node is placed by placeTyped, not as a value.
    if (v === PROBE) return;
    if (values.has(k) && values.get(k) !== v) clash = true;
    values.set(k, v);
  };
  const walk = (el: XmlElement) => {
    names.add(el.local);
    for (const a of el.attributes) if (a.prefix !== 'xmlns' && a.name !== 'xmlns' && !isBookkeepingAttribute(a)) put(a.local, a.value);
    const kids = el.children.filter((c): c is XmlElement => c.type === 'element');
    if (kids.length === 0) {
      const t = el.children.map((c) => (c.type === 'text' ? c.value : '')).join('');
      if (t.trim() !== '') put(el.local, t.trim());
    }
    kids.forEach(walk);
  };
  walk(xml);
  return clash ? undefined : { values, names };
}

/** Whether each name=value stands as a literal at a node of that name somewhere in these patterns. */
function allPlaced(values: ReadonlyMap<string, string>, patterns: Pattern[]): boolean {
  const placed = new Set<string>();
  const walk = (p: Pattern): void => {
    if (p.kind === 'optional' || p.kind === 'list') return walk(p.inner);
    if (p.kind !== 'xml') return;
    for (const a of p.attributes) if (a.pattern.kind === 'literal') placed.add(`${a.local}=${String(a.pattern.value)}`);
    for (const c of p.content) {
      if (c.kind === 'xml') walk(c);
      else if (c.kind === 'xml-text' && c.pattern.kind === 'literal') placed.add(`${p.local}=${String(c.pattern.value)}`);
    }
  };
  patterns.forEach(walk);
  for (const [k, v] of values) if (!placed.has(`${k}=${v}`)) return false;
  return true;
}

/** The pattern with every element of these names required (at least once): an example names them. */
function required(p: Pattern, names: ReadonlySet<string>): Pattern {
  if (p.kind === 'xml') return requiredElement(p, names);
  if (p.kind === 'optional' || p.kind === 'list') return { ...p, inner: required(p.inner, names) };
  return p;
}

function requiredElement(p: XmlElementPattern, names: ReadonlySet<string>): XmlElementPattern {
  const occurs = names.has(p.local) && p.occurs.min === 0 ? { min: 1, max: Math.max(1, p.occurs.max) } : p.occurs;
  return { ...p, occurs, content: p.content.map((c) => (c.kind === 'xml' ? requiredElement(c, names) : c)) };
}

/** A body given as a JSON value is sent as JSON; a string as it is. */
function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/**
 * Why one of the headers could not be sent (Node's own checks: a name that is not an HTTP token,
 * a value with CR, LF or NUL), or undefined. Checked when the example or expectation is given:
 * at answer time Node would throw, and the answer could only be a 500.
 */
export function invalidHeader(headers: Record<string, string>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      return `${quoted(name, 60)}: ${quoted(value, 60)} (a name must be a token, a value must not hold CR, LF or NUL)`;
    }
  }
  return undefined;
}

function stringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObject(v)) for (const [k, x] of Object.entries(v)) out[k.toLowerCase()] = String(x);
  return out;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function where(s: Scenario): string {
  return formatLocation({ file: s.file, line: s.line });
}
