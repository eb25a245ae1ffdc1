import type { Element } from '@xmldom/xmldom';
import { AccordError } from '../errors';
import { attr, kid, kids, lineOf, NS, qkey, resolveQName, type QName } from './dom';
import type { LoadedDoc, LoadedSet } from './load';
import type { FaultModel, MessageModel, OperationModel, PartModel, ServiceModel, SoapVersion } from './model';
import { addressPath } from './address';
import { attachmentParts, soapPartOf } from './mime';

interface Named {
  el: Element;
  tns: string;
  doc: LoadedDoc;
}

/** Where a binding is exposed: its service, port and address (none for a binding no service names). */
interface PortSite {
  service?: string;
  port?: string;
  address?: string;
  /** The wsdl:port element, where an endpoint's policy may be attached. */
  at?: Element;
}

/** What a binding says about all its operations. */
interface BindingFacts {
  version: SoapVersion;
  style: 'document' | 'rpc';
  portType: Named;
}

const SOAP_NS: Record<string, SoapVersion> = { [NS.soap11]: '1.1', [NS.soap12]: '1.2' };
const SOAP_URIS = [NS.soap11, NS.soap12];

/** WSDL 1.1: messages, port types, bindings and services of every document in the set. */
export function readWsdl11(set: LoadedSet): ServiceModel {
  return new Wsdl11Reader(set).read();
}

/** Top-level definitions of one kind by qualified name, the first definition of a name winning. */
function definitions(set: LoadedSet, local: string): Map<string, Named> {
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
}

/** A name's definition, by qualified name, else (for WSDLs that get prefixes wrong) by local name. */
function find(m: Map<string, Named>, q: QName): Named | undefined {
  return m.get(qkey(q)) ?? [...m.values()].find((n) => attr(n.el, 'name') === q.local);
}

function partModel(p: Element, name = attr(p, 'name') ?? 'part'): PartModel {
  const el = attr(p, 'element');
  const ty = attr(p, 'type');
  return { name, element: el ? resolveQName(p, el) : undefined, type: ty ? resolveQName(p, ty) : undefined, at: p };
}

class Wsdl11Reader {
  private readonly messages: Map<string, Named>;
  private readonly portTypes: Map<string, Named>;
  private readonly bindings: Map<string, Named>;
  private readonly services: Map<string, Named>;
  private readonly rootTns: string;
  private readonly skipped: string[] = [];
  private readonly notes: string[] = [];
  private readonly missing: string[] = [];
  private readonly operations: OperationModel[] = [];
  private readonly viaPort = new Set<Element>();
  /** Operations of a port type by name, looked up once per binding operation. */
  private readonly opsByPortType = new Map<Element, Map<string, Element>>();

  constructor(private readonly set: LoadedSet) {
    this.messages = definitions(set, 'message');
    this.portTypes = definitions(set, 'portType');
    this.bindings = definitions(set, 'binding');
    this.services = definitions(set, 'service');
    this.rootTns = attr(set.root.root, 'targetNamespace') ?? '';
  }

  read(): ServiceModel {
    for (const svc of this.services.values()) this.readService(svc);
    // Bindings no service exposes (ONVIF-style WSDLs): importable, with a default path.
    for (const b of this.bindings.values()) {
      if (!this.viaPort.has(b.el)) this.bindPort(b, {});
    }
    if (this.portTypes.size === 0 && this.bindings.size === 0) {
      throw new AccordError('ACCORD_ERR_WSDL', 'the WSDL defines no portType and no binding: there is no operation to import', {
        file: this.set.root.file,
        line: lineOf(this.set.root.root),
      });
    }
    const firstService = [...this.services.values()].find((s) => s.doc === this.set.root) ?? [...this.services.values()][0];
    return {
      name: (firstService && attr(firstService.el, 'name')) || attr(this.set.root.root, 'name') || '',
      targetNamespace: this.rootTns,
      operations: this.operations,
      skipped: this.skipped,
      notes: [...new Set(this.notes)],
      missing: [...new Set(this.missing)],
    };
  }

  private readService(svc: Named): void {
    const service = attr(svc.el, 'name') ?? '';
    for (const portEl of kids(svc.el, NS.wsdl11, 'port')) {
      const b = attr(portEl, 'binding');
      const binding = b ? find(this.bindings, resolveQName(portEl, b)) : undefined;
      const port = attr(portEl, 'name') ?? '';
      if (!binding) {
        this.skipped.push(`port ${port}: binding ${b ?? '(none)'} is not defined`);
        continue;
      }
      const address = kids(portEl).find((k) => k.localName === 'address');
      this.bindPort(binding, { service, port, address: address ? attr(address, 'location') : undefined, at: portEl });
    }
  }

  private bindPort(binding: Named, site: PortSite): void {
    this.viaPort.add(binding.el);
    const facts = this.bindingFacts(binding, site);
    if (!facts) return;
    for (const bop of kids(binding.el, NS.wsdl11, 'operation')) {
      const op = this.bindOperation(binding, facts, bop, site);
      if (op) this.operations.push(op);
    }
  }

  /** SOAP version, default style and port type of a binding; undefined (and said why) when it is not importable. */
  private bindingFacts(binding: Named, site: PortSite): BindingFacts | undefined {
    const soapBinding = kid(binding.el, SOAP_URIS, 'binding');
    const bname = attr(binding.el, 'name') ?? '?';
    if (!soapBinding) {
      const kind = kids(binding.el).find((k) => k.namespaceURI !== NS.wsdl11);
      this.skipped.push(`binding ${bname}${site.port ? ` (port ${site.port})` : ''}: not a SOAP binding${kind ? ` (${kind.tagName})` : ''}`);
      return undefined;
    }
    const typeAttr = attr(binding.el, 'type');
    const portType = typeAttr ? find(this.portTypes, resolveQName(binding.el, typeAttr)) : undefined;
    if (!portType) {
      this.skipped.push(`binding ${bname}: its portType ${typeAttr ?? '(none)'} is not defined`);
      return undefined;
    }
    return { version: SOAP_NS[soapBinding.namespaceURI ?? ''], style: attr(soapBinding, 'style') === 'rpc' ? 'rpc' : 'document', portType };
  }

  private portTypeOps(pt: Element): Map<string, Element> {
    let m = this.opsByPortType.get(pt);
    if (!m) {
      m = new Map();
      for (const o of kids(pt, NS.wsdl11, 'operation')) {
        const n = attr(o, 'name');
        if (n !== undefined && !m.has(n)) m.set(n, o);
      }
      this.opsByPortType.set(pt, m);
    }
    return m;
  }

  /** One binding operation with its port type operation; undefined (and said why) when it cannot be a request/response scenario. */
  private bindOperation(binding: Named, facts: BindingFacts, bop: Element, site: PortSite): OperationModel | undefined {
    const bname = attr(binding.el, 'name') ?? '?';
    const ptName = attr(facts.portType.el, 'name') ?? '?';
    const opName = (attr(bop, 'name') ?? '').trim();
    if (!opName) {
      this.skipped.push(`an operation of binding ${bname} (line ${lineOf(bop) ?? '?'}): it has no name`);
      return undefined;
    }
    const op = this.portTypeOps(facts.portType.el).get(opName);
    if (!op) {
      this.skipped.push(`operation ${opName} of binding ${bname}: not in portType ${ptName}`);
      return undefined;
    }
    const pin = kid(op, NS.wsdl11, 'input');
    const pout = kid(op, NS.wsdl11, 'output');
    if (!pin) {
      this.skipped.push(`operation ${opName}: no input (a notification or solicit-response operation, which a request/response contract cannot express)`);
      return undefined;
    }
    const soapOp = kid(bop, SOAP_URIS, 'operation');
    const style = soapOp && attr(soapOp, 'style') ? (attr(soapOp, 'style') === 'rpc' ? 'rpc' : 'document') : facts.style;
    const bin = kid(bop, NS.wsdl11, 'input');
    const bout = kid(bop, NS.wsdl11, 'output');
    const inBody = bin ? kid(bin, SOAP_URIS, 'body') : undefined;
    const action = soapOp ? attr(soapOp, 'soapAction') : undefined;
    const input = this.message(pin, bin, style, opName, false);
    const output = pout ? this.message(pout, bout, style, opName, true) : undefined;
    const tns = facts.portType.tns;
    const faults: FaultModel[] = kids(op, NS.wsdl11, 'fault').map((f) => {
      const name = attr(f, 'name') ?? 'fault';
      const bound = kids(bop, NS.wsdl11, 'fault').find((b) => attr(b, 'name') === name);
      const soapFault = bound ? kid(bound, SOAP_URIS, 'fault') : undefined;
      const namespace = (soapFault && attr(soapFault, 'namespace')) || undefined;
      return { name, parts: this.partsOf(f), namespace, action: declaredAction(f) ?? defaultAction(tns, [ptName, opName, 'Fault', name]) };
    });
    // WS-Addressing Metadata 4.4.4: an output's default name is the operation's name and "Response" (WSDL 1.1 2.4.5).
    const replyAction = pout ? (declaredAction(pout) ?? defaultAction(tns, [ptName, attr(pout, 'name') ?? `${opName}Response`])) : undefined;
    return {
      name: opName,
      interfaceKey: qkey({ ns: facts.portType.tns, local: ptName }),
      interfaceName: ptName,
      service: site.service,
      port: site.port,
      soapVersion: facts.version,
      action: action === undefined || action === '' ? undefined : action,
      path: site.address === undefined ? undefined : addressPath(site.address),
      style,
      use: inBody && attr(inBody, 'use') === 'encoded' ? 'encoded' : 'literal',
      input,
      output,
      replyAction,
      faults,
      // WS-PolicyAttachment's endpoint, operation and message subjects, for the request: port, portType, binding; their operations; their inputs.
      policySubjects: [site.at, facts.portType.el, binding.el, op, bop, pin, bin].filter((e): e is Element => e !== undefined),
    };
  }

  /** The parts of the message an `input`/`output`/`fault` names. */
  private partsOf(io: Element): PartModel[] {
    const m = attr(io, 'message');
    if (!m) return [];
    const msg = find(this.messages, resolveQName(io, m));
    if (!msg) {
      // Most often defined in a WSDL imported from a URL, which accord does not fetch: any body is accepted, not an empty one.
      const why = this.set.unresolved.length > 0 ? ' (an import was not loaded)' : '';
      const said = `message ${m} (line ${lineOf(io) ?? '?'}): not defined${why}; its body is (anything)`;
      this.notes.push(said);
      this.missing.push(`message ${m}`);
      return [{ name: 'part', any: true, at: io }];
    }
    return kids(msg.el, NS.wsdl11, 'part').map((p) => partModel(p));
  }

  /** A message as bound: header parts (`soap:header`), body parts (`soap:body parts=`, else the rest), the rpc wrapper. */
  private message(abstract: Element, bound: Element | undefined, style: 'document' | 'rpc', opName: string, isOutput: boolean): MessageModel {
    const all = this.partsOf(abstract);
    const soapPart = bound ? soapPartOf(bound) : undefined;
    const body = soapPart ? kid(soapPart, SOAP_URIS, 'body') : undefined;
    const listed = body ? attr(body, 'parts') : undefined;
    const { headers, fromOwnMessage } = this.headerParts(abstract, soapPart, isOutput);
    const attachments = bound ? attachmentParts(bound) : [];
    for (const a of attachments) {
      this.notes.push(
        `operation ${opName} ${isOutput ? 'output' : 'input'}: part ${a.part} is a MIME attachment (${a.type}, SOAP with Attachments); the contract holds the SOAP part only`,
      );
    }
    let bodyParts: PartModel[];
    if (listed !== undefined) {
      const names = listed.trim().split(/\s+/).filter(Boolean);
      bodyParts = all.filter((p) => names.includes(p.name));
    } else bodyParts = all.filter((p) => !fromOwnMessage.has(p.name) && !attachments.some((a) => a.part === p.name));
    const wrapperNs = (body && attr(body, 'namespace')) || this.rootTns;
    return {
      wrapper: style === 'rpc' ? { ns: wrapperNs, local: isOutput ? `${opName}Response` : opName } : undefined,
      body: bodyParts,
      headers,
    };
  }

  /**
   * The `soap:header` parts of a bound message, and the names of those taken from the message itself (so not in the body).
   * A request's header part is required unless the binding says `wsdl:required="false"`: WS-I Basic Profile 1.1
   * (R2738) has an envelope carry every `soap:header` its binding names, and the stacks that write WSDLs (ASMX, gSOAP,
   * Axis, CXF) never write `wsdl:required`, so a service's credentials header would otherwise never be sent. An
   * answer's header part stays optional unless `wsdl:required="true"`: services (the soap package, PHP) answer without
   * the headers their WSDL declares, and a provider's test must not fail them for it.
   */
  private headerParts(abstract: Element, bound: Element | undefined, isOutput: boolean): { headers: PartModel[]; fromOwnMessage: Set<string> } {
    const headers: PartModel[] = [];
    const fromOwnMessage = new Set<string>();
    const ownRef = attr(abstract, 'message');
    const own = ownRef !== undefined ? find(this.messages, resolveQName(abstract, ownRef))?.el : undefined;
    for (const h of bound ? kids(bound, SOAP_URIS, 'header') : []) {
      const m = attr(h, 'message');
      const partName = attr(h, 'part');
      if (!m || !partName) continue;
      const msg = find(this.messages, resolveQName(h, m));
      const p = msg ? kids(msg.el, NS.wsdl11, 'part').find((x) => attr(x, 'name') === partName) : undefined;
      if (!p) {
        this.skipped.push(`soap:header ${m}/${partName} (line ${lineOf(h) ?? '?'}): no such message part`);
        continue;
      }
      if (msg!.el === own) fromOwnMessage.add(partName);
      const required = h.hasAttributeNS(NS.wsdl11, 'required') ? h.getAttributeNS(NS.wsdl11, 'required') : undefined;
      if (isOutput) headers.push({ ...partModel(p, partName), required: required === 'true' });
      else headers.push({ ...partModel(p, partName), required: required !== 'false', ...(required === undefined ? { impliedRequired: true } : {}) });
    }
    return { headers, fromOwnMessage };
  }
}

/** The namespaces of the Action attribute on a WSDL 1.1 input, output or fault: WS-Addressing's WSDL binding (2006/05, its 2006/02 draft), Metadata (2007/05), and the 2004/08 submission. */
const ACTION_NAMESPACES = [
  'http://www.w3.org/2006/05/addressing/wsdl',
  'http://www.w3.org/2007/05/addressing/metadata',
  'http://www.w3.org/2006/02/addressing/wsdl',
  'http://schemas.xmlsoap.org/ws/2004/08/addressing',
];

function declaredAction(el: Element): string | undefined {
  for (const ns of ACTION_NAMESPACES) {
    const v = el.getAttributeNS(ns, 'Action')?.trim();
    if (v) return v;
  }
  return undefined;
}

/**
 * The default action pattern (WS-Addressing Metadata 4.4.4): the target namespace, then the names,
 * each after the delimiter, ":" for a URN namespace and "/" otherwise, none after a namespace that
 * already ends with it.
 */
export function defaultAction(tns: string, names: string[]): string {
  const delimiter = /^urn:/i.test(tns) ? ':' : '/';
  const base = tns.endsWith(delimiter) ? tns : `${tns}${delimiter}`;
  return base + names.join(delimiter);
}
