import type { Scenario } from '../../contract/model';
import { AccordError } from '../../errors';
import { ParsedBody } from '../../http/body';
import { matchRequest, splitPath } from '../../http/match-request';
import type { HttpRequest, HttpResponse } from '../../http/message';
import { formatMismatches } from '../../pattern/match/mismatch';
import { MAX_INDEX_DEPTH, STUB_LIMITS } from '../../limits';
import type { XmlElement } from '../../xml/tree';
import { type Delay, type FaultKind, FAULT_KINDS, checkDelay, soapFaultAnswer } from '../answer/faults';
import { fitExample, isObject, readExampleShape, type RawExample } from '../answer/fit-example';
import type { Route, RouteTable } from '../decide/route';
import { RequestMap, requestKey, type RequestKey } from '../decide/memo';
import { literalKey } from '../decide/build-routes';
import { shapeOfBody } from '../decide/shape';
import { compileTemplate, hasTemplate, withoutTemplate, type ResponseTemplate } from '../answer/response-template';
import type { StateFilter } from '../decide/scenario-state';
import { readStateRule, type StateRule } from '../answer/state-rule';

/**
 * Answers set at run time, each checked against the contract when it is set:
 * its request must match a served scenario and its response satisfy that
 * scenario, or it is refused with the mismatches a failing test would show.
 * A consumer's test can therefore never rely on an answer the real service
 * would not give.
 */

/** What `stub.expect()` and `POST /_accord/expectations` take. */
export interface ExpectationInput {
  request: { method: string; path: string; query?: Record<string, string | number>; headers?: Record<string, string | number>; body?: unknown };
  /** Left out (or its status or body left out): the contract's status, a body generated from the contract. */
  response?: { status?: number; headers?: Record<string, string | number>; body?: unknown };
  /** Answer this many requests, then stop answering (transient). Left out: answer until removed. */
  times?: number;
  /** Wait this long before answering: milliseconds, or `{ min, max }` for a random wait in that range. */
  delayMs?: Delay;
  /** Instead of the response: break the connection or the answer (see faults.ts). */
  fault?: FaultKind;
  /** With `fault: 'soap-fault'`: which of the operation's faults (its scenario's name, or the wsdl:fault name); left out: the first. */
  faultName?: string;
  /**
   * Named state (like WireMock's scenario states): answer only while the scope's state machine
   * `name` is in `requires` (every machine starts in `Started`), and move it to `becomes` when
   * answering. Either may be left out (any state; stays). With `times`, a transient expectation
   * waiting for its state is not used up meanwhile.
   */
  state?: StateRule;
}

import { refOf, type ScenarioRef } from '../decide/entry';

export { refOf, type ScenarioRef };

export interface ExpectationHandle {
  readonly id: string;
  /** The scenario of the contract it was checked against. */
  readonly scenario: ScenarioRef;
  /** Requests it has answered so far. */
  readonly used: number;
  /** Answers left for a transient expectation (`times`); undefined for a permanent one. */
  readonly remaining: number | undefined;
  /** Stops it answering; false when it was already gone (used up, removed, or reset). */
  remove(): boolean;
}

export interface Expectation {
  id: string;
  input: ExpectationInput;
  /** The owning scenario narrowed to the expectation's request values: the ordinary matcher decides. */
  matcher: Scenario;
  owner: Scenario;
  route: Route;
  /** Undefined: generated from the route, a function of the request (respond.ts requestRandom). */
  response?: HttpResponse;
  /** The last answer given and the request key it was for: a repeated request gets it again without generating. */
  answered?: { key: RequestKey; response: HttpResponse };
  /** Headers given without a body: added to the generated answer. */
  extraHeaders: Record<string, string>;
  /** A response with `{{…}}` placeholders, filled from each request (response-template.ts). */
  template?: ResponseTemplate;
  remaining?: number;
  used: number;
  delay?: Delay;
  fault?: FaultKind;
  state?: StateRule;
  /** With `fault: 'soap-fault'`: the contract's fault scenario that answers; undefined for the standard fault (the contract declares none). */
  faultScenario?: Scenario;
  /** Its request holds typed placeholders: a request must fit the owning scenario too (a `(string)` where the contract has a number takes numbers only). */
  typed: boolean;
  /** Plain text values of the request body every match must carry (looked up before the full match). */
  words: string[];
  /** Registration order. */
  seq: number;
  key: string;
  live: boolean;
}

/**
 * What every scope's expectations hold together, against STUB_LIMITS.expectations and
 * STUB_LIMITS.expectationBytes; `maxEach` is the stub's body limit (an expectation sent over
 * HTTP could not be bigger).
 */
export class ExpectationBudget {
  count = 0;
  bytes = 0;
  constructor(readonly maxEach: number) {}
}

export class Expectations {
  private next = 1;
  private count = 0;
  /** What this set's expectations take of the budget. */
  private bytes = 0;
  private readonly sizes = new Map<string, number>();
  private readonly byEndpoint = new Map<string, Bucket>();
  /**
   * Which expectations fit a request, by the request's key (see requestKey): whether one fits
   * depends only on it and the request, so a repeated request is not parsed and matched again.
   * Emptied whenever the set of expectations changes (add, remove, clear, a transient one used
   * up); bounded like the dispatch memo.
   */
  private readonly fitting = new RequestMap<Expectation[]>();
  /** Moves on with every change of the set (an expectation added, removed or used up, a reset): what a repeated answer (decide/repeat.ts) was chosen by. */
  private changes = 0;
  /** The request headers any expectation's matcher reads, and Content-Type: the only headers take() depends on. */
  private readonly headers = new Set(['content-type']);

  constructor(private readonly budget = new ExpectationBudget(Number.MAX_SAFE_INTEGER)) {}

  get size(): number {
    return this.count;
  }

  get version(): number {
    return this.changes;
  }

  /** The request headers take() reads: Content-Type and those the expectations name. */
  get headerNames(): Iterable<string> {
    return this.headers;
  }

  /** What take() depends on of a request (see requestKey): method, target as sent, the headers expectations name, body. */
  keyOf(req: HttpRequest, url: string, body: ParsedBody): RequestKey {
    return requestKey(req, url, this.headers, body.text);
  }

  /** Checks the input against the served scenarios and registers it; an AccordError (with the mismatches) when it does not fit. */
  add(input: unknown, table: RouteTable): Expectation {
    const { raw, parsed } = readInput(input);
    const budget = this.budget;
    if (budget.count >= STUB_LIMITS.expectations) {
      throw new AccordError('ACCORD_ERR_LIMIT', `expectation refused: ${STUB_LIMITS.expectations} expectations are registered already (remove some, or reset)`);
    }
    const bytes = bytesOf(raw);
    if (bytes > budget.maxEach) {
      throw new AccordError('ACCORD_ERR_LIMIT', `expectation refused: it holds ${bytes} bytes, more than the stub's body limit of ${budget.maxEach} bytes`);
    }
    if (budget.bytes + bytes > STUB_LIMITS.expectationBytes) {
      throw new AccordError(
        'ACCORD_ERR_LIMIT',
        `expectation refused: the expectations registered hold ${budget.bytes} bytes, and this one's ${bytes} would pass the stub's bound of ${STUB_LIMITS.expectationBytes} (remove some, or reset)`,
      );
    }
    // A templated response is checked apart (compileTemplate): its request picks the scenario.
    const templated = parsed.fault === undefined && hasTemplate(raw);
    const fit = fitExample(
      templated ? withoutTemplate(raw) : raw,
      table.routes.map((r) => r.scenario),
    );
    // The mismatches are in the message itself: a test that lets this throw shows the message only.
    if (!fit.ok) throw new AccordError('ACCORD_ERR_USAGE', [`expectation refused: ${fit.why}`, ...formatMismatches(fit.mismatches)].join('\n'));
    const template = templated ? compileTemplate(raw, fit.owner, fit.scenario) : undefined;
    const route = table.routes.find((r) => r.scenario === fit.owner)!;
    // A typed request picks its fault by the probe, as it picked its scenario (typed-request.ts).
    const fault = parsed.fault === 'soap-fault' ? soapFaultAnswer(table.routes, fit.typed?.probe ?? raw.request, route, parsed.faultName) : undefined;
    const given = fault ? { ...fault.response } : raw.response;
    const seq = this.next++;
    const e: Expectation = {
      id: `e${seq}`,
      seq,
      input: parsed,
      matcher: fit.scenario,
      owner: fit.owner,
      route,
      template,
      response: template ? undefined : given?.body !== undefined ? { status: given.status ?? fit.owner.response.status, headers: given.headers, body: given.body } : undefined,
      extraHeaders: given?.body === undefined && !template ? (given?.headers ?? {}) : {},
      remaining: parsed.times,
      used: 0,
      delay: parsed.delayMs,
      fault: parsed.fault,
      faultScenario: fault?.route?.scenario,
      state: parsed.state,
      typed: fit.typed !== undefined,
      words: wordsOf(raw.request.body),
      key: fit.typed?.places.some((t) => t.where === 'path') ? typedPathKey(raw.request.method) : endpointKey(raw.request.method, splitPath(raw.request.path)),
      live: true,
    };
    let bucket = this.byEndpoint.get(e.key);
    if (!bucket) this.byEndpoint.set(e.key, (bucket = { all: [], byWord: new Map(), rest: [] }));
    bucket.all.push(e);
    if (e.words.length === 0) bucket.rest.push(e);
    else {
      const same = bucket.byWord.get(e.words[0]);
      if (same) same.push(e);
      else bucket.byWord.set(e.words[0], [e]);
    }
    this.count++;
    this.bytes += bytes;
    this.sizes.set(e.id, bytes);
    budget.count++;
    budget.bytes += bytes;
    for (const h of e.matcher.request.headers) this.headers.add(h.name.toLowerCase());
    this.fitting.clear();
    this.changes++;
    return e;
  }

  /**
   * The expectation that answers a request, used once: transient ones (with `times`) first,
   * oldest first, so several of them make a sequence; then the newest permanent one.
   * `key` (keyOf the request) lets a repeated request reuse the expectations found
   * to fit it the first time; without it every request is matched afresh.
   */
  take(req: HttpRequest, body: ParsedBody, key?: RequestKey, state?: StateFilter<Expectation>): Expectation | undefined {
    if (key === undefined || body.text.length > STUB_LIMITS.memoBodyChars) {
      const segments = splitPath(req.path);
      const list = this.candidatesFor(req.method, segments, body);
      return list && this.use(firstFit(list, (e) => fits(e, req, segments, body), state));
    }
    let fitting = this.fitting.get(key);
    if (!fitting) {
      const segments = splitPath(req.path);
      const list = this.candidatesFor(req.method, segments, body);
      // No candidate (a new id among expectations for others): found again as cheaply as from memory, so not kept.
      if (!list || list.length === 0) return undefined;
      fitting = list.filter((e) => fits(e, req, segments, body));
      if (this.fitting.size >= STUB_LIMITS.memoEntries) this.fitting.clear();
      this.fitting.set(key, fitting);
    }
    return this.use(firstFit(fitting, () => true, state));
  }

  /** The expectations that may fit a request to this endpoint, in registration order: those of its path, and those whose path holds a typed placeholder. */
  private candidatesFor(method: string, segments: string[], body: ParsedBody): Expectation[] | undefined {
    const bucket = this.byEndpoint.get(endpointKey(method, segments));
    const typedPath = this.byEndpoint.get(typedPathKey(method));
    if (!typedPath) return bucket && candidates(bucket, body);
    if (!bucket) return candidates(typedPath, body);
    return [...candidates(bucket, body), ...candidates(typedPath, body)].sort((a, b) => a.seq - b.seq);
  }

  /** Counts a use; a transient expectation used up is removed. */
  use(e: Expectation | undefined): Expectation | undefined {
    if (!e) return undefined;
    e.used++;
    if (e.remaining !== undefined && --e.remaining === 0) this.remove(e.id);
    return e;
  }

  remove(id: string): boolean {
    for (const [key, bucket] of this.byEndpoint) {
      const e = bucket.all.find((x) => x.id === id);
      if (!e) continue;
      e.live = false;
      drop(bucket.all, e);
      if (e.words.length === 0) drop(bucket.rest, e);
      else {
        const same = bucket.byWord.get(e.words[0])!;
        drop(same, e);
        if (same.length === 0) bucket.byWord.delete(e.words[0]);
      }
      if (bucket.all.length === 0) this.byEndpoint.delete(key);
      this.count--;
      const bytes = this.sizes.get(id) ?? 0;
      this.sizes.delete(id);
      this.bytes -= bytes;
      this.budget.count--;
      this.budget.bytes -= bytes;
      this.fitting.clear();
      this.changes++;
      return true;
    }
    return false;
  }

  clear(): void {
    for (const bucket of this.byEndpoint.values()) for (const e of bucket.all) e.live = false;
    this.byEndpoint.clear();
    this.budget.count -= this.count;
    this.budget.bytes -= this.bytes;
    this.count = 0;
    this.bytes = 0;
    this.sizes.clear();
    this.fitting.clear();
    this.changes++;
  }

  /** In the order they were set. */
  list(): Expectation[] {
    return [...this.byEndpoint.values()].flatMap((b) => b.all).sort((a, b) => a.seq - b.seq);
  }
}

export function handleOf(e: Expectation, store: Expectations): ExpectationHandle {
  return {
    id: e.id,
    scenario: refOf(e.owner),
    get used() {
      return e.used;
    },
    get remaining() {
      return e.remaining;
    },
    remove: () => e.live && store.remove(e.id),
  };
}

/**
 * What the stub answers when it accepts an expectation (`POST /_accord/expectations`, and what
 * `stub.expect()` exports from): its id, the scenario it was checked against, and for a
 * `soap-fault` the fault scenario that answers and its status (no scenario: the standard fault).
 */
export interface Accepted {
  id: string;
  scenario: ScenarioRef;
  fault?: { scenario?: ScenarioRef; status: number };
}

export function acceptedOf(e: Expectation): Accepted {
  const out: Accepted = { id: e.id, scenario: refOf(e.owner) };
  if (e.fault === 'soap-fault') out.fault = { ...(e.faultScenario ? { scenario: refOf(e.faultScenario) } : {}), status: e.response?.status ?? 500 };
  return out;
}

/** An expectation as `GET /_accord/expectations` lists it. */
export function describeExpectation(e: Expectation): Record<string, unknown> {
  return { id: e.id, scenario: refOf(e.owner), used: e.used, remaining: e.remaining, ...e.input };
}

/**
 * The expectations of one endpoint, indexed by the first (longest) plain word of their request
 * body: a request is compared only with those whose word it carries (and those without
 * words), so a hundred expectations for a hundred ids cost a few map look-ups, not a hundred
 * matches.
 */
interface Bucket {
  all: Expectation[];
  byWord: Map<string, Expectation[]>;
  rest: Expectation[];
}

/** The bucket's expectations that may match this body, in registration order. */
function candidates(bucket: Bucket, body: ParsedBody): Expectation[] {
  if (bucket.byWord.size === 0) return bucket.rest;
  let out: Expectation[] | undefined;
  for (const w of wordsIn(body)) {
    const same = bucket.byWord.get(w);
    if (same) (out ??= [...bucket.rest]).push(...same);
  }
  if (!out) return bucket.rest;
  return out.sort((a, b) => a.seq - b.seq);
}

/**
 * Of candidates in registration order: the first transient one that fits (and whose state holds),
 * else the last permanent one that does.
 */
function firstFit(list: readonly Expectation[], fit: (e: Expectation) => boolean, state?: StateFilter<Expectation>): Expectation | undefined {
  const ok = (e: Expectation): boolean => {
    if (!fit(e)) return false;
    if (!state || state.allows(e)) return true;
    state.waiting.push(e);
    return false;
  };
  for (const e of list) if (e.remaining !== undefined && ok(e)) return e;
  for (let i = list.length - 1; i >= 0; i--) if (list[i].remaining === undefined && ok(list[i])) return list[i];
  return undefined;
}

function fits(e: Expectation, req: HttpRequest, segments: string[], body: ParsedBody): boolean {
  if (matchRequest(e.matcher, req, body, segments, 1).mismatches.length > 0) return false;
  const m = e.typed ? matchRequest(e.owner, req, body, segments, 1) : undefined;
  return m === undefined || (m.endpoint && m.mismatches.length === 0);
}

function drop(list: Expectation[], e: Expectation): void {
  const i = list.indexOf(e);
  if (i >= 0) list.splice(i, 1);
}

/** The bucket of a method's expectations whose path holds a typed placeholder (`/pets/(number)`): looked at for every path. */
function typedPathKey(method: string): string {
  return `${method.toUpperCase()} (typed path)`;
}

function endpointKey(method: string, segments: readonly string[]): string {
  return `${method.toUpperCase()} ${literalKey(segments)}`;
}

/** The bytes an expectation holds: its request and response as given (what its size in memory follows). */
function bytesOf(raw: RawExample): number {
  let n = Buffer.byteLength(raw.request.path) + Buffer.byteLength(raw.request.body);
  for (const [k, v] of raw.request.query) n += Buffer.byteLength(k) + Buffer.byteLength(v);
  for (const [k, v] of Object.entries(raw.request.headers)) n += Buffer.byteLength(k) + Buffer.byteLength(v);
  if (raw.response) {
    if (raw.response.body !== undefined) n += Buffer.byteLength(raw.response.body);
    for (const [k, v] of Object.entries(raw.response.headers)) n += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  return n;
}

/** The input read strictly: a misspelt key is an error, not an expectation that silently answers everything. */
function readInput(input: unknown): { raw: RawExample; parsed: ExpectationInput } {
  const bad = (message: string) =>
    new AccordError(
      'ACCORD_ERR_USAGE',
      `expectation ${message}; expected {"request": {"method", "path", ...}, "response"?: {...}, "times"?, "delayMs"?, "fault"?, "faultName"?, "state"?}`,
    );
  if (!isObject(input)) throw bad('is not an object');
  const unknown = Object.keys(input).filter((k) => !['request', 'response', 'times', 'delayMs', 'fault', 'faultName', 'state'].includes(k));
  if (unknown.length > 0) throw bad(`has unknown keys ${unknown.map((k) => `"${k}"`).join(', ')}`);
  const { times, delayMs, fault, faultName } = input;
  if (times !== undefined && (typeof times !== 'number' || !Number.isInteger(times) || times < 1)) throw bad('has a "times" that is not a whole number of at least 1');
  if (delayMs !== undefined) checkDelay(delayMs, (why) => bad(`has a "delayMs" that ${why}`));
  if (fault !== undefined && !FAULT_KINDS.includes(fault as FaultKind)) throw bad(`has an unknown "fault" (one of ${FAULT_KINDS.join(', ')})`);
  if (faultName !== undefined && (typeof faultName !== 'string' || faultName === '')) throw bad('has a "faultName" that is not a non-empty string');
  if (faultName !== undefined && fault !== 'soap-fault') throw bad('has a "faultName" without "fault": "soap-fault" (it picks which of the contract\'s SOAP faults answers)');
  const raw = readExampleShape(
    { 'http-request': input.request, 'http-response': input.response },
    (m) => bad(m.replace('"http-request"', '"request"').replace('"http-response"', '"response"')),
    false,
  );
  if (fault === undefined && raw.response === undefined) raw.response = { headers: {} };
  const parsed = input as unknown as ExpectationInput;
  return { raw, parsed: input.state === undefined ? parsed : { ...parsed, state: readStateRule(input.state, bad) } };
}

/**
 * The plain words (letters, digits, `.`, `-`, `_`) among a body's text values, longest first:
 * what the expectation is indexed by. Values with other characters are left out (they still
 * count in the full match).
 */
function wordsOf(text: string): string[] {
  if (text.trim() === '') return [];
  return [...wordsIn(new ParsedBody(text))].sort((a, b) => b.length - a.length);
}

/** The plain words among the text values of a parsed XML or JSON body (the parse is shared with the matcher). */
function wordsIn(body: ParsedBody): Set<string> {
  const found: string[] = [];
  const t = body.text.trimStart();
  if (t.startsWith('<')) {
    // A body with a shape (decide/shape.ts): its element texts are its slots, read without parsing it.
    const shape = shapeOfBody(body);
    if (shape) {
      for (const s of shape.slots) if (plainWord(s)) found.push(s);
      return new Set(found);
    }
    const xml = body.asXml();
    if (!(xml instanceof AccordError)) collectXml(xml, found);
  } else if (t.startsWith('{') || t.startsWith('[')) {
    const json = body.asJson();
    if (!(json instanceof AccordError)) collectJson(json.value, found, 0);
  }
  return new Set(found);
}

function collectXml(el: XmlElement, out: string[]): void {
  for (const c of el.children) {
    if (c.type === 'element') collectXml(c, out);
    else if (plainWord(c.value.trim())) out.push(c.value.trim());
  }
}

function collectJson(v: unknown, out: string[], depth: number): void {
  if (depth > MAX_INDEX_DEPTH) return;
  if (typeof v === 'string' || typeof v === 'number') {
    if (plainWord(String(v))) out.push(String(v));
  } else if (Array.isArray(v)) for (const x of v) collectJson(x, out, depth + 1);
  else if (isObject(v)) for (const x of Object.values(v)) collectJson(x, out, depth + 1);
}

function plainWord(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ok = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 46 || c === 95;
    if (!ok) return false;
  }
  return true;
}
