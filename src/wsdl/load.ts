import { realpathSync } from 'node:fs';
import { basename, dirname, resolve as resolvePath } from 'node:path';
import type { Document, Element } from '@xmldom/xmldom';
import { decodePercent } from '../contract/path';
import { AccordError } from '../errors';
import { decodeXmlText, FILE_LIMITS, readInputBytes, shownPath } from '../files';
import { attr, kids, lineOf, NS, parseDom } from './dom';
import { XML_NAMESPACE_FILE, xmlNamespaceSchema } from './xml-namespace';

/** Largest WSDL or XSD file read. */
export const MAX_FILE_BYTES = FILE_LIMITS.wsdlBytes;
/** Most files one import may pull in through imports and includes. */
export const MAX_FILES = FILE_LIMITS.wsdlFiles;

export type DocKind = 'wsdl11' | 'wsdl20' | 'xsd';

export interface LoadedDoc {
  file: string;
  doc: Document;
  root: Element;
  kind: DocKind;
  /** A WSDL 1.1 document written without the WSDL namespace, read as if it had it. */
  unqualified?: boolean;
}

/** One `xsd:schema` element, where it came from, and the namespace it defines. */
export interface SchemaSource {
  el: Element;
  file: string;
  targetNamespace: string;
}

/** An import or include that was not followed, and why. */
export interface Unresolved {
  location: string;
  file: string;
  line?: number;
  reason: string;
  /** The file it was looked for at (a relative location, resolved from the importing file's folder). */
  looked?: string;
}

export interface LoadedSet {
  root: LoadedDoc;
  /** Every WSDL document, the root first, each once however often it is imported. */
  wsdls: LoadedDoc[];
  schemas: SchemaSource[];
  unresolved: Unresolved[];
  files: string[];
  /** What was read leniently (a WSDL 1.1 document whose elements carry no namespace). */
  notes: string[];
}

const SCHEMA_LOCATION_ELEMENTS = ['import', 'include', 'redefine', 'override'];

/**
 * Reads a WSDL and everything it imports or includes from local files.
 * Nothing is fetched: a location with a URL scheme is reported as unresolved.
 * Each file is read once, so circular imports end by themselves.
 */
export function loadWsdl(file: string): LoadedSet {
  if (isUrl(file) && !/^[a-z]:[\\/]/i.test(file)) {
    throw new AccordError(
      'ACCORD_ERR_USAGE',
      isHttp(file)
        ? 'a WSDL by URL is fetched by `accord import wsdl <URL>`, which writes it and what it imports beside the contract: give the path of that copy here'
        : 'not a local file: give the path of the WSDL',
      { file },
    );
  }
  const rootDoc = readDoc(file);
  if (rootDoc.kind === 'xsd') {
    throw new AccordError('ACCORD_ERR_WSDL', 'not a WSDL: this is an XML Schema (root <schema>); give the WSDL that uses it', { file: rootDoc.file, line: lineOf(rootDoc.root) });
  }
  const loader = new Loader(rootDoc);
  loader.visitWsdl(rootDoc);
  const xml = xmlNamespaceSchema(loader.set.schemas);
  if (xml) loader.set.schemas.push({ el: xml, file: XML_NAMESPACE_FILE, targetNamespace: NS.xml });
  return loader.set;
}

/** The walk over imports and includes: each file read once, each schema element visited once per namespace it takes. */
class Loader {
  readonly set: LoadedSet;
  private readonly seen = new Map<string, LoadedDoc>();
  private readonly seenSchemas = new Set<string>();

  constructor(rootDoc: LoadedDoc) {
    this.set = { root: rootDoc, wsdls: [], schemas: [], unresolved: [], files: [rootDoc.file], notes: [] };
    this.seen.set(rootDoc.file, rootDoc);
  }

  private unresolved(location: string, from: LoadedDoc, line: number | undefined, reason: string, looked?: string): undefined {
    this.set.unresolved.push(looked === undefined ? { location, file: from.file, line, reason } : { location, file: from.file, line, reason, looked });
    return undefined;
  }

  /** The document a location names, read once; undefined (listed as unresolved) when it cannot be. */
  private follow(from: LoadedDoc, el: Element, location: string): LoadedDoc | undefined {
    const loc = location.trim();
    const line = lineOf(el);
    if (isUrl(loc)) return this.unresolved(loc, from, line, isHttp(loc) ? "a URL, not fetched: `accord import wsdl <the WSDL's URL>` fetches it with the WSDL" : 'a URL, not read');
    const path = resolvePath(dirname(from.file), decodePercent(loc));
    let key: string;
    try {
      key = realpathSync(path);
    } catch {
      return this.unresolved(loc, from, line, 'no such file', path);
    }
    const known = this.seen.get(key);
    if (known) return known;
    if (this.seen.size >= MAX_FILES) throw new AccordError('ACCORD_ERR_LIMIT', `more than ${MAX_FILES} imported files`, { file: from.file, line });
    let doc: LoadedDoc;
    try {
      doc = readDoc(key, loc);
    } catch (e) {
      if (!(e instanceof AccordError)) throw e;
      return this.unresolved(loc, from, line, e.describe());
    }
    this.seen.set(key, doc);
    this.set.files.push(key);
    return doc;
  }

  private visitSchema(owner: LoadedDoc, el: Element, chameleon?: string): void {
    const declared = attr(el, 'targetNamespace') ?? '';
    const targetNamespace = declared || chameleon || '';
    const key = `${owner.file}#${lineOf(el) ?? 0}#${targetNamespace}`;
    if (this.seenSchemas.has(key)) return;
    this.seenSchemas.add(key);
    this.set.schemas.push({ el, file: owner.file, targetNamespace });
    for (const ref of kids(el, NS.xsd, SCHEMA_LOCATION_ELEMENTS)) {
      const location = attr(ref, 'schemaLocation');
      // An import without schemaLocation names a namespace defined elsewhere in the set (often another inline schema).
      if (!location) continue;
      const target = this.follow(owner, ref, location);
      if (!target) continue;
      if (target.kind !== 'xsd') {
        this.unresolved(location, owner, lineOf(ref), `not an XML Schema (root <${target.root.localName}>)`);
        continue;
      }
      const isInclude = ref.localName !== 'import';
      this.visitSchema(target, target.root, isInclude ? targetNamespace : undefined);
    }
  }

  visitWsdl(d: LoadedDoc): void {
    if (this.set.wsdls.includes(d)) return;
    this.set.wsdls.push(d);
    if (d.unqualified) {
      this.set.notes.push(`${basename(d.file)}: its WSDL elements (<definitions>, <message>, ...) carry no namespace; read as WSDL 1.1 (${NS.wsdl11})`);
    }
    const wsdlNs = d.kind === 'wsdl11' ? NS.wsdl11 : NS.wsdl20;
    for (const types of kids(d.root, wsdlNs, 'types')) {
      for (const schema of kids(types, NS.xsd, 'schema')) this.visitSchema(d, schema);
      // An xsd:import or xsd:include right inside wsdl:types, outside any schema (seen in real WSDLs; XSD allows it only
      // inside a schema, but the toolkits that wrote them read it): the document it names is read as if a schema imported it.
      for (const ref of kids(types, NS.xsd, SCHEMA_LOCATION_ELEMENTS)) {
        const location = attr(ref, 'schemaLocation');
        if (!location) {
          this.set.notes.push(`${basename(d.file)}:${lineOf(ref) ?? 0}: an xsd:${ref.localName} directly in wsdl:types names no schemaLocation: nothing is read for it`);
          continue;
        }
        const target = this.follow(d, ref, location);
        if (!target) continue;
        if (target.kind !== 'xsd') this.unresolved(location, d, lineOf(ref), `not an XML Schema (root <${target.root.localName}>)`);
        else this.visitSchema(target, target.root);
      }
    }
    for (const imp of kids(d.root, wsdlNs, ['import', 'include'])) {
      const location = attr(imp, 'location');
      if (!location) continue;
      const target = this.follow(d, imp, location);
      if (!target) continue;
      if (target.kind === 'xsd') this.visitSchema(target, target.root);
      else this.visitWsdl(target);
    }
  }
}

function readDoc(file: string, shown = file): LoadedDoc {
  let path = file;
  try {
    path = realpathSync(file);
  } catch {
    // The reader says why (no such file, a loop, no permission).
  }
  const bytes = readInputBytes(path, { what: 'WSDL or XML Schema', limit: MAX_FILE_BYTES, shown });
  // Control characters are left to the XML check, which says where they are; a NUL byte means binary.
  const text = decodeXmlText(bytes, shownPath(shown), 'WSDL or XML Schema', { nulOnly: true });
  const doc = parseDom(text, file);
  const root = doc.documentElement!;
  const ns = root.namespaceURI ?? '';
  let kind: DocKind;
  let unqualified = false;
  if (ns === '' && root.localName === 'definitions') {
    // Some generators (PHP SoapServer WSDLs among them) leave out xmlns="http://schemas.xmlsoap.org/wsdl/";
    // every other tool reads such a file as WSDL 1.1, so accord does too.
    qualifyWsdl11(root);
    unqualified = true;
  }
  if (root.namespaceURI === NS.wsdl11 && root.localName === 'definitions') kind = 'wsdl11';
  else if (ns === NS.wsdl20 && root.localName === 'description') kind = 'wsdl20';
  else if (ns === NS.xsd && root.localName === 'schema') kind = 'xsd';
  else {
    throw new AccordError(
      'ACCORD_ERR_WSDL',
      `not a WSDL: the root element is <${root.tagName}>${ns ? ` in namespace ${ns}` : ''}; expected <definitions> (WSDL 1.1) or <description> (WSDL 2.0)`,
      { file, line: lineOf(root) },
    );
  }
  return unqualified ? { file: path, doc, root, kind, unqualified } : { file: path, doc, root, kind };
}

/**
 * Puts the WSDL 1.1 elements of a document that left out the WSDL namespace
 * into it: the root and every element in no namespace below it, not looking
 * inside namespaced elements (an inline schema, a SOAP binding element).
 */
function qualifyWsdl11(root: Element): void {
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    // xmldom keeps the namespace as a plain property; nothing else in the DOM depends on it.
    (el as { namespaceURI: string | null }).namespaceURI = NS.wsdl11;
    for (const k of kids(el)) if (!k.namespaceURI) stack.push(k);
  }
}

function isHttp(location: string): boolean {
  const l = location.slice(0, 6).toLowerCase();
  return l.startsWith('http:') || l.startsWith('https:');
}

/** `http:`, `https:`, `ftp:`, `urn:`, `//host`: anything but a local path (a Windows drive letter is a path). */
export function isUrl(location: string): boolean {
  return /^[a-z][a-z0-9+.-]+:/i.test(location) || location.startsWith('//');
}
