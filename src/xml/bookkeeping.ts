import type { XmlAttribute } from './tree';

/**
 * Prefixed attributes that say how a document is encoded rather than carry
 * data: XML Schema instance attributes (`xsi:type`, `xsi:nil`, schema
 * locations); SOAP's `encodingStyle`, which SOAP 1.1 (4.1.1) allows on any
 * element and SOAP::Lite puts on the Envelope; SOAP-encoded arrays' `arrayType`,
 * `offset` and `position` (SOAP 1.2: `itemType`, `arraySize`); and the
 * attributes of a header entry (`mustUnderstand`, `actor`, `role`, `relay`).
 * Real rpc/encoded servers and WS-* clients send them whatever the WSDL says.
 * Matching does not report them unless a contract declares them. Namespaces are not compared (prefixes vary), as
 * elsewhere in matching.
 */
const XSI = new Set(['type', 'nil', 'schemaLocation', 'noNamespaceSchemaLocation']);
const BOOKKEEPING = new Set([...XSI, 'encodingStyle', 'arrayType', 'offset', 'position', 'itemType', 'arraySize', 'mustUnderstand', 'actor', 'role', 'relay']);

export function isBookkeepingAttribute(a: XmlAttribute): boolean {
  return a.prefix !== '' && BOOKKEEPING.has(a.local);
}

/** `xsi:nil="true"`, or `"1"`: its value is an xs:boolean, with white space collapsed. */
export function isNilAttribute(a: XmlAttribute): boolean {
  if (a.prefix === '' || a.local !== 'nil') return false;
  const v = a.value.trim();
  return v === 'true' || v === '1';
}

/** `xsi:type`, `xsi:nil` and the schema locations: the log importer leaves these out of a contract (it keeps SOAP's, as sent). */
export function isXsiAttribute(a: XmlAttribute): boolean {
  return a.prefix !== '' && XSI.has(a.local);
}

/** The SOAP 1.1 and 1.2 envelope namespaces: the one place they are written. */
export const SOAP11_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_ENVELOPE = 'http://www.w3.org/2003/05/soap-envelope';
const SOAP_ENVELOPES = new Set([SOAP11_ENVELOPE, SOAP12_ENVELOPE]);

export function isSoapEnvelopeNamespace(uri: string | undefined): boolean {
  return uri !== undefined && SOAP_ENVELOPES.has(uri);
}
