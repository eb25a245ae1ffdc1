import path from 'node:path';

/** The repository's own WSDLs: together they hold every feature the shared WSDL corpus exercises. */
export const WSDL_FIXTURES = path.join(__dirname, '..', 'fixtures', 'wsdl');

export interface WsdlFixture {
  /** Folder under fixtures/wsdl, then the file: `rpc-literal/greeter.wsdl`. */
  name: string;
  file: string;
}

const NAMES = [
  'features/features.wsdl', // XSD constructs: choice, substitution groups, recursion, any, groups, chameleon include, enums, header, 1.1 + 1.2
  'rpc-literal/greeter.wsdl', // rpc/literal, header parts from an imported XSD, multi-part messages, fault, two services
  'rpc-encoded/hello.wsdl', // rpc/encoded without <types>
  'rpc-encoded/arrays-soap12.wsdl', // rpc/encoded over SOAP 1.2 only, SOAP-encoded arrays, one-way
  'wsdl20/orders.wsdl', // WSDL 2.0: SOAP 1.1, 1.2 and HTTP endpoints, faults, in-only, #none, extends
  'imports/main.wsdl', // nested and circular wsdl:import and xsd:import, a URL and a missing file
  'services/multi.wsdl', // many services and ports, HTTP/MIME, WS-Policy, SOAP 1.2-only port type, abstract, mixed
  'soap-headers/login.wsdl', // soap:header parts: wsdl:required="true" and "false" (a plain one: ticket.wsdl)
  'soap-headers/login20.wsdl', // WSDL 2.0 wsoap:header, optional unless required="true"
  'rpc-encoded/quotes.wsdl', // rpc/encoded over SOAP 1.1, arrays of a built-in and of a struct
  'transport/upload.wsdl', // address with trailing slash and query, URL wsdl:import, SwA, MTOM
  '../soap/petstore.wsdl', // the example service's WSDL
];

export function wsdlFixtures(): WsdlFixture[] {
  return NAMES.map((name) => ({ name: name.replace(/^\.\.\//, ''), file: path.join(WSDL_FIXTURES, name) }));
}

export function wsdlFixture(name: string): string {
  const f = wsdlFixtures().find((x) => x.name === name);
  if (!f) throw new Error(`no WSDL fixture ${name}`);
  return f.file;
}

/** An imported contract with an Examples row table added under each named fault scenario (`<operation> fault <name>`), as a user writes them. */
export function withFaultRows(text: string, operation: string, rows: Record<string, string>): string {
  let out = text;
  for (const [fault, table] of Object.entries(rows)) {
    const at = out.indexOf(`Scenario: ${operation} fault ${fault}\n`);
    if (at < 0) throw new Error(`no fault scenario ${operation} fault ${fault}`);
    const end = out.indexOf('\n\n', at);
    const insert = `\n\n    Examples:\n${table}`;
    out = end < 0 ? `${out.trimEnd()}${insert}\n` : `${out.slice(0, end)}${insert}${out.slice(end)}`;
  }
  return out;
}
