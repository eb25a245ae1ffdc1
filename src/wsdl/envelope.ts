import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from '../http/message';
import type { Pattern, XmlElementPattern } from '../pattern/types';
import { element } from './emit-context';
import { isOnce, OPTIONAL } from '../pattern/occurs';
import type { SoapVersion } from './model';

export const ENVELOPE_PREFIX = 'soapenv';

export function envelopeNamespace(v: SoapVersion): string {
  return v === '1.1' ? SOAP11_ENVELOPE : SOAP12_ENVELOPE;
}

/**
 * `<soapenv:Envelope>` with the header then the body. Without a required header
 * entry the Header is optional (clients differ on sending an empty one, and
 * leave it out when they send no entry); the body holds given nodes, or a
 * pattern standing for them (a type, or (anything)).
 */
export function envelope(v: SoapVersion, declarations: [string, string][], headers: XmlElementPattern[], body: XmlElementPattern[] | Pattern): XmlElementPattern {
  const p = ENVELOPE_PREFIX;
  const required = headers.some((h) => isOnce(h.occurs));
  const header = element(`${p}:Header`, { occurs: required ? undefined : OPTIONAL, children: headers });
  const bodyNode = Array.isArray(body) ? element(`${p}:Body`, { children: body }) : element(`${p}:Body`, { text: body });
  const namespaces = [[`xmlns:${p}`, envelopeNamespace(v)], ...declarations].map(([name, value]) => ({ name, value }));
  return element(`${p}:Envelope`, { namespaces, children: [header, bodyNode] });
}
