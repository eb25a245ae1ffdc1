import type { Scenario } from '../contract/model';
import { deref } from '../pattern/compare/index';
import { contentSlots, effectiveElement } from '../pattern/resolve';
import type { Pattern, Scope, XmlElementPattern } from '../pattern/types';

/**
 * A request's cheap signature, to keep the overlap rule's pairs (N × M) bounded: a SOAP contract
 * has hundreds of operations on one POST. Two requests whose keys differ in a part both have can
 * never be the same request; a part a request leaves open (a typed SOAPAction, a choice of body
 * elements) says nothing.
 */
export interface RequestKey {
  /** A required SOAPAction with one value (a literal, or an enum of one), without its quotes. */
  action?: string;
  /** The body's element path down to the operation's element: `Envelope/Body/getOrder`, or the root's name. */
  element?: string;
}

export function requestKey(s: Scenario): RequestKey {
  const key: RequestKey = {};
  const h = s.request.headers.find((x) => x.name.toLowerCase() === 'soapaction');
  if (h && !h.optional) {
    const p = deref(h.pattern, s.scope).p;
    // Written literally, or as the one value of an enum (what the WSDL importer writes).
    const only = p.kind === 'literal' && typeof p.value === 'string' ? p.value : p.kind === 'enum' && p.values.length === 1 ? p.values[0] : undefined;
    if (only !== undefined) key.action = only.length >= 2 && only.startsWith('"') && only.endsWith('"') ? only.slice(1, -1) : only;
  }
  const el = bodyElementKey(s.request.body, s.scope);
  if (el) key.element = el;
  return key;
}

export function keysMeet(a: RequestKey, b: RequestKey): boolean {
  if (a.action !== undefined && b.action !== undefined && a.action !== b.action) return false;
  return a.element === undefined || b.element === undefined || a.element === b.element;
}

/** `Envelope/Body/getOrder`, `Envelope/Body/Fault`, a plain XML body's root name; undefined when the body does not say. */
export function bodyElementKey(body: Pattern | undefined, scope: Scope): string | undefined {
  if (!body) return undefined;
  const root = deref(body, scope).p;
  if (root.kind !== 'xml' || root.anyName) return undefined;
  if (root.local !== 'Envelope') return root.local;
  const b = onlyChild(root, scope, 'Body');
  const op = b && onlyChild(b, scope);
  return op ? `Envelope/Body/${op.local}` : 'Envelope';
}

/** The one required element an element's content holds (named `name` when given), when its content is just that. */
function onlyChild(el: XmlElementPattern, scope: Scope, name?: string): XmlElementPattern | undefined {
  const slots = contentSlots(effectiveElement(el, scope).content, scope);
  if (name !== undefined) {
    const s = slots.find((x) => x.kind === 'element' && x.pattern.local === name);
    return s?.kind === 'element' && s.min > 0 ? s.pattern : undefined;
  }
  const nodes = slots.filter((x) => x.kind !== 'text');
  const only = nodes[0];
  return nodes.length === 1 && only.kind === 'element' && only.min > 0 && !only.pattern.anyName ? only.pattern : undefined;
}
