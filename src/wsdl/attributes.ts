/** XSD attributes to contract attributes: attribute and attributeGroup (followed by ref); anyAttribute is particles.ts'. */
import type { Element } from '@xmldom/xmldom';
import { AccordError } from '../errors';
import { quoted } from '../printable';
import { attr, kid, kids, NS, placeOf, qkey, resolveQName } from './dom';
import { builtinScalar } from './builtins';
import { annotatedText } from './placeholder-annotation';
import { isAnything, SOAPENC, type EmitContext } from './emit-context';
import { isXmlName, qualified } from './names';
import type { Pattern, XmlAttributePattern } from '../pattern/types';
import { owningSchema } from './xsd';

/**
 * The attributes declared directly in `owner` (a complexType, extension,
 * restriction or attributeGroup), with the groups it references. An attribute
 * declared twice there is an error in the schema (XSD ct-props-correct.4), and
 * a contract cannot hold it twice: refused with both places.
 */
export function attributes(e: EmitContext, owner: Element): XmlAttributePattern[] {
  const found: Found[] = [];
  collect(e, owner, new Set(), found);
  const first = new Map<string, Element>();
  for (const f of found) {
    const key = f.attr.name;
    const earlier = first.get(key);
    if (earlier) {
      const where = placeOf(earlier);
      throw new AccordError(
        'ACCORD_ERR_WSDL',
        `attribute ${quoted(key)} is declared twice in the same type (first at line ${where.line ?? '?'}); a type has each attribute once`,
        placeOf(f.el),
      );
    }
    first.set(key, f.el);
  }
  return found.map((f) => f.attr);
}

/**
 * Local names of the attributes a restriction (or extension) marks `use="prohibited"`: a derived
 * type does not have them, though its base does, nor does any type derived from it in turn.
 */
export function prohibited(owner: Element): Set<string> {
  const out = new Set<string>();
  for (const a of kids(owner, NS.xsd, 'attribute')) {
    if (attr(a, 'use') !== 'prohibited') continue;
    const ref = attr(a, 'ref');
    const name = ref ? resolveQName(a, ref).local : attr(a, 'name');
    if (name) out.add(name);
  }
  return out;
}

interface Found {
  attr: XmlAttributePattern;
  el: Element;
}

function collect(e: EmitContext, owner: Element, seen: Set<string>, out: Found[]): void {
  for (const a of kids(owner, NS.xsd, ['attribute', 'attributeGroup', 'anyAttribute'])) {
    // anyAttribute is read by particles.ts (anyAttributeOf): the element then accepts other attributes.
    if (a.localName === 'anyAttribute') continue;
    if (a.localName === 'attributeGroup') {
      const ref = attr(a, 'ref');
      if (!ref) continue;
      const g = e.index.find('attributeGroup', resolveQName(a, ref));
      if (!g || seen.has(qkey(g.name))) continue;
      seen.add(qkey(g.name));
      collect(e, g.el, seen, out);
      continue;
    }
    const one = attribute(e, a);
    if (one) out.push({ attr: one, el: a });
  }
}

/** Names the contract language gives a meaning of its own: an attribute so named cannot be written. */
const CONTRACT_ATTRIBUTES = /^(?:(?:specmatic|qontract)_(?:occurs|nillable|type)|xmlns|.*\.opt)$/;

/** One attribute (optional unless required), or undefined when it is left out. */
function attribute(e: EmitContext, a: Element): XmlAttributePattern | undefined {
  const use = attr(a, 'use');
  if (use === 'prohibited') return undefined;
  let decl = a;
  let name = attr(a, 'name');
  let ns = '';
  const ref = attr(a, 'ref');
  if (ref) {
    const q = resolveQName(a, ref);
    // SOAP-encoding bookkeeping (arrayType) is not data.
    if (SOAPENC.has(q.ns) || q.ns === NS.wsdl11) return undefined;
    name = q.local;
    ns = q.ns;
    const g = e.index.find('attribute', q);
    if (g) decl = g.el;
  } else {
    const form = attr(a, 'form');
    const s = owningSchema(a);
    if (form === 'qualified' || (form === undefined && s && attr(s, 'attributeFormDefault') === 'qualified')) ns = e.schemaTns(a);
  }
  if (!name) return undefined;
  if (!isXmlName(name)) {
    e.note(`attribute ${quoted(name)} is not a legal XML name: left out`);
    return undefined;
  }
  if (CONTRACT_ATTRIBUTES.test(name)) {
    e.note(`attribute ${quoted(name)} has a name the contract language uses itself: left out`);
    return undefined;
  }
  const STRING: Pattern = { kind: 'scalar', type: 'string' };
  let value: Pattern = STRING;
  const t = attr(decl, 'type');
  const st = kid(decl, NS.xsd, 'simpleType');
  if (t) {
    const q = resolveQName(decl, t);
    if (q.ns === NS.xsd) value = { kind: 'scalar', type: builtinScalar(q.local) };
    else {
      const d = e.index.find('type', q);
      value = d && d.el.localName === 'simpleType' ? e.simple.text(d) : STRING;
    }
  } else if (st) value = e.simple.anonymousText(st, name);
  if (isAnything(value)) value = STRING;
  value = annotatedText(decl, value);
  // A fixed value is the only one allowed: written literally (unless it would read as a placeholder).
  const fixed = attr(a, 'fixed') ?? attr(decl, 'fixed');
  if (fixed !== undefined && !/^\(.*\)$/.test(fixed.trim())) value = { kind: 'literal', value: fixed };
  const full = qualified(ns ? e.prefixFor(ns) : '', name);
  return { name: full, local: name, optional: use !== 'required', pattern: value };
}
