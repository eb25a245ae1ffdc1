import type { Element } from '@xmldom/xmldom';
import { attr, kid, kids, NS } from './dom';
import type { LoadedSet } from './load';

const MIME = 'http://schemas.xmlsoap.org/wsdl/mime/';
const XMIME = 'http://www.w3.org/2005/05/xmlmime';
const MTOM_POLICY = ['http://schemas.xmlsoap.org/ws/2004/09/policy/optimizedmimeserialization', 'http://www.w3.org/2007/08/soap12-mtom-policy'];
const SOAP_URIS = [NS.soap11, NS.soap12];

/** A bound message's SOAP part: the input/output itself, or (SOAP with Attachments) the `mime:part` of its `mime:multipartRelated` holding `soap:body`. */
export function soapPartOf(bound: Element): Element {
  const related = kid(bound, MIME, 'multipartRelated');
  if (!related) return bound;
  return kids(related, MIME, 'part').find((p) => kid(p, SOAP_URIS, 'body')) ?? bound;
}

/** SOAP with Attachments: the message parts sent as MIME attachments beside the envelope, with their content types. */
export function attachmentParts(bound: Element): { part: string; type: string }[] {
  const related = kid(bound, MIME, 'multipartRelated');
  if (!related) return [];
  const out: { part: string; type: string }[] = [];
  for (const p of kids(related, MIME, 'part')) {
    if (kid(p, SOAP_URIS, 'body')) continue;
    for (const c of kids(p, MIME, 'content')) {
      const part = attr(c, 'part');
      if (part && !out.some((x) => x.part === part)) out.push({ part, type: attr(c, 'type') ?? '*/*' });
    }
  }
  return out;
}

/**
 * MTOM/XOP: a WS-Policy assertion that the service optimises binary content, or
 * an element of the schemas with `xmime:expectedContentTypes`. Such a service may
 * send base64Binary content as an `xop:Include` in a multipart/related message.
 */
export function usesMtom(set: LoadedSet): boolean {
  for (const d of set.wsdls) for (const ns of MTOM_POLICY) if (d.doc.getElementsByTagNameNS(ns, 'OptimizedMimeSerialization').length > 0) return true;
  for (const s of set.schemas) {
    const els = s.el.getElementsByTagNameNS(NS.xsd, 'element');
    for (let i = 0; i < els.length; i++) if (els[i].hasAttributeNS(XMIME, 'expectedContentTypes')) return true;
  }
  return false;
}

/** A WS-Policy assertion that messages are sent optimised (MTOM): the runner then sends base64Binary content as XOP parts. */
export function mtomPolicy(set: LoadedSet): boolean {
  return set.wsdls.some((d) => MTOM_POLICY.some((ns) => d.doc.getElementsByTagNameNS(ns, 'OptimizedMimeSerialization').length > 0));
}

const ADDRESSING = [
  ['http://www.w3.org/2006/05/addressing/wsdl', 'UsingAddressing'],
  ['http://www.w3.org/2006/02/addressing/wsdl', 'UsingAddressing'],
  ['http://www.w3.org/2007/05/addressing/metadata', 'Addressing'],
  ['http://www.w3.org/2007/02/addressing/metadata', 'Addressing'],
  ['http://schemas.xmlsoap.org/ws/2004/08/addressing/policy', 'UsingAddressing'],
] as const;

/** WS-Addressing in use: `wsaw:UsingAddressing` on a binding or port, or a `wsam:Addressing` policy assertion (WCF's wsHttpBinding writes it). */
export function usesAddressing(set: LoadedSet): boolean {
  return set.wsdls.some((d) => ADDRESSING.some(([ns, local]) => d.doc.getElementsByTagNameNS(ns, local).length > 0));
}
