import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Document, Element } from '@xmldom/xmldom';
import { children, esc, parseXml, standalone, SOAP_ENC, WSDL11, WSDL20, XS } from './dom';
import { rpcSchemas } from './rpc-schemas';

/**
 * The schemas of one WSDL as files xmllint can load, built independently of
 * accord's importer (an instrument must not share the code it measures):
 * every `xs:schema` of `types` becomes a standalone file beside its WSDL
 * (carrying the namespace declarations in scope there, which inline schemas
 * rely on), imported/included XSD files keep their relative places, and a
 * wrapper schema imports every namespace so one validation covers all.
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
  /** Things left out, each a sentence: a remote schemaLocation, a missing file. */
  notes: string[];
  /** rpc-style operations whose wrappers got a synthetic element (see rpc-schemas.ts). */
  rpcOperations: number;
}

export interface WsdlDoc {
  file: string;
  doc: Document;
}

const isRemote = (loc: string) => /^[a-z][a-z0-9+.-]*:/i.test(loc) && !loc.startsWith('file:');

export function buildSchemaSet(wsdlFile: string): SchemaSet {
  const notes: string[] = [];
  const wsdls: WsdlDoc[] = [];
  /** absolute path → contents (XSD files and extracted inline schemas). */
  const files = new Map<string, string>();
  /** Namespace → absolute paths of schema files to import from the wrapper for it. */
  const byNamespace = new Map<string, string[]>();
  const seen = new Set<string>();
  const addTop = (ns: string, file: string) => {
    const list = byNamespace.get(ns) ?? [];
    if (!list.includes(file)) list.push(file);
    byNamespace.set(ns, list);
  };

  const loadXsd = (file: string, from: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!existsSync(file)) {
      notes.push(`${path.basename(from)} refers to ${path.basename(file)}, which is not there`);
      return;
    }
    const text = readFileSync(file, 'utf8');
    files.set(file, text);
    followSchema(parseXml(text, file).documentElement!, file);
  };

  const followSchema = (schema: Element, file: string): void => {
    for (const ref of [...children(schema, XS, 'import'), ...children(schema, XS, 'include'), ...children(schema, XS, 'redefine')]) {
      const loc = ref.getAttribute('schemaLocation');
      if (!loc) continue;
      if (isRemote(loc)) notes.push(`${path.basename(file)}: remote schemaLocation ${loc} cannot be loaded offline`);
      else loadXsd(path.resolve(path.dirname(file), decodeURI(loc)), file);
    }
  };

  const loadWsdl = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const doc = parseXml(readFileSync(file, 'utf8'), file);
    const root = doc.documentElement!;
    if (root.namespaceURI === XS && root.localName === 'schema') {
      // A wsdl:import of an XSD (allowed by WSDL 1.1 in practice).
      seen.delete(file);
      loadXsd(file, file);
      addTop(root.getAttribute('targetNamespace') ?? '', file);
      return;
    }
    wsdls.push({ file, doc });
    let n = 0;
    for (const types of [...children(root, WSDL11, 'types'), ...children(root, WSDL20, 'types')]) {
      for (const schema of children(types, XS, 'schema')) {
        const name = `${file}.schema${n++}.xsd`;
        files.set(name, standalone(schema));
        addTop(schema.getAttribute('targetNamespace') ?? '', name);
        followSchema(schema, file);
      }
    }
    for (const imp of [...children(root, WSDL11, 'import'), ...children(root, WSDL20, 'import'), ...children(root, WSDL20, 'include')]) {
      const loc = imp.getAttribute('location');
      if (!loc) continue;
      if (isRemote(loc)) notes.push(`${path.basename(file)}: remote wsdl:import ${loc} cannot be loaded offline`);
      else if (existsSync(path.resolve(path.dirname(file), loc))) loadWsdl(path.resolve(path.dirname(file), loc));
      else notes.push(`${path.basename(file)} imports ${loc}, which is not there`);
    }
  };

  loadWsdl(path.resolve(wsdlFile));

  const rpc = rpcSchemas(wsdls);
  for (const s of rpc.schemas) {
    const name = `${path.resolve(wsdlFile)}.rpc-${s.index}.xsd`;
    files.set(name, s.text);
    addTop(s.namespace, name);
  }
  if (rpc.usesSoapEncoding || [...files.values()].some((t) => t.includes(SOAP_ENC))) {
    const name = path.join(__dirname, 'soap-encoding.xsd');
    if (!byNamespace.has(SOAP_ENC)) addTop(SOAP_ENC, name);
    files.set(name, readFileSync(name, 'utf8'));
  }

  // Files keep their places relative to one another under a common root, so relative schemaLocations resolve.
  const all = [...files.keys()];
  let root = path.dirname(all[0]);
  for (const f of all) while (!f.startsWith(root + path.sep)) root = path.dirname(root);
  const virtual = (abs: string) => `r/${path.relative(root, abs).split(path.sep).join('/')}`;

  const out: SchemaFile[] = all.map((f) => ({ fileName: virtual(f), contents: files.get(f)! }));
  const lines: string[] = [];
  let hub = 0;
  for (const [ns, list] of byNamespace) {
    let target = virtual(list[0]);
    if (list.length > 1) {
      // libxml2 imports a namespace once: several schema documents of one namespace go through one hub that includes them all.
      target = `hub-${hub++}.xsd`;
      const tns = ns ? ` targetNamespace="${esc(ns)}"` : '';
      out.push({ fileName: target, contents: `<xs:schema xmlns:xs="${XS}"${tns}>${list.map((f) => `<xs:include schemaLocation="${esc(virtual(f))}"/>`).join('')}</xs:schema>` });
    }
    // A no-namespace schema cannot be imported by a no-namespace wrapper: it is included.
    lines.push(ns ? `<xs:import namespace="${esc(ns)}" schemaLocation="${esc(target)}"/>` : `<xs:include schemaLocation="${esc(target)}"/>`);
  }
  const wrapper = { fileName: WRAPPER, contents: `<xs:schema xmlns:xs="${XS}">${lines.join('')}</xs:schema>` };
  return { wrapper, files: out, notes, rpcOperations: rpc.operations };
}

