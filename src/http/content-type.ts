import type { XmlElementPattern } from '../pattern/types';
import type { BodyKind } from '../pattern/generate/index';
import { decodeXml } from '../files';
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

/** A media type and its parameters (names in lower case, values unquoted); undefined when it is not `type/subtype`. */
export function parseMediaType(text: string): { type: string; params: Map<string, string> } | undefined {
  const parts = text.split(';');
  const type = parts[0].trim().toLowerCase();
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(type)) return undefined;
  const params = new Map<string, string>();
  for (const p of parts.slice(1)) {
    const i = p.indexOf('=');
    if (i < 0) continue;
    let v = p.slice(i + 1).trim();
    if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
    params.set(p.slice(0, i).trim().toLowerCase(), v);
  }
  return { type, params };
}

/** The text of a body as its Content-Type's charset, byte order mark or XML declaration says (UTF-8 when none does). */
export function bodyText(bytes: Uint8Array, contentType: string | undefined): string {
  if (contentType === undefined || !contentType.includes(';')) return decodeXml(bytes);
  // What nearly every client sends, told without parsing the parameters (the stub sees it on every request).
  const at = contentType.indexOf('charset=');
  if (at > 0 && contentType.slice(at + 8, at + 13).toLowerCase() === 'utf-8' && contentType.length === at + 13) return decodeXml(bytes, 'utf-8');
  return decodeXml(bytes, parseMediaType(contentType)?.params.get('charset'));
}
