import type { Document, Element } from '@xmldom/xmldom';
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { AccordError } from '../../errors';
import { FILE_LIMITS, readInputXml } from '../../files';
import { attr, isSoapBinding, NS, parseDom, resolveQName } from '../../wsdl/dom';
import { splitTarget } from '../../http/target';
import type { Scenario } from '../../contract/model';
import { exportWsdl } from '../../wsdl/export';
import { elements, originals, referenceAttribute, rewriteLocations, serializeDocument } from '../../wsdl/locations';

/**
 * A stub of `.spec` files answers `?wsdl` (at any path) with the WSDL exported from its SOAP scenarios
 * (wsdl/export: what `accord export wsdl` writes), its service addresses the stub's.
 *
 * `GET <path>?wsdl` and `?xsd=<name>` for a stub started from WSDL files, as SoapUI and
 * Microcks mocks do, so clients that read the WSDL at start-up (the `soap` package, CXF,
 * .NET) can be pointed at the stub. The WSDL is served with every service address
 * rewritten to the stub (the path kept, so requests land on the contract's path) and every
 * relative import or include (WSDL or XSD) rewritten to `?xsd=<its path from the WSDL's folder>`,
 * and the ports (WSDL 2.0: endpoints) of bindings the stub does not serve left out: it serves SOAP
 * bindings only, and a client takes the first port it can use (zeep takes an HTTP GET port before
 * the SOAP ones), which must not be one the stub refuses.
 * Only the files the WSDL's imports reach inside the WSDL's own folder are served: regular files
 * whose real path (links resolved) lies in that folder; an import that points elsewhere (`../`,
 * an absolute path, a link out) or that cannot be read is answered 404. The documents are read
 * and parsed once, on the first request for them, and again after the stub reloads its
 * contracts. `accord proxy` rewrites the WSDLs it passes through with the same walk
 * (rewriteLocations). Loaded only when a WSDL is served.
 */

/** Served texts kept per stub generation: one per (address, path, file); the client's Host is in the address, so this is bounded. */
const MAX_TEXTS = 64;

/** The documents of one stub's WSDLs, read once; a stub makes a new one when it reloads. */
export class WsdlDocs {
  private sites: Site[] | undefined;
  private readonly texts = new Map<string, { text: string; addressPaths: string[] }>();

  /**
   * `scenarios`: for a stub of `.spec` files (no WSDL given), the scenarios it serves; `?wsdl` is then
   * answered with the WSDL `accord export wsdl` writes from their SOAP scenarios, its addresses the stub's.
   */
  constructor(
    private readonly wsdlFiles: readonly string[],
    private readonly scenarios?: () => readonly Scenario[],
  ) {}

  /** The text to answer `url` with, or undefined when it asks for no document of these WSDLs. */
  answer(url: string, base: string): { text: string } | { missing: string } | undefined {
    const target = splitTarget(url);
    if (target.query.length === 0) return undefined;
    const params = new URLSearchParams(target.query);
    const servedAt = target.path;
    const wantsWsdl = [...params.keys()].some((k) => k.toLowerCase() === 'wsdl');
    const xsd = params.get('xsd');
    if (!wantsWsdl && xsd === null) return undefined;
    if (this.wsdlFiles.length === 0) return wantsWsdl && this.scenarios ? this.exported(base) : undefined;
    // The root WSDLs are read every time until they read (an error is answered as one and tried again).
    const sites = (this.sites ??= this.wsdlFiles.map((file) => new Site(file)));
    if (wantsWsdl) {
      // Several WSDLs: the one whose service address has this path, else the first.
      const docs = sites.map((s) => this.text(s, s.root, base, servedAt)!);
      const i = Math.max(
        0,
        docs.findIndex((d) => d.addressPaths.includes(servedAt)),
      );
      return { text: docs[i].text };
    }
    for (const s of sites) {
      const file = s.reachable().get(xsd!);
      const doc = file === undefined ? undefined : this.text(s, file, base, servedAt);
      if (doc) return { text: doc.text };
    }
    return { missing: xsd! };
  }

  /** The WSDL exported from the served scenarios, its addresses at `base`; undefined when none is a SOAP scenario. */
  private exported(base: string): { text: string } | undefined {
    const key = `export\n${base}`;
    const known = this.texts.get(key);
    if (known) return known.text === '' ? undefined : { text: known.text };
    const scenarios = this.scenarios!();
    const r = exportWsdl(scenarios, { name: scenarios[0]?.feature ?? 'Service', base });
    if (this.texts.size >= MAX_TEXTS) this.texts.clear();
    this.texts.set(key, { text: r.text, addressPaths: [] });
    return r.text === '' ? undefined : { text: r.text };
  }

  private text(site: Site, file: string, base: string, servedAt: string): { text: string; addressPaths: string[] } | undefined {
    const key = `${base}\n${servedAt}\n${file}`;
    let t = this.texts.get(key);
    if (t) return t;
    t = site.document(file, base, servedAt);
    if (!t) return undefined;
    if (this.texts.size >= MAX_TEXTS) this.texts.clear();
    this.texts.set(key, t);
    return t;
  }
}

class Site {
  readonly root: string;
  private readonly dir: string;
  /** The folder's real path (links resolved): what a served file's real path must lie in. */
  private readonly realDir: string;
  /** Parsed documents by file; undefined for an import that cannot be read or lies outside the folder. */
  private readonly docs = new Map<string, Document | undefined>();
  private served: Map<string, string> | undefined;

  constructor(file: string) {
    this.root = path.resolve(file);
    this.dir = path.dirname(this.root);
    this.realDir = realpathOr(this.dir);
    // The root is read now: a WSDL that cannot be read is an error for every ?wsdl, not a 404.
    this.docs.set(this.root, this.read(this.root));
  }

  /** Every file the root's imports reach inside its folder, by the name it is served under. */
  reachable(): Map<string, string> {
    if (this.served) return this.served;
    const out = new Map<string, string>();
    const todo = [this.root];
    // The root is read first; an import that cycles back to it names it too.
    const seen = new Set<string>();
    while (todo.length > 0) {
      const file = todo.pop()!;
      const doc = this.parsed(file);
      if (!doc) continue;
      for (const ref of this.references(doc, file)) {
        if (seen.has(ref.file)) continue;
        seen.add(ref.file);
        if (out.size >= FILE_LIMITS.wsdlFiles) throw new AccordError('ACCORD_ERR_LIMIT', `the WSDL imports more than ${FILE_LIMITS.wsdlFiles} files`, { file: this.root });
        // Only what can be served is named: an import outside the folder, or one that cannot be read, is a 404.
        if (!this.parsed(ref.file)) continue;
        out.set(ref.name, ref.file);
        if (ref.file !== this.root) todo.push(ref.file);
      }
    }
    return (this.served = out);
  }

  document(file: string, base: string, servedAt: string): { text: string; addressPaths: string[] } | undefined {
    const doc = this.parsed(file);
    if (!doc) return undefined;
    const served = this.reachable();
    this.leaveOutUnserved(doc);
    const refs = new Map(this.references(doc, file).map((r) => [r.el, r]));
    const addressPaths: string[] = [];
    // The DOM is the cached one: every location this writes is written afresh for each (base, path), synchronously.
    rewriteLocations(doc, {
      address: (value) => {
        let p = '/';
        try {
          p = new URL(value).pathname;
        } catch {
          /* not a URL: served at the root */
        }
        addressPaths.push(p);
        return `${base}${p}`;
      },
      reference: (value, el) => {
        const ref = refs.get(el);
        // An import left as written: an absolute URL (the client's to fetch) or a file that is not served.
        if (!ref || served.get(ref.name) !== ref.file) return value;
        return `${base}${servedAt}?xsd=${encodeURIComponent(ref.name)}`;
      },
    });
    return { text: serializeDocument(doc), addressPaths };
  }

  /**
   * Removes, once per document, the ports and endpoints whose binding is not a SOAP binding (HTTP
   * GET/POST, WSDL 2.0 HTTP) or is defined in none of the served documents: the stub serves neither.
   */
  private leaveOutUnserved(doc: Document): void {
    if (pruned.has(doc)) return;
    pruned.add(doc);
    const bindings = new Map<string, Element>();
    for (const d of this.docs.values()) {
      const tns = d?.documentElement?.getAttribute('targetNamespace') ?? '';
      for (const el of d ? elements(d) : []) {
        const name = attr(el, 'name');
        if (el.localName === 'binding' && name && (el.namespaceURI === NS.wsdl11 || el.namespaceURI === NS.wsdl20)) bindings.set(`{${tns}}${name}`, el);
      }
    }
    for (const el of elements(doc)) {
      const isPort = (el.localName === 'port' && el.namespaceURI === NS.wsdl11) || (el.localName === 'endpoint' && el.namespaceURI === NS.wsdl20);
      const b = isPort ? attr(el, 'binding') : undefined;
      if (!isPort || el.parentNode?.localName !== 'service') continue;
      const q = b ? resolveQName(el, b) : undefined;
      const binding = q ? bindings.get(`{${q.ns}}${q.local}`) : undefined;
      if (binding && isSoapBinding(binding)) continue;
      // The white space before it goes too, so the served text reads as if the port had never been written.
      const before = el.previousSibling;
      if (before?.nodeType === 3 && before.nodeValue?.trim() === '') el.parentNode.removeChild(before);
      el.parentNode.removeChild(el);
    }
  }

  private parsed(file: string): Document | undefined {
    if (!this.docs.has(file)) this.docs.set(file, this.inside(file) ? this.readImport(file) : undefined);
    return this.docs.get(file);
  }

  /** Lexically under the WSDL's folder, a regular file, and its real path (links resolved) under the folder's real path. */
  private inside(file: string): boolean {
    const rel = path.relative(this.dir, file);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
    try {
      if (!statSync(file).isFile()) return false;
      const real = realpathSync(file);
      return real.startsWith(this.realDir.endsWith(path.sep) ? this.realDir : this.realDir + path.sep);
    } catch {
      return false;
    }
  }

  private readImport(file: string): Document | undefined {
    try {
      return this.read(file);
    } catch (e) {
      if (e instanceof AccordError) return undefined;
      throw e;
    }
  }

  private read(file: string): Document {
    const doc = parseDom(readInputXml(file, { what: 'WSDL', limit: FILE_LIMITS.wsdlBytes }), file);
    // The locations as written, before any rewrite: each request rewrites from these.
    for (const el of elements(doc)) {
      const attr = el.localName === 'address' ? 'location' : el.localName === 'endpoint' ? 'address' : referenceAttribute(el);
      const value = attr && el.getAttribute(attr);
      if (value) originals.set(el, value);
    }
    return doc;
  }

  /** The relative imports and includes of a document: where they point and the name each is served under. */
  private references(doc: Document, file: string): { el: Element; file: string; name: string }[] {
    const out: { el: Element; file: string; name: string }[] = [];
    for (const el of elements(doc)) {
      if (el.localName !== 'import' && el.localName !== 'include' && el.localName !== 'redefine') continue;
      const attr = referenceAttribute(el);
      const value = attr && (originals.get(el) ?? el.getAttribute(attr));
      // Absolute URLs are the client's to fetch; only local files are the stub's to serve.
      if (!attr || !value || value.includes(':')) continue;
      const target = path.resolve(path.dirname(file), value);
      out.push({ el, file: target, name: path.relative(this.dir, target).split(path.sep).join('/') });
    }
    return out;
  }
}

/** Documents whose unserved ports are already left out. */
const pruned = new WeakSet<Document>();

function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
