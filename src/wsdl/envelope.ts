import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from '../http/message';
import type { SoapVersion } from './model';
import { xnode, type XNode } from './xml-text';

export const ENVELOPE_PREFIX = 'soapenv';

export function envelopeNamespace(v: SoapVersion): string {
  return v === '1.1' ? SOAP11_ENVELOPE : SOAP12_ENVELOPE;
}

/**
 * `<soapenv:Envelope>` with the header then the body. Without header parts the
 * Header is optional (clients differ on sending an empty one); the body holds
 * `bodyRef` (a type name) or the given nodes.
 */
export function envelope(v: SoapVersion, declarations: [string, string][], headers: XNode[], body: XNode[] | string): XNode {
  const p = ENVELOPE_PREFIX;
  const header = headers.length === 0 ? xnode(`${p}:Header`, [['specmatic_occurs', 'optional']]) : xnode(`${p}:Header`, [], headers);
  const bodyNode = typeof body === 'string' ? xnode(`${p}:Body`, [], [], `(${body})`) : xnode(`${p}:Body`, [], body);
  return xnode(`${p}:Envelope`, [[`xmlns:${p}`, envelopeNamespace(v)], ...declarations], [header, bodyNode]);
}
