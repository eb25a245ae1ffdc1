import { XMLSerializer, type Document, type Element } from '@xmldom/xmldom';

/**
 * The locations in a WSDL or schema document (service addresses, imports and includes), rewritten
 * in place: for a stub serving `?wsdl` (its own address, `?xsd=` names) and for `accord proxy`
 * passing a WSDL through (the proxy's address). One walk, so the two agree on what a location is.
 */

/** Where a document's locations point; rewriteLocations calls these for each one and writes what they return. */
export interface LocationRewrite {
  /** A service address (`soap:address`, `soap12:address`, `http:address` location; WSDL 2.0 `endpoint` address). */
  address(value: string): string | undefined;
  /** Where an `import`, `include` or `redefine` (WSDL or XSD) points: `location` or `schemaLocation`. */
  reference(value: string, el: Element): string | undefined;
}

/** Rewrites a WSDL's or schema's addresses and references in place. */
export function rewriteLocations(doc: Document, rewrite: LocationRewrite): void {
  for (const el of elements(doc)) {
    if (el.localName === 'address' || el.localName === 'endpoint') {
      const attr = el.localName === 'address' ? 'location' : 'address';
      const value = originals.get(el) ?? el.getAttribute(attr);
      const to = value ? rewrite.address(value) : undefined;
      if (to !== undefined) el.setAttribute(attr, to);
    } else if (el.localName === 'import' || el.localName === 'include' || el.localName === 'redefine') {
      const attr = referenceAttribute(el);
      const value = attr && (originals.get(el) ?? el.getAttribute(attr));
      const to = attr && value ? rewrite.reference(value, el) : undefined;
      if (to !== undefined) el.setAttribute(attr!, to);
    }
  }
}

/** A document as served: UTF-8 (the Content-Type says so), so a declaration naming the file's own encoding, which would contradict it, is dropped. */
export function serializeDocument(doc: Document): string {
  const declaration = doc.firstChild;
  if (declaration?.nodeType === 7 && declaration.nodeName === 'xml') doc.removeChild(declaration);
  return new XMLSerializer().serializeToString(doc);
}

/** Each location attribute's value as the file has it (the cached DOM is rewritten per request). */
export const originals = new WeakMap<Element, string>();

export function referenceAttribute(el: Element): string | undefined {
  if (el.localName !== 'import' && el.localName !== 'include' && el.localName !== 'redefine') return undefined;
  return el.hasAttribute('schemaLocation') ? 'schemaLocation' : el.hasAttribute('location') ? 'location' : undefined;
}

export function elements(doc: Document): Element[] {
  const out: Element[] = [];
  const walk = (el: Element) => {
    out.push(el);
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) walk(c as Element);
  };
  if (doc.documentElement) walk(doc.documentElement);
  return out;
}
