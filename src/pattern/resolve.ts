import { MAX_TYPE_NESTING } from '../limits';
import { AccordError } from '../errors';
import type { Occurs, Pattern, ResolvedPattern, Scope, XmlContent, XmlElementPattern } from './types';

/** Follows `(Name)` refs to the pattern they name. */
export function resolve(p: Pattern, scope: Scope): ResolvedPattern {
  let cur = p;
  for (let i = 0; cur.kind === 'ref'; i++) {
    if (i > MAX_TYPE_NESTING) throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', `type (${p.kind === 'ref' ? p.name : '?'}) refers to itself`);
    const next = scope.types.get(cur.name);
    if (!next) throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', `unknown type (${cur.name})`);
    cur = next;
  }
  return cur as ResolvedPattern;
}

export function lookupType(name: string, scope: Scope): ResolvedPattern {
  return resolve({ kind: 'ref', name }, scope);
}

/**
 * `specmatic_type="T"`: the element keeps its own name, and takes attributes,
 * content and namespace declarations from the root of T (`<SPECMATIC_TYPE>`).
 */
export function effectiveElement(p: XmlElementPattern, scope: Scope): XmlElementPattern {
  if (!p.typeRef) return p;
  const t = lookupType(p.typeRef, scope);
  if (t.kind !== 'xml') throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', `specmatic_type="${p.typeRef}" on <${p.name}> names a type that is not an XML node`);
  const base = effectiveElement(t, scope);
  return {
    ...p,
    typeRef: undefined,
    namespaces: [...p.namespaces, ...base.namespaces],
    attributes: [...p.attributes, ...base.attributes],
    content: base.content,
  };
}

/** One place in an element's child sequence: an element that occurs once, maybe, or many times. */
export interface ElementSlot {
  kind: 'element';
  pattern: XmlElementPattern;
  min: 0 | 1;
  max: 1 | typeof Infinity;
}

export interface TextSlot {
  kind: 'text';
  pattern: Pattern;
}

export type Slot = ElementSlot | TextSlot;

function combine(a: Occurs, b: Occurs): Occurs {
  if (a === 'multiple' || b === 'multiple') return 'multiple';
  if (a === 'optional' || b === 'optional') return 'optional';
  return 'once';
}

/**
 * Slots computed once per (content, scope) pair: patterns and scopes are plain data that
 * nothing changes after a contract is built, and the stub asks this for every element of
 * every request. Weak maps, so patterns and scopes that go away take their entries along.
 * The array returned is shared: read it, never change it.
 */
const slotCache = new WeakMap<Scope, WeakMap<readonly XmlContent[], readonly Slot[]>>();

/** Expands an element's content (refs included) into the slots its children must fill in order. */
export function contentSlots(content: readonly XmlContent[], scope: Scope): readonly Slot[] {
  let byContent = slotCache.get(scope);
  if (!byContent) {
    byContent = new WeakMap();
    slotCache.set(scope, byContent);
  }
  let slots = byContent.get(content);
  if (!slots) {
    slots = expandSlots(content, scope);
    byContent.set(content, slots);
  }
  return slots;
}

function expandSlots(content: readonly XmlContent[], scope: Scope): Slot[] {
  const slots: Slot[] = [];
  for (const c of content) {
    if (c.kind === 'xml') {
      slots.push(elementSlot(c, c.occurs));
    } else if (c.kind === 'xml-text') {
      slots.push({ kind: 'text', pattern: c.pattern });
    } else {
      const target = lookupType(c.name, scope);
      if (target.kind === 'xml') slots.push(elementSlot(target, combine(c.occurs, target.occurs)));
      else slots.push({ kind: 'text', pattern: c.occurs === 'once' ? target : { kind: 'optional', inner: target } });
    }
  }
  return slots;
}

function elementSlot(pattern: XmlElementPattern, occurs: Occurs): ElementSlot {
  return { kind: 'element', pattern, min: occurs === 'once' ? 1 : occurs === 'optional' ? 0 : 0, max: occurs === 'multiple' ? Infinity : 1 };
}
