import { XMLSerializer, type Document, type Element } from '@xmldom/xmldom';
import path from 'node:path';
import { AccordError } from '../errors';
import { FILE_LIMITS, readInputXml } from '../files';
import { parseDom } from '../wsdl/dom';

/**
 * `GET <path>?wsdl` and `?xsd=<name>` for a stub started from WSDL files, as SoapUI and
 * Microcks mocks do, so clients that read the WSDL at start-up (the `soap` package, CXF,
 * .NET) can be pointed at the stub. The WSDL is served with every service address
 * rewritten to the stub (the path kept, so requests land on the contract's path) and every
 * relative import or include (WSDL or XSD) rewritten to `?xsd=<its path from the WSDL's folder>`.
 * Only the files the WSDL's imports reach are served, read from disk on each request (rare).
 * Loaded only when a WSDL is served.
 */

/** The text to answer `url` with, or undefined when it asks for no document of these WSDLs. */
export function wsdlDocument(wsdlFiles: readonly string[], url: string, base: string): { text: string } | { missing: string } | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  const params = new URLSearchParams(url.slice(q + 1));
  const servedAt = url.slice(0, q);
  const wantsWsdl = [...params.keys()].some((k) => k.toLowerCase() === 'wsdl');
  const xsd = params.get('xsd');
  if (!wantsWsdl && xsd === null) return undefined;
  const sites = wsdlFiles.map((file) => new Site(file, base, servedAt));
  if (wantsWsdl) {
    // Several WSDLs: the one whose service address has this path, else the first.
    const docs = sites.map((s) => s.document(s.root));
    const i = Math.max(
      0,
      docs.findIndex((d) => d.addressPaths.includes(servedAt)),
    );
    return { text: docs[i].text };
  }
  for (const s of sites) {
    const file = s.reachable().get(xsd!);
    if (file) return { text: s.document(file).text };
  }
  return { missing: xsd! };
}

class Site {
  readonly root: string;
  private readonly dir: string;

  constructor(
    file: string,
    private readonly base: string,
    private readonly servedAt: string,
  ) {
    this.root = path.resolve(file);
    this.dir = path.dirname(this.root);
  }

  /** Every file the root's imports reach, by the name it is served under. */
  reachable(): Map<string, string> {
    const out = new Map<string, string>();
    const todo = [this.root];
    while (todo.length > 0) {
      const file = todo.pop()!;
      let doc: Document;
      try {
        doc = this.parse(file);
      } catch (e) {
        // An import that is missing or broken is served as what it is (an error) when asked for; the rest still are.
        if (e instanceof AccordError && file !== this.root) continue;
        throw e;
      }
      for (const ref of this.references(doc, file)) {
        if (out.has(ref.name)) continue;
        if (out.size >= FILE_LIMITS.wsdlFiles) throw new AccordError('ACCORD_ERR_LIMIT', `the WSDL imports more than ${FILE_LIMITS.wsdlFiles} files`, { file: this.root });
        out.set(ref.name, ref.file);
        todo.push(ref.file);
      }
    }
    return out;
  }

  document(file: string): { text: string; addressPaths: string[] } {
    const doc = this.parse(file);
    const addressPaths: string[] = [];
    for (const el of elements(doc)) {
      // soap:address, soap12:address, http:address (WSDL 1.1); wsdl:endpoint address= (WSDL 2.0).
      const attr = el.localName === 'address' ? 'location' : el.localName === 'endpoint' ? 'address' : undefined;
      const value = attr && el.getAttribute(attr);
      if (!attr || !value) continue;
      let p = '/';
      try {
        p = new URL(value).pathname;
      } catch {
        /* not a URL: served at the root */
      }
      addressPaths.push(p);
      el.setAttribute(attr, `${this.base}${p}`);
    }
    for (const ref of this.references(doc, file)) ref.el.setAttribute(ref.attr, `${this.base}${this.servedAt}?xsd=${encodeURIComponent(ref.name)}`);
    // Served as UTF-8 (the Content-Type says so): a declaration naming the file's own encoding would contradict it.
    const declaration = doc.firstChild;
    if (declaration?.nodeType === 7 && declaration.nodeName === 'xml') doc.removeChild(declaration);
    return { text: new XMLSerializer().serializeToString(doc), addressPaths };
  }

  private parse(file: string): Document {
    return parseDom(readInputXml(file, { what: 'WSDL', limit: FILE_LIMITS.wsdlBytes }), file);
  }

  /** The relative imports and includes of a document: where they point and the name each is served under. */
  private references(doc: Document, file: string): { el: Element; attr: string; file: string; name: string }[] {
    const out: { el: Element; attr: string; file: string; name: string }[] = [];
    for (const el of elements(doc)) {
      if (el.localName !== 'import' && el.localName !== 'include' && el.localName !== 'redefine') continue;
      const attr = el.hasAttribute('schemaLocation') ? 'schemaLocation' : el.hasAttribute('location') ? 'location' : undefined;
      const value = attr && el.getAttribute(attr);
      // Absolute URLs are the client's to fetch; only local files are the stub's to serve.
      if (!attr || !value || value.includes(':')) continue;
      const target = path.resolve(path.dirname(file), value);
      out.push({ el, attr, file: target, name: path.relative(this.dir, target).split(path.sep).join('/') });
    }
    return out;
  }
}

function elements(doc: Document): Element[] {
  const out: Element[] = [];
  const walk = (el: Element) => {
    out.push(el);
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) walk(c as Element);
  };
  if (doc.documentElement) walk(doc.documentElement);
  return out;
}
