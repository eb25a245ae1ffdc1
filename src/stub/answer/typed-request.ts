import type { Scenario } from '../../contract/model';
import { AccordError } from '../../errors';
import { ParsedBody } from '../../http/body';
import type { HttpRequest } from '../../http/message';
import { encompasses } from '../../pattern/compare/index';
import { describePattern } from '../../pattern/describe';
import { at, WHERE, type Mismatch } from '../../pattern/match/mismatch';
import { isOnce } from '../../pattern/occurs';
import { isPlaceholder, parsePlaceholder } from '../../pattern/placeholder';
import { resolve } from '../../pattern/resolve';
import type { Pattern, Scope, XmlContent, XmlElementPattern } from '../../pattern/types';
import { isBookkeepingAttribute } from '../../xml/bookkeeping';
import { serializeXml } from '../../xml/serialize';
import type { XmlElement } from '../../xml/tree';

/**
 * Typed placeholders in an expectation's (or example file's) request: `<id>(number)</id>`,
 * `{"id": "(int)"}`, a header or query value `(string)`, a path segment `/pets/(number)`, or a
 * contract type `(OrderId)`. Each stands for "any value of this type here", within what the
 * contract takes there.
 *
 * The request is checked against the contract in two parts: a probe (the request with every
 * placeholder replaced by PROBE) is matched like any request, mismatches at the probe's places
 * set aside, so the structure and the literal values are checked by the one matcher; then each
 * placeholder is compared with the contract's type at its place (compare/encompasses): one that
 * holds the contract's type or lies within it fits, one that does neither is refused.
 */
export const PROBE = 'accord-typed-placeholder-probe';

export type TypedWhere = 'path' | 'query' | 'header' | 'xml' | 'json';

export interface TypedPlace {
  where: TypedWhere;
  /** Path segment index as text, query or header name (lower case), XML node or attribute name, JSON key. */
  name: string;
  /** As written: `(number)`. */
  text: string;
  pattern: Pattern;
  /** Where a report names it: `REQUEST.BODY Envelope/Body/getOrder/id`. */
  place: string;
  /** XML: an attribute; JSON: the keys and indexes from the root. */
  attribute?: boolean;
  jsonPath?: (string | number)[];
}

export interface TypedRequest {
  /** The request with PROBE at every placeholder. */
  probe: HttpRequest;
  places: TypedPlace[];
}

/** The request's typed placeholders and its probe; undefined when it has none (then it is compared as written). */
export function typedRequest(req: HttpRequest): TypedRequest | undefined {
  const places: TypedPlace[] = [];
  const segments = req.path.split('/');
  let pathTyped = false;
  segments.forEach((seg, i) => {
    const p = placeholderOf(decodeSafe(seg));
    if (!p) return;
    places.push({ where: 'path', name: String(segments.slice(0, i).filter((x) => x !== '').length), text: decodeSafe(seg), pattern: p, place: WHERE.requestPath });
    segments[i] = PROBE;
    pathTyped = true;
  });
  const query = req.query.map(([k, v]): [string, string] => {
    const p = placeholderOf(v);
    if (!p) return [k, v];
    places.push({ where: 'query', name: k, text: v, pattern: p, place: at(WHERE.requestQuery, k) });
    return [k, PROBE];
  });
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    const p = placeholderOf(v);
    if (p) places.push({ where: 'header', name: k, text: v, pattern: p, place: at(WHERE.requestHeader, k) });
    headers[k] = p ? PROBE : v;
  }
  const body = typedBody(req.body, places);
  if (places.length === 0) return undefined;
  return { probe: { ...req, path: pathTyped ? segments.join('/') : req.path, query, headers, body }, places };
}

/** A mismatch at one of the probe's places: the placeholder there is compared on its own (typedMismatches). */
export function isProbeMismatch(m: Mismatch): boolean {
  return m.actual.includes(PROBE);
}

/**
 * How the placeholders differ from the scenario's types at their places: none when each holds
 * the contract's type or lies within it. A `(Name)` must name a type of the contract.
 */
export function typedMismatches(s: Scenario, typed: TypedRequest): Mismatch[] {
  const out: Mismatch[] = [];
  const xmlTargets = typed.places.some((p) => p.where === 'xml') && s.request.body ? xmlPatternsByName(s.request.body, s.scope) : undefined;
  for (const t of typed.places) {
    if (!knownRefs(t.pattern, s.scope)) {
      out.push({
        path: t.place,
        expected: 'a placeholder of a built-in type or of a type the contract declares',
        actual: `${t.text}, which names no type of scenario "${s.name}"`,
      });
      continue;
    }
    let contract: Pattern[] = [];
    if (t.where === 'path') {
      const seg = s.request.segments[Number(t.name)];
      if (seg?.pattern) contract = [seg.pattern];
    } else if (t.where === 'query') {
      const q = s.request.query.find((x) => x.name === t.name);
      if (q) contract = [q.pattern];
    } else if (t.where === 'header') {
      const h = s.request.headers.find((x) => x.name.toLowerCase() === t.name);
      if (h) contract = [h.pattern];
    } else if (t.where === 'xml') {
      contract = xmlTargets?.get(`${t.attribute ? '@' : ''}${t.name}`) ?? [];
    } else if (s.request.body) {
      const p = jsonPatternAt(s.request.body, t.jsonPath ?? [], s.scope);
      if (p) contract = [p];
    }
    // No type of the contract stands there (a node under `(anything)`, a path written literally): the probe's match decided.
    if (contract.length === 0) continue;
    const mode = t.where === 'json' ? 'json' : 'text';
    if (contract.some((c) => overlaps(c, t.pattern, s.scope, mode))) continue;
    out.push({
      path: t.place,
      expected: `${describePattern(contract[0])} (the contract's type there), or a type within it`,
      actual: `${t.text}, which is neither within it nor holds it`,
    });
  }
  return out;
}

/** The placeholder holds the contract's type (the request still must fit the contract) or lies within it. */
function overlaps(contract: Pattern, placeholder: Pattern, scope: Scope, mode: 'json' | 'text'): boolean {
  try {
    return (
      encompasses(placeholder, scope, contract, scope, mode, { stopAtFirst: true }).length === 0 ||
      encompasses(contract, scope, placeholder, scope, mode, { stopAtFirst: true }).length === 0
    );
  } catch (e) {
    if (e instanceof AccordError) return false;
    throw e;
  }
}

/** Every `(Name)` in the placeholder names a type of the scope. */
function knownRefs(p: Pattern, scope: Scope): boolean {
  switch (p.kind) {
    case 'ref':
      return scope.types.has(p.name);
    case 'optional':
    case 'list':
    case 'lookup':
      return knownRefs(p.inner, scope);
    case 'union':
      return p.members.every((m) => knownRefs(m, scope));
    case 'text-list':
      return knownRefs(p.item, scope);
    default:
      return true;
  }
}

/**
 * The scenario's request with each placeholder at its place: what an expectation's matcher is,
 * and what a provider's replay generates the placeholders' values from. Where the placeholder
 * holds the contract's type (`(string)` for an `(int)` id), the contract's type stays: the
 * narrower of the two. (The owning scenario's own match is checked beside it too, so a request
 * never gets an answer the contract would refuse it.) XML nodes are found by name, as an Examples
 * column names them; JSON values by their keys from the root, in `owner`'s body.
 */
export function placeTyped(s: Scenario, owner: Scenario, typed: TypedRequest): Scenario {
  const scope = s.scope;
  const narrower = (contract: Pattern | undefined, placeholder: Pattern, mode: 'json' | 'text' = 'text'): Pattern =>
    contract !== undefined && holds(placeholder, contract, scope, mode) ? contract : placeholder;
  const xml = new Map<string, Pattern>();
  for (const t of typed.places) if (t.where === 'xml') xml.set(`${t.attribute ? '@' : ''}${t.name}`, t.pattern);
  const r = s.request;
  const types = xml.size === 0 ? scope.types : new Map([...scope.types].map(([k, p]) => [k, placeXml(p, xml, scope, narrower)]));
  let body = r.body && xml.size > 0 ? placeXml(r.body, xml, scope, narrower) : r.body;
  for (const t of typed.places) {
    if (t.where !== 'json' || !body || !owner.request.body) continue;
    const contract = jsonPatternAt(owner.request.body, t.jsonPath ?? [], owner.scope);
    body = replaceJsonAt(body, t.jsonPath ?? [], narrower(contract, t.pattern, 'json'), scope);
  }
  return {
    ...s,
    scope: { types },
    request: {
      ...r,
      segments: r.segments.map((seg, i) => {
        const t = typed.places.find((x) => x.where === 'path' && x.name === String(i));
        return t ? { ...seg, pattern: narrower(owner.request.segments[i]?.pattern, t.pattern) } : seg;
      }),
      query: r.query.map((q) => {
        const t = typed.places.find((x) => x.where === 'query' && x.name === q.name);
        return t ? { ...q, pattern: narrower(owner.request.query.find((x) => x.name === q.name)?.pattern, t.pattern) } : q;
      }),
      headers: r.headers.map((h) => {
        const t = typed.places.find((x) => x.where === 'header' && x.name === h.name.toLowerCase());
        return t ? { ...h, pattern: narrower(owner.request.headers.find((x) => x.name.toLowerCase() === t.name)?.pattern, t.pattern) } : h;
      }),
      body,
    },
  };
}

/** Whether `a` takes every value `b` takes. */
function holds(a: Pattern, b: Pattern, scope: Scope, mode: 'json' | 'text'): boolean {
  try {
    return encompasses(a, scope, b, scope, mode, { stopAtFirst: true }).length === 0;
  } catch (e) {
    if (e instanceof AccordError) return false;
    throw e;
  }
}

type Narrower = (contract: Pattern | undefined, placeholder: Pattern) => Pattern;

function placeXml(p: Pattern, typed: ReadonlyMap<string, Pattern>, scope: Scope, narrower: Narrower): Pattern {
  if (p.kind === 'optional' || p.kind === 'list') return { ...p, inner: placeXml(p.inner, typed, scope, narrower) };
  return p.kind === 'xml' ? placeElement(p, typed, scope, narrower) : p;
}

function placeElement(p: XmlElementPattern, typed: ReadonlyMap<string, Pattern>, scope: Scope, narrower: Narrower): XmlElementPattern {
  const attributes = p.attributes.map((a) => (typed.has(`@${a.local}`) ? { ...a, pattern: narrower(a.pattern, typed.get(`@${a.local}`)!) } : a));
  const value = typed.get(p.local);
  const text = value !== undefined ? textPatternOf(p.content, scope) : undefined;
  const content: XmlContent[] =
    value !== undefined && text !== undefined ? [{ kind: 'xml-text', pattern: narrower(text, value) }] : p.content.map((c) => placeContent(c, typed, scope, narrower));
  return { ...p, attributes, content };
}

function placeContent(c: XmlContent, typed: ReadonlyMap<string, Pattern>, scope: Scope, narrower: Narrower): XmlContent {
  if (c.kind === 'xml') return placeElement(c, typed, scope, narrower);
  if (c.kind === 'xml-choice') return { ...c, options: c.options.map((o) => o.map((x) => placeContent(x, typed, scope, narrower))) };
  return c;
}

/** The JSON pattern with `value` at a path of keys and indexes (as written in the expectation: objects and arrays). */
function replaceJsonAt(p: Pattern, path: readonly (string | number)[], value: Pattern, scope: Scope): Pattern {
  if (path.length === 0) return value;
  const [step, ...rest] = path;
  if (p.kind === 'object' && typeof step === 'string') {
    return { ...p, fields: p.fields.map((f) => (f.key === step ? { ...f, pattern: replaceJsonAt(f.pattern, rest, value, scope) } : f)) };
  }
  if (p.kind === 'array' && typeof step === 'number' && p.items[step]) {
    return { ...p, items: p.items.map((x, i) => (i === step ? replaceJsonAt(x, rest, value, scope) : x)) };
  }
  return p;
}

/** `<id>(number)</id>` or `<id>(Id)</id>` with Id a scalar type: the one value a placeholder can stand for. */
function textPatternOf(content: readonly XmlContent[], scope: Scope): Pattern | undefined {
  if (content.length !== 1) return undefined;
  const c = content[0];
  if (c.kind === 'xml-text') return c.pattern;
  if (c.kind !== 'xml-ref' || !isOnce(c.occurs)) return undefined;
  try {
    const r = resolve({ kind: 'ref', name: c.name }, scope);
    return r.kind === 'xml' ? undefined : r;
  } catch {
    return undefined;
  }
}

/** The text patterns of the XML nodes (`name`) and attributes (`@name`) of a body and the scope's types. */
function xmlPatternsByName(body: Pattern, scope: Scope): Map<string, Pattern[]> {
  const out = new Map<string, Pattern[]>();
  const add = (k: string, p: Pattern) => {
    const list = out.get(k);
    if (list) list.push(p);
    else out.set(k, [p]);
  };
  const seen = new Set<Pattern>();
  const walk = (p: Pattern): void => {
    if (seen.has(p)) return;
    seen.add(p);
    if (p.kind === 'optional' || p.kind === 'list') return walk(p.inner);
    if (p.kind === 'xml') walkElement(p);
  };
  const walkContent = (c: XmlContent): void => {
    if (c.kind === 'xml') walkElement(c);
    else if (c.kind === 'xml-choice') c.options.forEach((o) => o.forEach(walkContent));
  };
  const walkElement = (p: XmlElementPattern): void => {
    for (const a of p.attributes) add(`@${a.local}`, a.pattern);
    const text = textPatternOf(p.content, scope);
    if (text) add(p.local, text);
    p.content.forEach(walkContent);
  };
  walk(body);
  for (const p of scope.types.values()) walk(p);
  return out;
}

/** The contract's JSON pattern at a path of keys and indexes, refs followed; undefined where it cannot be followed. */
function jsonPatternAt(root: Pattern, path: readonly (string | number)[], scope: Scope): Pattern | undefined {
  let p: Pattern = root;
  for (const step of path) {
    let r: Pattern;
    try {
      r = resolve(p, scope);
      while (r.kind === 'optional' || r.kind === 'lookup') r = resolve(r.inner, scope);
    } catch {
      return undefined;
    }
    if (typeof step === 'string') {
      if (r.kind === 'object') {
        const f = r.fields.find((x) => x.key === step);
        if (!f) return undefined;
        p = f.pattern;
      } else if (r.kind === 'dictionary') p = r.value;
      else return undefined;
    } else if (r.kind === 'list') p = r.inner;
    else if (r.kind === 'array') {
      const item = r.items[Math.min(step, r.items.length - 1)];
      if (!item) return undefined;
      p = item.kind === 'list' ? item.inner : item;
    } else return undefined;
  }
  return p;
}

function placeholderOf(text: string): Pattern | undefined {
  if (!isPlaceholder(text)) return undefined;
  try {
    return parsePlaceholder(text);
  } catch (e) {
    if (e instanceof AccordError) return undefined;
    throw e;
  }
}

function decodeSafe(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The body with PROBE at its placeholders (added to `places`); as given when it holds none. */
function typedBody(text: string, places: TypedPlace[]): string {
  const t = text.trimStart();
  if (t.startsWith('<')) {
    const xml = new ParsedBody(text).asXml();
    if (xml instanceof AccordError) return text;
    const before = places.length;
    probeXml(xml, [], places);
    return places.length === before ? text : serializeXml(xml);
  }
  if (t.startsWith('{') || t.startsWith('[')) {
    const json = new ParsedBody(text).asJson();
    if (json instanceof AccordError) return text;
    const before = places.length;
    const value = probeJson(json.value, [], places);
    return places.length === before ? text : JSON.stringify(value);
  }
  return text;
}

function probeXml(el: XmlElement, path: string[], places: TypedPlace[]): void {
  const here = [...path, el.local];
  for (const a of el.attributes) {
    if (a.prefix === 'xmlns' || a.name === 'xmlns' || isBookkeepingAttribute(a)) continue;
    const p = placeholderOf(a.value);
    if (!p) continue;
    places.push({ where: 'xml', name: a.local, text: a.value, pattern: p, place: at(WHERE.requestBody, `${here.join('/')}/@${a.local}`), attribute: true });
    a.value = PROBE;
  }
  const kids = el.children.filter((c): c is XmlElement => c.type === 'element');
  if (kids.length === 0) {
    const text = el.children.map((c) => (c.type === 'text' ? c.value : '')).join('');
    const p = placeholderOf(text);
    if (p) {
      places.push({ where: 'xml', name: el.local, text: text.trim(), pattern: p, place: at(WHERE.requestBody, here.join('/')) });
      el.children = [{ type: 'text', value: PROBE }];
    }
    return;
  }
  for (const k of kids) probeXml(k, here, places);
}

function probeJson(v: unknown, path: (string | number)[], places: TypedPlace[]): unknown {
  if (typeof v === 'string') {
    const p = placeholderOf(v);
    if (!p) return v;
    const name = path.length === 0 ? '' : String(path[path.length - 1]);
    places.push({ where: 'json', name, text: v, pattern: p, place: at(WHERE.requestBody, path.join('.')), jsonPath: path });
    return PROBE;
  }
  if (Array.isArray(v)) return v.map((x, i) => probeJson(x, [...path, i], places));
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = probeJson(x, [...path, k], places);
    return out;
  }
  return v;
}
