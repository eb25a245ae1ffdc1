/** XSD attributes to contract attributes: attribute, attributeGroup (followed by ref) and anyAttribute (not represented). */
import type { Element } from '@xmldom/xmldom';
import { attr, kid, kids, NS, qkey, resolveQName } from './dom';
import { builtinScalar } from './builtins';
import { isAnything, SOAPENC, type EmitContext } from './emit-context';
import { isXmlName, qualified } from './names';
import type { Pattern, XmlAttributePattern } from '../pattern/types';
import { owningSchema } from './xsd';

/** The attributes declared directly in `owner` (a complexType, extension, restriction or attributeGroup). */
export function attributes(e: EmitContext, owner: Element, seen: Set<string> = new Set()): XmlAttributePattern[] {
  const out: XmlAttributePattern[] = [];
  for (const a of kids(owner, NS.xsd, ['attribute', 'attributeGroup', 'anyAttribute'])) {
    if (a.localName === 'anyAttribute') {
      e.note('anyAttribute is not represented: attributes beyond the declared ones are reported as unexpected');
      continue;
    }
    if (a.localName === 'attributeGroup') {
      const ref = attr(a, 'ref');
      if (!ref) continue;
      const g = e.index.find('attributeGroup', resolveQName(a, ref));
      if (!g || seen.has(qkey(g.name))) continue;
      seen.add(qkey(g.name));
      out.push(...attributes(e, g.el, seen));
      continue;
    }
    const one = attribute(e, a);
    if (one) out.push(one);
  }
  return out;
}

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
    e.note(`attribute "${name}" is not a legal XML name: left out`);
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
  // A fixed value is the only one allowed: written literally (unless it would read as a placeholder).
  const fixed = attr(a, 'fixed') ?? attr(decl, 'fixed');
  if (fixed !== undefined && !/^\(.*\)$/.test(fixed.trim())) value = { kind: 'literal', value: fixed };
  const full = qualified(ns ? e.prefixFor(ns) : '', name);
  return { name: full, local: name, optional: use !== 'required', pattern: value };
}
