import { isSoapEnvelopeNamespace } from './bookkeeping';
import type { XmlAttribute, XmlElement } from './tree';

/**
 * SOAP encoding's scope: SOAP 1.1 section 4.1.1 (SOAP 1.2 part 1, 5.1.1) lets `encodingStyle`
 * stand on any element, and it holds for that element and everything inside it until another
 * says otherwise. rpc/encoded servers put it on the Envelope (SOAP::Lite, PHP), the Body (.NET),
 * the operation wrapper and each `multiRef` (Axis 1). What SOAP encoding allows (references,
 * any accessor null) is read only inside that scope: the same attributes in a literal message are data.
 */
export const SOAP11_ENCODING = 'http://schemas.xmlsoap.org/soap/encoding/';
export const SOAP12_ENCODING = 'http://www.w3.org/2003/05/soap-encoding';
/** The 1999 draft XML Schema instance namespace: old SOAP::Lite and Apache SOAP write `xsi:null="1"` in it. */
export const XSI_1999 = 'http://www.w3.org/1999/XMLSchema-instance';

/** An element and the elements around it, up to the root: what namespace declarations and encodingStyle are in scope. */
export interface ElementChain {
  el: XmlElement;
  up?: ElementChain;
}

/** The URI a prefix stands for at `chain`'s element; undefined when no declaration in scope names it. */
export function prefixNamespace(prefix: string, chain: ElementChain | undefined): string | undefined {
  const want = prefix ? `xmlns:${prefix}` : 'xmlns';
  for (let at = chain; at; at = at.up) {
    for (const a of at.el.attributes) if (a.name === want) return a.value;
  }
  return prefix ? undefined : '';
}

/** What an element's own `encodingStyle` says: SOAP encoding (true), another or none (false: `""` ends the scope), nothing (undefined). */
export function ownEncoding(chain: ElementChain): boolean | undefined {
  for (const a of chain.el.attributes) {
    if (a.local !== 'encodingStyle' || a.prefix === '' || a.prefix === 'xmlns') continue;
    if (!isSoapEnvelopeNamespace(prefixNamespace(a.prefix, chain))) continue;
    return isSoapEncodingStyle(a.value);
  }
  return undefined;
}

/** Whether SOAP encoding is in scope at the chain's element (its own encodingStyle, or the nearest one above it). */
export function inEncodedScope(chain: ElementChain | undefined): boolean {
  for (let at = chain; at; at = at.up) {
    const own = ownEncoding(at);
    if (own !== undefined) return own;
  }
  return false;
}

/** An encodingStyle value (a list of URIs): one of them is SOAP 1.1's or 1.2's encoding, or a URI below it. */
export function isSoapEncodingStyle(value: string): boolean {
  let word = '';
  for (const ch of `${value} `) {
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      if (word.startsWith(SOAP11_ENCODING) || word.startsWith(SOAP12_ENCODING)) return true;
      word = '';
    } else word += ch;
  }
  return false;
}

/**
 * `xsi:null` of the 1999 XSI namespace, what a nil was before XML Schema named it `xsi:nil` (old
 * SOAP::Lite and Apache SOAP write `xsi:null="1"`): whether it says null, or undefined when `a` is not that attribute.
 */
export function xsi1999Null(a: XmlAttribute, chain: ElementChain): boolean | undefined {
  if (a.local !== 'null' || a.prefix === '' || a.prefix === 'xmlns' || prefixNamespace(a.prefix, chain) !== XSI_1999) return undefined;
  const v = a.value.trim();
  return v === '1' || v === 'true';
}
