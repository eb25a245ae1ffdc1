import { DOMParser, type Document, type Element, type Node } from '@xmldom/xmldom';
import { AccordError } from '../errors';
import { DOCTYPE_MAX_CHARS, XML_LIMITS } from '../limits';

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

/** The file each parsed document came from, so an error about any node can say where it is. */
const files = new WeakMap<Document, string>();

/** File and line of a node, for an error about it. */
export function placeOf(n: Node): { file?: string; line?: number } {
  const doc = n.ownerDocument;
  return { file: doc ? files.get(doc) : undefined, line: lineOf(n) };
}

/**
 * Parses a WSDL or XSD file's text into a DOM. No DTD is ever read, so no entity (external or
 * internal) is expanded or fetched: a DOCTYPE that only declares is blanked out (`blankDoctype`), a
 * use of an entity it declares is refused by name, and any other DOCTYPE is refused.
 * Every problem becomes an AccordError with the file and line.
 */
export function parseDom(original: string, file: string): Document {
  refuseNonXmlChars(original, file);
  refuseOverLimits(original, file);
  const blanked = blankDoctype(original, file);
  const text = blanked?.text ?? original;
  let failure: AccordError | undefined;
  const parser = new DOMParser({
    locator: true,
    onError: (level, msg, context) => {
      if (level === 'warning') return;
      // A DOCTYPE already read is the reason to give, whatever error its entities cause next.
      const doctype = (context as { doc?: Document } | undefined)?.doc?.doctype;
      const line = (context as { locator?: { lineNumber?: number; columnNumber?: number } } | undefined)?.locator;
      const entity = /entity not found:\s*&([^;\s]{1,200});/.exec(msg)?.[1];
      failure ??= doctype
        ? refusedDoctype(doctype, file)
        : entity !== undefined && blanked?.entities.has(entity)
          ? new AccordError('ACCORD_ERR_XML', `the entity &${entity}; declared in the DOCTYPE is used: accord never expands entities`, {
              file,
              line: line?.lineNumber || undefined,
            })
          : new AccordError('ACCORD_ERR_XML', `not well-formed XML: ${firstLine(msg)}`, {
              file,
              line: line?.lineNumber || undefined,
              column: line?.lineNumber ? line.columnNumber : undefined,
            });
      // Stop at the first error, not only a fatal one: xmldom recovers from an error by reading on, and on a run
      // of `<` each recovery searched the rest of the text again (a megabyte of `<` took 30 s). The first error
      // is the one reported either way.
      throw failure;
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
  if (doc.doctype) throw refusedDoctype(doc.doctype, file);
  if (failure) throw failure;
  if (!doc.documentElement) throw new AccordError('ACCORD_ERR_XML', 'not XML: no root element', { file, line: 1 });
  files.set(doc, file);
  return doc;
}

/**
 * XML 1.0 allows no control characters but tab and line ends, raw or as
 * character references (`&#1;`); xmldom lets them through, and a name holding
 * one would reach the contract. Refused here, with the place, in one linear pass.
 */
function refuseNonXmlChars(text: string, file: string): void {
  let bad = -1;
  let code = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0xd800) continue;
    if (c === 0x09 || c === 0x0a || c === 0x0d) continue;
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    } else if (c >= 0xe000 && c !== 0xfffe && c !== 0xffff) continue;
    bad = i;
    code = c;
    break;
  }
  if (bad < 0) {
    const ref = /&#(?:x([0-9a-fA-F]{1,8})|([0-9]{1,10}));/g;
    for (let m = ref.exec(text); m; m = ref.exec(text)) {
      const v = m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2], 10);
      if (!isXmlChar(v)) {
        bad = m.index;
        code = v;
        break;
      }
    }
  }
  if (bad < 0) return;
  const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  throw new AccordError('ACCORD_ERR_XML', `not well-formed XML: character ${name} is not allowed in XML`, placeAt(text, bad, file));
}

/** The name of the tag whose name starts at `from` (up to white space, `/` or `>`). */
function nameAt(text: string, from: number): string {
  let end = from;
  while (end < text.length && end - from < 200 && !' \t\r\n/>'.includes(text[end])) end++;
  return text.slice(from, end);
}

/** File, line and column of the character at `index`. */
function placeAt(text: string, index: number, file: string): { file: string; line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { file, line, column: index - lineStart + 1 };
}

/**
 * XML_LIMITS (depth, elements, attributes per element), the bounds every XML body has, checked on
 * the text before xmldom builds a DOM of it: a 32 MiB file of `<a/>` would be millions of nodes, and a
 * deeply nested one would overflow the importer's recursive walks. One linear pass over the tags;
 * comments, CDATA, processing instructions and quoted attribute values are skipped. Malformed text
 * is left to xmldom, which reports it with its place.
 */
function refuseOverLimits(text: string, file: string): void {
  const { maxDepth, maxAttributes, maxElements } = XML_LIMITS;
  const fail = (message: string, at: number): never => {
    throw new AccordError('ACCORD_ERR_XML', message, placeAt(text, at, file));
  };
  let depth = 0;
  let elements = 0;
  const skipTo = (from: number, end: string) => {
    const e = text.indexOf(end, from);
    return e < 0 ? text.length : e + end.length;
  };
  for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i)) {
    const next = text.charCodeAt(i + 1);
    if (next === 0x21 /* ! */) {
      if (text.startsWith('<!--', i)) i = skipTo(i + 4, '-->');
      else if (text.startsWith('<![CDATA[', i)) i = skipTo(i + 9, ']]>');
      else i = skipTo(i + 2, '>');
    } else if (next === 0x3f /* ? */) i = skipTo(i + 2, '?>');
    else if (next === 0x2f /* / */) {
      depth--;
      i = skipTo(i + 2, '>');
    } else {
      const start = i;
      if (++elements > maxElements) fail(`more than ${maxElements} elements`, start);
      if (depth >= maxDepth) fail(`elements nested deeper than ${maxDepth} levels`, start);
      let attributes = 0;
      let quote = 0;
      let j = i + 1;
      for (; j < text.length; j++) {
        const c = text.charCodeAt(j);
        if (quote !== 0) {
          if (c === quote) quote = 0;
        } else if (c === 0x22 || c === 0x27) quote = c;
        else if (c === 0x3d /* = */ && ++attributes > maxAttributes) fail(`element <${nameAt(text, start + 1)}> has more than ${maxAttributes} attributes`, start);
        else if (c === 0x3e /* > */) break;
      }
      if (text.charCodeAt(j - 1) !== 0x2f /* / */) depth++;
      i = j + 1;
    }
  }
}

function isXmlChar(v: number): boolean {
  return v === 0x09 || v === 0x0a || v === 0x0d || (v >= 0x20 && v <= 0xd7ff) || (v >= 0xe000 && v <= 0xfffd) || (v >= 0x10000 && v <= 0x10ffff);
}

function refusedDoctype(doctype: Node, file: string): AccordError {
  return new AccordError('ACCORD_ERR_XML', 'a DOCTYPE is not allowed (no DTDs, no entities are read)', { file, line: lineOf(doctype) });
}

function firstLine(s: string): string {
  return s
    .split('\n')[0]
    .replace(/^\[xmldom [^\]]*\]\s*/, '')
    .trim();
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

/**
 * Whether a binding element is a SOAP binding (WSDL 1.1: a `soap:binding` or `soap12:binding` child;
 * WSDL 2.0: `type` the SOAP binding type): the bindings accord imports and a stub of a WSDL serves.
 */
export function isSoapBinding(binding: Element): boolean {
  if (binding.namespaceURI === NS.wsdl20) return attr(binding, 'type') === NS.wsdl20soap;
  return kid(binding, [NS.soap11, NS.soap12], 'binding') !== undefined;
}

export function attr(el: Element, name: string): string | undefined {
  return el.hasAttribute(name) ? (el.getAttribute(name) ?? undefined) : undefined;
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
  const ns = prefix === 'xml' ? NS.xml : el.lookupNamespaceURI(prefix ?? '');
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

/** What a declaration-only DOCTYPE left behind: the text with it blanked out, and the general entities it declared. */
interface Blanked {
  text: string;
  entities: ReadonlySet<string>;
}

/**
 * A schema may start with a DOCTYPE that only declares (the W3C's `xmldsig-core-schema.xsd` and
 * `xenc-schema.xsd`, imported by SAML, WS-Security and signed-XML government schemas, declare an
 * ATTLIST and entities they never use). Such a DOCTYPE is read here, never by a DTD processor:
 * its external identifier is never fetched, no entity is ever expanded and no attribute default is
 * applied. It is blanked out (line ends kept, so every later line number stays right) and the
 * general entities it declared are named, so a use of one is refused by name. Anything in the
 * internal subset but declarations, comments and processing instructions (a parameter-entity
 * reference, which would pull in more DTD) is refused. One linear pass, bounded by DOCTYPE_MAX_CHARS.
 */
function blankDoctype(text: string, file: string): Blanked | undefined {
  const start = doctypeStart(text);
  if (start < 0) return undefined;
  const entities = new Set<string>();
  const refuse = (why: string, at: number): never => {
    throw new AccordError('ACCORD_ERR_XML', `a DOCTYPE is read only when it only declares: ${why}`, placeAt(text, at, file));
  };
  const limit = Math.min(text.length, start + DOCTYPE_MAX_CHARS);
  let i = start + '<!DOCTYPE'.length;
  const space = () => {
    while (i < limit && isSpace(text.charCodeAt(i))) i++;
  };
  const quoted = () => {
    const q = text[i];
    if (q !== '"' && q !== "'") refuse('a quoted literal was expected', i);
    const end = text.indexOf(q, i + 1);
    if (end < 0 || end >= limit) refuse('a quoted literal does not end', i);
    i = end + 1;
  };
  const word = () => {
    const from = i;
    while (i < limit && !isSpace(text.charCodeAt(i)) && !'[]>"\'%'.includes(text[i])) i++;
    return text.slice(from, i);
  };
  space();
  if (!word()) refuse('the root element is not named', i);
  space();
  const id = text.startsWith('SYSTEM', i) ? 'SYSTEM' : text.startsWith('PUBLIC', i) ? 'PUBLIC' : '';
  if (id) {
    // Never fetched: the identifier is only skipped.
    i += id.length;
    space();
    quoted();
    space();
    if (id === 'PUBLIC') {
      quoted();
      space();
    }
  }
  if (text[i] === '[') {
    i++;
    for (;;) {
      space();
      if (i >= limit) refuse(`it is longer than ${DOCTYPE_MAX_CHARS} characters or does not end`, start);
      if (text[i] === ']') {
        i++;
        break;
      }
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        if (end < 0 || end >= limit) refuse('a comment does not end', i);
        i = end + 3;
      } else if (text.startsWith('<?', i)) {
        const end = text.indexOf('?>', i + 2);
        if (end < 0 || end >= limit) refuse('a processing instruction does not end', i);
        i = end + 2;
      } else if (/^<!(?:ENTITY|ATTLIST|ELEMENT|NOTATION)\s/.test(text.slice(i, i + 12))) {
        const isEntity = text.startsWith('<!ENTITY', i);
        i += text.slice(i, i + 12).search(/\s/);
        space();
        if (isEntity) {
          if (text[i] === '%') {
            // A parameter entity: declared, never referenced (a reference is refused below).
            i++;
            space();
            word();
          } else entities.add(word());
        }
        // The rest of the declaration, literals skipped whole (a `>` inside quotes does not end it).
        for (;;) {
          space();
          if (i >= limit) refuse('a declaration does not end', i);
          if (text[i] === '>') {
            i++;
            break;
          }
          if (text[i] === '"' || text[i] === "'") quoted();
          else if (!word()) i++;
        }
      } else if (text[i] === '%') refuse('a parameter-entity reference would read more DTD', i);
      else refuse('only entity, attribute, element and notation declarations, comments and processing instructions may stand in it', i);
    }
    space();
  }
  if (text[i] !== '>') refuse('it does not end with >', i);
  i++;
  const blank = text.slice(start, i).replace(/[^\r\n]/g, ' ');
  return { text: text.slice(0, start) + blank + text.slice(i), entities };
}

/** Where a DOCTYPE starts in the prolog (after a byte order mark, the XML declaration, comments, PIs, white space), or -1. */
function doctypeStart(text: string): number {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return -1;
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return -1;
      i = end + 3;
    } else return text.startsWith('<!DOCTYPE', i) ? i : -1;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
