import { XMLSerializer, type Document, type Element, type Node } from '@xmldom/xmldom';
import { children, parseXml } from '../xsd/dom';
import { serializeAs } from './serialize';
import type { Random } from '../../../src/pattern/random';

/**
 * Variations of one SOAP message the way real servers and clients write the
 * same data differently (.NET asmx/WCF, CXF/Axis/JAX-WS, PHP, the `soap`
 * package). They are produced blindly; the property test keeps only those
 * xmllint still finds valid against the WSDL's schemas, so a variation never
 * has to know the schema to be fair.
 */
export interface Variant {
  /** What was varied, for reports: `kind @ path`. */
  what: string;
  kind: string;
  text: string;
  /** Header blocks the variant added that the WSDL's schemas do not declare (WS-Addressing): not for xmllint to judge. */
  undeclaredHeaders?: boolean;
  /**
   * The message with an undeclared element put where the variation changed it.
   * When xmllint finds that valid too, the place is not checked at all (a lax
   * wildcard, such as the members of a SOAP-encoded array in the instrument's
   * schemas), so its verdict on the variant means nothing and the variant is dropped.
   */
  canary?: string;
}

export const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
export const WSA = 'http://www.w3.org/2005/08/addressing';
const ENVELOPES = ['http://schemas.xmlsoap.org/soap/envelope/', 'http://www.w3.org/2003/05/soap-envelope'];

/** Other ways to write a value of the same meaning, by what the value looks like. */
export function lexicalAlternatives(v: string): string[] {
  const out: string[] = [];
  const t = v.trim();
  if (/^[+-]?\d+$/.test(t)) {
    if (!/^[+-]/.test(t)) out.push(`+${t}`, `0${t}`);
    out.push(`${t}.0`, `${t}e0`);
  } else if (/^[+-]?\d*\.\d+$/.test(t)) {
    out.push(/^[+-]/.test(t) ? `${t}0` : `+${t}0`, `${t}E0`);
  }
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t)) out.push('INF', '-INF', 'NaN', '1e3', '1.5E-2');
  if (t === 'true') out.push('1');
  if (t === 'false') out.push('0');
  if (t === '1') out.push('true');
  if (t === '0') out.push('false');
  if (/^-?\d{4,}-\d\d-\d\d$/.test(t)) out.push(`${t}Z`, `${t}+02:00`, `${t}-05:30`);
  if (/^-?\d{4,}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/.test(t)) out.push(`${t}Z`, `${t}+01:00`, `${t}.125`.replace(/(\.\d+)\.125$/, '$1'));
  if (/^\d\d:\d\d:\d\d(\.\d+)?$/.test(t)) out.push(`${t}Z`, `${t}-08:00`);
  if (/(Z|[+-]\d\d:\d\d)$/.test(t) && /\d\d:\d\d:\d\d/.test(t)) out.push(t.replace(/(Z|[+-]\d\d:\d\d)$/, '+00:00'));
  return out.filter((x) => x !== t);
}

const PAD = [' \n\t', '\n  '];

/** A value written with the whitespace a pretty-printing server leaves around it. */
export function padded(v: string, rng: Random): string {
  return `${rng.pick(PAD)}${v}${rng.pick(PAD)}`;
}

interface Site {
  /** Child-element indexes from the envelope root. */
  path: number[];
  kind: 'element' | 'leaf' | 'attribute';
  attribute?: string;
  /** Inside a payload (not the Body child or Header block itself): xmllint judges each payload alone, so only there can it judge a node's count. */
  inner: boolean;
}

function elementAt(root: Element, path: readonly number[]): Element {
  let el = root;
  for (const i of path) el = children(el)[i];
  return el;
}

function isLeaf(el: Element): boolean {
  return children(el).length === 0;
}

/** Every element under the Body and the Header (not the envelope's own), its leaves and its attributes. */
function sites(root: Element): Site[] {
  const out: Site[] = [];
  const walk = (el: Element, path: number[], depth: number) => {
    if (depth >= 2) {
      const inner = depth >= 3;
      out.push({ path, kind: 'element', inner });
      if (isLeaf(el)) out.push({ path, kind: 'leaf', inner });
      for (let i = 0; i < el.attributes.length; i++) {
        const a = el.attributes[i];
        if (a.name === 'xmlns' || a.name.startsWith('xmlns:') || ENVELOPES.includes(a.namespaceURI ?? '') || a.namespaceURI === XSI) continue;
        out.push({ path, kind: 'attribute', attribute: a.name, inner });
      }
    }
    children(el).forEach((c, i) => walk(c, [...path, i], depth + 1));
  };
  walk(root, [], 0);
  return out;
}

function setText(el: Element, text: string): void {
  while (el.firstChild) el.removeChild(el.firstChild);
  if (text !== '') el.appendChild(el.ownerDocument!.createTextNode(text));
}

/** One change at one place; undefined when it does not apply there. */
type SiteChange = (doc: Document, site: Site, rng: Random) => string | undefined;

const SITE_CHANGES: Record<string, SiteChange> = {
  'value-whitespace': (doc, site, rng) => {
    const el = elementAt(doc.documentElement!, site.path);
    if (site.kind === 'leaf') {
      const v = el.textContent ?? '';
      if (v.trim() === '') return undefined;
      setText(el, padded(v, rng));
      return 'text';
    }
    if (site.kind === 'attribute') {
      el.setAttribute(site.attribute!, padded(el.getAttribute(site.attribute!) ?? '', rng));
      return `@${site.attribute}`;
    }
    return undefined;
  },
  'value-lexical': (doc, site, rng) => {
    const el = elementAt(doc.documentElement!, site.path);
    const v = site.kind === 'leaf' ? (el.textContent ?? '') : site.kind === 'attribute' ? (el.getAttribute(site.attribute!) ?? '') : undefined;
    if (v === undefined) return undefined;
    const alts = lexicalAlternatives(v);
    if (alts.length === 0) return undefined;
    const alt = rng.pick(alts);
    if (site.kind === 'leaf') setText(el, alt);
    else el.setAttribute(site.attribute!, alt);
    return `${site.kind === 'leaf' ? 'text' : `@${site.attribute}`} ${JSON.stringify(v)} -> ${JSON.stringify(alt)}`;
  },
  'value-empty': (doc, site) => {
    const el = elementAt(doc.documentElement!, site.path);
    if (site.kind === 'leaf') {
      if ((el.textContent ?? '') === '') return undefined;
      setText(el, '');
      return 'text';
    }
    if (site.kind === 'attribute') {
      el.setAttribute(site.attribute!, '');
      return `@${site.attribute}`;
    }
    return undefined;
  },
  'char-reference': (doc, site) => {
    // Marked by a private character, replaced in the text once serialised.
    if (site.kind !== 'leaf') return undefined;
    const el = elementAt(doc.documentElement!, site.path);
    const v = el.textContent ?? '';
    if (v === '') return undefined;
    setText(el, `\u{E000}${v}`);
    return 'text';
  },
  cdata: (doc, site) => {
    if (site.kind !== 'leaf') return undefined;
    const el = elementAt(doc.documentElement!, site.path);
    const v = el.textContent ?? '';
    if (v === '' || v.includes(']]>')) return undefined;
    while (el.firstChild) el.removeChild(el.firstChild);
    el.appendChild(doc.createCDATASection(v));
    return 'text';
  },
  nil: (doc, site) => {
    if (site.kind !== 'element' || !site.inner) return undefined;
    const el = elementAt(doc.documentElement!, site.path);
    while (el.firstChild) el.removeChild(el.firstChild);
    el.setAttributeNS(XSI, 'xsi:nil', 'true');
    return '';
  },
  'omit-element': (doc, site) => {
    if (site.kind !== 'element' || !site.inner) return undefined;
    const el = elementAt(doc.documentElement!, site.path);
    el.parentNode!.removeChild(el);
    return '';
  },
  'omit-attribute': (doc, site) => {
    if (site.kind !== 'attribute') return undefined;
    elementAt(doc.documentElement!, site.path).removeAttribute(site.attribute!);
    return `@${site.attribute}`;
  },
  repeat: (doc, site) => {
    if (site.kind !== 'element' || !site.inner) return undefined;
    const el = elementAt(doc.documentElement!, site.path);
    el.parentNode!.insertBefore(el.cloneNode(true), el.nextSibling);
    return '';
  },
  comment: (doc, site) => {
    if (site.kind !== 'element') return undefined;
    const el = elementAt(doc.documentElement!, site.path);
    el.insertBefore(doc.createComment(' a comment '), el.firstChild);
    el.parentNode!.insertBefore(doc.createComment('before'), el);
    return '';
  },
};

export const SITE_KINDS = Object.keys(SITE_CHANGES);

/** Declared types of elements by local name (from the WSDL's schemas), for `xsi:type` naming the declared type. */
export type DeclaredTypes = ReadonlyMap<string, readonly { ns: string; local: string }[]>;

function xsiTypeChange(types: DeclaredTypes): SiteChange {
  return (doc, site, rng) => {
    if (site.kind !== 'element') return undefined;
    const el = elementAt(doc.documentElement!, site.path);
    const candidates = types.get(el.localName ?? '');
    if (!candidates?.length) return undefined;
    const t = rng.pick(candidates);
    if (t.ns) el.setAttributeNS('http://www.w3.org/2000/xmlns/', 'xmlns:xt', t.ns);
    el.setAttributeNS(XSI, 'xsi:type', t.ns ? `xt:${t.local}` : t.local);
    return `${t.ns ? `{${t.ns}}` : ''}${t.local}`;
  };
}

/** The message with `<canary>` as the first child of the element the site is in (its parent, for a change to the element itself). */
function canaryAt(text: string, site: Site, change: string): string {
  const doc = parseXml(text, 'v');
  let el = elementAt(doc.documentElement!, site.path);
  if (site.kind === 'element' && change !== 'xsi-type' && change !== 'comment') el = el.parentNode as Element;
  el.insertBefore(doc.createElementNS('urn:accord:canary', 'canary'), el.firstChild);
  return serialize(doc);
}

function serialize(doc: Document): string {
  return new XMLSerializer().serializeToString(doc).replace(/\u{E000}(.)/gu, (_, c: string) => `&#${c.codePointAt(0)};`);
}

function pathText(root: Element, site: Site): string {
  const names: string[] = [];
  let el = root;
  for (const i of site.path) {
    el = children(el)[i];
    names.push(el.localName ?? '?');
  }
  return names.slice(2).join('/');
}

/** Indentation between elements: only where an element holds elements and no text. */
function pretty(el: Element, depth: number): void {
  const kids = children(el);
  if (kids.length === 0) return;
  for (let n: Node | null = el.firstChild; n; n = n.nextSibling) if ((n.nodeType === 3 || n.nodeType === 4) && (n.nodeValue ?? '').trim() !== '') return;
  const doc = el.ownerDocument!;
  for (const k of kids) {
    el.insertBefore(doc.createTextNode(`\n${'  '.repeat(depth + 1)}`), k);
    pretty(k, depth + 1);
  }
  el.appendChild(doc.createTextNode(`\n${'  '.repeat(depth)}`));
}

/** The document without a byte order mark or XML declaration. */
export function bare(text: string): string {
  return text.replace(/^\uFEFF?\s*<\?xml[^?]*\?>\s*/, '').replace(/^\uFEFF/, '');
}

function soapNs(root: Element): string {
  return root.namespaceURI ?? ENVELOPES[0];
}

/** WS-Addressing headers a WCF or CXF service adds to every answer, whatever its WSDL says. */
function addAddressing(doc: Document, mustUnderstand: boolean): void {
  const root = doc.documentElement!;
  const ns = soapNs(root);
  let header = children(root, ns, 'Header')[0];
  if (!header) {
    header = doc.createElementNS(ns, `${root.prefix ? `${root.prefix}:` : ''}Header`);
    root.insertBefore(header, children(root)[0] ?? null);
  }
  const add = (local: string, text: string) => {
    const h = doc.createElementNS(WSA, `wsa:${local}`);
    h.appendChild(doc.createTextNode(text));
    if (mustUnderstand) h.setAttributeNS(ns, `${root.prefix || 'soapx'}:mustUnderstand`, ns === ENVELOPES[0] ? '1' : 'true');
    header.appendChild(h);
  };
  add('Action', 'urn:example:ActionResponse');
  add('RelatesTo', 'urn:uuid:6b29fc40-ca47-1067-b31d-00dd010662da');
}

/** Whole-message variations: the same data as another toolkit lays it out. */
const WHOLE: Record<string, (text: string, rng: Random) => Variant | undefined> = {
  'prefixes-fresh': (text) => ({ kind: 'prefixes-fresh', what: 'prefixes-fresh', text: serializeAs(parseXml(text, 'v').documentElement!, 'fresh') }),
  'prefixes-default-namespace': (text) => ({
    kind: 'prefixes-default-namespace',
    what: 'prefixes-default-namespace',
    text: serializeAs(parseXml(text, 'v').documentElement!, 'default'),
  }),
  'prefixes-local': (text) => ({ kind: 'prefixes-local', what: 'prefixes-local', text: serializeAs(parseXml(text, 'v').documentElement!, 'local') }),
  pretty: (text) => {
    const doc = parseXml(text, 'v');
    pretty(doc.documentElement!, 0);
    return { kind: 'pretty', what: 'pretty', text: serialize(doc) };
  },
  'xml-declaration': (text) => ({ kind: 'xml-declaration', what: 'xml-declaration', text: `<?xml version="1.0" encoding="utf-8"?>\r\n${bare(text)}` }),
  bom: (text) => ({ kind: 'bom', what: 'bom', text: `\uFEFF<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${bare(text)}\n` }),
  'addressing-headers': (text) => {
    const doc = parseXml(text, 'v');
    addAddressing(doc, false);
    return { kind: 'addressing-headers', what: 'addressing-headers', text: serialize(doc), undeclaredHeaders: true };
  },
};

export const WHOLE_KINDS = Object.keys(WHOLE);

export interface VariantOptions {
  /** Site variations drawn at random per message (whole-message ones are always made). */
  perMessage: number;
  types: DeclaredTypes;
  /** Response side: undeclared WS-Addressing headers are added as real services do. */
  response: boolean;
}

export function variantsOf(original: string, rng: Random, o: VariantOptions): Variant[] {
  const text = bare(original);
  const out: Variant[] = [];
  for (const [kind, make] of Object.entries(WHOLE)) {
    if (kind === 'addressing-headers' && !o.response) continue;
    const v = make(text, rng);
    if (v) out.push(v);
  }
  const root = parseXml(text, 'v').documentElement!;
  const all = sites(root);
  const changes: [string, SiteChange][] = [...Object.entries(SITE_CHANGES), ['xsi-type', xsiTypeChange(o.types)]];
  const tried = new Set<string>();
  // Values with other lexical forms (numbers, booleans, dates) are where toolkits differ most: each gets one, bounded.
  const valued = all.filter((site) => {
    const el = elementAt(root, site.path);
    const v = site.kind === 'leaf' ? (el.textContent ?? '') : site.kind === 'attribute' ? (el.getAttribute(site.attribute!) ?? '') : '';
    return lexicalAlternatives(v).length > 0;
  });
  for (const site of valued.slice(0, o.perMessage)) {
    for (const kind of ['value-lexical', 'value-whitespace']) {
      tried.add(`${kind}|${site.path.join('.')}|${site.kind}|${site.attribute ?? ''}`);
      const doc = parseXml(text, 'v');
      const detail = SITE_CHANGES[kind](doc, site, rng);
      if (detail !== undefined)
        out.push({ kind, what: `${kind} @ ${pathText(root, site)}${detail ? ` ${detail}` : ''}`, text: serialize(doc), canary: canaryAt(text, site, kind) });
    }
  }
  const budget = out.length + o.perMessage;
  for (let attempt = 0; attempt < o.perMessage * 4 && out.length < budget && all.length; attempt++) {
    const site = rng.pick(all);
    const [kind, change] = rng.pick(changes);
    const key = `${kind}|${site.path.join('.')}|${site.kind}|${site.attribute ?? ''}`;
    if (tried.has(key)) continue;
    tried.add(key);
    const doc = parseXml(text, 'v');
    const detail = change(doc, site, rng);
    if (detail === undefined) continue;
    out.push({ kind, what: `${kind} @ ${pathText(root, site)}${detail ? ` ${detail}` : ''}`, text: serialize(doc), canary: canaryAt(text, site, kind) });
  }
  return out;
}

/** A variation that was valid, laid out as another toolkit would (namespaces, indentation, declaration): what one real answer looks like. */
export function relaidOut(v: Variant, rng: Random): Variant {
  const doc = parseXml(bare(v.text), 'v');
  pretty(doc.documentElement!, 0);
  const style = rng.pick(['fresh', 'default', 'local'] as const);
  return { ...v, kind: `${v.kind}+layout`, what: `${v.what} (pretty, prefixes ${style})`, text: `<?xml version="1.0"?>\n${serializeAs(doc.documentElement!, style)}` };
}
