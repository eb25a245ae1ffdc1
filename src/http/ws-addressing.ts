import { randomUUID } from 'node:crypto';
import { parseXml, parseXmlOrUndefined } from '../xml/parse';
import { escapeText, serializeXml } from '../xml/serialize';
import { elementChildren, textOf, type XmlElement } from '../xml/tree';
import { parseMediaType } from './content-type';
import type { HttpRequest, HttpResponse } from './message';
import { namespaceOf, soapParts } from './ws-security';

/**
 * WS-Addressing 1.0 (SOAP binding, W3C 2006) as a client and a service need it for a WCF
 * `wsHttpBinding` or a CXF endpoint with `wsaw:UsingAddressing`: the request carries Action,
 * MessageID, To and ReplyTo (anonymous: the answer comes back on the same connection); the
 * answer carries RelatesTo (the request's MessageID) and its own Action.
 */
export const WSA = 'http://www.w3.org/2005/08/addressing';
export const WSA_ANONYMOUS = `${WSA}/anonymous`;
export const WSA_FAULT_ACTION = `${WSA}/soap/fault`;
export const WS_ADDRESSING_TAG = '@ws-addressing';
/** `@wsa-action:<uri>` on a scenario: the Action its answer carries (imported from the WSDL's wsaw:Action, or its default pattern). */
export const WSA_ACTION_TAG = '@wsa-action:';

/** The Action a scenario's tags declare for its answer, if any. */
export function declaredReplyAction(tags: readonly string[]): string | undefined {
  const t = tags.find((x) => x.toLowerCase().startsWith(WSA_ACTION_TAG));
  return t === undefined ? undefined : t.slice(WSA_ACTION_TAG.length) || undefined;
}

export function wantsAddressing(tags: readonly string[]): boolean {
  return tags.some((t) => t.toLowerCase() === WS_ADDRESSING_TAG);
}

/** The action of a request: its SOAPAction, or the `action` of a SOAP 1.2 Content-Type, else made from the Body's first element. */
export function requestAction(req: Pick<HttpRequest, 'headers'>, body: XmlElement | undefined): string {
  const soapAction = req.headers['soapaction']?.trim().replace(/^"|"$/g, '');
  if (soapAction) return soapAction;
  const action = parseMediaType(req.headers['content-type'] ?? '')?.params.get('action');
  if (action) return action;
  const first = body && elementChildren(body)[0];
  return first ? `urn:accord:${first.local}` : 'urn:accord:request';
}

function header(root: XmlElement, envPrefix: string): XmlElement {
  const soap = soapParts(root)!;
  if (soap.header) return soap.header;
  const h: XmlElement = { type: 'element', name: envPrefix ? `${envPrefix}:Header` : 'Header', prefix: envPrefix, local: 'Header', attributes: [], children: [] };
  root.children.splice(soap.body ? root.children.indexOf(soap.body) : 0, 0, h);
  return h;
}

function blocks(xml: string): XmlElement[] {
  return parseXml(`<wsa:Blocks xmlns:wsa="${WSA}">${xml}</wsa:Blocks>`).children.filter((c): c is XmlElement => c.type === 'element');
}

/** Adds the request's addressing headers; gives back the envelope and the MessageID sent. Not a SOAP envelope: unchanged, no id. */
export function addAddressing(req: HttpRequest, to: string): { body: string; messageId?: string } {
  const root = parseXmlOrUndefined(req.body);
  if (!root) return { body: req.body };
  const soap = soapParts(root);
  if (!soap) return { body: req.body };
  const messageId = `urn:uuid:${randomUUID()}`;
  const action = requestAction(req, soap.body);
  const h = header(root, root.prefix);
  const added = blocks(
    `<wsa:Action>${escapeText(action)}</wsa:Action><wsa:MessageID>${messageId}</wsa:MessageID><wsa:To>${escapeText(to)}</wsa:To><wsa:ReplyTo><wsa:Address>${WSA_ANONYMOUS}</wsa:Address></wsa:ReplyTo>`,
  );
  for (const b of added) b.attributes.push({ name: 'xmlns:wsa', prefix: 'xmlns', local: 'wsa', value: WSA });
  h.children = [...h.children.filter((c) => !(c.type === 'element' && isAddressing(c, root, h))), ...added];
  return { body: serializeXml(root), messageId };
}

function isAddressing(el: XmlElement, root: XmlElement, h: XmlElement): boolean {
  return namespaceOf(el, [root, h]) === WSA;
}

/** The wsa header blocks of an envelope by local name (MessageID, Action, RelatesTo…). */
export function addressingOf(root: XmlElement): Map<string, string> {
  const out = new Map<string, string>();
  const soap = soapParts(root);
  if (!soap?.header) return out;
  for (const c of elementChildren(soap.header)) if (namespaceOf(c, [root, soap.header]) === WSA && !out.has(c.local)) out.set(c.local, textOf(c).trim());
  return out;
}

/** The Action of an answer to `action`: a fault's is WS-A's own; else `…Request` becomes `…Response`, or `Response` is added. */
export function replyAction(action: string, fault: boolean): string {
  if (fault) return WSA_FAULT_ACTION;
  return action.endsWith('Request') ? `${action.slice(0, -'Request'.length)}Response` : `${action}Response`;
}

/**
 * The answer with wsa:Action and wsa:RelatesTo in its Header, when the request carried a
 * wsa:MessageID and the answer is a SOAP envelope; else the answer as it was (never changed in place).
 */
export function answerAddressed(request: XmlElement, r: HttpResponse, scenario?: { tags: readonly string[]; fault: boolean }): HttpResponse {
  const wsa = addressingOf(request);
  const id = wsa.get('MessageID');
  if (!id) return r;
  const root = parseXmlOrUndefined(r.body);
  if (!root) return r;
  const soap = soapParts(root);
  // An answer that says which request it answers already (a template echoing MessageID) is left as it is.
  if (!soap || addressingOf(root).has('RelatesTo')) return r;
  const fault = soap.body !== undefined && elementChildren(soap.body)[0]?.local === 'Fault';
  // The scenario's declared Action (the WSDL's) when the answer is what it declares: its output, or its fault.
  const declared = scenario && scenario.fault === fault ? declaredReplyAction(scenario.tags) : undefined;
  const action = declared ?? replyAction(wsa.get('Action') ?? 'urn:accord:request', fault);
  const h = header(root, root.prefix);
  const added = blocks(`<wsa:Action>${escapeText(action)}</wsa:Action><wsa:RelatesTo>${escapeText(id)}</wsa:RelatesTo>`);
  for (const b of added) b.attributes.push({ name: 'xmlns:wsa', prefix: 'xmlns', local: 'wsa', value: WSA });
  h.children = [...h.children, ...added];
  return { ...r, headers: { ...r.headers }, body: serializeXml(root) };
}
