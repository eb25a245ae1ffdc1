import { XS } from './dom';

/**
 * Minimal stand-ins for the SOAP encoding schemas (SOAP 1.1
 * http://schemas.xmlsoap.org/soap/encoding/ and SOAP 1.2
 * http://www.w3.org/2003/05/soap-encoding), written for this instrument after
 * the structure of the SOAP 1.1 one; tests are offline, so the real ones are
 * not fetched. Enough for rpc/encoded WSDLs whose types derive from
 * soapenc:Array or use soapenc:arrayType, soapenc:string and the like. Both
 * namespaces get the same components (WSDLs mix SOAP 1.1 array idioms into
 * the 1.2 namespace), all lenient: arrays and structs hold any elements.
 */
export const SOAP_ENC_11 = 'http://schemas.xmlsoap.org/soap/encoding/';
export const SOAP_ENC_12 = 'http://www.w3.org/2003/05/soap-encoding';

const BUILT_INS =
  'string boolean float double decimal duration dateTime time date gYearMonth gYear gMonthDay gDay gMonth hexBinary base64Binary anyURI QName NOTATION normalizedString token language Name NMTOKEN NCName NMTOKENS ID IDREF ENTITY IDREFS ENTITIES integer nonPositiveInteger negativeInteger long int short byte nonNegativeInteger unsignedLong unsignedInt unsignedShort unsignedByte positiveInteger'.split(
    ' ',
  );

export function soapEncodingSchema(ns: string): string {
  const anyContent = '<xs:sequence><xs:any namespace="##any" minOccurs="0" maxOccurs="unbounded" processContents="lax"/></xs:sequence>';
  return [
    `<xs:schema xmlns:xs="${XS}" xmlns:tns="${ns}" targetNamespace="${ns}">`,
    '<xs:attributeGroup name="commonAttributes"><xs:attribute name="id" type="xs:ID"/><xs:attribute name="href" type="xs:anyURI"/><xs:anyAttribute namespace="##other" processContents="lax"/></xs:attributeGroup>',
    '<xs:attribute name="root" type="xs:string"/>',
    '<xs:attribute name="arrayType" type="xs:string"/><xs:attribute name="offset" type="xs:string"/><xs:attribute name="position" type="xs:string"/>',
    '<xs:attribute name="itemType" type="xs:QName"/><xs:attribute name="arraySize" type="xs:string"/>',
    '<xs:attributeGroup name="arrayAttributes"><xs:attribute ref="tns:arrayType"/><xs:attribute ref="tns:offset"/><xs:attribute ref="tns:itemType"/><xs:attribute ref="tns:arraySize"/></xs:attributeGroup>',
    `<xs:complexType name="Array">${anyContent}<xs:attributeGroup ref="tns:arrayAttributes"/><xs:attributeGroup ref="tns:commonAttributes"/></xs:complexType>`,
    '<xs:element name="Array" type="tns:Array"/>',
    `<xs:complexType name="Struct">${anyContent}<xs:attributeGroup ref="tns:commonAttributes"/></xs:complexType>`,
    '<xs:element name="Struct" type="tns:Struct"/>',
    '<xs:simpleType name="base64"><xs:restriction base="xs:base64Binary"/></xs:simpleType>',
    ...BUILT_INS.map(
      (t) =>
        `<xs:complexType name="${t}"><xs:simpleContent><xs:extension base="xs:${t}"><xs:attributeGroup ref="tns:commonAttributes"/></xs:extension></xs:simpleContent></xs:complexType><xs:element name="${t}" type="tns:${t}"/>`,
    ),
    '</xs:schema>',
  ].join('\n');
}
