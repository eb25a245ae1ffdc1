import type { Element } from '@xmldom/xmldom';
import { attr, kids, NS, parseDom, resolveQName } from './dom';

/**
 * The components of the W3C's schema for the XML namespace, its 2009 edition (http://www.w3.org/2001/xml.xsd)
 * without its documentation: xml:lang is a language or "" ("no language", XML 1.0 section 2.12), a union
 * imported the ordinary way, as `(language | empty)`. Schemas refer to xml:lang, xml:space, xml:base and xml:id
 * after an `<xs:import namespace="http://www.w3.org/XML/1998/namespace"/>` without a location (.NET writes it so),
 * leaning on the copy every XSD processor knows; accord reads none from the network, so it knows this one.
 */
export const XML_NAMESPACE_SCHEMA = `<xs:schema xmlns:xs="${NS.xsd}" targetNamespace="${NS.xml}">
  <xs:attribute name="lang">
    <xs:simpleType>
      <xs:union memberTypes="xs:language">
        <xs:simpleType>
          <xs:restriction base="xs:string"><xs:enumeration value=""/></xs:restriction>
        </xs:simpleType>
      </xs:union>
    </xs:simpleType>
  </xs:attribute>
  <xs:attribute name="space">
    <xs:simpleType>
      <xs:restriction base="xs:NCName"><xs:enumeration value="default"/><xs:enumeration value="preserve"/></xs:restriction>
    </xs:simpleType>
  </xs:attribute>
  <xs:attribute name="base" type="xs:anyURI"/>
  <xs:attribute name="id" type="xs:ID"/>
  <xs:attributeGroup name="specialAttrs">
    <xs:attribute ref="xml:base"/>
    <xs:attribute ref="xml:lang"/>
    <xs:attribute ref="xml:space"/>
    <xs:attribute ref="xml:id"/>
  </xs:attributeGroup>
</xs:schema>`;

export const XML_NAMESPACE_FILE = 'xml.xsd (built in)';

/**
 * The built-in schema for the XML namespace when a schema of the set refers to one of its attributes or its
 * attribute group and none of the set defines that namespace; otherwise undefined (a schema given wins).
 */
export function xmlNamespaceSchema(schemas: readonly { el: Element; targetNamespace: string }[]): Element | undefined {
  if (schemas.some((s) => s.targetNamespace === NS.xml)) return undefined;
  if (!schemas.some((s) => refersToXml(s.el))) return undefined;
  return parseDom(XML_NAMESPACE_SCHEMA, XML_NAMESPACE_FILE).documentElement!;
}

function refersToXml(el: Element): boolean {
  for (const k of kids(el, NS.xsd)) {
    const ref = (k.localName === 'attribute' || k.localName === 'attributeGroup') && attr(k, 'ref');
    if (ref && resolveQName(k, ref).ns === NS.xml) return true;
    if (refersToXml(k)) return true;
  }
  return false;
}
