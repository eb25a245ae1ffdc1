import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLSerializer, type Document, type Element } from '@xmldom/xmldom';
import { children, esc, inScope, parseXml, standalone, WSDL11, WSDL20, XS } from './dom';
import { rpcSchemas } from './rpc-schemas';
import { soapEncodingSchema, SOAP_ENC_11, SOAP_ENC_12 } from './soap-encoding';

/**
 * The schemas of one WSDL as files xmllint can load, built independently of
 * accord's importer (an instrument must not share the code it measures):
 * every `xs:schema` of `types` becomes a standalone file beside its WSDL
 * (carrying the namespace declarations in scope there, which inline schemas
 * rely on), imported/included XSD files keep their relative places, and a
 * wrapper schema imports every namespace so one validation covers all.
 *
 * libxml2 loads one schema document per namespace import and is strict where
 * other toolkits are lenient, so a few rewrites keep real WSDLs loadable;
 * each is reported in `notes`:
 * - a namespace with several documents (inline schemas of one namespace,
 *   different files imported for one namespace) gets a hub that includes
 *   them all, and every import of that namespace points at the hub;
 * - an `xs:import` of the schema's own namespace becomes an `xs:include`;
 * - .NET DataSet's `<s:element ref="s:schema"/>` (needs the schema for
 *   schemas) becomes a lax wildcard for the XSD namespace;
 * - SOAP encoding namespaces get minimal stand-in schemas (soap-encoding.ts),
 *   and a restriction of soapenc:Array that only names `wsdl:arrayType`
 *   (no particles: by XSD rules an empty content) gets a lax wildcard for
 *   its members, which SOAP encoding §5.4.2 defines and XSD cannot.
 */
export const WRAPPER = '__xsd_wrapper__.xsd';

export interface SchemaFile {
  fileName: string;
  contents: string;
}

export interface SchemaSet {
  /** The schema xmllint compiles (imports everything else). */
  wrapper: SchemaFile;
  /** Everything the wrapper reaches, by the names the schemaLocations use. */
  files: SchemaFile[];
  /** Things left out or rewritten, each a sentence. */
  notes: string[];
  /** rpc-style operations whose wrappers got a synthetic element (see rpc-schemas.ts). */
  rpcOperations: number;
}

export interface WsdlDoc {
  file: string;
  doc: Document;
}

const isRemote = (loc: string) => /^[a-z][a-z0-9+.-]*:/i.test(loc) && !loc.startsWith('file:');
const REFS = ['import', 'include', 'redefine'];

export function buildSchemaSet(wsdlFile: string): SchemaSet {
  const notes = new Set<string>();
  const wsdls: WsdlDoc[] = [];
  /** absolute path → schema root (XSD files, extracted inline schemas, synthetic ones). */
  const docs = new Map<string, Element>();
  /** Namespace → the documents that stand for it when imported (not those only included). */
  const tops = new Map<string, string[]>();
  const addTop = (ns: string, file: string) => {
    const list = tops.get(ns) ?? [];
    if (!list.includes(file)) list.push(file);
    tops.set(ns, list);
  };
  const seenWsdl = new Set<string>();

  const addSchema = (file: string, schema: Element, base: string): void => {
    docs.set(file, schema);
    const tns = schema.getAttribute('targetNamespace') ?? '';
    for (const ref of children(schema, XS).filter((c) => REFS.includes(c.localName ?? ''))) {
      const loc = ref.getAttribute('schemaLocation');
      if (ref.localName === 'import' && (ref.getAttribute('namespace') ?? '') === tns) {
        notes.add(`${path.basename(base)}: xs:import of its own namespace ${tns} read as xs:include`);
        if (loc) {
          const inc = schema.ownerDocument!.createElementNS(XS, `${ref.prefix ? `${ref.prefix}:` : ''}include`);
          inc.setAttribute('schemaLocation', loc);
          schema.replaceChild(inc, ref);
        } else schema.removeChild(ref);
        if (!loc) continue;
      }
      if (!loc) continue;
      if (isRemote(loc)) {
        notes.add(`${path.basename(base)}: remote schemaLocation ${loc} cannot be loaded offline`);
        continue;
      }
      const target = path.resolve(path.dirname(base), decodeURI(loc));
      if (!docs.has(target)) {
        if (!existsSync(target)) {
          notes.add(`${path.basename(base)} refers to ${loc}, which is not there`);
          continue;
        }
        const root = parseXml(readFileSync(target, 'utf8'), target).documentElement!;
        addSchema(target, root, target);
      }
      if (ref.localName === 'import') addTop(ref.getAttribute('namespace') ?? '', target);
    }
    replaceSchemaForSchemas(schema, base, notes);
    openEncodedArrays(schema, base, notes);
  };

  const loadWsdl = (file: string): void => {
    if (seenWsdl.has(file)) return;
    seenWsdl.add(file);
    const doc = parseXml(readFileSync(file, 'utf8'), file);
    const root = doc.documentElement!;
    if (root.namespaceURI === XS && root.localName === 'schema') {
      // A wsdl:import of an XSD (WSDL 1.1 allows it in practice).
      if (!docs.has(file)) addSchema(file, root, file);
      addTop(root.getAttribute('targetNamespace') ?? '', file);
      return;
    }
    // A WSDL 1.1 file without its namespace (PHP SoapServer writes such files): read as WSDL 1.1, as accord does.
    if (!root.namespaceURI && root.localName === 'definitions') {
      const stack = [root];
      while (stack.length) {
        const el = stack.pop()!;
        (el as { namespaceURI: string | null }).namespaceURI = WSDL11;
        stack.push(...children(el).filter((k) => !k.namespaceURI));
      }
    }
    wsdls.push({ file, doc });
    let n = 0;
    for (const types of [...children(root, WSDL11, 'types'), ...children(root, WSDL20, 'types')]) {
      for (const schema of children(types, XS, 'schema')) {
        const name = `${file}.schema${n++}.xsd`;
        addSchema(name, parseXml(standalone(schema), name).documentElement!, file);
        addTop(schema.getAttribute('targetNamespace') ?? '', name);
      }
    }
    for (const imp of [...children(root, WSDL11, 'import'), ...children(root, WSDL20, 'import'), ...children(root, WSDL20, 'include')]) {
      const loc = imp.getAttribute('location');
      if (!loc) continue;
      const target = path.resolve(path.dirname(file), loc);
      if (isRemote(loc)) notes.add(`${path.basename(file)}: remote wsdl:import ${loc} cannot be loaded offline`);
      else if (existsSync(target)) loadWsdl(target);
      else notes.add(`${path.basename(file)} imports ${loc}, which is not there`);
    }
  };

  loadWsdl(path.resolve(wsdlFile));

  const rpc = rpcSchemas(wsdls);
  for (const s of rpc.schemas) {
    const name = `${path.resolve(wsdlFile)}.rpc-${s.index}.xsd`;
    docs.set(name, parseXml(s.text, name).documentElement!);
    addTop(s.namespace, name);
  }
  const usesEncoding = (ns: string) => (ns === SOAP_ENC_11 && rpc.usesSoapEncoding) || [...docs.values()].some((d) => refersTo(d, ns));
  for (const ns of [SOAP_ENC_11, SOAP_ENC_12]) {
    if (tops.has(ns) || !usesEncoding(ns)) continue;
    const name = path.join(path.dirname(path.resolve(wsdlFile)), `soap-encoding-${ns === SOAP_ENC_11 ? '11' : '12'}.xsd`);
    docs.set(name, parseXml(soapEncodingSchema(ns), name).documentElement!);
    addTop(ns, name);
    notes.add(`SOAP encoding ${ns}: a minimal stand-in schema (the real one is not fetched)`);
  }

  // `<xs:import namespace=".../XML/1998/namespace"/>` without a location (asmx writes it for xml:lang) leans on the
  // copy every validator is expected to know; xmllint does not have one built in, so the W3C xml.xsd's components stand in.
  if (!tops.has(XML_NS) && [...docs.values()].some((d) => refersTo(d, XML_NS))) {
    const name = path.join(path.dirname(path.resolve(wsdlFile)), 'xml-namespace.xsd');
    docs.set(name, parseXml(XML_NAMESPACE_SCHEMA, name).documentElement!);
    addTop(XML_NS, name);
    notes.add(`${XML_NS}: the W3C xml.xsd components stand in (no schemaLocation given)`);
  }

  // Files keep their places relative to one another under a common root, so relative schemaLocations resolve;
  // every location the rewrite writes is absolute (xmllint-wasm puts `name` at `/name`) so a document has one URL.
  const all = [...docs.keys()];
  let root = path.dirname(all[0]);
  for (const f of all) while (!f.startsWith(root + path.sep)) root = path.dirname(root);
  const virtual = (abs: string) => `r/${path.relative(root, abs).split(path.sep).join('/')}`;

  const out: SchemaFile[] = [];
  const target = new Map<string, string>();
  let hub = 0;
  for (const [ns, list] of tops) {
    if (list.length === 1) {
      target.set(ns, `/${virtual(list[0])}`);
      continue;
    }
    const name = `hub-${hub++}.xsd`;
    target.set(ns, `/${name}`);
    const tns = ns ? ` targetNamespace="${esc(ns)}"` : '';
    out.push({ fileName: name, contents: `<xs:schema xmlns:xs="${XS}"${tns}>${list.map((f) => `<xs:include schemaLocation="/${esc(virtual(f))}"/>`).join('')}</xs:schema>` });
    if (list.some((f) => !f.includes('.schema') && !f.includes('.rpc-'))) notes.add(`namespace ${ns || '(none)'}: ${list.length} schema documents, loaded through one hub`);
  }
  for (const [file, schema] of docs) {
    // rpc/encoded WSDLs (PHP SoapServer among them) refer to soapenc:Array without importing its namespace,
    // which XSD requires and every SOAP toolkit lets pass: the import is added so the rest can be checked.
    for (const ns of [SOAP_ENC_11, SOAP_ENC_12]) {
      const imported = children(schema, XS, 'import').some((i) => i.getAttribute('namespace') === ns);
      if (imported || schema.getAttribute('targetNamespace') === ns || !tops.has(ns) || !refersTo(schema, ns)) continue;
      const imp = schema.ownerDocument!.createElementNS(XS, 'xs:import');
      imp.setAttribute('namespace', ns);
      schema.insertBefore(imp, schema.firstChild);
      notes.add(`${path.basename(file)}: refers to ${ns} without importing it; the import is added`);
    }
    for (const imp of children(schema, XS, 'import')) {
      const t = target.get(imp.getAttribute('namespace') ?? '');
      if (t) imp.setAttribute('schemaLocation', t);
    }
    out.push({ fileName: virtual(file), contents: new XMLSerializer().serializeToString(schema) });
  }
  // A no-namespace schema cannot be imported by a no-namespace wrapper: it is included.
  const lines = [...target].map(([ns, t]) => (ns ? `<xs:import namespace="${esc(ns)}" schemaLocation="${esc(t)}"/>` : `<xs:include schemaLocation="${esc(t)}"/>`));
  const wrapper = { fileName: WRAPPER, contents: `<xs:schema xmlns:xs="${XS}">${lines.join('')}</xs:schema>` };
  return { wrapper, files: out, notes: [...notes], rpcOperations: rpc.operations };
}

const QNAME_ATTRIBUTES = ['type', 'base', 'ref', 'itemType', 'memberTypes', 'arrayType'];

/** Whether a schema refers to a component of `ns` (a QName-valued attribute, an import): a declaration alone does not count. */
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
/**
 * The components of the W3C's xml.xsd (http://www.w3.org/2001/xml.xsd, 2009 edition), without its documentation.
 * accord has its own copy (src/wsdl/xml-namespace.ts); this one is kept apart on purpose, so a mistake there shows as
 * invalid messages here instead of being shared by the instrument (lenient.test.ts checks both against the W3C file).
 */
export const XML_NAMESPACE_SCHEMA = [
  `<xs:schema xmlns:xs="${XS}" targetNamespace="${XML_NS}">`,
  '<xs:attribute name="lang"><xs:simpleType><xs:union memberTypes="xs:language"><xs:simpleType><xs:restriction base="xs:string"><xs:enumeration value=""/></xs:restriction></xs:simpleType></xs:union></xs:simpleType></xs:attribute>',
  '<xs:attribute name="space"><xs:simpleType><xs:restriction base="xs:NCName"><xs:enumeration value="default"/><xs:enumeration value="preserve"/></xs:restriction></xs:simpleType></xs:attribute>',
  '<xs:attribute name="base" type="xs:anyURI"/><xs:attribute name="id" type="xs:ID"/>',
  '<xs:attributeGroup name="specialAttrs"><xs:attribute ref="xml:base"/><xs:attribute ref="xml:lang"/><xs:attribute ref="xml:space"/><xs:attribute ref="xml:id"/></xs:attributeGroup>',
  '</xs:schema>',
].join('');

function refersTo(schema: Element, ns: string): boolean {
  const walk = (e: Element, outer: Map<string, string>): boolean => {
    let scope = outer;
    for (let i = 0; i < e.attributes.length; i++) {
      const a = e.attributes[i];
      if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) {
        if (scope === outer) scope = new Map(outer);
        scope.set(a.name === 'xmlns' ? '' : a.name.slice(6), a.value);
      }
    }
    if (e.localName === 'import' && e.getAttribute('namespace') === ns) return true;
    for (let i = 0; i < e.attributes.length; i++) {
      const a = e.attributes[i];
      if (!QNAME_ATTRIBUTES.includes(a.localName ?? '')) continue;
      for (const q of a.value.trim().split(/\s+/)) {
        const k = q.indexOf(':');
        if (k > 0 && scope.get(q.slice(0, k)) === ns) return true;
      }
    }
    return children(e).some((c) => walk(c, scope));
  };
  // The xml prefix is bound without a declaration (Namespaces in XML, 3).
  return walk(schema, new Map([['xml', XML_NS]]));
}

/** `<s:element ref="s:schema"/>` (a .NET DataSet) refers to the schema for schemas, which is not loaded: a lax wildcard stands in. */
function replaceSchemaForSchemas(schema: Element, base: string, notes: Set<string>): void {
  const stack = [schema];
  while (stack.length) {
    const e = stack.pop()!;
    for (const c of children(e)) {
      stack.push(c);
      if (c.namespaceURI !== XS || c.localName !== 'element' || !c.hasAttribute('ref')) continue;
      const ref = c.getAttribute('ref')!;
      const i = ref.indexOf(':');
      if (inScope(c).get(i < 0 ? '' : ref.slice(0, i)) !== XS || ref.slice(i + 1) !== 'schema') continue;
      const any = schema.ownerDocument!.createElementNS(XS, `${c.prefix ? `${c.prefix}:` : ''}any`);
      any.setAttribute('namespace', XS);
      any.setAttribute('processContents', 'lax');
      for (const occ of ['minOccurs', 'maxOccurs']) if (c.hasAttribute(occ)) any.setAttribute(occ, c.getAttribute(occ)!);
      e.replaceChild(any, c);
      notes.add(`${path.basename(base)}: element ref="xs:schema" (a .NET DataSet) read as a lax wildcard for the XSD namespace`);
    }
  }
}

/** See the header: the members of an encoded array are SOAP encoding's business, validated laxly (by their xsi:type). */
function openEncodedArrays(schema: Element, base: string, notes: Set<string>): void {
  const stack = [schema];
  while (stack.length) {
    const e = stack.pop()!;
    for (const c of children(e)) stack.push(c);
    if (e.namespaceURI !== XS || e.localName !== 'restriction' || (e.parentNode as Element | null)?.localName !== 'complexContent') continue;
    const b = e.getAttribute('base') ?? '';
    const i = b.indexOf(':');
    const ns = inScope(e).get(i < 0 ? '' : b.slice(0, i));
    if ((ns !== SOAP_ENC_11 && ns !== SOAP_ENC_12) || b.slice(i + 1) !== 'Array') continue;
    if (children(e, XS).some((c) => ['sequence', 'choice', 'all', 'group'].includes(c.localName ?? ''))) continue;
    const p = e.prefix ? `${e.prefix}:` : '';
    const seq = schema.ownerDocument!.createElementNS(XS, `${p}sequence`);
    const any = schema.ownerDocument!.createElementNS(XS, `${p}any`);
    for (const [k, v] of [
      ['namespace', '##any'],
      ['minOccurs', '0'],
      ['maxOccurs', 'unbounded'],
      ['processContents', 'lax'],
    ])
      any.setAttribute(k, v);
    seq.appendChild(any);
    e.insertBefore(seq, children(e)[0] ?? null);
    notes.add(`${path.basename(base)}: soapenc:Array restrictions without particles get lax members (SOAP encoding §5.4.2)`);
  }
}
