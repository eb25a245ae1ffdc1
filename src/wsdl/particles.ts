/**
 * XSD particles to child nodes: sequence, all, choice (a `<specmatic_choice>`),
 * group references, wildcards (xsd:any as `<specmatic_any/>`), local elements,
 * element refs with their substitution groups (a choice of the members), and
 * refs to the XSD namespace (a .NET DataSet's inline schema);
 * exact occurrence bounds from minOccurs/maxOccurs.
 */
import { MAX_OCCURS_BOUND, MAX_TYPE_NESTING } from '../limits';
import { wildcardAllows, words } from '../pattern/wildcard';
import { combineOccurs, isOnce, occurs as bounds, ONCE } from '../pattern/occurs';
import type { XmlElementPattern, XmlWildcardPattern } from '../pattern/types';
import type { Element } from '@xmldom/xmldom';
import { attr, kid, kids, NS, qkey, resolveQName, type QName } from './dom';
import { attributes } from './attributes';
import { comment, element, isComment, type Child, type CommentNode, type Content, type EmitContext, type Occurs } from './emit-context';
import { isXmlName, qualified } from './names';
import type { Decl } from './xsd';
import { substitutable } from './blocking';

interface Particle {
  nodes: Child[];
  /** The content cannot be told (a group not found or containing itself): the element's content is (anything). */
  wildcard: boolean;
}

/** The particles and attributes declared directly in `owner` (a complexType, extension or restriction). */
export function particlesAndAttributes(e: EmitContext, owner: Element, hint: string): Content {
  const children: Child[] = [];
  let wildcard = false;
  // xs:all (XSD 1.0: the whole content model, each element at most once): its elements in any order.
  let all = false;
  for (const p of kids(owner, NS.xsd, ['sequence', 'all', 'choice', 'group'])) {
    const r = particle(e, p, hint);
    children.push(...r.nodes);
    wildcard ||= r.wildcard;
    all ||= p.localName === 'all';
  }
  const attrs = attributes(e, owner);
  const anyAttribute = anyAttributeOf(e, owner);
  if (wildcard) return { attrs, children: [], text: e.anything(), anyAttribute };
  return { attrs, children, anyAttribute, ...(all ? { anyOrder: true } : {}) };
}

/** xs:anyAttribute directly in `owner` or in an attribute group it references: its namespace constraint. */
function anyAttributeOf(e: EmitContext, owner: Element, seen = new Set<string>()): string | undefined {
  const own = kid(owner, NS.xsd, 'anyAttribute');
  if (own) return attr(own, 'namespace') ?? '##any';
  for (const g of kids(owner, NS.xsd, 'attributeGroup')) {
    const ref = attr(g, 'ref');
    const found = ref ? e.index.find('attributeGroup', resolveQName(g, ref)) : undefined;
    if (!found || seen.has(qkey(found.name))) continue;
    seen.add(qkey(found.name));
    const inner = anyAttributeOf(e, found.el, seen);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** A particle's nodes: its occurrence is on the nodes themselves, or on a group around them. */
function particle(e: EmitContext, p: Element, hint: string): Particle {
  const occurs = occursOf(p);
  if (occurs === 'none') return { nodes: [], wildcard: false };
  switch (p.localName) {
    case 'element': {
      const ref = attr(p, 'ref');
      if (ref) {
        const q = resolveQName(p, ref);
        if (q.ns === NS.xsd) return { nodes: inlineSchema(q, occurs), wildcard: false };
        return { nodes: elementRef(e, q, occurs), wildcard: false };
      }
      return { nodes: [e.elementNode(p, undefined, occurs)], wildcard: false };
    }
    case 'any': {
      const pc = attr(p, 'processContents');
      const w = wildcardNode(occurs, normalised(attr(p, 'namespace') ?? '##any'), e.schemaTns(p), pc === 'lax' || pc === 'skip' ? pc : 'strict');
      const declared = w.processContents === 'strict' && w.occurs.min > 0 ? declaredFor(e, w) : undefined;
      return { nodes: [declared ? { ...w, elements: [declared] } : w], wildcard: false };
    }
    case 'sequence':
    case 'all':
      return repeated(sequenceOf(e, kids(p, NS.xsd, ['element', 'any', 'sequence', 'choice', 'group', 'all']), hint), occurs);
    case 'choice': {
      const options: Exclude<Child, CommentNode>[][] = [];
      let wildcard = false;
      for (const c of kids(p, NS.xsd, ['element', 'any', 'sequence', 'choice', 'group'])) {
        const r = particle(e, c, hint);
        wildcard ||= r.wildcard;
        options.push(r.nodes.filter((n): n is Exclude<Child, CommentNode> => !isComment(n)));
      }
      if (options.length === 0) return { nodes: [], wildcard };
      if (options.length === 1) return repeated({ nodes: options[0], wildcard }, occurs);
      return { nodes: [{ kind: 'xml-choice', options, occurs }], wildcard };
    }
    case 'group': {
      const ref = attr(p, 'ref');
      if (!ref) return { nodes: [], wildcard: false };
      const q = resolveQName(p, ref);
      const g = e.index.find('group', q);
      if (!g) {
        e.missing(`group {${q.ns}}${q.local}`, `group {${q.ns}}${q.local} not found: its place is marked (anything)`);
        return { nodes: [], wildcard: true };
      }
      const key = `group${qkey(g.name)}`;
      if (e.stack.includes(key) || e.stack.length > MAX_TYPE_NESTING) {
        // XSD forbids a group that contains itself; accept the schema, say so, and stop here.
        e.note(`group {${q.ns}}${q.local} contains itself (not allowed in XSD): the inner occurrence is marked (anything)`);
        return { nodes: [], wildcard: true };
      }
      e.stack.push(key);
      try {
        return repeated(sequenceOf(e, kids(g.el, NS.xsd, ['sequence', 'choice', 'all']), hint), occurs);
      } finally {
        e.stack.pop();
      }
    }
    default:
      return { nodes: [], wildcard: false };
  }
}

function sequenceOf(e: EmitContext, particles: Element[], hint: string): Particle {
  const nodes: Child[] = [];
  let wildcard = false;
  for (const c of particles) {
    const r = particle(e, c, hint);
    nodes.push(...r.nodes);
    wildcard ||= r.wildcard;
  }
  return { nodes, wildcard };
}

/**
 * A group of nodes that occurs `occurs` times: one node takes the bounds itself (multiplied with its
 * own), several become a choice of one option (`<specmatic_choice>` with one `<specmatic_option>`),
 * so `(a, b)*` stays a repetition of the pair rather than `a*, b*`.
 */
function repeated(r: Particle, occurs: Occurs): Particle {
  if (isOnce(occurs)) return r;
  const real = r.nodes.filter((n): n is Exclude<Child, CommentNode> => !isComment(n));
  if (real.length === 0) return r;
  if (real.length === 1) return { ...r, nodes: r.nodes.map((n) => (isComment(n) ? n : { ...n, occurs: combineOccurs(occurs, n.occurs) })) };
  return { ...r, nodes: [{ kind: 'xml-choice', options: [real], occurs }] };
}

/**
 * `<s:element ref="s:schema"/>`: an inline XML Schema, in .NET DataSets the description of the table that
 * follows (as a `diffgr:diffgram`, which the `<s:any/>` after it takes). Its declaration is the schema for
 * schemas, which accord does not hold and a contract has no use for: any element of the XSD namespace is
 * accepted there unchecked (skip), and an empty `<xs:schema/>` generated (a valid schema; .NET reads it as
 * a DataSet without tables).
 */
function inlineSchema(q: QName, occurs: Occurs): Child[] {
  // Declared on the element, as .NET writes it: the contract's envelopes need not carry the XSD namespace.
  const schema = element(`xs:${isXmlName(q.local) ? q.local : 'schema'}`, { namespaces: [{ name: 'xmlns:xs', value: NS.xsd }] });
  const w: XmlWildcardPattern = { ...wildcardNode(occurs, NS.xsd, undefined, 'skip'), elements: [schema] };
  return [comment(`an inline XML Schema, not checked (in a .NET DataSet it describes the data that follows, a diffgr:diffgram)`), w];
}

function wildcardNode(occurs: Occurs, namespace: string, targetNamespace: string | undefined, processContents: XmlWildcardPattern['processContents']): XmlWildcardPattern {
  // The target namespace only where the constraint refers to it: a contract reader has nothing to make of it elsewhere.
  const refers = targetNamespace !== undefined && words(namespace).some((w) => w === '##other' || w === '##targetNamespace');
  return { kind: 'xml-any', occurs, namespace, ...(refers ? { targetNamespace } : {}), processContents };
}

/**
 * A global element a required strict wildcard can be filled with, so generated messages stay valid
 * for a strict validator: one of an allowed namespace, not abstract, preferring one of simple content
 * (it cannot hold the wildcard again). Undefined when the schemas declare none.
 */
function declaredFor(e: EmitContext, w: XmlWildcardPattern): XmlElementPattern | undefined {
  const allowed = e.index.globalElements().filter((d) => wildcardAllows(w, d.name.ns) && attr(d.el, 'abstract') !== 'true' && isXmlName(d.name.local));
  const simple = allowed.find((d) => !kid(d.el, NS.xsd, 'complexType') && !namedComplex(e, d));
  const pick = simple ?? allowed[0];
  if (!pick) {
    e.note(`a required strict xs:any allows no element the schemas declare: it is generated as an element of no schema`);
    return undefined;
  }
  const node = e.elementNode(pick.el, pick, ONCE);
  return isComment(node) || node.kind !== 'xml' ? undefined : node;
}

function namedComplex(e: EmitContext, d: Decl): boolean {
  const t = attr(d.el, 'type');
  if (!t) return false;
  const found = e.index.find('type', resolveQName(d.el, t));
  return found !== undefined && found.el.localName === 'complexType';
}

/** A namespace list on one line, single spaces (it is written into a contract attribute). */
function normalised(list: string): string {
  return words(list).join(' ');
}

/**
 * `ref=` to a global element. With a substitution group, the head (unless
 * abstract) and every member are written in turn, each optional (or
 * repeated): any one of them is accepted in that place.
 */
function elementRef(e: EmitContext, q: QName, occurs: Occurs): Child[] {
  const decl = e.index.find('element', q);
  if (!decl) return [e.unresolvedNode(qualified(e.prefixFor(q.ns), q.local), q, 'element', occurs)];
  const members = substitutionMembers(e, decl).filter((m) => substitutable(e, decl, m));
  if (members.length === 0) return [e.elementNode(decl.el, decl, occurs)];
  const alts = [...(attr(decl.el, 'abstract') === 'true' ? [] : [decl]), ...members];
  if (alts.length === 0) {
    e.note(`element ${decl.name.local} is abstract and nothing substitutes for it: marked (anything)`);
    return [e.finish(qualified(e.prefixFor(decl.name.ns), decl.name.local), undefined, { attrs: [], children: [], text: e.anything() }, occurs, false)];
  }
  if (alts.length === 1) return [e.elementNode(alts[0].el, alts[0], occurs)];
  // Any member stands where the head is: a choice of them, each occurrence one member.
  const options = alts.map((d) => e.elementNode(d.el, d, ONCE)).flatMap((n) => (isComment(n) ? [] : [[n]]));
  return [comment(`substitution group ${decl.name.local}`), { kind: 'xml-choice', options, occurs }];
}

function substitutionMembers(e: EmitContext, head: Decl, seen = new Set<string>()): Decl[] {
  const out: Decl[] = [];
  for (const m of e.index.substitutes.get(qkey(head.name)) ?? []) {
    const k = qkey(m.name);
    if (seen.has(k)) continue;
    seen.add(k);
    if (attr(m.el, 'abstract') !== 'true') out.push(m);
    out.push(...substitutionMembers(e, m, seen));
  }
  return out;
}

/** Occurrence of a particle from its minOccurs/maxOccurs. */
function occursOf(el: Element): Occurs | 'none' {
  const max = bound(attr(el, 'maxOccurs'), Infinity);
  if (max === 0) return 'none';
  // A minOccurs above maxOccurs is an invalid schema: its maxOccurs is kept.
  const min = Math.min(bound(attr(el, 'minOccurs'), MAX_OCCURS_BOUND), max);
  return bounds(min, max);
}

/** minOccurs/maxOccurs as a number: absent is 1; "unbounded" is Infinity; counts beyond MAX_OCCURS_BOUND are `beyond`. */
function bound(v: string | undefined, beyond: number): number {
  if (v === undefined) return 1;
  const t = v.trim();
  if (t === 'unbounded') return Infinity;
  const n = Number(t);
  if (!Number.isInteger(n) || n < 0) return 1;
  return n > MAX_OCCURS_BOUND ? beyond : n;
}
