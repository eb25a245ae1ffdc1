import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from '../http/message';
import type { Pattern, XmlElementPattern } from '../pattern/types';
import { element } from './emit-context';
import type { SoapVersion } from './model';

export const ENVELOPE_PREFIX = 'soapenv';

export function envelopeNamespace(v: SoapVersion): string {
  return v === '1.1' ? SOAP11_ENVELOPE : SOAP12_ENVELOPE;
}

/**
 * `<soapenv:Envelope>` with the header then the body. Without header parts the
 * Header is optional (clients differ on sending an empty one); the body holds
 * given nodes, or a pattern standing for them (a type, or (anything)).
 */
export function envelope(v: SoapVersion, declarations: [string, string][], headers: XmlElementPattern[], body: XmlElementPattern[] | Pattern): XmlElementPattern {
  const p = ENVELOPE_PREFIX;
  const header = headers.length === 0 ? element(`${p}:Header`, { occurs: 'optional' }) : element(`${p}:Header`, { children: headers });
  const bodyNode = Array.isArray(body) ? element(`${p}:Body`, { children: body }) : element(`${p}:Body`, { text: body });
  const namespaces = [[`xmlns:${p}`, envelopeNamespace(v)], ...declarations].map(([name, value]) => ({ name, value }));
  return element(`${p}:Envelope`, { namespaces, children: [header, bodyNode] });
}
