import { randomUUID } from 'node:crypto';
import { isTemplateCell, responseCellChecker } from '../../contract/check-examples';
import { REQUEST_BODY_COLUMN, type ExampleRow, type Scenario } from '../../contract/model';
import { AccordError, Stop, untilStopped } from '../../errors';
import type { ParsedBody } from '../../http/body';
import { splitPath } from '../../http/match-request';
import type { HttpRequest, HttpResponse } from '../../http/message';
import { TEMPLATE_LIMITS } from '../../limits';
import { generateJson, generateText } from '../../pattern/generate/index';
import { formatMismatches, type Mismatch } from '../../pattern/match/mismatch';
import { createRandom } from '../../pattern/random';
import { contentSlots, effectiveElement, resolve, type NodeSlot } from '../../pattern/resolve';
import type { Pattern, Scope, XmlElementPattern } from '../../pattern/types';
import { quoted } from '../../printable';
import { escapeText } from '../../xml/serialize';
import { isNamespaceDeclaration, type XmlElement } from '../../xml/tree';
import { invalidHeader, isObject, responseFits, type RawExample } from './fit-example';

/**
 * Answers that echo the request: `{{…}}` placeholders in an expectation's response body and
 * header values, filled from the request when it is answered.
 *
 *   {{request.body.getOrder/orderId}}  a node of the request body by local names (prefix- and
 *                                      namespace-blind; may start anywhere, `/Envelope/…` from the
 *                                      root, a last `@id` is an attribute); in JSON a key path
 *                                      (`order.id`, `items/0/sku`)
 *   {{request.path.id}}                the path parameter the scenario names `id`
 *   {{request.query.page}}             a query parameter
 *   {{request.headers.x-request-id}}   a request header
 *   {{now}} {{today}} {{uuid}} {{sequence}}  an xs:dateTime, an xs:date, a UUID, the stub's next number
 *
 * Specmatic's spelling (`{{REQUEST.BODY.id}}`, `{{REQUEST.PATH.id}}`, `{{REQUEST.QUERY-PARAMS.x}}`,
 * `{{REQUEST.HEADERS.x}}`) is the same syntax with other capitals and is read alike.
 *
 * When it is registered, a template is compiled against the scenario its request fits: every
 * path must name a node (parameter, header) of that scenario's request, and the response with
 * a value of each source's type in each place must satisfy the scenario's response; else it is
 * refused. Each answer is checked again with the request's own values.
 */
export interface ResponseTemplate {
  status?: number;
  /** Header name (lower case) → its value's parts. */
  headers: [string, Part[]][];
  /** undefined: the body is generated from the contract (only headers are templated). */
  body?: Part[];
  bodyKind: 'xml' | 'json' | 'text';
  /** Every value comes from the request's key (method, target, body): an answer may be kept for a repeated request. */
  keyed: boolean;
  usesPath: boolean;
}

type Source = 'body' | 'path' | 'query' | 'header' | 'now' | 'today' | 'uuid' | 'sequence';

interface Placeholder {
  source: Source;
  /** The node path, parameter or header name. */
  arg: string;
  /** As written, for messages. */
  text: string;
  /** JSON: the placeholder is a whole string (`"{{…}}"`): a number or boolean from the request goes in bare. */
  whole?: boolean;
  /** Decided when compiled: put a number or boolean value bare in place of the whole string. */
  bare?: boolean;
  /** Path parameter: its index among the path's segments. */
  index?: number;
}

type Part = string | Placeholder;

const GENERATED = new Set<Source>(['now', 'today', 'uuid', 'sequence']);
const HEADS: [string, Source][] = [
  ['request.body.', 'body'],
  ['request.path.', 'path'],
  ['request.query-params.', 'query'],
  ['request.query.', 'query'],
  ['request.headers.', 'header'],
  ['request.header.', 'header'],
];

/** Whether any text of the response holds a placeholder (a cheap look before compiling). */
export function hasTemplate(raw: RawExample): boolean {
  const r = raw.response;
  if (!r) return false;
  if (r.body?.includes('{{')) return true;
  return Object.values(r.headers).some((v) => v.includes('{{'));
}

/** The example with its templated parts left out: what fitExample checks the request with (the template is checked by compileTemplate). */
export function withoutTemplate(raw: RawExample): RawExample {
  const r = raw.response!;
  // A templated header may be one the scenario requires: then only the request picks the scenario.
  if (Object.values(r.headers).some((v) => v.includes('{{'))) return { ...raw, response: undefined };
  return { ...raw, response: { status: r.status, headers: r.headers, body: r.body?.includes('{{') ? undefined : r.body } };
}

/**
 * The response of `raw` as a template for scenario `owner` (whose request `matcher` narrows);
 * an AccordError when it is malformed, names no node of the request, or cannot satisfy the
 * response with values of the types its sources have.
 */
export function compileTemplate(raw: RawExample, owner: Scenario, matcher: Scenario, what = 'expectation'): ResponseTemplate {
  const r = raw.response!;
  const refuse = (why: string, mismatches: readonly Mismatch[] = []) =>
    new AccordError('ACCORD_ERR_USAGE', [`${what} refused: its response template ${why}`, ...formatMismatches(mismatches)].join('\n'));
  let count = 0;
  const body = r.body;
  const kind = bodyKindOf(body ?? '');
  const parse = (text: string, json: boolean): Part[] => {
    const parts = parseParts(text, json, refuse);
    for (const p of parts) if (typeof p !== 'string' && ++count > TEMPLATE_LIMITS.placeholders) throw refuse(`has more than ${TEMPLATE_LIMITS.placeholders} placeholders`);
    return parts;
  };
  const t: ResponseTemplate = {
    status: r.status,
    headers: Object.entries(r.headers).map(([k, v]) => [k, parse(v, false)]),
    body: body === undefined ? undefined : parse(body, kind === 'json'),
    bodyKind: kind,
    keyed: true,
    usesPath: false,
  };
  // Each placeholder: its source must be there in the request, and a value of its type stands in for the probe.
  const samples = new Map<Placeholder, string>();
  const rng = createRandom(1);
  for (const p of placeholders(t)) {
    if (GENERATED.has(p.source) || p.source === 'header') t.keyed = false;
    if (p.source === 'path') t.usesPath = true;
    samples.set(p, sampleOf(p, owner, matcher, raw, rng, refuse));
  }
  const probe = untilStopped(TOO_LARGE, () => render(t, (p) => samples.get(p)!, new AnswerMeter()));
  if (!probe) throw refuse(`would make an answer of more than ${TEMPLATE_LIMITS.answerChars} characters (TEMPLATE_LIMITS.answerChars) from the request's values`);
  const headerProblem = invalidHeader(probe.headers);
  if (headerProblem) throw refuse(`makes a header that is not valid HTTP: ${headerProblem}`);
  const check = () => {
    const out = render(t, (p) => samples.get(p)!, new AnswerMeter());
    return responseFits(owner, { status: r.status, headers: out.headers, body: out.body });
  };
  let mismatches = check();
  // A whole JSON string `"{{request.path.id}}"` in a number's place: the value goes in bare (`42`, not `"42"`) where that fits.
  if (mismatches.length > 0 && kind === 'json') {
    for (const p of t.body!) {
      if (typeof p === 'string' || !p.whole || !isBareJson(samples.get(p)!)) continue;
      p.bare = !p.bare;
      const again = check();
      if (again.length < mismatches.length) mismatches = again;
      else p.bare = !p.bare;
      if (mismatches.length === 0) break;
    }
  }
  if (mismatches.length > 0) {
    throw refuse(`cannot satisfy scenario "${owner.name}" (${owner.file}:${owner.line}) with values of the request's types (as this answer would be):`, mismatches);
  }
  return t;
}

/**
 * The answer to `req` from the template: the request's values in place, checked against the
 * scenario. `problem`: why it does not fit (one line per mismatch), for a clear error answer.
 */
export function answerFromTemplate(
  t: ResponseTemplate,
  owner: Scenario,
  req: HttpRequest,
  body: ParsedBody,
  counter: Counter,
  generated: (extra: Record<string, string>) => HttpResponse,
): { response: HttpResponse } | { problem: string; tooLarge?: true } {
  const segments = t.usesPath ? splitPath(req.path) : [];
  const value = (p: Placeholder): string => valueOf(p, req, body, segments, counter);
  // Bounded while it is made: the request's values in up to TEMPLATE_LIMITS.placeholders places could make gigabytes of one request.
  const out = untilStopped(TOO_LARGE, () => render(t, value, new AnswerMeter()));
  if (!out) return tooLarge();
  const headerProblem = invalidHeader(out.headers);
  if (headerProblem) return { problem: `a templated header is not valid HTTP: ${headerProblem}` };
  const response = out.body === undefined ? generated(out.headers) : { status: t.status ?? owner.response.status, headers: out.headers, body: out.body };
  const mismatches = responseFits(owner, response);
  if (mismatches.length > 0)
    return { problem: [`its templated answer does not satisfy scenario "${owner.name}" (${owner.file}:${owner.line}):`, ...formatMismatches(mismatches)].join('\n') };
  return { response };
}

function* placeholders(t: ResponseTemplate): Generator<Placeholder> {
  for (const [, parts] of t.headers) for (const p of parts) if (typeof p !== 'string') yield p;
  for (const p of t.body ?? []) if (typeof p !== 'string') yield p;
}

/** The answer with `value` in each place; throws TOO_LARGE as soon as it passes the meter, before the string is built. */
function render(t: ResponseTemplate, value: (p: Placeholder) => string, meter: AnswerMeter): { headers: Record<string, string>; body?: string } {
  const headers: Record<string, string> = {};
  for (const [name, parts] of t.headers) headers[name] = parts.map((p) => meter.spend(typeof p === 'string' ? p : value(p))).join('');
  if (!t.body) return { headers };
  const body: string[] = [];
  for (const p of t.body) body.push(meter.spend(typeof p === 'string' ? p : escape(value(p), p, t.bodyKind)));
  return { headers, body: body.join('') };
}

/** Thrown by AnswerMeter when an answer being made from a template passes TEMPLATE_LIMITS.answerChars; caught where the answer is made. */
const TOO_LARGE = new Stop(`a templated answer passes TEMPLATE_LIMITS.answerChars`);

/**
 * Characters an answer made from a template may still take: each part is counted as it is made
 * (a value put in its place, an Examples cell filled or placed by the generator), so making
 * stops as soon as the bound is passed and the whole string is never built.
 */
class AnswerMeter {
  private left: number = TEMPLATE_LIMITS.answerChars;

  spend(part: string): string {
    this.count(part.length);
    return part;
  }

  count(chars: number): void {
    this.left -= chars;
    if (this.left < 0) throw TOO_LARGE;
  }
}

/** The problem of an answer refused by TEMPLATE_LIMITS.answerChars (the stub answers it 500 and says it in one line on stderr). */
function tooLarge(): { problem: string; tooLarge: true } {
  return {
    problem: `its templated answer would be more than ${TEMPLATE_LIMITS.answerChars} characters (TEMPLATE_LIMITS.answerChars, docs/security.md): the request's values are too large for the places the template puts them in; refused, not made`,
    tooLarge: true,
  };
}

/**
 * An Examples row's answer made by `make` (the generator, with the row's filled values), bounded
 * as templated answers are: `count` is called with the characters of each value placed, and a
 * body past the bound is refused too (escaping can lengthen a value). The problem when refused.
 */
export function boundedRowAnswer(make: (count: (chars: number) => void) => HttpResponse): { response: HttpResponse } | { problem: string; tooLarge: true } {
  const meter = new AnswerMeter();
  const response = untilStopped(TOO_LARGE, () => make((chars) => meter.count(chars)));
  if (!response || response.body.length > TEMPLATE_LIMITS.answerChars) return tooLarge();
  return { response };
}

/** A value as it goes into the body: XML-escaped, JSON-string-escaped, or bare where the whole JSON string is a number or boolean. */
function escape(v: string, p: Placeholder, kind: ResponseTemplate['bodyKind']): string {
  // Text or an attribute in either quotes: the one escape that is safe in all three.
  if (kind === 'xml') return escapeText(v).replaceAll('"', '&quot;').replaceAll("'", '&apos;');
  if (kind === 'json') {
    if (p.whole && p.bare && isBareJson(v)) return v;
    const s = JSON.stringify(v);
    return p.whole ? s : s.slice(1, -1);
  }
  return v;
}

function isBareJson(v: string): boolean {
  if (v === 'true' || v === 'false') return true;
  // JSON's number grammar: no sign but `-`, no leading zero, digits on both sides of a point.
  if (v === '' || v.trim() !== v || !Number.isFinite(Number(v))) return false;
  const d = v.startsWith('-') ? v.slice(1) : v;
  return isDigit(d[0]) && !(d[0] === '0' && isDigit(d[1])) && !d.endsWith('.') && !d.includes('.e') && !d.includes('x') && !d.includes('o') && !d.includes('b');
}

function bodyKindOf(text: string): ResponseTemplate['bodyKind'] {
  const t = text.trimStart();
  if (t.startsWith('<')) return 'xml';
  if (t.startsWith('{') || t.startsWith('[')) return 'json';
  return 'text';
}

/**
 * Splits text into literal parts and placeholders, in one pass. In JSON a placeholder must sit
 * inside a string; `whole` when it is the whole string (the quotes are then part of it).
 */
function parseParts(text: string, json: boolean, refuse: (why: string) => AccordError): Part[] {
  const parts: Part[] = [];
  let literal = '';
  let inString = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (json && c === '\\' && inString) {
      literal += text.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (json && c === '"') inString = !inString;
    if (c !== '{' || text[i + 1] !== '{') {
      literal += c;
      i++;
      continue;
    }
    const end = text.indexOf('}}', i + 2);
    if (end < 0) throw refuse(`has "{{" with no "}}" after it (at character ${i + 1})`);
    const inner = text.slice(i + 2, end);
    if (inner.length > TEMPLATE_LIMITS.expressionChars) throw refuse(`has a placeholder longer than ${TEMPLATE_LIMITS.expressionChars} characters (at character ${i + 1})`);
    const p = readPlaceholder(inner.trim(), refuse);
    if (json) {
      if (!inString) throw refuse(`has ${quoted(`{{${inner}}}`, 80)} outside a JSON string; write it in quotes: "{{${p.source === 'body' ? 'request.body.id' : 'now'}}}"`);
      const closes = text[end + 2] === '"';
      if (literal.endsWith('"') && closes && !literal.endsWith('\\"')) {
        p.whole = true;
        literal = literal.slice(0, -1);
        i = end + 3;
        inString = false;
        if (literal) parts.push(literal);
        literal = '';
        parts.push(p);
        continue;
      }
    }
    if (literal) parts.push(literal);
    literal = '';
    parts.push(p);
    i = end + 2;
  }
  if (literal) parts.push(literal);
  return parts;
}

function readPlaceholder(expr: string, refuse: (why: string) => AccordError): Placeholder {
  const lower = expr.toLowerCase();
  for (const g of GENERATED) if (lower === g) return { source: g, arg: '', text: `{{${expr}}}` };
  for (const [head, source] of HEADS) {
    if (!lower.startsWith(head)) continue;
    const arg = expr.slice(head.length);
    if (arg === '') throw refuse(`has ${quoted(`{{${expr}}}`, 80)}, which names no ${source === 'body' ? 'node' : source === 'header' ? 'header' : 'parameter'}`);
    for (let i = 0; i < arg.length; i++) {
      const c = arg.charCodeAt(i);
      const ok = (c >= 48 && c <= 58) || (c >= 64 && c <= 91) || c === 93 || (c >= 97 && c <= 122) || c === 45 || c === 46 || c === 47 || c === 95;
      if (!ok) throw refuse(`has ${quoted(`{{${expr}}}`, 80)}, whose name holds ${quoted(arg[i])} (names are letters, digits and - _ . / @ : [ ])`);
    }
    if (source === 'body' && segmentsOf(arg).names.length > TEMPLATE_LIMITS.pathSegments) throw refuse(`has a node path of more than ${TEMPLATE_LIMITS.pathSegments} steps`);
    return { source, arg: source === 'header' ? arg.toLowerCase() : arg, text: `{{${expr}}}` };
  }
  throw refuse(
    `has ${quoted(`{{${expr}}}`, 80)}, which is not one of {{request.body.<node path>}}, {{request.path.<name>}}, {{request.query.<name>}}, {{request.headers.<name>}}, {{now}}, {{today}}, {{uuid}}, {{sequence}}`,
  );
}

/** `getOrder/orderId`, `/Envelope/Header/MessageID`, `order.items[0].sku`, `getOrder/@id`: the steps, whether from the root, and a last attribute. */
function segmentsOf(arg: string): { names: string[]; fromRoot: boolean; attribute?: string } {
  const sep = arg.includes('/') ? '/' : '.';
  const names: string[] = [];
  for (const s of arg.split(sep)) {
    if (s === '') continue;
    // `items[0]` is `items` then `0`.
    const b = s.indexOf('[');
    if (b > 0 && s.endsWith(']')) names.push(s.slice(0, b), s.slice(b + 1, -1));
    else names.push(s);
  }
  const last = names[names.length - 1];
  const attribute = last?.startsWith('@') ? names.pop()!.slice(1) : undefined;
  return { names: names.map(localOf), fromRoot: arg.startsWith('/'), attribute: attribute === undefined ? undefined : localOf(attribute) };
}

function localOf(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

/** WS-Addressing header blocks: a SOAP request may carry them whatever its contract's Header says. */
const ADDRESSING = new Set(['MessageID', 'Action', 'To', 'From', 'ReplyTo', 'FaultTo', 'Address', 'RelatesTo']);

/** The values made anew for every answer, at registration and when answering alike. */
function madeAnew(source: 'now' | 'today' | 'uuid'): string {
  if (source === 'uuid') return randomUUID();
  const now = new Date().toISOString();
  return source === 'today' ? now.slice(0, 10) : now;
}

/** A value of the source's type at registration (from the scenario's request pattern), or why there is none. */
function sampleOf(p: Placeholder, owner: Scenario, matcher: Scenario, raw: RawExample, rng: ReturnType<typeof createRandom>, refuse: (why: string) => AccordError): string {
  const ctx = { scope: matcher.scope, rng };
  switch (p.source) {
    case 'now':
    case 'today':
    case 'uuid':
      return madeAnew(p.source);
    case 'sequence':
      return '1';
    case 'path': {
      const i = owner.request.segments.findIndex((s) => s.pattern && s.name === p.arg);
      if (i < 0) {
        const names = owner.request.segments.filter((s) => s.pattern).map((s) => s.name);
        throw refuse(
          `has ${quoted(p.text, 80)}, but scenario "${owner.name}" has no path parameter ${quoted(p.arg, 60)} (${names.length > 0 ? `it has ${names.join(', ')}` : 'it has none'})`,
        );
      }
      p.index = i;
      return splitPath(raw.request.path)[i] ?? generateText(owner.request.segments[i].pattern!, ctx);
    }
    case 'query': {
      const q = owner.request.query.find((x) => x.name === p.arg);
      if (!q) throw refuse(`has ${quoted(p.text, 80)}, but scenario "${owner.name}" has no query parameter ${quoted(p.arg, 60)}`);
      return raw.request.query.find(([k]) => k === p.arg)?.[1] ?? generateText(q.pattern, ctx);
    }
    case 'header': {
      const given = raw.request.headers[p.arg];
      if (given !== undefined) return given;
      const h = owner.request.headers.find((x) => x.name.toLowerCase() === p.arg);
      return h ? generateText(h.pattern, ctx) : 'sample';
    }
    case 'body': {
      const path = segmentsOf(p.arg);
      const root = matcher.request.body;
      const found = root && patternAt(root, matcher.scope, path);
      if (found === undefined) {
        const last = path.names[path.names.length - 1];
        if (path.attribute === undefined && ADDRESSING.has(last) && path.names.slice(0, -1).every((n) => n === 'Envelope' || n === 'Header' || n === 'ReplyTo'))
          return `urn:uuid:${randomUUID()}`;
        throw refuse(`has ${quoted(p.text, 80)}, which names no node of the request of scenario "${owner.name}" (${owner.file}:${owner.line})`);
      }
      if (found === 'element') throw refuse(`has ${quoted(p.text, 80)}, which names an element with child elements (name a node that holds a value)`);
      if (found.json) {
        const v = generateJson(found.pattern, ctx);
        p.bare = typeof v === 'number' || typeof v === 'boolean';
        return typeof v === 'string' ? v : JSON.stringify(v);
      }
      return generateText(found.pattern, ctx);
    }
  }
}

/** Where `{{sequence}}` takes its numbers: one per scope of the stub (admin/scope-state.ts), reset with it. */
export interface Counter {
  next(): number;
}

/** The value of one placeholder for this request ('' where the request has no such node). */
function valueOf(p: Placeholder, req: HttpRequest, body: ParsedBody, segments: string[], counter: Counter): string {
  switch (p.source) {
    case 'now':
    case 'today':
    case 'uuid':
      return madeAnew(p.source);
    case 'sequence':
      return String(counter.next());
    case 'path':
      return segments[p.index!] ?? '';
    case 'query':
      return req.query.find(([k]) => k === p.arg)?.[1] ?? '';
    case 'header':
      return req.headers[p.arg] ?? '';
    case 'body': {
      // Looked up once per path and request: 256 placeholders naming a node that is not there would otherwise walk a 200,000-element body 256 times.
      let known = bodyValues.get(body);
      if (!known) bodyValues.set(body, (known = new Map()));
      let v = known.get(p.arg);
      if (v === undefined) known.set(p.arg, (v = bodyValue(p.arg, body)));
      return v;
    }
  }
}

/** The values of one request's body already looked up, by node path (freed with the request). */
const bodyValues = new WeakMap<ParsedBody, Map<string, string>>();

function bodyValue(arg: string, body: ParsedBody): string {
  const t = body.text.trimStart();
  if (t.startsWith('<')) {
    const xml = body.asXml();
    return xml instanceof AccordError ? '' : (xmlValue(xml, segmentsOf(arg)) ?? '');
  }
  const json = body.asJson();
  if (json instanceof AccordError) return '';
  const v = jsonValue(json.value, segmentsOf(arg).names);
  return v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The first node a path names, as body-filter.ts reads `nodes` paths: prefix-blind, from anywhere unless it starts with `/`. */
function xmlValue(root: XmlElement, path: ReturnType<typeof segmentsOf>): string | undefined {
  const { names, fromRoot, attribute } = path;
  if (names.length === 0) return undefined;
  const starts: XmlElement[] = [];
  if (fromRoot) {
    if (root.local === names[0]) starts.push(root);
  } else {
    // Iterative, first match wins: a body is bounded by the stub's limits (XML_LIMITS), and no recursion is deep.
    const stack = [root];
    while (stack.length > 0 && starts.length === 0) {
      const el = stack.pop()!;
      if (el.local === names[0]) starts.push(el);
      for (let i = el.children.length - 1; i >= 0; i--) {
        const c = el.children[i];
        if (c.type === 'element') stack.push(c);
      }
    }
  }
  let at = starts[0];
  for (let k = 1; at && k < names.length; k++) {
    at = at.children.find((c): c is XmlElement => c.type === 'element' && c.local === names[k])!;
  }
  if (!at) return undefined;
  if (attribute !== undefined) return at.attributes.find((a) => !isNamespaceDeclaration(a) && a.local === attribute)?.value;
  let text = '';
  for (const c of at.children) if (c.type === 'text') text += c.value;
  return text.trim();
}

function jsonValue(v: unknown, names: string[]): unknown {
  let at = v;
  for (const n of names) {
    if (Array.isArray(at)) at = at[Number(n)];
    else if (isObject(at)) at = Object.prototype.hasOwnProperty.call(at, n) ? at[n] : undefined;
    else return undefined;
  }
  return at;
}

type Found = { pattern: Pattern; json: boolean } | 'element';

/** The pattern of the value a path names in a request pattern; undefined when it names no node. Bounded by TEMPLATE_LIMITS.patternNodes visited. */
function patternAt(root: Pattern, scope: Scope, path: ReturnType<typeof segmentsOf>): Found | undefined {
  let budget = TEMPLATE_LIMITS.patternNodes;
  const top = unwrap(root, scope);
  if (!top) return undefined;
  if (top.kind !== 'xml') return jsonAt(top, scope, path.attribute === undefined ? path.names : [...path.names, `@${path.attribute}`]);
  const { names, fromRoot, attribute } = path;
  if (names.length === 0) return undefined;
  const tail = (el: XmlElementPattern, k: number): Found | undefined => {
    if (k === names.length) return valueOfElement(el, attribute, scope);
    for (const c of childElements(el, scope)) if (c.local === names[k]) return tail(c, k + 1);
    return undefined;
  };
  if (fromRoot) return top.local === names[0] ? tail(top, 1) : undefined;
  const stack: [XmlElementPattern, number][] = [[top, 0]];
  while (stack.length > 0) {
    const [el, depth] = stack.pop()!;
    if (--budget < 0 || depth > 64) continue;
    if (el.local === names[0]) {
      const f = tail(el, 1);
      if (f) return f;
    }
    for (const c of childElements(el, scope)) stack.push([c, depth + 1]);
  }
  return undefined;
}

function unwrap(p: Pattern, scope: Scope): Pattern | undefined {
  try {
    let r = resolve(p, scope);
    for (let i = 0; i < 64 && (r.kind === 'optional' || r.kind === 'lookup'); i++) r = resolve(r.inner, scope);
    return r;
  } catch {
    return undefined;
  }
}

function childElements(p: XmlElementPattern, scope: Scope): XmlElementPattern[] {
  const out: XmlElementPattern[] = [];
  const add = (slots: readonly NodeSlot[]) => {
    for (const s of slots) {
      if (s.kind === 'element') out.push(s.pattern);
      else if (s.kind === 'choice') for (const o of s.options) add(o);
    }
  };
  try {
    add(contentSlots(effectiveElement(p, scope).content, scope).filter((s): s is NodeSlot => s.kind !== 'text'));
  } catch {
    // A type that cannot be resolved has no children to name.
  }
  return out;
}

function valueOfElement(el: XmlElementPattern, attribute: string | undefined, scope: Scope): Found | undefined {
  let eff: XmlElementPattern;
  try {
    eff = effectiveElement(el, scope);
  } catch {
    return undefined;
  }
  if (attribute !== undefined) {
    const a = eff.attributes.find((x) => x.local === attribute);
    return a && { pattern: a.pattern, json: false };
  }
  const slots = contentSlots(eff.content, scope);
  const text = slots.find((s) => s.kind === 'text');
  if (text && text.kind === 'text') return { pattern: text.pattern, json: false };
  if (slots.length > 0) return 'element';
  return { pattern: { kind: 'literal', value: '' }, json: false };
}

function jsonAt(p: Pattern, scope: Scope, names: string[]): Found | undefined {
  let at: Pattern | undefined = p;
  for (const n of names) {
    at = at && unwrap(at, scope);
    if (!at) return undefined;
    if (at.kind === 'object') at = at.fields.find((f) => f.key === n)?.pattern;
    else if (at.kind === 'array') at = at.items[Number(n)] ?? at.items[0];
    else if (at.kind === 'list') at = n !== '' && [...n].every(isDigit) ? at.inner : undefined;
    else if (at.kind === 'dictionary') at = at.value;
    else return undefined;
  }
  return at && { pattern: at, json: true };
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/**
 * An Examples row whose response cells hold placeholders (`| orderId | {{request.body.orderId}} |`):
 * each such cell, filled from the request the row answers, stands where the column's value
 * would. The same placeholders as an expectation's; the row's request side ignores these cells.
 */
export interface RowTemplate {
  cells: [string, Part[]][];
  /** As ResponseTemplate.keyed: the answer may be kept for a repeated request. */
  keyed: boolean;
  usesPath: boolean;
  /** Why a filled cell fits no response place its column names (check-examples.ts). */
  misfit: (column: string, value: string) => string | undefined;
}

/**
 * The templated cells of `row` of scenario `s` (`narrowed`: the scenario narrowed to the row),
 * or undefined when it has none. An AccordError naming the contract's file and the row's line
 * when a placeholder is malformed, names nothing of the request, or gives a value of a type
 * that cannot fit the response place its column names.
 */
export function compileRowTemplate(s: Scenario, narrowed: Scenario, row: ExampleRow): RowTemplate | undefined {
  const templated = [...row.values].filter(([column, v]) => column !== REQUEST_BODY_COLUMN && isTemplateCell(v));
  if (templated.length === 0) return undefined;
  let column = '';
  const refuse = (why: string) =>
    new AccordError('ACCORD_ERR_CONTRACT_TYPE', `Examples row refused: its cell in column ${quoted(column, 60)} ${why}`, { file: s.file, line: row.line });
  const t: RowTemplate = { cells: [], keyed: true, usesPath: false, misfit: responseCellChecker(s) };
  const raw: RawExample = { request: { method: s.request.method, path: '', query: [], headers: {}, body: '' }, givenHeaders: [], givenBody: false };
  const rng = createRandom(1);
  let count = 0;
  for (const [name, text] of templated) {
    column = name;
    const parts = parseParts(text, false, refuse);
    let sample = '';
    for (const p of parts) {
      if (typeof p === 'string') {
        sample += p;
        continue;
      }
      if (++count > TEMPLATE_LIMITS.placeholders) throw refuse(`makes the row hold more than ${TEMPLATE_LIMITS.placeholders} placeholders`);
      if (GENERATED.has(p.source) || p.source === 'header') t.keyed = false;
      if (p.source === 'path') t.usesPath = true;
      sample += sampleOf(p, s, narrowed, raw, rng, refuse);
    }
    const misfit = t.misfit(name, sample);
    if (misfit) throw refuse(`cannot fit scenario "${s.name}" with values of its placeholders' types: ${misfit}`);
    t.cells.push([name, parts]);
  }
  return t;
}

/** The row's values with its templated cells filled from `req`; `problem` when a filled value fits no place its column names. */
export function fillRow(
  t: RowTemplate,
  row: ExampleRow,
  req: HttpRequest,
  body: ParsedBody,
  counter: Counter,
): { values: Map<string, string> } | { problem: string; tooLarge?: true } {
  const segments = t.usesPath ? splitPath(req.path) : [];
  const values = new Map(row.values);
  const problems: string[] = [];
  const meter = new AnswerMeter();
  for (const [column, parts] of t.cells) {
    const v = untilStopped(TOO_LARGE, () => fillCell(parts, req, body, segments, counter, meter));
    if (v === undefined) return tooLarge();
    const misfit = t.misfit(column, v);
    if (misfit) problems.push(`  ${misfit}`);
    values.set(column, v);
  }
  if (problems.length > 0) return { problem: [`the value its templated cells take from this request does not satisfy the contract:`, ...problems].join('\n') };
  return { values };
}

function fillCell(parts: readonly Part[], req: HttpRequest, body: ParsedBody, segments: string[], counter: Counter, meter: AnswerMeter): string {
  return parts.map((p) => meter.spend(typeof p === 'string' ? p : valueOf(p, req, body, segments, counter))).join('');
}

/**
 * For the provider's run (runner/echo.ts): what the stub would put in each templated cell of the
 * row for `req`, the request the runner sent, so the provider's answer can be held to it. Left
 * out: a cell with a value made anew for each answer (`{{now}}`, `{{today}}`, `{{uuid}}`,
 * `{{sequence}}`), which no request decides and is checked by type only, and a cell that comes
 * out empty (the request has no such node: nothing to echo).
 */
export function echoedCells(t: RowTemplate, req: HttpRequest, body: ParsedBody): { column: string; value: string; template: string }[] | { tooLarge: string } {
  const segments = t.usesPath ? splitPath(req.path) : [];
  const none: Counter = { next: () => 0 };
  const out: { column: string; value: string; template: string }[] = [];
  const meter = new AnswerMeter();
  for (const [column, parts] of t.cells) {
    if (parts.some((p) => typeof p !== 'string' && GENERATED.has(p.source))) continue;
    const value = untilStopped(TOO_LARGE, () => fillCell(parts, req, body, segments, none, meter));
    if (value === undefined) return { tooLarge: tooLarge().problem.replace('its templated answer', "the row's templated cells") };
    const template = parts.map((p) => (typeof p === 'string' ? p : p.text)).join('');
    if (value !== '') out.push({ column, value, template });
  }
  return out;
}
