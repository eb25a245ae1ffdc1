import type { Scenario, TestCase } from '../contract/model';
import { AccordError } from '../errors';
import { ParsedBody } from '../http/body';
import { buildRequest } from '../http/build-request';
import { requestUrl, send, type SendOptions } from '../http/client';
import { matchRequest, splitPath } from '../http/match-request';
import type { HttpRequest, HttpResponse } from '../http/message';
import { parseJson } from '../json/parse';
import { MAX_NEGATIVE_PER_SCENARIO } from '../limits';
import { printable, printableBody, quoted } from '../printable';
import { DEFAULT_REDACTION, headerLines, type Redaction } from './redact';
import { shownPath } from './error-display';
import { parseXml, parseXmlOrUndefined } from '../xml/parse';
import { serializeXml } from '../xml/serialize';
import { textOf, type XmlElement } from '../xml/tree';
import { prepareOutgoing, securityTokens, type SecurityBreak } from './soap-extras';
import type { WsRunnerConfig } from './ws-config';

/**
 * Negative tests (opt-in): for each scenario, requests the contract itself
 * rejects, made from the valid request the scenario generates by one
 * mutation each: a required node left out, a value of the wrong type, a node
 * the contract does not have, a value past a facet, a wrong SOAPAction. A
 * candidate is kept only when the scenario's own request matcher rejects it,
 * so accord never expects a provider to refuse what the contract allows, and
 * every constraint the matcher learns (facets, bounds, choice) makes more
 * candidates count with no change here. Candidates are linear in the nodes of
 * the request and at most MAX_NEGATIVE_PER_SCENARIO are kept, chosen by the seed.
 */
/**
 * The tag that keeps a scenario out of negative tests, on the scenario, its Rule or its Feature
 * (any case): each negative test sends the scenario's operation again, so a delete or a payment
 * would be repeated, once without its confirmation flag.
 */
export const NO_NEGATIVE_TAG = '@no-negative';

export function optsOutOfNegative(s: Pick<Scenario, 'tags'>): boolean {
  return s.tags.some((t) => t.toLowerCase() === NO_NEGATIVE_TAG);
}

export interface Mutation {
  /** "missing Envelope/Body/getPet/id", "wrong type pets[0].age", "wrong SOAPAction". */
  name: string;
  request: HttpRequest;
  /** A WS-Security mutation: the valid request sent with its security broken this way (at send time: a token is fresh per request). */
  security?: SecurityBreak;
}

/** A mutation not made yet: the request is built only for those tried. */
interface Candidate {
  name: string;
  make: () => HttpRequest;
}

/** Candidates tried per scenario at most (each costs a serialisation and a match): the work stays linear in the request's size. */
const MAX_TRIED = MAX_NEGATIVE_PER_SCENARIO * 8;

const UNEXPECTED = 'accordUnexpected';
const WRONG_TYPE_TEXT = 'accord-wrong-type';
const WRONG_ACTION = '"urn:accord:wrong-action"';
/** Longer than any sensible maxLength, short enough to send anywhere. */
const LONG_TEXT = 'x'.repeat(1025);
/** More digits than any sensible totalDigits or maxInclusive. */
const BIG_NUMBER = '9'.repeat(40);

/** A value of the same kind past any sensible facet: a huge number for a number, a long text otherwise. */
function pastFacets(current: string): string {
  const t = current.trim();
  return t !== '' && [...t].every((c) => (c >= '0' && c <= '9') || c === '.' || c === '-') ? BIG_NUMBER : LONG_TEXT;
}

/** The valid request a case sends, or undefined when the contract's data cannot build one (its own test says why). */
function validRequest(tc: TestCase, seed: number): HttpRequest | undefined {
  try {
    return buildRequest(tc, seed);
  } catch (e) {
    if (e instanceof AccordError) return undefined;
    throw e;
  }
}

export function negativeRequests(tc: TestCase, seed = 0): Mutation[] {
  const valid = validRequest(tc, seed);
  if (!valid) return [];
  const candidates: Candidate[] = [];
  const soapAction = Object.keys(valid.headers).find((h) => h === 'soapaction');
  if (soapAction) candidates.push({ name: 'wrong SOAPAction', make: () => ({ ...valid, headers: { ...valid.headers, [soapAction]: WRONG_ACTION } }) });
  candidates.push(...bodyMutations(valid));
  const kept: Mutation[] = [];
  const ordered = rotated(candidates, seed);
  for (let i = 0; i < ordered.length && i < MAX_TRIED && kept.length < MAX_NEGATIVE_PER_SCENARIO; i++) {
    const request = ordered[i].make();
    // A name is a Jest test's name, printed on its own line: a key's newline is shown escaped.
    if (rejects(tc, request)) kept.push({ name: printable(ordered[i].name, { multiline: false }), request });
  }
  return kept;
}

/** The contract's own verdict on a request: true when the scenario does not accept it. */
function rejects(tc: TestCase, req: HttpRequest): boolean {
  return matchRequest(tc.scenario, req, new ParsedBody(req.body), splitPath(req.path), 1).mismatches.length > 0;
}

/** The same order for the same seed: when there are more candidates than are tried, the seed says where to start. */
function rotated<T>(list: T[], seed: number): T[] {
  if (list.length <= MAX_NEGATIVE_PER_SCENARIO) return list;
  const start = Math.abs(seed) % list.length;
  return [...list.slice(start), ...list.slice(0, start)];
}

function bodyMutations(valid: HttpRequest): Candidate[] {
  const text = valid.body.trim();
  if (text.startsWith('<')) return xmlMutations(valid);
  if (text.startsWith('{') || text.startsWith('[')) return jsonMutations(valid);
  return [];
}

// ---- XML ----

function xmlMutations(valid: HttpRequest): Candidate[] {
  const root = parseXmlOrUndefined(valid.body);
  if (!root) return [];
  const out: Candidate[] = [];
  const add = (name: string, el: XmlElement, parent: XmlElement | undefined, change: () => void) =>
    out.push({ name, make: () => ({ ...valid, body: edited(root, el, parent, change) }) });
  // The SOAP envelope and its Body are the frame, not the message: mutations start below them.
  const body = root.local === 'Envelope' ? elements(root).find((c) => c.local === 'Body') : undefined;
  const tops = body
    ? elements(body).map((el) => ({ el, parent: body as XmlElement | undefined, path: `${root.local}/Body/${el.local}` }))
    : [{ el: root, parent: undefined, path: root.local }];
  const queue = [...tops];
  // Each node once: linear in the nodes of the request.
  for (let i = 0; i < queue.length; i++) {
    const { el, parent, path } = queue[i];
    const kids = elements(el);
    if (parent) add(`missing ${path}`, el, parent, () => remove(parent, el));
    if (kids.length === 0) {
      add(`wrong type ${path}`, el, parent, () => setText(el, WRONG_TYPE_TEXT));
      const past = pastFacets(textOf(el));
      add(`facet violated ${path}`, el, parent, () => setText(el, past));
    }
    for (const k of kids) queue.push({ el: k, parent: el, path: `${path}/${k.local}` });
  }
  for (const { el, parent, path } of tops) {
    const extra: XmlElement = {
      type: 'element',
      name: `${el.prefix ? `${el.prefix}:` : ''}${UNEXPECTED}`,
      prefix: el.prefix,
      local: UNEXPECTED,
      attributes: [],
      children: [{ type: 'text', value: '1' }],
    };
    add(`unexpected node ${path}/${UNEXPECTED}`, el, parent, () => el.children.push(extra));
  }
  return out;
}

function elements(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => c.type === 'element');
}

/** The document serialised with one change made, then the change undone: one tree serves every mutation. A change touches only `el`'s or its parent's child list. */
function edited(root: XmlElement, el: XmlElement, parent: XmlElement | undefined, change: () => void): string {
  const own = el.children;
  const siblings = parent?.children;
  el.children = [...own];
  try {
    change();
    return serializeXml(root);
  } finally {
    el.children = own;
    if (parent && siblings) parent.children = siblings;
  }
}

function remove(parent: XmlElement, el: XmlElement): void {
  parent.children = parent.children.filter((c) => c !== el);
}

function setText(el: XmlElement, value: string): void {
  el.children = [{ type: 'text', value }];
}

// ---- JSON ----

function jsonMutations(valid: HttpRequest): Candidate[] {
  let doc: unknown;
  try {
    doc = parseJson(valid.body);
  } catch {
    return [];
  }
  const out: Candidate[] = [];
  const withValue = (v: unknown) => ({ ...valid, body: JSON.stringify(v) });
  const add = (name: string, value: () => unknown) => out.push({ name, make: () => withValue(value()) });
  const walk = (value: unknown, path: string, set: (v: unknown) => unknown, unset?: () => unknown): void => {
    if (unset) add(`missing ${path}`, unset);
    add(`wrong type ${path || '(body)'}`, () => set(wrongType(value)));
    if (typeof value === 'string') add(`facet violated ${path}`, () => set(LONG_TEXT));
    if (typeof value === 'number') add(`facet violated ${path}`, () => set(Number(BIG_NUMBER)));
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const obj = value as Record<string, unknown>;
      for (const k of Object.keys(obj)) {
        const at = path ? `${path}.${k}` : k;
        walk(
          obj[k],
          at,
          (v) => set({ ...obj, [k]: v }),
          () => set(Object.fromEntries(Object.entries(obj).filter(([key]) => key !== k))),
        );
      }
      add(`unexpected key ${path ? `${path}.` : ''}${UNEXPECTED}`, () => set({ ...obj, [UNEXPECTED]: 1 }));
    } else if (Array.isArray(value) && value.length > 0) {
      walk(value[0], `${path}[0]`, (v) => set([v, ...value.slice(1)]));
    }
  };
  walk(doc, '', (v) => v);
  return out;
}

function wrongType(value: unknown): unknown {
  return typeof value === 'string' ? 12345 : WRONG_TYPE_TEXT;
}

/**
 * For a case whose contract asks for WS-Security, the valid request sent without its Security
 * header, with a wrong password digest (or password) and with an expired Timestamp: each one
 * the provider must refuse. The contract's matcher cannot tell these from valid requests (it
 * does not see secrets), so they are not filtered through it.
 */
export function securityMutations(tc: TestCase, ws: WsRunnerConfig, seed = 0): Mutation[] {
  const tokens = securityTokens(tc, ws);
  if (tokens.length === 0) return [];
  const valid = validRequest(tc, seed);
  if (!valid) return [];
  const out: Mutation[] = [{ name: 'WS-Security header missing', request: valid, security: 'missing' }];
  if (tokens.includes('UsernameToken') || tokens.includes('PasswordDigest'))
    out.push({ name: tokens.includes('PasswordDigest') ? 'WS-Security wrong password digest' : 'WS-Security wrong password', request: valid, security: 'wrong-digest' });
  if (tokens.includes('Timestamp') || tokens.includes('Signature')) out.push({ name: 'WS-Security expired timestamp', request: valid, security: 'expired-timestamp' });
  return out;
}

// ---- Running one ----

/** A rejection: any 4xx, or a 500 whose body is a SOAP Fault. */
export function isRejection(res: HttpResponse): boolean {
  if (res.status >= 400 && res.status < 500) return true;
  if (res.status !== 500) return false;
  try {
    const env = parseXml(res.body);
    const body = env.local === 'Envelope' ? elements(env).find((c) => c.local === 'Body') : undefined;
    return body !== undefined && elements(body).some((c) => c.local === 'Fault');
  } catch (e) {
    if (e instanceof AccordError) return false;
    throw e;
  }
}

/**
 * What a provider did with an invalid request it did not reject, in words: a 2xx or 3xx took it; a
 * 5xx that is not a SOAP Fault (spyne's 500 with a Python stack trace, a proxy's 502) is the
 * provider failing on it, which is no rejection either, but is not "accepted".
 */
function notRejected(res: HttpResponse): string {
  return res.status >= 500 ? 'The provider failed on an invalid request' : 'The provider accepted an invalid request';
}

/** `it answered 500 with no SOAP Fault, a body starting "Traceback (most recent call last):"`. */
function cameBack(res: HttpResponse): string {
  if (res.status < 500) return `it answered ${res.status}`;
  const first = (res.binary ? '' : res.body).trim().split('\n')[0] ?? '';
  const body = first === '' ? 'an empty body' : `a body starting ${quoted(first, 120)}`;
  return `it answered ${res.status} with no SOAP Fault (a server error, not a rejection), ${body}`;
}

/** What a negative test sent and got, for the HTML report (the runtime shows it as it shows a scenario's exchange). */
export interface NegativeExchange {
  request: HttpRequest;
  /** The request line's target as sent. */
  target: string;
  response?: HttpResponse;
  /** No answer at all (refused, timed out). */
  error?: string;
}

/** Sends one invalid request; the failure text when the provider did not reject it, undefined when it did. */
export async function runNegative(
  tc: TestCase,
  m: Mutation,
  baseUrl: string,
  options: SendOptions & {
    addHeaders?: () => Promise<Record<string, string>>;
    redaction?: Redaction;
    ws?: WsRunnerConfig;
    /** Told what was sent and what came back, whatever the verdict. */
    onExchange?: (x: NegativeExchange) => void;
  },
): Promise<string | undefined> {
  const redaction = options.redaction ?? DEFAULT_REDACTION;
  let res: HttpResponse;
  let req = m.request;
  let target = req.path;
  try {
    // The mutation is of the body or the contract's headers: credentials stay valid, so a refusal is the service's judgement of the mutation.
    if (options.addHeaders) req = { ...req, headers: { ...req.headers, ...(await options.addHeaders()) } };
    const url = requestUrl(baseUrl, req);
    target = url.pathname + url.search;
    // Every negative request but the WS-Security ones carries valid security: the provider must refuse it for its content, not for a missing token.
    const out = prepareOutgoing(tc, req, options.ws, { url: url.href }, m.security);
    req = out.shown;
    res = await send(baseUrl, out.request, options);
  } catch (e) {
    if (e instanceof AccordError) {
      options.onExchange?.({ request: req, target, error: e.describe() });
      return `negative test "${m.name}" of "${tc.name}": no answer: ${e.describe()}`;
    }
    throw e;
  }
  options.onExchange?.({ request: req, target, response: res });
  if (isRejection(res)) return undefined;
  const lines = [
    `${notRejected(res)} (mutation: ${m.name}) of scenario "${tc.name}" (${shownPath(tc.scenario.file)}:${tc.row?.line ?? tc.scenario.line}):`,
    `${cameBack(res)}; expected a 4xx status or a SOAP Fault (500 with a Fault envelope)`,
    '',
    'Request sent:',
    `  ${req.method} ${req.path}`,
    ...headerLines(req.headers, redaction),
    `  ${printableBody(req.body, undefined, 2000).split('\n').join('\n  ')}`,
    '',
    `Response received: ${res.status}`,
    `  ${printableBody(res.body, res.binary, 2000).split('\n').join('\n  ')}`,
  ];
  return printable(redaction.text(lines.join('\n')));
}
