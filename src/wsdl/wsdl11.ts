import type { Element } from '@xmldom/xmldom';
import { AccordError } from '../errors';
import { attr, kid, kids, lineOf, NS, qkey, resolveQName, type QName } from './dom';
import type { LoadedDoc, LoadedSet } from './load';
import type { FaultModel, MessageModel, OperationModel, PartModel, ServiceModel, SoapVersion } from './model';
import { addressPath } from './address';

interface Named {
  el: Element;
  tns: string;
  doc: LoadedDoc;
}

const SOAP_NS: Record<string, SoapVersion> = { [NS.soap11]: '1.1', [NS.soap12]: '1.2' };
const SOAP_URIS = [NS.soap11, NS.soap12];

/** WSDL 1.1: messages, port types, bindings and services of every document in the set. */
export function readWsdl11(set: LoadedSet): ServiceModel {
  const table = (local: string): Map<string, Named> => {
    const m = new Map<string, Named>();
    for (const d of set.wsdls) {
      if (d.kind !== 'wsdl11') continue;
      const tns = attr(d.root, 'targetNamespace') ?? '';
      for (const el of kids(d.root, NS.wsdl11, local)) {
        const name = attr(el, 'name');
        if (name && !m.has(qkey({ ns: tns, local: name }))) m.set(qkey({ ns: tns, local: name }), { el, tns, doc: d });
      }
    }
    return m;
  };
  const messages = table('message');
  const portTypes = table('portType');
  const bindings = table('binding');
  const services = table('service');
  const find = (m: Map<string, Named>, q: QName): Named | undefined => m.get(qkey(q)) ?? [...m.values()].find((n) => attr(n.el, 'name') === q.local);

  const rootTns = attr(set.root.root, 'targetNamespace') ?? '';
  const skipped: string[] = [];
  const operations: OperationModel[] = [];
  const viaPort = new Set<Element>();

  // Operations of a port type by name, looked up once per binding operation.
  const opsByPortType = new Map<Element, Map<string, Element>>();
  const portTypeOps = (pt: Element): Map<string, Element> => {
    let m = opsByPortType.get(pt);
    if (!m) {
      m = new Map();
      for (const o of kids(pt, NS.wsdl11, 'operation')) {
        const n = attr(o, 'name');
        if (n !== undefined && !m.has(n)) m.set(n, o);
      }
      opsByPortType.set(pt, m);
    }
    return m;
  };

  const bindPort = (binding: Named, service?: string, port?: string, address?: string): void => {
    viaPort.add(binding.el);
    const soapBinding = kid(binding.el, SOAP_URIS, 'binding');
    const bname = attr(binding.el, 'name') ?? '?';
    if (!soapBinding) {
      const kind = kids(binding.el).find((k) => k.namespaceURI !== NS.wsdl11);
      skipped.push(`binding ${bname}${port ? ` (port ${port})` : ''}: not a SOAP binding${kind ? ` (${kind.tagName})` : ''}`);
      return;
    }
    const version = SOAP_NS[soapBinding.namespaceURI ?? ''];
    const bindingStyle = attr(soapBinding, 'style') === 'rpc' ? 'rpc' : 'document';
    const typeAttr = attr(binding.el, 'type');
    const pt = typeAttr ? find(portTypes, resolveQName(binding.el, typeAttr)) : undefined;
    if (!pt) {
      skipped.push(`binding ${bname}: its portType ${typeAttr ?? '(none)'} is not defined`);
      return;
    }
    const ptName = attr(pt.el, 'name') ?? '?';
    for (const bop of kids(binding.el, NS.wsdl11, 'operation')) {
      const opName = (attr(bop, 'name') ?? '').trim();
      if (!opName) {
        skipped.push(`an operation of binding ${bname} (line ${lineOf(bop) ?? '?'}): it has no name`);
        continue;
      }
      const op = portTypeOps(pt.el).get(opName);
      if (!op) {
        skipped.push(`operation ${opName} of binding ${bname}: not in portType ${ptName}`);
        continue;
      }
      const pin = kid(op, NS.wsdl11, 'input');
      const pout = kid(op, NS.wsdl11, 'output');
      if (!pin) {
        skipped.push(`operation ${opName}: no input (a notification or solicit-response operation, which a request/response contract cannot express)`);
        continue;
      }
      const soapOp = kid(bop, SOAP_URIS, 'operation');
      const style = soapOp && attr(soapOp, 'style') ? (attr(soapOp, 'style') === 'rpc' ? 'rpc' : 'document') : bindingStyle;
      const bin = kid(bop, NS.wsdl11, 'input');
      const bout = kid(bop, NS.wsdl11, 'output');
      const inBody = bin ? kid(bin, SOAP_URIS, 'body') : undefined;
      const use = inBody && attr(inBody, 'use') === 'encoded' ? 'encoded' : 'literal';
      const action = soapOp ? attr(soapOp, 'soapAction') : undefined;
      const input = message(pin, bin, style, opName, rootTns, false);
      const output = pout ? message(pout, bout, style, opName, rootTns, true) : undefined;
      const faults: FaultModel[] = kids(op, NS.wsdl11, 'fault').map((f) => ({ name: attr(f, 'name') ?? 'fault', parts: partsOf(f) }));
      operations.push({
        name: opName,
        interfaceKey: qkey({ ns: pt.tns, local: ptName }),
        interfaceName: ptName,
        service,
        port,
        soapVersion: version,
        action: action === undefined || action === '' ? undefined : action,
        path: address === undefined ? undefined : addressPath(address),
        style,
        use,
        input,
        output,
        faults,
      });
    }
  };

  const partsOf = (io: Element): PartModel[] => {
    const m = attr(io, 'message');
    if (!m) return [];
    const msg = find(messages, resolveQName(io, m));
    if (!msg) {
      skipped.push(`message ${m} (line ${lineOf(io) ?? '?'}): not defined; its parts are left out`);
      return [];
    }
    return kids(msg.el, NS.wsdl11, 'part').map((p) => {
      const el = attr(p, 'element');
      const ty = attr(p, 'type');
      return { name: attr(p, 'name') ?? 'part', element: el ? resolveQName(p, el) : undefined, type: ty ? resolveQName(p, ty) : undefined, at: p };
    });
  };

  const message = (abstract: Element, bound: Element | undefined, style: 'document' | 'rpc', opName: string, tns: string, isOutput: boolean): MessageModel => {
    const all = partsOf(abstract);
    const body = bound ? kid(bound, SOAP_URIS, 'body') : undefined;
    const listed = body ? attr(body, 'parts') : undefined;
    const headerEls = bound ? kids(bound, SOAP_URIS, 'header') : [];
    const headers: PartModel[] = [];
    const headerNames = new Set<string>();
    for (const h of headerEls) {
      const m = attr(h, 'message');
      const partName = attr(h, 'part');
      if (!m || !partName) continue;
      const msg = find(messages, resolveQName(h, m));
      const p = msg ? kids(msg.el, NS.wsdl11, 'part').find((x) => attr(x, 'name') === partName) : undefined;
      if (!p) {
        skipped.push(`soap:header ${m}/${partName} (line ${lineOf(h) ?? '?'}): no such message part`);
        continue;
      }
      if (msg!.el === (abstract.hasAttribute('message') ? find(messages, resolveQName(abstract, abstract.getAttribute('message')!))?.el : undefined)) headerNames.add(partName);
      const el = attr(p, 'element');
      const ty = attr(p, 'type');
      headers.push({ name: partName, element: el ? resolveQName(p, el) : undefined, type: ty ? resolveQName(p, ty) : undefined, at: p });
    }
    let bodyParts: PartModel[];
    if (listed !== undefined) {
      const names = listed.trim().split(/\s+/).filter(Boolean);
      bodyParts = all.filter((p) => names.includes(p.name));
    } else bodyParts = all.filter((p) => !headerNames.has(p.name));
    const wrapperNs = (body && attr(body, 'namespace')) || tns;
    return {
      wrapper: style === 'rpc' ? { ns: wrapperNs, local: isOutput ? `${opName}Response` : opName } : undefined,
      body: bodyParts,
      headers,
    };
  };

  for (const svc of services.values()) {
    const sname = attr(svc.el, 'name') ?? '';
    for (const port of kids(svc.el, NS.wsdl11, 'port')) {
      const b = attr(port, 'binding');
      const binding = b ? find(bindings, resolveQName(port, b)) : undefined;
      const pname = attr(port, 'name') ?? '';
      if (!binding) {
        skipped.push(`port ${pname}: binding ${b ?? '(none)'} is not defined`);
        continue;
      }
      const address = kids(port).find((k) => k.localName === 'address');
      bindPort(binding, sname, pname, address ? attr(address, 'location') : undefined);
    }
  }
  // Bindings no service exposes (ONVIF-style WSDLs): importable, with a default path.
  for (const b of bindings.values()) {
    if (!viaPort.has(b.el)) bindPort(b);
  }
  if (portTypes.size === 0 && bindings.size === 0) {
    throw new AccordError('ACCORD_ERR_WSDL', 'the WSDL defines no portType and no binding: there is no operation to import', { file: set.root.file, line: lineOf(set.root.root) });
  }
  const firstService = [...services.values()].find((s) => s.doc === set.root) ?? [...services.values()][0];
  return {
    name: (firstService && attr(firstService.el, 'name')) || attr(set.root.root, 'name') || '',
    targetNamespace: rootTns,
    operations,
    skipped,
  };
}
