/**
 * Derived complex types: complexContent and simpleContent extensions and
 * restrictions (the base's content merged with the derived part), and
 * SOAP-encoded arrays (restrictions of soapenc:Array).
 */
import type { Element } from '@xmldom/xmldom';
import { attr, kid, kids, NS, qkey, resolveQName, type QName } from './dom';
import { attributes, prohibited } from './attributes';
import { builtinScalar } from './builtins';
import type { Pattern, XmlAttributePattern } from '../pattern/types';
import { element, isAnything, isComment, SOAPENC, type Content, type EmitContext } from './emit-context';
import { particlesAndAttributes } from './particles';
import { MULTIPLE } from '../pattern/occurs';
import { qualified } from './names';

/** Content of a `<complexContent>`: an extension or restriction of a complex base. */
export function complexDerived(e: EmitContext, cc: Element, hint: string): Content {
  const ext = kid(cc, NS.xsd, 'extension');
  const res = kid(cc, NS.xsd, 'restriction');
  const d = ext ?? res;
  if (!d) return { attrs: [], children: [] };
  const baseAttr = attr(d, 'base');
  const base = baseAttr ? resolveQName(d, baseAttr) : undefined;
  if (res && base && SOAPENC.has(base.ns) && base.local === 'Array') return encodedArray(e, res, hint);
  if (res && !base) return particlesAndAttributes(e, res, hint);
  let baseContent: Content = { attrs: [], children: [] };
  if (base && !(base.ns === NS.xsd && base.local === 'anyType')) {
    const bd = e.index.find('type', base);
    if (bd && bd.el.localName === 'complexType') {
      baseContent = e.guard(`complex${qkey(bd.name)}`, () => e.complexContent(bd.el, hint));
    } else if (!bd) {
      e.missing(`base type {${base.ns}}${base.local}`, `base type {${base.ns}}${base.local} not found: only the derived part is written`);
    }
  }
  const own = particlesAndAttributes(e, d, hint);
  // A restriction restates the content it keeps. Attributes are inherited unless restated; an
  // extension restating one (invalid XSD, but tools write it) keeps the restated one, as a restriction does.
  const gone = prohibited(d);
  const attrs = restated(baseContent.attrs, own.attrs).filter((a) => !gone.has(a.local));
  // A restriction's anyAttribute is its own; an extension's is the union of both (any one allowing is enough here).
  if (res) return { attrs, children: own.children, text: own.text, anyAttribute: own.anyAttribute };
  const text = baseContent.text ?? own.text;
  return { attrs, children: isAnything(text) ? [] : [...baseContent.children, ...own.children], text, anyAttribute: own.anyAttribute ?? baseContent.anyAttribute };
}

/**
 * SOAP-encoded array (`wsdl:arrayType="tns:Item[]"`): repeated `<item>` nodes of the item type, each
 * nillable: SOAP 1.1 section 5 lets any member be null (`<item xsi:nil="true"/>`, what Axis 1 and .NET
 * send for a null in an array), and each under any name (`specmatic_name="any"`: section 5.4.2 says
 * member names are not significant; .NET names them after their type, `<string>`, `<Quote>`).
 * Members a sparse or partially transmitted array leaves out (`SOAP-ENC:offset`, `SOAP-ENC:position`)
 * need nothing more: the members are 0..* and those attributes are not data.
 */
function encodedArray(e: EmitContext, res: Element, hint: string): Content {
  let itemType: QName | undefined;
  for (const a of res.getElementsByTagNameNS(NS.xsd, 'attribute')) {
    const t = a.getAttributeNS(NS.wsdl11, 'arrayType');
    if (t) itemType = resolveQName(a, t.replace(/\[[\d,\s]*\]$/g, '').replace(/\[\]$/, ''));
  }
  const named = itemType ? e.namedComplexType(itemType) : undefined;
  // The members' type as an encoded message names it (xsi:type, and the array's SOAP-ENC:arrayType).
  const xsiType = named && itemType ? qualified(e.prefixFor(itemType.ns), itemType.local) : undefined;
  const seq = particlesAndAttributes(e, res, hint);
  if (seq.children.length > 0) {
    return {
      attrs: [],
      children: seq.children.map((c) =>
        isComment(c)
          ? c
          : c.kind === 'xml'
            ? { ...c, occurs: MULTIPLE, nillable: true, anyName: true, ...(xsiType && c.typeRef === named ? { xsiType } : {}) }
            : { ...c, occurs: MULTIPLE },
      ),
    };
  }
  if (!itemType) return { attrs: [], children: [], text: e.anything() };
  const item = named
    ? element('item', { typeRef: named, occurs: MULTIPLE, nillable: true, anyName: true, xsiType })
    : element('item', { occurs: MULTIPLE, nillable: true, anyName: true, text: e.contentOfType(itemType, hint).text ?? e.anything() });
  return { attrs: [], children: [item] };
}

/** A derived type's attributes: the base's, except those it restates, then its own. */
function restated(base: XmlAttributePattern[], own: XmlAttributePattern[]): XmlAttributePattern[] {
  const names = new Set(own.map((a) => a.name));
  return [...base.filter((a) => !names.has(a.name)), ...own];
}

/** Content of a `<simpleContent>`: text of the base's scalar (or an enum), with attributes. */
export function simpleContent(e: EmitContext, sc: Element, hint: string): Content {
  const d = kid(sc, NS.xsd, ['extension', 'restriction']);
  const STRING: Pattern = { kind: 'scalar', type: 'string' };
  if (!d) return { attrs: [], children: [], text: STRING };
  const baseAttr = attr(d, 'base');
  let text: Pattern = STRING;
  let baseAttrs: XmlAttributePattern[] = [];
  if (baseAttr) {
    const base = resolveQName(d, baseAttr);
    if (base.ns === NS.xsd) text = { kind: 'scalar', type: builtinScalar(base.local) };
    else {
      const bd = e.index.find('type', base);
      if (bd && bd.el.localName === 'complexType') {
        const c = e.guard(`complex${qkey(bd.name)}`, () => e.complexContent(bd.el, hint));
        text = c.text ?? STRING;
        baseAttrs = c.attrs;
      } else if (bd) text = e.simple.text(bd);
    }
  }
  const inlineSimple = kid(d, NS.xsd, 'simpleType');
  if (d.localName === 'restriction' && (kids(d, NS.xsd, 'enumeration').length > 0 || inlineSimple)) {
    text = e.simple.anonymousText(inlineSimple ?? d, hint, d.localName === 'restriction' && !inlineSimple ? d : undefined);
  }
  const gone = prohibited(d);
  return { attrs: restated(baseAttrs, attributes(e, d)).filter((a) => !gone.has(a.local)), children: [], text };
}
