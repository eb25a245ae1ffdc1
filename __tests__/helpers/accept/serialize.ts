import type { Element, Node } from '@xmldom/xmldom';
import { inScope } from '../xsd/dom';

/**
 * Writes a DOM element back as text the way a given SOAP toolkit lays out
 * namespaces, so the property test can send one message as different servers
 * would (same infoset, other prefixes and declarations):
 * - `fresh`: every namespace gets a new prefix (`ns10`, `ns11`…), all declared
 *   on the root (JAX-WS/CXF style, `ns2:`);
 * - `default`: no prefixes on elements; each element whose namespace differs
 *   from its parent's re-declares the default namespace (`xmlns="…"`, and
 *   `xmlns=""` for unqualified children: .NET asmx/WCF style);
 * - `local`: every element declares its own prefix `ns1` again, shadowing its
 *   parent's (Axis 1 style).
 * QName values (`xsi:type`, and text that reads `prefix:local` with a prefix
 * in scope) are rewritten to the new prefixes, as a serializer that knows the
 * types would.
 */
export type NamespaceStyle = 'fresh' | 'default' | 'local';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

export function escText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}
export function escAttr(s: string): string {
  return escText(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

interface Ctx {
  style: NamespaceStyle;
  /** fresh: one prefix per namespace for the whole document. */
  global: Map<string, string>;
}

export function serializeAs(root: Element, style: NamespaceStyle): string {
  const ctx: Ctx = { style, global: new Map() };
  if (style === 'fresh') collectNamespaces(root, ctx.global);
  return element(root, ctx, '', true);
}

function collectNamespaces(el: Element, into: Map<string, string>): void {
  const add = (ns: string | null | undefined) => {
    if (ns && ns !== XML_NS && !into.has(ns)) into.set(ns, `ns${10 + into.size}`);
  };
  add(el.namespaceURI);
  for (const a of attrs(el)) add(a.namespaceURI);
  const scope = inScope(el);
  const xsiType = el.getAttributeNS(XSI, 'type');
  if (xsiType) add(qnameNs(xsiType, scope));
  const text = onlyText(el);
  if (text !== undefined) add(qnameNs(text.trim(), scope));
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) collectNamespaces(n as Element, into);
}

function attrs(el: Element) {
  const out = [];
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes[i];
    if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) continue;
    out.push(a);
  }
  return out;
}

/** The namespace a `prefix:local` value names, when it is one. */
function qnameNs(v: string, scope: Map<string, string>): string | undefined {
  const m = /^([A-Za-z_][\w.-]*):([A-Za-z_][\w.-]*)$/.exec(v);
  return m ? scope.get(m[1]) : undefined;
}

function onlyText(el: Element): string | undefined {
  let text = '';
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) return undefined;
    if (n.nodeType === 3 || n.nodeType === 4) text += n.nodeValue ?? '';
  }
  return text;
}

/** `parentDefault`: the default namespace in scope in the output (style `default`). */
function element(el: Element, ctx: Ctx, parentDefault: string, isRoot: boolean): string {
  const scope = inScope(el);
  const decls = new Map<string, string>();
  const ns = el.namespaceURI ?? '';
  let name: string;
  let childDefault = parentDefault;
  const prefixFor = (uri: string, wanted: string): string => {
    if (ctx.style === 'fresh') return ctx.global.get(uri)!;
    for (const [p, u] of decls) if (u === uri && p !== '') return p;
    let p = wanted;
    for (let i = 2; decls.has(p) && decls.get(p) !== uri; i++) p = `${wanted}${i}`;
    decls.set(p, uri);
    return p;
  };
  if (ctx.style === 'fresh') {
    name = ns ? `${ctx.global.get(ns)}:${el.localName}` : el.localName!;
    if (isRoot) for (const [uri, p] of ctx.global) decls.set(p, uri);
  } else if (ctx.style === 'default') {
    name = el.localName!;
    if (ns !== parentDefault) decls.set('', ns);
    childDefault = ns;
  } else {
    name = ns ? `${prefixFor(ns, 'ns1')}:${el.localName}` : el.localName!;
    // An unqualified element under a default namespace would otherwise take it on.
    if (!ns && parentDefault) decls.set('', '');
    childDefault = '';
  }
  const qname = (v: string): string => {
    const m = /^([A-Za-z_][\w.-]*):([A-Za-z_][\w.-]*)$/.exec(v);
    const uri = m ? scope.get(m[1]) : undefined;
    if (!m || uri === undefined) return v;
    return `${prefixFor(uri, 'q1')}:${m[2]}`;
  };
  const parts: string[] = [];
  for (const a of attrs(el)) {
    let aname = a.localName!;
    if (a.namespaceURI === XML_NS) aname = `xml:${a.localName}`;
    else if (a.namespaceURI) aname = `${prefixFor(a.namespaceURI, 'a1')}:${a.localName}`;
    const value = a.namespaceURI === XSI && a.localName === 'type' ? qname(a.value) : a.value;
    parts.push(`${aname}="${escAttr(value)}"`);
  }
  const text = onlyText(el);
  let body = '';
  if (text !== undefined) {
    const t = text.trim();
    body = escText(qnameNs(t, scope) !== undefined ? text.replace(t, qname(t)) : text);
  } else {
    for (let n: Node | null = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 1) body += element(n as Element, ctx, childDefault, false);
      else if (n.nodeType === 3) body += escText(n.nodeValue ?? '');
      else if (n.nodeType === 4) body += `<![CDATA[${n.nodeValue}]]>`;
      else if (n.nodeType === 8) body += `<!--${n.nodeValue}-->`;
    }
  }
  const declText = [...decls].map(([p, u]) => (p ? ` xmlns:${p}="${escAttr(u)}"` : ` xmlns="${escAttr(u)}"`)).join('');
  const open = `<${name}${declText}${parts.length ? ` ${parts.join(' ')}` : ''}`;
  return body === '' ? `${open}/>` : `${open}>${body}</${name}>`;
}
