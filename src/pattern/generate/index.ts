import { MAX_GENERATE_DEPTH, XML_NODE_BUDGET } from '../../limits';
import { AccordError, unreachable } from '../../errors';
import { serializeXml } from '../../xml/serialize';
import type { XmlAttribute, XmlElement, XmlNode } from '../../xml/tree';
import type { Random } from '../random';
import { words } from '../wildcard';
import { contentSlots, derivedElement, effectiveElement, followRefs, resolve, type ChoiceSlot, type NodeSlot, type Slot } from '../resolve';
import { matchJson, matchText } from '../match/index';
import { generateScalar } from '../scalars/facets';
import { occurs, ONCE } from '../occurs';
import { jsonOf, SCALARS } from '../scalars/index';
import { encodedAccessor, encodingInside, type EncodingScope } from './soap-encoding';
import type { Facets, Occurs, Pattern, Scope, XmlAttributePattern, XmlElementPattern, XmlWildcardPattern } from '../types';

/**
 * Generation: a value of the pattern's shape. Values come from `examples`
 * (Examples columns, by node, key or parameter name) where given, else from
 * the seeded Random, so the same seed gives the same value.
 */
export interface GenerateContext {
  scope: Scope;
  rng: Random;
  examples?: ReadonlyMap<string, string>;
  /** Repetitions made for `(X*)`: [min, max]. */
  repeat?: [number, number];
  /** Include optional parts (default true). */
  optional?: boolean;
  depth?: number;
  /**
   * XML elements still to make, shared by one
   * generated body: nested repetitions (a WSDL type tree with lists in lists)
   * would otherwise multiply into megabytes. Once spent, only required nodes are made.
   */
  budget?: { left: number };
  /** SOAP-encoding scope around the node being made (soap-encoding.ts): accessors carry their types. */
  encoding?: EncodingScope;
  /**
   * Told the characters of each Examples value put in the body, as it is put there: the stub bounds
   * an answer whose values came from the request (a `{{…}}` cell) and stops it by throwing.
   */
  placed?: (chars: number) => void;
  /** The xs:IDs of the body being made, shared by all of it (made at its root): each new, each IDREF one of them. */
  ids?: IdTable;
}

/** The IDs one generated body holds: those made, and those IDREFs named before any ID was made (the next IDs take them). */
export interface IdTable {
  made: Set<string>;
  list: string[];
  ahead: string[];
}

export function newIdTable(): IdTable {
  return { made: new Set(), list: [], ahead: [] };
}

export type BodyKind = 'xml' | 'json' | 'text';

export interface GeneratedBody {
  kind: BodyKind;
  text: string;
}

export function bodyKind(p: Pattern, scope: Scope): BodyKind {
  const r = resolve(p, scope);
  if (r.kind === 'xml') return 'xml';
  if (r.kind === 'object' || r.kind === 'array' || r.kind === 'list' || r.kind === 'dictionary') return 'json';
  if (r.kind === 'optional' || r.kind === 'lookup') return bodyKind(r.inner, scope);
  // A number body is sent as its text ("42"); true, false and null only mean something as JSON.
  if (r.kind === 'scalar' && (SCALARS[r.type].json === 'boolean' || SCALARS[r.type].json === 'null')) return 'json';
  return 'text';
}

export function generateBody(p: Pattern, ctx: GenerateContext): GeneratedBody {
  const kind = bodyKind(p, ctx.scope);
  if (kind === 'xml') {
    const nodes = generateXml(resolve(p, ctx.scope) as XmlElementPattern, ctx, true);
    return { kind, text: nodes.map(serializeXml).join('') };
  }
  if (kind === 'json') return { kind, text: JSON.stringify(generateJson(p, ctx)) };
  return { kind, text: generateText(p, ctx) };
}

export function generateText(p: Pattern, ctx: GenerateContext, key?: string): string {
  const example = key === undefined ? undefined : fittingTextExample(ctx, key, p);
  if (example !== undefined) return example;
  const r = resolve(p, ctx.scope);
  switch (r.kind) {
    case 'scalar':
      return r.type === 'xml-id' || r.type === 'xml-idref' ? idValue(r.type, r.facets, ctx) : generateScalar(r.type, r.facets, ctx.rng);
    case 'text-list':
      return Array.from({ length: listLength(r.facets, ctx) }, () => generateText(r.item, ctx)).join(' ');
    case 'union':
      return generateUnion(valuedMembers(r.members), ctx);
    case 'literal':
      return String(r.value ?? '');
    case 'enum':
      return ctx.rng.pick(r.values);
    case 'optional':
      return generateText(r.inner, ctx);
    case 'lookup':
      return ctx.examples?.has(r.key) ? placed(ctx, ctx.examples.get(r.key)!) : generateText(r.inner, ctx);
    case 'xml':
      return generateXml(r, ctx, true).map(serializeXml).join('');
    case 'list':
    case 'object':
    case 'array':
    case 'dictionary':
      return JSON.stringify(generateJson(r, ctx));
    default:
      return unreachable(r, 'pattern kind');
  }
}

export function generateJson(p: Pattern, ctx: GenerateContext, key?: string): unknown {
  const depth = ctx.depth ?? 0;
  if (depth > MAX_GENERATE_DEPTH) throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', 'type nesting too deep to generate (a recursive type with no way to stop?)');
  const inner: GenerateContext = { ...ctx, depth: depth + 1 };
  if (key !== undefined && ctx.examples?.has(key)) {
    // A column names a key wherever it appears; its value is used only where it fits the key's type.
    const fromExample = exampleValue(ctx.examples.get(key)!, p, ctx.scope, 'json');
    if (fromExample) {
      ctx.placed?.(ctx.examples.get(key)!.length);
      return fromExample.value;
    }
  }
  const r = resolve(p, ctx.scope);
  switch (r.kind) {
    case 'scalar':
      return jsonOf(r.type, generateScalar(r.type, r.facets, ctx.rng));
    case 'text-list':
    case 'union':
      return generateText(r, ctx);
    case 'literal':
      return r.value;
    case 'enum':
      return r.base === 'number' ? Number(ctx.rng.pick(r.values)) : ctx.rng.pick(r.values);
    case 'optional':
      return depth > MAX_GENERATE_DEPTH / 2 ? null : generateJson(r.inner, inner);
    case 'lookup':
      return ctx.examples?.has(r.key) ? exampleToJson(placed(ctx, ctx.examples.get(r.key)!), r.inner, ctx.scope) : generateJson(r.inner, inner);
    case 'list': {
      const n = depth > MAX_GENERATE_DEPTH / 2 ? 0 : repeatCount(ctx);
      return Array.from({ length: n }, () => generateJson(r.inner, inner));
    }
    case 'array':
      return r.items.flatMap((item) => {
        const ri = resolve(item, ctx.scope);
        if (ri.kind === 'list') return generateJson(ri, inner) as unknown[];
        return [generateJson(item, inner)];
      });
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const f of r.fields) {
        const example = ctx.examples?.get(f.key);
        if (f.optional && (ctx.optional === false || example === '' || depth > MAX_GENERATE_DEPTH / 2)) continue;
        out[f.key] = generateJson(f.pattern, inner, f.key);
      }
      return out;
    }
    case 'dictionary': {
      const out: Record<string, unknown> = {};
      // Past half the depth budget, stop recursive types with the smallest value they allow.
      if (depth <= MAX_GENERATE_DEPTH / 2) out[generateText(r.key, inner)] = generateJson(r.value, inner);
      return out;
    }
    case 'xml':
      return generateXml(r, ctx, true).map(serializeXml).join('');
    default:
      return unreachable(r, 'pattern kind');
  }
}

/** An Examples cell as a JSON value of the pattern's type ("10" for (number) is 10). */
function exampleToJson(cell: string, p: Pattern, scope: Scope): unknown {
  if (cell === '') return undefined;
  const f = followRefs(p, (n) => scope.types.get(n), { lookup: true, optional: true });
  if (f.error) return cell;
  const r = f.p;
  if (cell === 'null' && (p.kind === 'optional' || (r.kind === 'scalar' && r.type === 'null'))) return null;
  if (r.kind === 'scalar') return jsonOf(r.type, cell);
  if (r.kind === 'enum' && r.base === 'number' && !Number.isNaN(Number(cell))) return Number(cell);
  if (r.kind === 'object' || r.kind === 'array' || r.kind === 'list' || r.kind === 'dictionary') {
    try {
      return JSON.parse(cell);
    } catch {
      return cell;
    }
  }
  return cell;
}

/** How many items a `(list T)` gets: its length facets, else as many as a repetition. */
function listLength(f: Facets | undefined, ctx: GenerateContext): number {
  if (f?.length !== undefined) return f.length;
  const n = repeatCount(ctx);
  return Math.min(Math.max(n, f?.minLength ?? 1), f?.maxLength ?? Infinity);
}

function repeatCount(ctx: GenerateContext): number {
  const [min, max] = ctx.repeat ?? [1, 3];
  return ctx.rng.int(min, max);
}

/** The nodes an element pattern stands for: none, one or several, by its occurrence. */
export function generateXml(p: XmlElementPattern, ctx: GenerateContext, root = false): XmlElement[] {
  const depth = ctx.depth ?? 0;
  if (depth > MAX_GENERATE_DEPTH * 4) throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', `<${p.name}> nests too deep to generate (a recursive type with no way to stop?)`);
  const eff = effectiveElement(p, ctx.scope);
  const budget = ctx.budget ?? { left: XML_NODE_BUDGET };
  const ids = ctx.ids ?? newIdTable();
  const count = root ? 1 : occurrences(p, eff.local, ctx, depth, budget);
  budget.left -= count;
  const out: XmlElement[] = [];
  for (let i = 0; i < count; i++) {
    const inner = { ...ctx, depth: depth + 1, budget, ids };
    if (!eff.abstract) out.push(generateOneElement(eff, inner));
    else {
      // No instance of an abstract type is valid: each names a derived type with xsi:type.
      const d = eff.derived?.length ? ctx.rng.pick(eff.derived) : undefined;
      out.push(d ? generateOneElement(derivedElement(p, d.type, ctx.scope), inner, xsiTypeAttributes(d.xsiType)) : generateOneElement(eff, inner));
    }
  }
  return out;
}

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** `xsi:type="tns:Circle"`, with the xsi prefix declared on the element itself (nothing else in the body need declare it). */
/**
 * An xs:ID or xs:IDREF of the body (XSD 1.0 part 2, 3.3.8–3.3.9): an ID no other of the body has
 * (a drawn name, numbered on when it is taken), an IDREF one of the IDs made so far; an IDREF met
 * before any ID names the next ID to be made, which then takes that name. Outside a body (no table)
 * a plain name.
 */
function idValue(type: 'xml-id' | 'xml-idref', facets: Facets | undefined, ctx: GenerateContext): string {
  const ids = ctx.ids;
  if (!ids) return generateScalar(type, facets, ctx.rng);
  const fresh = () => {
    const drawn = generateScalar(type, facets, ctx.rng);
    let v = drawn;
    for (let n = 2; ids.made.has(v) || ids.ahead.includes(v); n++) v = `${drawn}${n}`;
    return v;
  };
  if (type === 'xml-idref') {
    if (ids.list.length > 0) return ctx.rng.pick(ids.list);
    if (ids.ahead.length === 0) ids.ahead.push(fresh());
    return ids.ahead[0];
  }
  const v = ids.ahead.shift() ?? fresh();
  ids.made.add(v);
  ids.list.push(v);
  return v;
}

function xsiTypeAttributes(qname: string): XmlAttribute[] {
  return [
    { name: 'xmlns:xsi', prefix: 'xmlns', local: 'xsi', value: XSI_NS },
    { name: 'xsi:type', prefix: 'xsi', local: 'type', value: qname },
  ];
}

function generateOneElement(p: XmlElementPattern, ctx: GenerateContext, extra: XmlAttribute[] = []): XmlElement {
  const encoding = encodingInside(p, ctx.encoding);
  const attributes: XmlAttribute[] = p.namespaces.map((n) => attribute(n.name, n.value));
  for (const n of encoding.declare) if (!extra.some((e) => e.name === n.name)) attributes.push(attribute(n.name, n.value));
  attributes.push(...extra);
  for (const a of p.attributes) {
    const value = attributeValue(a, ctx);
    if (value !== undefined) attributes.push(attribute(a.name, value));
  }
  const accessor = encoding.scope ? encodedAccessor(p, ctx.scope, encoding.scope, extra.length > 0) : undefined;
  if (accessor?.type) attributes.push(attribute(...accessor.type));
  const inner = encoding.scope === ctx.encoding ? ctx : { ...ctx, encoding: encoding.scope };
  const children = generateSlots(contentSlots(p.content, ctx.scope), p.local, inner);
  if (accessor?.array) for (const [name, value] of accessor.array(children.filter((c) => c.type === 'element').length)) attributes.push(attribute(name, value));
  return { type: 'element', name: p.name, prefix: p.prefix, local: p.local, attributes, children };
}

function attribute(name: string, value: string): XmlAttribute {
  return { name, ...split(name), value };
}

function generateSlots(slots: readonly Slot[], local: string, ctx: GenerateContext): XmlNode[] {
  const children: XmlNode[] = [];
  for (const slot of slots) {
    if (slot.kind === 'text') {
      const value = elementText(local, slot.pattern, ctx);
      if (value !== '') children.push({ type: 'text', value });
    } else if (slot.kind === 'element') children.push(...generateXml(slotElement(slot), ctx));
    else if (slot.kind === 'any') {
      // Optional wildcards are left out; a required one gets its first declared element (valid for a strict
      // validator), else elements its namespace constraint allows.
      const declared = slot.wildcard.elements?.[0];
      for (let i = 0; i < slot.min; i++) children.push(...(declared ? generateXml({ ...declared, occurs: ONCE }, ctx) : [wildcardElement(slot.wildcard)]));
    } else {
      const depth = ctx.depth ?? 0;
      const budget = ctx.budget ?? { left: XML_NODE_BUDGET };
      const n = countOf(slot, undefined, ctx, depth, budget);
      for (let i = 0; i < n; i++) children.push(...generateSlots(chooseOption(slot, ctx), local, ctx));
    }
  }
  return children;
}

/**
 * The option a generated choice takes: the first whose nodes an Examples column names
 * (a row that gives `card` asks for the card option), else one picked with the seed.
 */
function chooseOption(slot: ChoiceSlot, ctx: GenerateContext): NodeSlot[] {
  const named = (o: readonly NodeSlot[]): boolean =>
    o.some((s) => (s.kind === 'element' ? ctx.examples?.has(s.pattern.local) && ctx.examples.get(s.pattern.local) !== '' : s.kind === 'choice' && s.options.some(named)));
  if (ctx.examples?.size) for (const o of slot.options) if (named(o)) return o;
  return ctx.rng.pick(slot.options);
}

/** A namespace the wildcard's constraint allows, other than the ones it names by way of the target (`##other`). */
function wildcardNamespace(w: XmlWildcardPattern): string {
  const tns = w.targetNamespace ?? '';
  for (const token of words(w.namespace)) {
    if (token === '##any' || token === '##other') return tns === WILDCARD_NS ? `${WILDCARD_NS}:other` : WILDCARD_NS;
    if (token === '##local') return '';
    if (token === '##targetNamespace') return tns;
    return token;
  }
  return WILDCARD_NS;
}

/** The namespace of elements generated for a wildcard that allows any other: one no schema declares, so lax and skip wildcards take them as they are. */
const WILDCARD_NS = 'urn:accord:any';

function wildcardElement(w: XmlWildcardPattern): XmlElement {
  const ns = wildcardNamespace(w);
  return { type: 'element', name: 'any', prefix: '', local: 'any', attributes: [{ name: 'xmlns', prefix: '', local: 'xmlns', value: ns }], children: [] };
}

/*
 * The decisions generation makes at each XML node, exported so the stub's
 * compiled templates (stub/answer/template.ts) make them through the same functions
 * and cannot drift from this generator.
 */

/**
 * How many times a non-root element occurs: its occurrence, an empty Examples cell, the depth and the body's node budget decide.
 * An optional node that may hold anything and nothing else (`(anything)`: a declaration the importer could not
 * find, an `xs:anyType`) is left out unless an Examples cell gives it, as an optional wildcard is: made up, its
 * text is what the real declaration most likely refuses (`<ds:Signature>bravo5</ds:Signature>`), and left out it is valid.
 */
export function occurrences(p: XmlElementPattern, local: string, ctx: GenerateContext, depth: number, budget: { left: number }): number {
  if (p.occurs.min === 0 && holdsOnlyAnything(p) && !ctx.examples?.get(local)) return 0;
  return countOf(p.occurs, local, ctx, depth, budget);
}

/** An element of no declared type, with no attributes, whose whole content is `(anything)`. */
function holdsOnlyAnything(p: XmlElementPattern): boolean {
  if (p.typeRef !== undefined || p.attributes.length > 0 || p.content.length !== 1) return false;
  const c = p.content[0];
  return c.kind === 'xml-text' && c.pattern.kind === 'scalar' && c.pattern.type === 'anything';
}

/** How many times a node or a choice with these bounds is made (`local`: the node's name, whose empty Examples cell leaves an optional node out). */
function countOf({ min, max }: Occurs, local: string | undefined, ctx: GenerateContext, depth: number, budget: { left: number }): number {
  if (min === max) return min;
  // Past the depth or the node budget only what is required is made; a required repeated node still comes `min` times.
  if (depth > MAX_GENERATE_DEPTH || budget.left <= 0) return min;
  if (max === 1) return ctx.optional === false || (local !== undefined && ctx.examples?.get(local) === '') ? 0 : 1;
  return Math.min(max, Math.max(min, repeatCount(ctx)));
}

/** An attribute's value, or undefined when an optional attribute is left out (an empty Examples cell). */
export function attributeValue(a: XmlAttributePattern, ctx: GenerateContext): string | undefined {
  if (a.optional && ctx.examples?.get(a.local) === '') return undefined;
  return generateText(a.pattern, ctx, a.local);
}

/** An element's text: the Examples cell for the element's name where it fits, else a generated value. */
export function elementText(local: string, p: Pattern, ctx: GenerateContext): string {
  const example = fittingTextExample(ctx, local, p);
  return example !== undefined && example !== '' ? example : generateText(p, ctx);
}

/** A child slot as the element it generates: its bounds as an occurrence. */
export function slotElement(slot: { pattern: XmlElementPattern; min: number; max: number }): XmlElementPattern {
  return { ...slot.pattern, occurs: occurs(slot.min, slot.max) };
}

/**
 * The Examples value for a node, header or parameter named `key`, when it fits
 * the pattern there. A column names every node of that name, at any depth, so a
 * value that does not fit one of them (an `id` of 12 where an `id` is a uuid) is
 * left for the nodes it fits and a value of the declared type is generated here.
 */
function fittingTextExample(ctx: GenerateContext, key: string, p: Pattern): string | undefined {
  const value = ctx.examples?.get(key);
  if (value === undefined) return undefined;
  return exampleValue(value, p, ctx.scope, 'text') ? placed(ctx, value) : undefined;
}

/** An Examples value as it is put in the body, told to `ctx.placed`. */
function placed(ctx: GenerateContext, value: string): string {
  ctx.placed?.(value.length);
  return value;
}

/**
 * An Examples cell as the value it stands for where pattern `p` is ('text': XML
 * text, a header, a parameter; 'json': a JSON value, "10" being 10 for a
 * (number)), or undefined when it does not fit there. Generation uses a cell
 * only where this gives a value, and contract reading (check-examples.ts)
 * refuses a cell for which it gives none anywhere: one rule for both.
 */
export function exampleValue(cell: string, p: Pattern, scope: Scope, form: 'text' | 'json'): { value: unknown } | undefined {
  if (form === 'text') return matchText(p, cell, scope).length === 0 ? { value: cell } : undefined;
  const value = exampleToJson(cell, p, scope);
  return value !== undefined && matchJson(p, value, scope).length === 0 ? { value } : undefined;
}

function split(name: string): { prefix: string; local: string } {
  const i = name.indexOf(':');
  return i < 0 ? { prefix: '', local: name } : { prefix: name.slice(0, i), local: name.slice(i + 1) };
}

/**
 * A value of one member, drawn at random. A member may have no value at all (an imported union restricted by a
 * pattern puts the pattern on every member, and `(date pattern="[A-Z]+")` has none), so a value its member refuses
 * gives way to another member's; the first draw stands when no member's value fits.
 */
function generateUnion(members: Pattern[], ctx: GenerateContext): string {
  const start = ctx.rng.int(0, members.length - 1);
  let first: string | undefined;
  for (let i = 0; i < members.length; i++) {
    const m = members[(start + i) % members.length];
    const value = generateText(m, ctx);
    if (matchText(m, value, ctx.scope).length === 0) return value;
    first ??= value;
  }
  return first!;
}

/** A union's members other than `(empty)`, when it has any: `(int | empty)` (an element with a default) is generated as a number. */
function valuedMembers(members: Pattern[]): Pattern[] {
  const valued = members.filter((m) => !(m.kind === 'scalar' && m.type === 'empty'));
  return valued.length > 0 ? valued : members;
}
