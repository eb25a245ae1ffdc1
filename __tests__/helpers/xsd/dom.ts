import { DOMParser, XMLSerializer, type Document, type Element } from '@xmldom/xmldom';

/** Small DOM helpers shared by the XSD validity instrument (test code, not accord's own XML layer). */
export const XS = 'http://www.w3.org/2001/XMLSchema';
export const XMLNS = 'http://www.w3.org/2000/xmlns/';
export const WSDL11 = 'http://schemas.xmlsoap.org/wsdl/';
export const WSDL20 = 'http://www.w3.org/ns/wsdl';
export function parseXml(text: string, where: string): Document {
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level: string, msg: string) => {
      if (level !== 'warning') errors.push(msg);
    },
  }).parseFromString(text, 'text/xml');
  if (errors.length || !doc.documentElement) throw new Error(`${where}: not well-formed XML: ${errors[0] ?? 'no root'}`);
  return doc;
}

export function children(el: Element, ns?: string, local?: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const e = n as Element;
    if ((ns === undefined || e.namespaceURI === ns) && (local === undefined || e.localName === local)) out.push(e);
  }
  return out;
}

/** Every xmlns declaration in scope at `el` (nearest wins), prefix '' for the default namespace. */
export function inScope(el: Element): Map<string, string> {
  const out = new Map<string, string>();
  for (let n: Element | null = el; n && n.nodeType === 1; n = n.parentNode as Element | null) {
    for (let i = 0; i < n.attributes.length; i++) {
      const a = n.attributes[i];
      const prefix = a.name === 'xmlns' ? '' : a.name.startsWith('xmlns:') ? a.name.slice(6) : undefined;
      if (prefix !== undefined && !out.has(prefix)) out.set(prefix, a.value);
    }
  }
  return out;
}

/** A copy of `el` as a document of its own, with the declarations its ancestors gave it. */
export function standalone(el: Element): string {
  const copy = el.cloneNode(true) as Element;
  for (const [prefix, uri] of inScope(el)) {
    const name = prefix ? `xmlns:${prefix}` : 'xmlns';
    if (!copy.hasAttribute(name) && !(prefix === 'xml')) copy.setAttributeNS(XMLNS, name, uri);
  }
  return new XMLSerializer().serializeToString(copy);
}

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}
