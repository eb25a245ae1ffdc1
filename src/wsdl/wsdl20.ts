import type { Element } from '@xmldom/xmldom';
import { attr, kid, kids, lineOf, NS, qkey, resolveQName, type QName } from './dom';
import type { LoadedSet } from './load';
import type { FaultModel, MessageModel, OperationModel, PartModel, ServiceModel, SoapVersion } from './model';
import { addressPath } from './address';

const SOAP_BINDING_TYPE = 'http://www.w3.org/ns/wsdl/soap';
const ONE_WAY = new Set(['http://www.w3.org/ns/wsdl/in-only', 'http://www.w3.org/ns/wsdl/robust-in-only']);
const IN_OUT = 'http://www.w3.org/ns/wsdl/in-out';

/**
 * WSDL 2.0: interfaces and their operations bound by SOAP bindings
 * (document/literal: each message is one element, `#any` or `#none`).
 */
export function readWsdl20(set: LoadedSet): ServiceModel {
  const docs = set.wsdls.filter((d) => d.kind === 'wsdl20');
  const all = (local: string) => docs.flatMap((d) => kids(d.root, NS.wsdl20, local).map((el) => ({ el, tns: attr(d.root, 'targetNamespace') ?? '' })));
  const byName = (local: string) => new Map(all(local).map((x) => [qkey({ ns: x.tns, local: attr(x.el, 'name') ?? '' }), x]));
  const interfaces = byName('interface');
  const bindings = byName('binding');
  const services = all('service');
  const skipped: string[] = [];
  const operations: OperationModel[] = [];
  const find = <T extends { el: Element }>(m: Map<string, T>, q: QName): T | undefined => m.get(qkey(q)) ?? [...m.values()].find((x) => attr(x.el, 'name') === q.local);
  const used = new Set<Element>();

  const part = (io: Element | undefined, label: string): PartModel[] => {
    if (!io) return [];
    const el = attr(io, 'element');
    if (!el || el === '#none') return [];
    if (el === '#any' || el === '#other') return [{ name: label, any: true, at: io }];
    return [{ name: label, element: resolveQName(io, el), at: io }];
  };

  const bind = (binding: { el: Element; tns: string }, service?: string, endpoint?: string, address?: string): void => {
    const bname = attr(binding.el, 'name') ?? '?';
    if (attr(binding.el, 'type') !== SOAP_BINDING_TYPE) {
      skipped.push(`binding ${bname}${endpoint ? ` (endpoint ${endpoint})` : ''}: not a SOAP binding (${attr(binding.el, 'type') ?? 'no type'})`);
      return;
    }
    used.add(binding.el);
    const version: SoapVersion = binding.el.getAttributeNS(NS.wsdl20soap, 'version') === '1.1' ? '1.1' : '1.2';
    const ifAttr = attr(binding.el, 'interface');
    const iface = ifAttr ? find(interfaces, resolveQName(binding.el, ifAttr)) : undefined;
    if (!iface) {
      skipped.push(`binding ${bname}: interface ${ifAttr ?? '(none)'} is not defined`);
      return;
    }
    const iname = attr(iface.el, 'name') ?? '?';
    if (attr(iface.el, 'extends')) skipped.push(`interface ${iname} extends ${attr(iface.el, 'extends')}: inherited operations are not imported`);
    const faultDecls = new Map(kids(iface.el, NS.wsdl20, 'fault').map((f) => [attr(f, 'name') ?? '', f]));
    for (const op of kids(iface.el, NS.wsdl20, 'operation')) {
      const name = (attr(op, 'name') ?? '').trim();
      if (!name) {
        skipped.push(`an operation of interface ${iname} (line ${lineOf(op) ?? '?'}): it has no name`);
        continue;
      }
      const pattern = attr(op, 'pattern') ?? IN_OUT;
      if (pattern !== IN_OUT && !ONE_WAY.has(pattern)) {
        skipped.push(`operation ${name}: message exchange pattern ${pattern} is not request/response`);
        continue;
      }
      const bop = kids(binding.el, NS.wsdl20, 'operation').find((b) => {
        const ref = attr(b, 'ref');
        return ref !== undefined && resolveQName(b, ref).local === name;
      });
      const action = bop ? bop.getAttributeNS(NS.wsdl20soap, 'action') || undefined : undefined;
      const input: MessageModel = { body: part(kid(op, NS.wsdl20, 'input'), 'In'), headers: [] };
      const output: MessageModel | undefined = ONE_WAY.has(pattern) ? undefined : { body: part(kid(op, NS.wsdl20, 'output'), 'Out'), headers: [] };
      const faults: FaultModel[] = kids(op, NS.wsdl20, 'outfault').map((f) => {
        const ref = attr(f, 'ref') ?? '';
        const decl = faultDecls.get(resolveQName(f, ref).local);
        return { name: resolveQName(f, ref).local, parts: decl ? part(decl, 'fault') : [] };
      });
      operations.push({
        name,
        interfaceKey: qkey({ ns: iface.tns, local: iname }),
        interfaceName: iname,
        service,
        port: endpoint,
        soapVersion: version,
        action,
        path: address === undefined ? undefined : addressPath(address),
        style: 'document',
        use: 'literal',
        input,
        output,
        faults,
      });
    }
  };

  for (const s of services) {
    for (const ep of kids(s.el, NS.wsdl20, 'endpoint')) {
      const b = attr(ep, 'binding');
      const binding = b ? find(bindings, resolveQName(ep, b)) : undefined;
      if (!binding) {
        skipped.push(`endpoint ${attr(ep, 'name') ?? '?'}: binding ${b ?? '(none)'} is not defined`);
        continue;
      }
      bind(binding, attr(s.el, 'name'), attr(ep, 'name'), attr(ep, 'address'));
    }
  }
  for (const b of bindings.values()) if (!used.has(b.el) && attr(b.el, 'type') === SOAP_BINDING_TYPE) bind(b);
  if (operations.length === 0 && interfaces.size > 0 && ![...bindings.values()].some((b) => attr(b.el, 'type') === SOAP_BINDING_TYPE)) {
    skipped.push('no SOAP binding: the interfaces are not imported');
  }
  return { name: (services[0] && attr(services[0].el, 'name')) || '', targetNamespace: attr(set.root.root, 'targetNamespace') ?? '', operations, skipped };
}
