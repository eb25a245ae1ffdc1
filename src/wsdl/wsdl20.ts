import type { Element } from '@xmldom/xmldom';
import { attr, kid, kids, lineOf, NS, qkey, resolveQName, type QName } from './dom';
import type { LoadedDoc, LoadedSet } from './load';
import type { FaultModel, MessageModel, OperationModel, PartModel, ServiceModel, SoapVersion } from './model';
import { addressPath } from './address';

const SOAP_BINDING_TYPE = 'http://www.w3.org/ns/wsdl/soap';
const ONE_WAY = new Set(['http://www.w3.org/ns/wsdl/in-only', 'http://www.w3.org/ns/wsdl/robust-in-only']);
const IN_OUT = 'http://www.w3.org/ns/wsdl/in-out';

interface Component {
  el: Element;
  tns: string;
}

/** Where a binding is exposed: its service, endpoint and address (none for a binding no service names). */
interface EndpointSite {
  service?: string;
  endpoint?: string;
  address?: string;
}

/** What a binding says about all its operations. */
interface BindingFacts {
  el: Element;
  version: SoapVersion;
  iface: Component;
  faultDecls: Map<string, Element>;
}

/**
 * WSDL 2.0: interfaces and their operations bound by SOAP bindings
 * (document/literal: each message is one element, `#any` or `#none`).
 */
export function readWsdl20(set: LoadedSet): ServiceModel {
  return new Wsdl20Reader(set).read();
}

function find<T extends { el: Element }>(m: Map<string, T>, q: QName): T | undefined {
  return m.get(qkey(q)) ?? [...m.values()].find((x) => attr(x.el, 'name') === q.local);
}

/** The one part of an `input`/`output`/`fault`: its element, `#any` (any element) or `#none` (nothing). */
function part(io: Element | undefined, label: string): PartModel[] {
  if (!io) return [];
  const el = attr(io, 'element');
  if (!el || el === '#none') return [];
  if (el === '#any' || el === '#other') return [{ name: label, any: true, at: io }];
  return [{ name: label, element: resolveQName(io, el), at: io }];
}

/** The `wsoap:header` blocks a binding operation's input or output declares; optional unless `required="true"`. */
function headers(bop: Element | undefined, direction: 'input' | 'output'): PartModel[] {
  const io = bop ? kid(bop, NS.wsdl20, direction) : undefined;
  if (!io) return [];
  return kids(io, NS.wsdl20soap, 'header').flatMap((h) => {
    const el = attr(h, 'element');
    return el ? [{ name: resolveQName(h, el).local, element: resolveQName(h, el), required: attr(h, 'required') === 'true', at: h }] : [];
  });
}

const isSoapBinding = (b: Component) => attr(b.el, 'type') === SOAP_BINDING_TYPE;

class Wsdl20Reader {
  private readonly docs: LoadedDoc[];
  private readonly interfaces: Map<string, Component>;
  private readonly bindings: Map<string, Component>;
  private readonly services: Component[];
  private readonly skipped: string[] = [];
  private readonly operations: OperationModel[] = [];
  private readonly used = new Set<Element>();

  constructor(private readonly set: LoadedSet) {
    this.docs = set.wsdls.filter((d) => d.kind === 'wsdl20');
    this.interfaces = this.byName('interface');
    this.bindings = this.byName('binding');
    this.services = this.all('service');
  }

  private all(local: string): Component[] {
    return this.docs.flatMap((d) => kids(d.root, NS.wsdl20, local).map((el) => ({ el, tns: attr(d.root, 'targetNamespace') ?? '' })));
  }

  private byName(local: string): Map<string, Component> {
    return new Map(this.all(local).map((x) => [qkey({ ns: x.tns, local: attr(x.el, 'name') ?? '' }), x]));
  }

  read(): ServiceModel {
    for (const s of this.services) this.readService(s);
    for (const b of this.bindings.values()) if (!this.used.has(b.el) && isSoapBinding(b)) this.bind(b, {});
    if (this.operations.length === 0 && this.interfaces.size > 0 && ![...this.bindings.values()].some(isSoapBinding)) {
      this.skipped.push('no SOAP binding: the interfaces are not imported');
    }
    const services = this.services;
    return {
      name: (services[0] && attr(services[0].el, 'name')) || '',
      targetNamespace: attr(this.set.root.root, 'targetNamespace') ?? '',
      operations: this.operations,
      skipped: this.skipped,
      notes: [],
    };
  }

  private readService(s: Component): void {
    for (const ep of kids(s.el, NS.wsdl20, 'endpoint')) {
      const b = attr(ep, 'binding');
      const binding = b ? find(this.bindings, resolveQName(ep, b)) : undefined;
      if (!binding) {
        this.skipped.push(`endpoint ${attr(ep, 'name') ?? '?'}: binding ${b ?? '(none)'} is not defined`);
        continue;
      }
      this.bind(binding, { service: attr(s.el, 'name'), endpoint: attr(ep, 'name'), address: attr(ep, 'address') });
    }
  }

  private bind(binding: Component, site: EndpointSite): void {
    const facts = this.bindingFacts(binding, site);
    if (!facts) return;
    for (const op of kids(facts.iface.el, NS.wsdl20, 'operation')) {
      const model = this.operation(facts, op, site);
      if (model) this.operations.push(model);
    }
  }

  /** SOAP version, interface and fault declarations of a binding; undefined (and said why) when it is not importable. */
  private bindingFacts(binding: Component, site: EndpointSite): BindingFacts | undefined {
    const bname = attr(binding.el, 'name') ?? '?';
    if (!isSoapBinding(binding)) {
      this.skipped.push(`binding ${bname}${site.endpoint ? ` (endpoint ${site.endpoint})` : ''}: not a SOAP binding (${attr(binding.el, 'type') ?? 'no type'})`);
      return undefined;
    }
    this.used.add(binding.el);
    const version: SoapVersion = binding.el.getAttributeNS(NS.wsdl20soap, 'version') === '1.1' ? '1.1' : '1.2';
    const ifAttr = attr(binding.el, 'interface');
    const iface = ifAttr ? find(this.interfaces, resolveQName(binding.el, ifAttr)) : undefined;
    if (!iface) {
      this.skipped.push(`binding ${bname}: interface ${ifAttr ?? '(none)'} is not defined`);
      return undefined;
    }
    const iname = attr(iface.el, 'name') ?? '?';
    if (attr(iface.el, 'extends')) this.skipped.push(`interface ${iname} extends ${attr(iface.el, 'extends')}: inherited operations are not imported`);
    const faultDecls = new Map(kids(iface.el, NS.wsdl20, 'fault').map((f) => [attr(f, 'name') ?? '', f]));
    return { el: binding.el, version, iface, faultDecls };
  }

  /** One interface operation as the binding binds it; undefined (and said why) when it is not request/response. */
  private operation(facts: BindingFacts, op: Element, site: EndpointSite): OperationModel | undefined {
    const iname = attr(facts.iface.el, 'name') ?? '?';
    const name = (attr(op, 'name') ?? '').trim();
    if (!name) {
      this.skipped.push(`an operation of interface ${iname} (line ${lineOf(op) ?? '?'}): it has no name`);
      return undefined;
    }
    const pattern = attr(op, 'pattern') ?? IN_OUT;
    if (pattern !== IN_OUT && !ONE_WAY.has(pattern)) {
      this.skipped.push(`operation ${name}: message exchange pattern ${pattern} is not request/response`);
      return undefined;
    }
    const bop = kids(facts.el, NS.wsdl20, 'operation').find((b) => {
      const ref = attr(b, 'ref');
      return ref !== undefined && resolveQName(b, ref).local === name;
    });
    const input: MessageModel = { body: part(kid(op, NS.wsdl20, 'input'), 'In'), headers: headers(bop, 'input') };
    const output: MessageModel | undefined = ONE_WAY.has(pattern) ? undefined : { body: part(kid(op, NS.wsdl20, 'output'), 'Out'), headers: headers(bop, 'output') };
    const faults: FaultModel[] = kids(op, NS.wsdl20, 'outfault').map((f) => {
      const ref = resolveQName(f, attr(f, 'ref') ?? '').local;
      const decl = facts.faultDecls.get(ref);
      return { name: ref, parts: decl ? part(decl, 'fault') : [] };
    });
    return {
      name,
      interfaceKey: qkey({ ns: facts.iface.tns, local: iname }),
      interfaceName: iname,
      service: site.service,
      port: site.endpoint,
      soapVersion: facts.version,
      action: bop ? bop.getAttributeNS(NS.wsdl20soap, 'action') || undefined : undefined,
      path: site.address === undefined ? undefined : addressPath(site.address),
      style: 'document',
      use: 'literal',
      input,
      output,
      faults,
    };
  }
}
