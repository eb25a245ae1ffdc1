import type { Element } from '@xmldom/xmldom';
import { children, esc, inScope, WSDL11, XS } from './dom';
import { SOAP_ENC_11, SOAP_ENC_12 } from './soap-encoding';
import type { WsdlDoc } from './schema-set';

/**
 * rpc style has no schema for the Body's child: WSDL 1.1 §3.5 and WS-I BP
 * R2729/R2735 say it is an element named after the operation (its response
 * the name plus "Response"), in the soap:body `namespace` (absent: the
 * definitions' targetNamespace, as CXF does), holding one unqualified
 * accessor per body part, in message order, typed by the part's `type` (or
 * the part's `element` itself). This writes those wrappers as a synthetic
 * schema per namespace, so the validator checks the wrapper and every part's
 * content, just as document style checks its global element.
 */
const SOAP_BINDINGS = ['http://schemas.xmlsoap.org/wsdl/soap/', 'http://schemas.xmlsoap.org/wsdl/soap12/'];

interface Part {
  name: string;
  kind: 'type' | 'element';
  ns: string;
  local: string;
}

export interface RpcSchemas {
  schemas: { index: number; namespace: string; text: string }[];
  operations: number;
  usesSoapEncoding: boolean;
}

function qname(value: string, at: Element): { ns: string; local: string } {
  const i = value.indexOf(':');
  const prefix = i < 0 ? '' : value.slice(0, i);
  return { ns: inScope(at).get(prefix) ?? '', local: i < 0 ? value : value.slice(i + 1) };
}

function soapChild(el: Element, local: string): Element | undefined {
  return children(el).find((c) => SOAP_BINDINGS.includes(c.namespaceURI ?? '') && c.localName === local);
}

export function rpcSchemas(wsdls: readonly WsdlDoc[]): RpcSchemas {
  const messages = new Map<string, Part[]>();
  const portTypes = new Map<string, Map<string, { input?: string; output?: string; faults: string[] }>>();
  const key = (ns: string, local: string) => `{${ns}}${local}`;
  for (const { doc } of wsdls) {
    const root = doc.documentElement!;
    const tns = root.getAttribute('targetNamespace') ?? '';
    for (const m of children(root, WSDL11, 'message')) {
      messages.set(
        key(tns, m.getAttribute('name') ?? ''),
        children(m, WSDL11, 'part').map((p) => {
          const element = p.getAttribute('element');
          const q = qname(element ?? p.getAttribute('type') ?? '', p);
          return { name: p.getAttribute('name') ?? '', kind: element ? 'element' : 'type', ...q };
        }),
      );
    }
    for (const pt of children(root, WSDL11, 'portType')) {
      const ops = new Map<string, { input?: string; output?: string; faults: string[] }>();
      for (const op of children(pt, WSDL11, 'operation')) {
        const ref = (local: string, io = children(op, WSDL11, local)[0]) => {
          const m = io?.getAttribute('message');
          if (!io || !m) return undefined;
          const q = qname(m, io);
          return key(q.ns, q.local);
        };
        const faults = children(op, WSDL11, 'fault').flatMap((f) => ref('fault', f) ?? []);
        ops.set(op.getAttribute('name') ?? '', { input: ref('input'), output: ref('output'), faults });
      }
      portTypes.set(key(tns, pt.getAttribute('name') ?? ''), ops);
    }
  }

  /** Unqualified fault accessors (rpc fault parts typed with type=), by name. */
  const faultAccessors = new Map<string, Part>();
  /** namespace → wrapper element name → its parts. */
  const wrappers = new Map<string, Map<string, Part[]>>();
  let operations = 0;
  let usesSoapEncoding = false;
  for (const { doc } of wsdls) {
    const root = doc.documentElement!;
    const tns = root.getAttribute('targetNamespace') ?? '';
    for (const b of children(root, WSDL11, 'binding')) {
      const soapBinding = soapChild(b, 'binding');
      if (!soapBinding) continue;
      const t = qname(b.getAttribute('type') ?? '', b);
      const ops = portTypes.get(key(t.ns, t.local));
      for (const op of children(b, WSDL11, 'operation')) {
        const style = soapChild(op, 'operation')?.getAttribute('style') || soapBinding.getAttribute('style') || 'document';
        if (style !== 'rpc') continue;
        const name = op.getAttribute('name') ?? '';
        const abstract = ops?.get(name);
        let counted = false;
        for (const [io, suffix] of [
          ['input', ''],
          ['output', 'Response'],
        ] as const) {
          const bio = children(op, WSDL11, io)[0];
          const body = bio && soapChild(bio, 'body');
          const parts = abstract?.[io] ? messages.get(abstract[io]!) : undefined;
          if (!body || !parts) continue;
          if (body.getAttribute('use') === 'encoded') usesSoapEncoding = true;
          const only = body.getAttribute('parts')?.trim().split(/\s+/);
          // Without `parts`, header-bound parts still stay out of the Body.
          const headerParts = new Set(children(bio, undefined, 'header').map((h) => h.getAttribute('part')));
          const bodyParts = parts.filter((p) => (only ? only.includes(p.name) : !headerParts.has(p.name)));
          const ns = body.getAttribute('namespace') ?? tns;
          const byName = wrappers.get(ns) ?? new Map<string, Part[]>();
          if (!byName.has(name + suffix)) byName.set(name + suffix, bodyParts);
          wrappers.set(ns, byName);
          if (!counted) operations++;
          counted = true;
        }
        // A fault part typed with type= (rpc, against WS-I BP R2205) is written in the detail as an unqualified accessor named after the part, as the Body's parts are.
        for (const fault of abstract?.faults ?? []) {
          for (const p of messages.get(fault) ?? []) if (p.kind === 'type') faultAccessors.set(p.name, p);
        }
      }
    }
  }

  const schemas: RpcSchemas['schemas'] = [];
  if (faultAccessors.size > 0 && !wrappers.has('')) wrappers.set('', new Map());
  for (const [ns, byName] of wrappers) {
    const prefixes = new Map<string, string>();
    const prefix = (uri: string) => {
      if (uri === XS) return 'xs';
      if (!prefixes.has(uri)) prefixes.set(uri, `p${prefixes.size}`);
      return prefixes.get(uri)!;
    };
    const elements = [...byName].map(([name, parts]) => {
      const particles = parts.map((p) => {
        if (p.ns === SOAP_ENC_11 || p.ns === SOAP_ENC_12) usesSoapEncoding = true;
        const q = `${prefix(p.ns)}:${p.local}`;
        return p.kind === 'element' ? `<xs:element ref="${esc(q)}"/>` : `<xs:element name="${esc(p.name)}" type="${esc(q)}"/>`;
      });
      return `<xs:element name="${esc(name)}"><xs:complexType><xs:sequence>${particles.join('')}</xs:sequence></xs:complexType></xs:element>`;
    });
    if (ns === '') for (const [name, p] of faultAccessors) if (!byName.has(name)) elements.push(`<xs:element name="${esc(name)}" type="${esc(`${prefix(p.ns)}:${p.local}`)}"/>`);
    const decls = [...prefixes].map(([uri, p]) => ` xmlns:${p}="${esc(uri)}"`).join('');
    const imports = [...prefixes.keys()].filter((uri) => uri !== ns).map((uri) => (uri ? `<xs:import namespace="${esc(uri)}"/>` : '<xs:import/>'));
    const tnsAttr = ns ? ` targetNamespace="${esc(ns)}"` : '';
    schemas.push({ index: schemas.length, namespace: ns, text: `<xs:schema xmlns:xs="${XS}"${decls}${tnsAttr}>${imports.join('')}${elements.join('')}</xs:schema>` });
  }
  return { schemas, operations, usesSoapEncoding };
}
