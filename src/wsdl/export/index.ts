import type { Scenario } from '../../contract/model';
import { escapeAttribute } from '../../xml/serialize';
import { ncName, readOperations, unique, type Entry, type Message, type Operation } from './operations';
import { Prefixes, SchemaSet, XSD_NS } from './schema';
import { PLACEHOLDER_NS } from './xsd-types';

/*
 * `accord export wsdl`: a WSDL 1.1 document, with its XSD, from a contract's SOAP scenarios. The
 * inverse of `accord import wsdl`: importing the export gives back a contract that accepts and
 * answers what the original does. Pure: scenarios in, text and the list of what could not be
 * written out; the CLI and the stub's `?wsdl` are the edges.
 */

export { PLACEHOLDER_NS, withoutImplied } from './xsd-types';

export interface ExportOptions {
  /** The service's name (the contract's Feature). */
  name: string;
  /** Scheme, host and port of the service addresses (default `http://localhost`); each port's path is its scenarios'. */
  base?: string;
}

export interface ExportResult {
  text: string;
  operations: string[];
  /** The SOAP versions of the bindings written, in order: ['1.1'], ['1.2'] or both. */
  versions: string[];
  /** One line per thing the WSDL could not say: a scenario left out, a construct written otherwise. */
  dropped: string[];
}

const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
const SOAP11_BINDING = 'http://schemas.xmlsoap.org/wsdl/soap/';
const SOAP12_BINDING = 'http://schemas.xmlsoap.org/wsdl/soap12/';
const HTTP_TRANSPORT = 'http://schemas.xmlsoap.org/soap/http';

const a = escapeAttribute;

export function exportWsdl(scenarios: readonly Scenario[], o: ExportOptions): ExportResult {
  const prefixes = new Prefixes();
  const schemas = new SchemaSet(prefixes);
  const dropped: string[] = [];
  const ops = readOperations(scenarios, schemas, dropped);
  for (const l of schemas.dropped) if (!dropped.includes(l)) dropped.push(l);
  if (ops.length === 0) return { text: '', operations: [], versions: [], dropped };
  const service = ncName(o.name || 'Service');
  const firstNs = [...schemas.schemas.keys()].find((ns) => ns !== '');
  const tns = firstNs ?? `urn:accord:export:${service}`;
  let base = o.base ?? 'http://localhost';
  while (base.endsWith('/')) base = base.slice(0, -1);

  // One port type, binding and port per SOAP version and address path: a port has one address.
  const groups = new Map<string, Operation[]>();
  for (const op of ops) {
    const k = `${op.version} ${op.path}`;
    groups.set(k, [...(groups.get(k) ?? []), op]);
  }
  const names = new Set<string>();
  const lines: string[] = [];
  const messages: string[] = [];
  const portTypes: string[] = [];
  const bindings: string[] = [];
  const ports: string[] = [];
  const messageNames = new Set<string>();
  const messageOf = (op: Operation, what: string, m: Message): string => {
    const name = unique(`${op.name}${what}`, messageNames);
    messages.push(`<wsdl:message name="${a(name)}">`);
    m.body.forEach((e, i) => messages.push(`<wsdl:part name="${partName(e, i, 'parameters')}" element="${e.element}"/>`));
    m.headers.forEach((e, i) => messages.push(`<wsdl:part name="${partName(e, i, 'header')}" element="${e.element}"/>`));
    messages.push('</wsdl:message>');
    return name;
  };
  for (const [, group] of groups) {
    const v12 = group[0].version === '1.2';
    const suffix = v12 ? 'Soap12' : 'Soap';
    const portType = unique(`${service}${groups.size > 1 ? suffix : ''}PortType`, names);
    const binding = unique(`${service}${suffix}Binding`, names);
    const port = unique(`${service}${suffix}Port`, names);
    const soap = v12 ? 'soap12' : 'soap';
    portTypes.push(`<wsdl:portType name="${a(portType)}">`);
    bindings.push(`<wsdl:binding name="${a(binding)}" type="tns:${a(portType)}">`, `<${soap}:binding style="document" transport="${HTTP_TRANSPORT}"/>`);
    for (const op of group) {
      const input = messageOf(op, 'Request', op.input);
      const output = op.output && messageOf(op, 'Response', op.output);
      const faults = op.faults.map((f) => {
        const name = unique(`${op.name}_${f.name}`, messageNames);
        messages.push(`<wsdl:message name="${a(name)}">`, `<wsdl:part name="fault" element="${f.element}"/>`, '</wsdl:message>');
        return { name: f.name, message: name };
      });
      portTypes.push(
        `<wsdl:operation name="${a(op.name)}">`,
        `<wsdl:input message="tns:${a(input)}"/>`,
        ...(output ? [`<wsdl:output message="tns:${a(output)}"/>`] : []),
        ...faults.map((f) => `<wsdl:fault name="${a(f.name)}" message="tns:${a(f.message)}"/>`),
        '</wsdl:operation>',
      );
      bindings.push(
        `<wsdl:operation name="${a(op.name)}">`,
        `<${soap}:operation soapAction="${a(op.action)}" style="document"/>`,
        '<wsdl:input>',
        ...bodyBinding(soap, op.input, input),
        '</wsdl:input>',
        ...(output && op.output ? ['<wsdl:output>', ...bodyBinding(soap, op.output, output), '</wsdl:output>'] : []),
        ...faults.map((f) => `<wsdl:fault name="${a(f.name)}"><${soap}:fault name="${a(f.name)}" use="literal"/></wsdl:fault>`),
        '</wsdl:operation>',
      );
    }
    portTypes.push('</wsdl:portType>');
    bindings.push('</wsdl:binding>');
    ports.push(`<wsdl:port name="${a(port)}" binding="tns:${a(binding)}">`, `<${soap}:address location="${a(base + group[0].path)}"/>`, '</wsdl:port>');
  }
  const declared = (except: string) =>
    prefixes
      .entries()
      .filter(([ns]) => ns !== '' && ns !== except)
      .map(([ns, p]) => ` xmlns:${p}="${a(ns)}"`)
      .join('') + ` xmlns:xs="${XSD_NS}" xmlns:accord="${PLACEHOLDER_NS}"`;
  lines.push(
    '<?xml version="1.0" encoding="utf-8"?>',
    `<!-- Exported by accord from the contract "${o.name.split('--').join('- -')}": ${ops.length} operation${ops.length === 1 ? '' : 's'}. -->`,
    `<wsdl:definitions name="${a(service)}" targetNamespace="${a(tns)}" xmlns:wsdl="${WSDL_NS}" xmlns:soap="${SOAP11_BINDING}" xmlns:soap12="${SOAP12_BINDING}" xmlns:tns="${a(tns)}"${declared('')}>`,
    '<wsdl:types>',
    ...schemas.write((ns) => declared(ns) + (ns ? ` xmlns:${prefixes.for(ns)}="${a(ns)}"` : '')),
    '</wsdl:types>',
    ...messages,
    ...portTypes,
    ...bindings,
    `<wsdl:service name="${a(service)}">`,
    ...ports,
    '</wsdl:service>',
    '</wsdl:definitions>',
  );
  return { text: indent(lines), operations: ops.map((op) => op.name), versions: [...new Set(ops.map((op) => op.version))].sort(), dropped };
}

function partName(_e: Entry, i: number, first: string): string {
  return i === 0 ? first : `${first}${i + 1}`;
}

function bodyBinding(soap: string, m: Message, message: string): string[] {
  const parts = m.headers.length > 0 ? ` parts="${m.body.map((e, i) => partName(e, i, 'parameters')).join(' ')}"` : '';
  return [
    `<${soap}:body use="literal"${parts}/>`,
    ...m.headers.map(
      (e, i) => `<${soap}:header message="tns:${a(message)}" part="${partName(e, i, 'header')}" use="literal"${e.required ? ' wsdl:required="true"' : ' wsdl:required="false"'}/>`,
    ),
  ];
}

/** Lines of one tag each, indented by their depth. */
function indent(lines: string[]): string {
  let depth = 0;
  const out: string[] = [];
  for (const raw of lines) {
    const l = raw.trim();
    const closing = l.startsWith('</');
    if (closing) depth--;
    out.push(`${'  '.repeat(Math.max(0, depth))}${l}`);
    const opens = l.startsWith('<') && !closing && !l.startsWith('<?') && !l.startsWith('<!') && !l.endsWith('/>') && !l.includes('</');
    if (opens) depth++;
  }
  return `${out.join('\n')}\n`;
}
