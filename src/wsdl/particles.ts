import { MAX_TYPE_NESTING } from '../limits';
import { combineOccurs, isOnce, MULTIPLE, occurs as bounds, ONCE, OPTIONAL } from '../pattern/occurs';
import { MAX_OCCURS_BOUND } from '../limits';
/**
 * XSD particles to child nodes: sequence, all, choice, group references,
 * wildcards (xsd:any), local elements, and element refs with their
 * substitution groups; occurrence from minOccurs/maxOccurs.
 */
import type { Element } from '@xmldom/xmldom';
import { attr, kids, NS, qkey, resolveQName, type QName } from './dom';
import { attributes } from './attributes';
import { comment, isComment, type Child, type Content, type EmitContext, type Occurs } from './emit-context';
import { qualified } from './names';
import type { Decl } from './xsd';

interface Particle {
  nodes: Child[];
  wildcard: boolean;
  optionalWildcard?: boolean;
}

/** The particles and attributes declared directly in `owner` (a complexType, extension or restriction). */
export function particlesAndAttributes(e: EmitContext, owner: Element, hint: string): Content {
  const children: Child[] = [];
  let wildcard = false;
  let openOnly = false;
  for (const p of kids(owner, NS.xsd, ['sequence', 'all', 'choice', 'group'])) {
    const r = particle(e, p, ONCE, hint);
    children.push(...r.nodes);
    wildcard ||= r.wildcard;
    openOnly ||= !!r.optionalWildcard;
  }
  const attrs = attributes(e, owner);
  // Nothing but a wildcard: the content is anything at all.
  if (wildcard || (openOnly && children.every(isComment))) return { attrs, children: [], text: e.anything() };
  return { attrs, children };
}

function particle(e: EmitContext, p: Element, outer: Occurs, hint: string): Particle {
  const occurs = occursOf(p, outer);
  if (occurs === 'none') return { nodes: [], wildcard: false };
  switch (p.localName) {
    case 'element': {
      const ref = attr(p, 'ref');
      if (ref) {
        const q = resolveQName(p, ref);
        // <s:element ref="s:schema"/> (.NET DataSet): an inline schema, i.e. any content.
        if (q.ns === NS.xsd) return { nodes: [], wildcard: true };
        return { nodes: elementRef(e, q, occurs, p), wildcard: false };
      }
      return { nodes: [e.elementNode(p, undefined, occurs)], wildcard: false };
    }
    case 'any':
      // An optional wildcard (the usual extension point after declared elements) is left out; a required one makes the content (anything).
      if (isOnce(occurs)) return { nodes: [], wildcard: true };
      e.note('optional xsd:any wildcards are left out: extension elements in their place are reported as unexpected');
      return { nodes: [comment('xsd:any (optional) left out')], wildcard: false, optionalWildcard: true };
    case 'sequence':
    case 'all': {
      const out: Child[] = [];
      let wildcard = false;
      let open = false;
      for (const c of kids(p, NS.xsd, ['element', 'any', 'sequence', 'choice', 'group', 'all'])) {
        const r = particle(e, c, occurs, hint);
        out.push(...r.nodes);
        wildcard ||= r.wildcard;
        open ||= !!r.optionalWildcard;
      }
      return { nodes: out, wildcard, optionalWildcard: open };
    }
    case 'choice': {
      // Every alternative is acceptable: each becomes optional (repeated when the choice repeats).
      const alt: Occurs = occurs.max > 1 ? MULTIPLE : OPTIONAL;
      const out: Child[] = [comment('')];
      let wildcard = false;
      let open = false;
      for (const c of kids(p, NS.xsd, ['element', 'any', 'sequence', 'choice', 'group'])) {
        const r = particle(e, c, alt, hint);
        out.push(...r.nodes);
        wildcard ||= r.wildcard;
        open ||= !!r.optionalWildcard;
      }
      const names = out.slice(1).flatMap((n) => (isComment(n) ? [] : [n.name]));
      out[0] = comment(`choice: ${occurs.max > 1 ? 'any number' : occurs.min === 0 ? 'at most one' : 'exactly one'} of ${names.join(', ')}`);
      return { nodes: names.length > 1 ? out : out.slice(1), wildcard, optionalWildcard: open };
    }
    case 'group': {
      const ref = attr(p, 'ref');
      if (!ref) return { nodes: [], wildcard: false };
      const q = resolveQName(p, ref);
      const g = e.index.find('group', q);
      if (!g) {
        e.note(`group {${q.ns}}${q.local} not found: its place is marked (anything)`);
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
        const out: Child[] = [];
        let wildcard = false;
        let open = false;
        for (const c of kids(g.el, NS.xsd, ['sequence', 'choice', 'all'])) {
          const r = particle(e, c, occurs, hint);
          out.push(...r.nodes);
          wildcard ||= r.wildcard;
          open ||= !!r.optionalWildcard;
        }
        return { nodes: out, wildcard, optionalWildcard: open };
      } finally {
        e.stack.pop();
      }
    }
    default:
      return { nodes: [], wildcard: false };
  }
}

/**
 * `ref=` to a global element. With a substitution group, the head (unless
 * abstract) and every member are written in turn, each optional (or
 * repeated): any one of them is accepted in that place.
 */
function elementRef(e: EmitContext, q: QName, occurs: Occurs, at: Element): Child[] {
  const decl = e.index.find('element', q);
  void at;
  if (!decl) return [e.unresolvedNode(qualified(e.prefixFor(q.ns), q.local), q, 'element')];
  const members = substitutionMembers(e, decl);
  if (members.length === 0) return [e.elementNode(decl.el, decl, occurs)];
  const alts = [...(attr(decl.el, 'abstract') === 'true' ? [] : [decl]), ...members];
  if (alts.length === 0) {
    e.note(`element ${decl.name.local} is abstract and nothing substitutes for it: marked (anything)`);
    return [e.finish(qualified(e.prefixFor(decl.name.ns), decl.name.local), undefined, { attrs: [], children: [], text: e.anything() }, occurs, false)];
  }
  if (alts.length === 1) return [e.elementNode(alts[0].el, alts[0], occurs)];
  const each: Occurs = occurs.max > 1 ? MULTIPLE : OPTIONAL;
  const nodes = alts.map((d) => e.elementNode(d.el, d, each));
  return [
    comment(
      `substitution group ${decl.name.local}: ${occurs.max > 1 ? 'any number' : occurs.min === 0 ? 'at most one' : 'one'} of ${nodes.flatMap((n) => (isComment(n) ? [] : [n.name])).join(', ')}`,
    ),
    ...nodes,
  ];
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

/** Occurrence of a particle from its minOccurs/maxOccurs, combined with the enclosing one. */
function occursOf(el: Element, outer: Occurs): Occurs | 'none' {
  const max = bound(attr(el, 'maxOccurs'), Infinity);
  if (max === 0) return 'none';
  // A minOccurs above maxOccurs is an invalid schema: its maxOccurs is kept.
  const min = Math.min(bound(attr(el, 'minOccurs'), MAX_OCCURS_BOUND), max);
  return combineOccurs(outer, bounds(min, max));
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
