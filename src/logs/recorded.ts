import type { XmlElement } from '../xml/tree';
import { elementChildren, textOf } from '../xml/tree';
import { serializeXml } from '../xml/serialize';
import { isBookkeepingAttribute, SOAP12_ENVELOPE } from '../xml/bookkeeping';
import type { DecodedMessage } from './decode';
import type { Exchange } from './pair';
import type { Redactor } from './redact';

/**
 * One recorded call as an example file in Specmatic's layout (what `accord stub` reads from
 * `<contract>_examples/`): a stub of the recording answers this request with this answer, as
 * recorded, and generates only for requests never recorded (issue 27, replay).
 */
export interface RecordedCall {
  request: { method: string; path: string; headers: Record<string, string>; body: string };
  response: { status: number; headers: Record<string, string>; body: string };
}

/**
 * The call as an example, secrets left out: a redacted request node is written empty (an empty
 * value does not pick the example, so any value the client sends takes it), and so is every value
 * of a WS-Security header; `soapPath` is the contract's path when --path set it; a response holding a secret is not kept at all (its answer would replay a
 * password or token, or a made-up one that may not fit the contract). Undefined when not kept.
 */
export function recordedCall(x: Exchange, status: number, redactor: Redactor, soapPath?: string): RecordedCall | undefined {
  const q = x.request;
  const r = x.response;
  const request = q.format === 'xml' ? redactedXml(q, redactor) : q.format === 'json' ? jsonIfClean(q, redactor) : '';
  const response = r.format === 'xml' ? (secretIn(r.xml!, redactor, false) ? undefined : r.body.trim()) : r.format === 'json' ? jsonIfClean(r, redactor) : '';
  if (request === undefined || response === undefined) return undefined;
  const query = (q.query ?? []).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const headers: Record<string, string> = {};
  if (q.headers?.soapaction !== undefined) headers.SOAPAction = q.headers.soapaction;
  if (request !== '') headers['Content-Type'] = q.headers?.['content-type'] ?? mediaType(q);
  return {
    request: { method: (q.method ?? 'POST').toUpperCase(), path: soapPath ?? `${q.path ?? '/'}${query ? `?${query}` : ''}`, headers, body: request },
    response: { status, headers: response === '' ? {} : { 'Content-Type': mediaType(r) }, body: response },
  };
}

/** The example file's JSON text. */
export function exampleFileText(c: RecordedCall): string {
  const request: Record<string, unknown> = { method: c.request.method, path: c.request.path, headers: c.request.headers };
  if (c.request.body !== '') request.body = c.request.body;
  return `${JSON.stringify({ 'http-request': request, 'http-response': { status: c.response.status, headers: c.response.headers, body: c.response.body } }, null, 2)}\n`;
}

function mediaType(m: DecodedMessage): string {
  if (m.format === 'json') return 'application/json';
  const v12 = m.xml?.attributes.some((a) => (a.prefix === 'xmlns' || a.name === 'xmlns') && a.value === SOAP12_ENVELOPE) ?? false;
  return v12 ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8';
}

function redactedXml(m: DecodedMessage, redactor: Redactor): string {
  if (!secretIn(m.xml!, redactor, false)) return m.body.trim();
  return serializeXml(redact(m.xml!, redactor, false));
}

function secretIn(el: XmlElement, redactor: Redactor, inHeader: boolean): boolean {
  if (redactor.redactsSubtree(el.local, inHeader)) return true;
  const kids = elementChildren(el);
  if (kids.length === 0) return redactor.redacts(el.local, el.name) || redactor.redactsValue(textOf(el));
  return kids.some((k) => secretIn(k, redactor, inHeader || el.local === 'Header'));
}

function redact(el: XmlElement, redactor: Redactor, inHeader: boolean): XmlElement {
  const kids = elementChildren(el);
  if (kids.length === 0) return redactor.redacts(el.local, el.name) || redactor.redactsValue(textOf(el)) ? { ...el, children: [] } : el;
  const header = inHeader || el.local === 'Header';
  return { ...el, children: el.children.map((c) => (c.type !== 'element' ? c : redactor.redactsSubtree(c.local, header) ? blank(c) : redact(c, redactor, header))) };
}

/**
 * A WS-Security header with every value empty, its structure kept (the contract requires it): its
 * values (user, password, nonce, time stamps, ids) differ per call, and an empty one picks nothing.
 */
function blank(el: XmlElement): XmlElement {
  const attributes = el.attributes.map((a) => (a.prefix === 'xmlns' || a.name === 'xmlns' || isBookkeepingAttribute(a) ? a : { ...a, value: '' }));
  const kids = elementChildren(el);
  return { ...el, attributes, children: kids.length === 0 ? [] : el.children.filter((c) => c.type === 'element').map((c) => blank(c as XmlElement)) };
}

/** A JSON body as logged, or undefined when a value in it is secret (a JSON value cannot be blanked and still fit its type). */
function jsonIfClean(m: DecodedMessage, redactor: Redactor): string | undefined {
  let secret = false;
  const walk = (v: unknown, depth: number): void => {
    if (secret || depth > 32 || v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (x !== null && typeof x === 'object') walk(x, depth + 1);
      else if (redactor.redacts(k, k) || (x !== null && redactor.redactsValue(String(x)))) secret = true;
    }
  };
  walk(m.json, 0);
  return secret ? undefined : m.body.trim();
}
