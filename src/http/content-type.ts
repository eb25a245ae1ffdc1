import type { XmlElementPattern } from '../pattern/types';
import type { BodyKind } from '../pattern/generate';
import { SOAP12_ENVELOPE } from './message';

/** The Content-Type a generated body is sent with, when the contract does not declare one. */
export function contentTypeFor(kind: BodyKind, xmlRoot?: XmlElementPattern): string {
  if (kind === 'json') return 'application/json';
  if (kind === 'text') return 'text/plain; charset=utf-8';
  if (xmlRoot && isSoap12(xmlRoot)) return 'application/soap+xml; charset=utf-8';
  return 'text/xml; charset=utf-8';
}

function isSoap12(root: XmlElementPattern): boolean {
  if (root.local !== 'Envelope') return false;
  const decl = root.prefix ? `xmlns:${root.prefix}` : 'xmlns';
  return root.namespaces.some((n) => n.name === decl && n.value === SOAP12_ENVELOPE);
}
