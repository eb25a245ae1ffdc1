import { DOMParser, type Document, type Element, type Node } from '@xmldom/xmldom';
import { AccordError } from '../errors';

/** Namespaces the importer reads. */
export const NS = {
  xsd: 'http://www.w3.org/2001/XMLSchema',
  wsdl11: 'http://schemas.xmlsoap.org/wsdl/',
  wsdl20: 'http://www.w3.org/ns/wsdl',
  soap11: 'http://schemas.xmlsoap.org/wsdl/soap/',
  soap12: 'http://schemas.xmlsoap.org/wsdl/soap12/',
  wsdl20soap: 'http://www.w3.org/ns/wsdl/soap',
  soapenc: 'http://schemas.xmlsoap.org/soap/encoding/',
  soap12enc: 'http://www.w3.org/2003/05/soap-encoding',
  xml: 'http://www.w3.org/XML/1998/namespace',
} as const;

const ELEMENT_NODE = 1;

/**
 * Parses a WSDL or XSD file's text into a DOM. A DOCTYPE is refused: no DTD is
 * read, so no entity (external or internal) is ever expanded or fetched.
 * Every problem becomes an AccordError with the file and line.
 */
export function parseDom(text: string, file: string): Document {
  let failure: AccordError | undefined;
  const parser = new DOMParser({
    locator: true,
    onError: (level, msg, context) => {
      if (level === 'warning') return;
      const line = (context as { locator?: { lineNumber?: number; columnNumber?: number } } | undefined)?.locator;
      failure ??= new AccordError('ACCORD_ERR_XML', `not well-formed XML: ${firstLine(msg)}`, { file, line: line?.lineNumber || undefined, column: line?.lineNumber ? line.columnNumber : undefined });
      if (level === 'fatalError') throw failure;
    },
  });
  let doc: Document;
  try {
    doc = parser.parseFromString(text, 'text/xml');
  } catch (e) {
    if (failure) throw failure;
    const m = (e as Error).message ?? String(e);
    const loc = (e as { locator?: { lineNumber?: number; columnNumber?: number } }).locator;
    throw new AccordError('ACCORD_ERR_XML', `not well-formed XML: ${firstLine(m)}`, { file, line: loc?.lineNumber, column: loc?.columnNumber });
  }
  // xmldom never fetches a DTD nor expands declared entities; a DOCTYPE is refused all the same, as SOAP does.
  if (doc.doctype) throw new AccordError('ACCORD_ERR_XML', 'a DOCTYPE is not allowed (no DTDs, no entities are read)', { file, line: lineOf(doc.doctype) });
  if (failure) throw failure;
  if (!doc.documentElement) throw new AccordError('ACCORD_ERR_XML', 'not XML: no root element', { file, line: 1 });
  return doc;
}

function firstLine(s: string): string {
  return s.split('\n')[0].replace(/^\[xmldom [^\]]*\]\s*/, '').trim();
}

export function isElement(n: Node | null | undefined): n is Element {
  return !!n && n.nodeType === ELEMENT_NODE;
}

/** Child elements, optionally only those in namespace `ns` with local name `local`. */
export function kids(el: Element, ns?: string | readonly string[], local?: string | readonly string[]): Element[] {
  const out: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (!isElement(c)) continue;
    if (ns !== undefined && !matches(c.namespaceURI ?? '', ns)) continue;
    if (local !== undefined && !matches(c.localName ?? '', local)) continue;
    out.push(c);
  }
  return out;
}

export function kid(el: Element, ns: string | readonly string[], local: string | readonly string[]): Element | undefined {
  return kids(el, ns, local)[0];
}

function matches(v: string, want: string | readonly string[]): boolean {
  return typeof want === 'string' ? v === want : want.includes(v);
}

export function attr(el: Element, name: string): string | undefined {
  return el.hasAttribute(name) ? el.getAttribute(name) ?? undefined : undefined;
}

export function lineOf(n: Node): number | undefined {
  return (n as unknown as { lineNumber?: number }).lineNumber;
}

export interface QName {
  ns: string;
  local: string;
}

/** A QName attribute value (`tns:Foo`) resolved against the declarations in scope at `el`. */
export function resolveQName(el: Element, value: string): QName {
  const v = value.trim();
  const i = v.indexOf(':');
  const prefix = i < 0 ? null : v.slice(0, i);
  const local = i < 0 ? v : v.slice(i + 1);
  let ns: string | null = null;
  if (prefix === 'xml') ns = NS.xml;
  else ns = el.lookupNamespaceURI(prefix ?? '');
  return { ns: ns ?? '', local };
}

export function qkey(q: QName): string {
  return `{${q.ns}}${q.local}`;
}

/** Every prefix declared on the root element, as the author named them (used to pick readable prefixes). */
export function declaredPrefixes(el: Element): Map<string, string> {
  const out = new Map<string, string>();
  const attrs = el.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs.item(i)!;
    if (a.prefix === 'xmlns' && a.localName) out.set(a.value, a.localName);
  }
  return out;
}
