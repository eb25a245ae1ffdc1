import { MAX_TYPE_NESTING } from '../limits';
import { combineOccurs, isOnce } from './occurs';
import { AccordError, unreachable } from '../errors';
import type { Occurs, Pattern, ResolvedPattern, Scope, XmlContent, XmlElementPattern, XmlWildcardPattern } from './types';

/** What `followRefs` looks a name up in: a scope's types, or a contract being read (contract/build.ts). */
export type TypeLookup = (name: string) => Pattern | undefined;

export interface Followed {
  p: Pattern;
  /** The last type name passed through (compare.ts memoises compared pairs by it). */
  name?: string;
}

/**
 * The one walk along `(Name)` refs, every other ref-following goes through here.
 * `through` also steps into `(name:type)` lookups and `(X?)` optionals for callers
 * that care about the value's type only. An unknown name or a cycle is reported
 * as `error`, and the caller decides whether that is a contract error.
 */
export function followRefs(p: Pattern, types: TypeLookup, through: { lookup?: boolean; optional?: boolean } = {}): Followed & { error?: 'unknown' | 'circular' } {
  let name: string | undefined;
  let cur = p;
  for (let i = 0; ; i++) {
    if (cur.kind === 'lookup' && through.lookup) cur = cur.inner;
    else if (cur.kind === 'optional' && through.optional) cur = cur.inner;
    else if (cur.kind !== 'ref') return { p: cur, name };
    else {
      if (i > MAX_TYPE_NESTING) return { p: cur, name: cur.name, error: 'circular' };
      const next = types(cur.name);
      if (!next) return { p: cur, name: cur.name, error: 'unknown' };
      name = cur.name;
      cur = next;
    }
  }
}

/** Follows `(Name)` refs to the pattern they name; an unknown or circular name is a contract error. */
export function resolve(p: Pattern, scope: Scope): ResolvedPattern {
  return followed(p, scope, {}).p as ResolvedPattern;
}

/** followRefs over a scope, an unknown or circular name thrown as a contract error. */
export function followed(p: Pattern, scope: Scope, through: { lookup?: boolean; optional?: boolean }): Followed {
  const f = followRefs(p, (n) => scope.types.get(n), through);
  if (f.error === 'circular') throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', `type (${p.kind === 'ref' ? p.name : f.name}) refers to itself`);
  if (f.error === 'unknown') throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', `unknown type (${f.name})`);
  return f;
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
    ...(base.anyAttribute !== undefined ? { anyAttribute: p.anyAttribute ?? base.anyAttribute } : {}),
    ...(base.derived ? { derived: p.derived ?? base.derived } : {}),
    ...(base.abstract ? { abstract: true } : {}),
    ...(base.anyOrder ? { anyOrder: true } : {}),
    content: base.content,
  };
}

/**
 * The element an instance naming `xsi:type` local name `xsiType` stands for: p as declared, or the derived
 * type the name picks from p's `specmatic_derived`; `abstract` when p's type is abstract and the name picks
 * none (no instance of it is valid). `p` as written, before effectiveElement.
 */
export function instanceElement(p: XmlElementPattern, xsiType: string | undefined, scope: Scope): XmlElementPattern | 'abstract' {
  const eff = effectiveElement(p, scope);
  if (!eff.derived && !eff.abstract) return eff;
  const d = xsiType === undefined ? undefined : eff.derived?.find((x) => x.local === xsiType);
  if (d) return derivedElement(p, d.type, scope);
  return eff.abstract ? 'abstract' : eff;
}

/** p as an instance of derived type `type`: its own name and occurrence, the derived type's attributes and content. */
export function derivedElement(p: XmlElementPattern, type: string, scope: Scope): XmlElementPattern {
  // Without a specmatic_type, p's attributes are its type's, which the derived type restates.
  const { derived: _d, abstract: _a, ...rest } = p;
  return effectiveElement({ ...rest, ...(p.typeRef ? {} : { attributes: [] }), typeRef: type }, scope);
}

/** One place in an element's child sequence: an element that occurs once, maybe, or many times. */
export interface ElementSlot {
  kind: 'element';
  pattern: XmlElementPattern;
  min: number;
  max: number;
}

export interface TextSlot {
  kind: 'text';
  pattern: Pattern;
}

/** `xs:any`: any element(s) within bounds and the namespace constraint. */
export interface AnySlot {
  kind: 'any';
  wildcard: XmlWildcardPattern;
  min: number;
  max: number;
}

/** `xs:choice`: per occurrence, exactly one option's node slots. */
export interface ChoiceSlot {
  kind: 'choice';
  options: NodeSlot[][];
  min: number;
  max: number;
}

export type NodeSlot = ElementSlot | AnySlot | ChoiceSlot;
export type Slot = NodeSlot | TextSlot;

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
    switch (c.kind) {
      case 'xml':
        slots.push(elementSlot(c, c.occurs));
        break;
      case 'xml-text':
        slots.push({ kind: 'text', pattern: c.pattern });
        break;
      case 'xml-any':
        slots.push({ kind: 'any', wildcard: c, min: c.occurs.min, max: c.occurs.max });
        break;
      case 'xml-choice':
        // Text inside an option means nothing (a choice is of elements): left out.
        slots.push({ kind: 'choice', options: c.options.map((o) => expandSlots(o, scope).filter((x): x is NodeSlot => x.kind !== 'text')), min: c.occurs.min, max: c.occurs.max });
        break;
      case 'xml-ref': {
        const target = lookupType(c.name, scope);
        if (target.kind === 'xml') slots.push(elementSlot(target, combineOccurs(c.occurs, target.occurs)));
        else slots.push({ kind: 'text', pattern: isOnce(c.occurs) ? target : { kind: 'optional', inner: target } });
        break;
      }
      default:
        unreachable(c, 'XML content kind');
    }
  }
  return slots;
}

function elementSlot(pattern: XmlElementPattern, occurs: Occurs): ElementSlot {
  return { kind: 'element', pattern, min: occurs.min, max: occurs.max };
}
