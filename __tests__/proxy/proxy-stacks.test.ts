import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as netServer } from 'node:net';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { startStub } from '../../src/stub';
import { PYTHON, runContractTests, STACKS_DIR } from '../interop/stacks';
import { runProxy } from './proxy-helpers';

/**
 * Recording services that answer as Mono's ASMX, gSOAP 2.8, Apache Axis 1.4 and pysimplesoap do
 * (issue 38 points 1 and 3): the bytes those stacks send, from 127.0.0.1 servers, through a real
 * `accord proxy`. A call the WSDL does not describe (nearly always a fault the WSDL does not declare)
 * no longer throws the WSDL away: the WSDL types everything it describes, the recording only that
 * call, and the proxy says which call and why. Each recording then passes as its own Jest test
 * against the same server, and a stub of it answers the WSDL's enumeration values.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'accord-proxy-stacks-'));
let server: Server;
let base = '';

const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
const XSD_NS = 'xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';

/** Mono's ASMX: document/literal, SOAP 1.1 and 1.2 ports at one address, enumerations, no fault declared. */
function asmxWsdl(): string {
  const ops = (soap: string) =>
    `<wsdl:operation name="GetTicket"><${soap}:operation soapAction="http://tempuri.org/GetTicket" style="document"/><wsdl:input><${soap}:body use="literal"/></wsdl:input><wsdl:output><${soap}:body use="literal"/></wsdl:output></wsdl:operation>`;
  return (
    `<?xml version="1.0" encoding="utf-8"?><wsdl:definitions xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="http://tempuri.org/" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="http://tempuri.org/">` +
    `<wsdl:types><s:schema elementFormDefault="qualified" targetNamespace="http://tempuri.org/">` +
    `<s:element name="GetTicket"><s:complexType><s:sequence><s:element minOccurs="1" maxOccurs="1" name="id" type="s:int"/><s:element minOccurs="1" maxOccurs="1" name="priority" type="tns:Priority"/></s:sequence></s:complexType></s:element>` +
    `<s:simpleType name="Priority"><s:restriction base="s:string"><s:enumeration value="Low"/><s:enumeration value="Normal"/><s:enumeration value="High"/></s:restriction></s:simpleType>` +
    `<s:element name="GetTicketResponse"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="GetTicketResult" type="tns:Ticket"/></s:sequence></s:complexType></s:element>` +
    `<s:complexType name="Ticket"><s:sequence><s:element minOccurs="1" maxOccurs="1" name="id" type="s:int"/><s:element minOccurs="1" maxOccurs="1" name="status" type="tns:TicketStatus"/></s:sequence></s:complexType>` +
    `<s:simpleType name="TicketStatus"><s:restriction base="s:string"><s:enumeration value="Open"/><s:enumeration value="Closed"/></s:restriction></s:simpleType>` +
    `</s:schema></wsdl:types>` +
    `<wsdl:message name="GetTicketSoapIn"><wsdl:part name="parameters" element="tns:GetTicket"/></wsdl:message><wsdl:message name="GetTicketSoapOut"><wsdl:part name="parameters" element="tns:GetTicketResponse"/></wsdl:message>` +
    `<wsdl:portType name="TicketsSoap"><wsdl:operation name="GetTicket"><wsdl:input message="tns:GetTicketSoapIn"/><wsdl:output message="tns:GetTicketSoapOut"/></wsdl:operation></wsdl:portType>` +
    `<wsdl:binding name="TicketsSoap" type="tns:TicketsSoap"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>${ops('soap')}</wsdl:binding>` +
    `<wsdl:binding name="TicketsSoap12" type="tns:TicketsSoap"><soap12:binding transport="http://schemas.xmlsoap.org/soap/http"/>${ops('soap12')}</wsdl:binding>` +
    `<wsdl:service name="Tickets"><wsdl:port name="TicketsSoap" binding="tns:TicketsSoap"><soap:address location="${base}/Tickets.asmx"/></wsdl:port>` +
    `<wsdl:port name="TicketsSoap12" binding="tns:TicketsSoap12"><soap12:address location="${base}/Tickets.asmx"/></wsdl:port></wsdl:service></wsdl:definitions>`
  );
}

/** ASMX: a 1.1 or 1.2 answer to the version asked; an unknown ticket or an enumeration it does not know is a fault with 500. */
function asmx(body: string, req: IncomingMessage, res: ServerResponse): void {
  const v12 = String(req.headers['content-type'] ?? '').startsWith('application/soap+xml');
  const env = v12 ? SOAP12 : SOAP11;
  const type = v12 ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8';
  const wrap = (inner: string) => `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${env}" ${XSD_NS}><soap:Body>${inner}</soap:Body></soap:Envelope>`;
  const id = Number(/<(?:\w+:)?id>(-?\d+)</.exec(body)?.[1] ?? NaN);
  const priority = /<(?:\w+:)?priority>([^<]*)</.exec(body)?.[1];
  const fault = (why: string) =>
    v12
      ? `<soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${why}</soap:Text></soap:Reason><soap:Detail /></soap:Fault>`
      : `<soap:Fault><faultcode>soap:Server</faultcode><faultstring>${why}</faultstring><detail /></soap:Fault>`;
  if (!['Low', 'Normal', 'High'].includes(priority ?? '')) {
    res
      .writeHead(500, { 'content-type': type })
      .end(wrap(fault(`Server was unable to read request. ---&gt; There is an error in XML document (1, 1). ---&gt; '${priority}' is not a valid value for Priority.`)));
  } else if (id === 99 || Number.isNaN(id)) {
    res.writeHead(500, { 'content-type': type }).end(wrap(fault(`Server was unable to process request. ---&gt; Ticket ${id} not found`)));
  } else {
    res
      .writeHead(200, { 'content-type': type })
      .end(
        wrap(`<GetTicketResponse xmlns="http://tempuri.org/"><GetTicketResult><id>${id}</id><status>${id % 2 ? 'Open' : 'Closed'}</status></GetTicketResult></GetTicketResponse>`),
      );
  }
}

/** gSOAP 2.8: SOAP 1.2 only; an unknown item is a Sender fault, answered with 400 as gSOAP does for a client's fault. */
function gsoapWsdl(): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><definitions name="inventory" targetNamespace="urn:inventory" xmlns:tns="urn:inventory" xmlns:SOAP="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:ns="urn:inventory" xmlns="http://schemas.xmlsoap.org/wsdl/">` +
    `<types><schema targetNamespace="urn:inventory" xmlns="http://www.w3.org/2001/XMLSchema" elementFormDefault="unqualified" attributeFormDefault="unqualified">` +
    `<simpleType name="unit"><restriction base="xsd:string"><enumeration value="piece"/><enumeration value="box"/></restriction></simpleType>` +
    `<simpleType name="state"><restriction base="xsd:string"><enumeration value="in-stock"/><enumeration value="sold-out"/></restriction></simpleType>` +
    `<element name="getItem"><complexType><sequence><element name="sku" type="xsd:string" minOccurs="1" maxOccurs="1"/><element name="unit" type="ns:unit" minOccurs="1" maxOccurs="1"/></sequence></complexType></element>` +
    `<element name="getItemResponse"><complexType><sequence><element name="state" type="ns:state" minOccurs="1" maxOccurs="1"/></sequence></complexType></element>` +
    `</schema></types>` +
    `<message name="getItemRequest"><part name="Body" element="ns:getItem"/></message><message name="getItemResponse"><part name="Body" element="ns:getItemResponse"/></message>` +
    `<portType name="inventoryPortType"><operation name="getItem"><input message="tns:getItemRequest"/><output message="tns:getItemResponse"/></operation></portType>` +
    `<binding name="inventory" type="tns:inventoryPortType"><SOAP:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/><operation name="getItem"><SOAP:operation soapAction=""/><input><SOAP:body parts="Body" use="literal"/></input><output><SOAP:body parts="Body" use="literal"/></output></operation></binding>` +
    `<service name="inventory"><port name="inventory" binding="tns:inventory"><SOAP:address location="${base}/inventory"/></port></service></definitions>`
  );
}

function gsoap(body: string, _req: IncomingMessage, res: ServerResponse): void {
  const env = (inner: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP12}" xmlns:SOAP-ENC="http://www.w3.org/2003/05/soap-encoding" ${XSD_NS} xmlns:ns="urn:inventory"><SOAP-ENV:Body>${inner}</SOAP-ENV:Body></SOAP-ENV:Envelope>\n`;
  const sku = /<sku>([^<]*)</.exec(body)?.[1] ?? '';
  const type = 'application/soap+xml; charset=utf-8';
  if (sku === 'none' || !/<unit>(piece|box)</.test(body))
    res
      .writeHead(400, { 'content-type': type })
      .end(
        env(
          `<SOAP-ENV:Fault SOAP-ENV:encodingStyle="http://www.w3.org/2003/05/soap-encoding"><SOAP-ENV:Code><SOAP-ENV:Value>SOAP-ENV:Sender</SOAP-ENV:Value></SOAP-ENV:Code><SOAP-ENV:Reason><SOAP-ENV:Text xml:lang="en">Unknown item</SOAP-ENV:Text></SOAP-ENV:Reason></SOAP-ENV:Fault>`,
        ),
      );
  else res.writeHead(200, { 'content-type': type }).end(env(`<ns:getItemResponse><state>${sku.length % 2 ? 'in-stock' : 'sold-out'}</state></ns:getItemResponse>`));
}

/** Apache Axis 1.4: rpc/encoded, its struct answered as a multiRef after the wrapper; a fault with Axis's own detail entries. */
function axisWsdl(): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><wsdl:definitions targetNamespace="urn:orders" xmlns:apachesoap="http://xml.apache.org/xml-soap" xmlns:impl="urn:orders" xmlns:intf="urn:orders" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:wsdlsoap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
    `<wsdl:types><schema targetNamespace="urn:orders" xmlns="http://www.w3.org/2001/XMLSchema"><import namespace="http://schemas.xmlsoap.org/soap/encoding/"/>` +
    `<simpleType name="Status"><restriction base="xsd:string"><enumeration value="open"/><enumeration value="shipped"/></restriction></simpleType>` +
    `<complexType name="Order"><sequence><element name="id" type="xsd:int"/><element name="status" nillable="true" type="impl:Status"/></sequence></complexType></schema></wsdl:types>` +
    `<wsdl:message name="getOrderRequest"><wsdl:part name="id" type="xsd:int"/></wsdl:message><wsdl:message name="getOrderResponse"><wsdl:part name="getOrderReturn" type="impl:Order"/></wsdl:message>` +
    `<wsdl:portType name="Orders"><wsdl:operation name="getOrder" parameterOrder="id"><wsdl:input message="impl:getOrderRequest" name="getOrderRequest"/><wsdl:output message="impl:getOrderResponse" name="getOrderResponse"/></wsdl:operation></wsdl:portType>` +
    `<wsdl:binding name="OrdersSoapBinding" type="impl:Orders"><wsdlsoap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="getOrder"><wsdlsoap:operation soapAction=""/>` +
    `<wsdl:input name="getOrderRequest"><wsdlsoap:body encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" namespace="urn:orders" use="encoded"/></wsdl:input>` +
    `<wsdl:output name="getOrderResponse"><wsdlsoap:body encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" namespace="urn:orders" use="encoded"/></wsdl:output></wsdl:operation></wsdl:binding>` +
    `<wsdl:service name="OrdersService"><wsdl:port binding="impl:OrdersSoapBinding" name="Orders"><wsdlsoap:address location="${base}/axis/services/Orders"/></wsdl:port></wsdl:service></wsdl:definitions>`
  );
}

function axis(body: string, _req: IncomingMessage, res: ServerResponse): void {
  const env = (inner: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP11}" ${XSD_NS}><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`;
  const id = Number(/<id[^>]*>(-?\d+)</.exec(body)?.[1] ?? NaN);
  const type = 'text/xml;charset=utf-8';
  if (id === 99 || Number.isNaN(id))
    res
      .writeHead(500, { 'content-type': type })
      .end(
        env(
          `<soapenv:Fault><faultcode>soapenv:Server.userException</faultcode><faultstring>java.lang.IllegalArgumentException: no order ${id}</faultstring><detail>` +
            `<ns1:stackTrace xmlns:ns1="http://xml.apache.org/axis/">java.lang.IllegalArgumentException: no order ${id}\n\tat orders.OrdersImpl.getOrder(OrdersImpl.java:12)</ns1:stackTrace>` +
            `<ns2:hostname xmlns:ns2="http://xml.apache.org/axis/">debian</ns2:hostname></detail></soapenv:Fault>`,
        ),
      );
  else
    res
      .writeHead(200, { 'content-type': type })
      .end(
        env(
          `<ns1:getOrderResponse soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns1="urn:orders"><getOrderReturn href="#id0"/></ns1:getOrderResponse>` +
            `<multiRef id="id0" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns2:Order" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns2="urn:orders">` +
            `<id xsi:type="xsd:int">${id}</id><status xsi:type="ns2:Status">${id % 2 ? 'open' : 'shipped'}</status></multiRef>`,
        ),
      );
}

/** pysimplesoap: document/literal; a fault whose faultcode is unqualified (`Server.OrderNotFound`), with 500 (the bytes Debian's 1.16 sends). */
function pysimpleWsdl(): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="http://example.com/shop/" targetNamespace="http://example.com/shop/">` +
    `<wsdl:types><xsd:schema targetNamespace="http://example.com/shop/" elementFormDefault="qualified">` +
    `<xsd:element name="track"><xsd:complexType><xsd:all><xsd:element name="order" type="xsd:int"/></xsd:all></xsd:complexType></xsd:element>` +
    `<xsd:element name="trackResponse"><xsd:complexType><xsd:all><xsd:element name="state"><xsd:simpleType><xsd:restriction base="xsd:string"><xsd:enumeration value="packed"/><xsd:enumeration value="sent"/></xsd:restriction></xsd:simpleType></xsd:element></xsd:all></xsd:complexType></xsd:element>` +
    `</xsd:schema></wsdl:types>` +
    `<wsdl:message name="trackInput"><wsdl:part name="parameters" element="tns:track"/></wsdl:message><wsdl:message name="trackOutput"><wsdl:part name="parameters" element="tns:trackResponse"/></wsdl:message>` +
    `<wsdl:portType name="ShopPortType"><wsdl:operation name="track"><wsdl:input message="tns:trackInput"/><wsdl:output message="tns:trackOutput"/></wsdl:operation></wsdl:portType>` +
    `<wsdl:binding name="ShopBinding" type="tns:ShopPortType"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="track"><soap:operation soapAction="${base}/shop/track" style="document"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation></wsdl:binding>` +
    `<wsdl:service name="ShopService"><wsdl:port name="ShopPort" binding="tns:ShopBinding"><soap:address location="${base}/shop"/></wsdl:port></wsdl:service></wsdl:definitions>`
  );
}

function pysimple(body: string, _req: IncomingMessage, res: ServerResponse): void {
  const order = Number(/<(?:\w+:)?order>(-?\d+)</.exec(body)?.[1] ?? NaN);
  const env = (inner: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="${SOAP11}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
  if (order === 99 || Number.isNaN(order))
    res
      .writeHead(500, { 'content-type': 'text/xml' })
      .end(env(`<soap:Fault><faultcode>Server.OrderNotFound</faultcode><faultstring>no order ${order}</faultstring><detail/></soap:Fault>`));
  else
    res.writeHead(200, { 'content-type': 'text/xml' }).end(env(`<trackResponse xmlns="http://example.com/shop/"><state>${order % 2 ? 'packed' : 'sent'}</state></trackResponse>`));
}

const routes: Record<string, { wsdl: () => string; answer: (body: string, req: IncomingMessage, res: ServerResponse) => void }> = {
  '/Tickets.asmx': { wsdl: asmxWsdl, answer: asmx },
  '/inventory': { wsdl: gsoapWsdl, answer: gsoap },
  '/axis/services/Orders': { wsdl: axisWsdl, answer: axis },
  '/shop': { wsdl: pysimpleWsdl, answer: pysimple },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const [p, q] = (req.url ?? '/').split('?');
      const route = routes[p];
      if (!route) res.writeHead(404).end();
      else if (req.method === 'GET' && q?.toLowerCase() === 'wsdl') res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(route.wsdl());
      else if (req.method === 'POST') route.answer(Buffer.concat(chunks).toString('utf8'), req, res);
      else res.writeHead(405).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  if (!process.env.KEEP_STACKS) rmSync(dir, { recursive: true, force: true });
});

interface Recorded {
  code: number | null;
  said: string;
  contract: string;
  folder: string;
}

/** `accord proxy --target <server> --out <name>/<name>.spec`, the calls sent through it (body, content type, SOAPAction), then stopped. */
async function record(name: string, calls: [string, string, string, Record<string, string>?][], args: string[] = []): Promise<Recorded> {
  const folder = path.join(dir, name);
  mkdirSync(folder);
  const proxy = await runProxy(folder, ['--target', base, '--out', `${name}.spec`, ...args]);
  try {
    for (const [p, body, type, headers] of calls) {
      const r = await request(`${proxy.url}${p}`, { method: 'POST', headers: { 'content-type': type, ...headers }, body });
      await r.body.text();
    }
  } finally {
    proxy.stop();
  }
  const done = await proxy.exited;
  return { code: done.code, said: done.stdout + done.stderr, contract: readFileSync(path.join(folder, `${name}.spec`), 'utf8'), folder };
}

/** The recording as its own Jest test against the same server: every scenario passes. */
async function passesAgainstServer(folder: string): Promise<void> {
  const r = await runContractTests(folder, base);
  expect([r.status, r.output]).toEqual([0, expect.stringMatching(/Tests: .*passed/)]);
  expect(r.output).not.toMatch(/[1-9]\d* failed/);
}

/** What a stub of the recording answers to a request never recorded. */
async function stubAnswer(folder: string, p: string, body: string, type: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const stub = await startStub({ contracts: [folder], port: 0, log: () => undefined });
  try {
    const r = await request(`${stub.url}${p}`, { method: 'POST', headers: { 'content-type': type, ...headers }, body });
    return { status: r.statusCode, text: await r.body.text() };
  } finally {
    await stub.close();
  }
}

const soap11 = (inner: string) => `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11}" ${XSD_NS}><soap:Body>${inner}</soap:Body></soap:Envelope>`;
const soap12 = (inner: string) => `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="${SOAP12}" ${XSD_NS}><soap12:Body>${inner}</soap12:Body></soap12:Envelope>`;
const ticket = (id: number, priority: string) => `<GetTicket xmlns="http://tempuri.org/"><id>${id}</id><priority>${priority}</priority></GetTicket>`;
const ASMX_ACTION = { soapaction: '"http://tempuri.org/GetTicket"' };

it('ASMX with an undeclared SOAP 1.1 fault (500): the WSDL still types the contract, the fault alone is typed from the recording, and the proxy says which call and why', async () => {
  const r = await record('asmx', [
    ['/Tickets.asmx', soap11(ticket(1, 'High')), 'text/xml; charset=utf-8', ASMX_ACTION],
    ['/Tickets.asmx', soap11(ticket(2, 'Low')), 'text/xml; charset=utf-8', ASMX_ACTION],
    ['/Tickets.asmx', soap11(ticket(99, 'Normal')), 'text/xml; charset=utf-8', ASMX_ACTION],
  ]);
  expect([r.code, r.said]).toEqual([0, expect.stringContaining(`typed by ${base}/Tickets.asmx?wsdl`)]);
  // Which call did not fit, and why; the WSDL was not thrown away.
  expect(r.said).toMatch(/1 of 3 recorded calls? (does|do) not fit the WSDL/);
  expect(r.said).toMatch(/GetTicket.*status 500/);
  expect(r.said).not.toContain('the recorded values type the contract');
  expect(r.said).not.toContain('bug in accord');
  // The WSDL's enumerations, not the recorded values' (string).
  expect(r.contract).toMatch(/Low.*Normal.*High/s);
  expect(r.contract).toMatch(/Open.*Closed/s);
  const wsdlPart = r.contract.slice(0, r.contract.indexOf('(recorded: the WSDL does not describe it)'));
  expect(wsdlPart).toContain('<tns:priority>(Priority)</tns:priority>');
  expect(wsdlPart).toContain('<tns:status>(TicketStatus)</tns:status>');
  expect(wsdlPart).not.toContain('(string)</tns:');
  // The fault is there: its request as the WSDL types it (the call of a WSDL operation), its status and answer as recorded.
  const recordedPart = r.contract.slice(wsdlPart.length);
  expect(recordedPart).toContain('status 500');
  expect(recordedPart).toContain('<tns:priority>(Priority)</tns:priority>');
  expect(recordedPart).not.toContain('<priority>(string)</priority>');
  expect(recordedPart).toMatch(/Examples:[\s\S]*99[\s\S]*Normal/);
  await passesAgainstServer(r.folder);
  for (const [body, type] of [
    [soap11(ticket(5, 'Low')), 'text/xml; charset=utf-8'],
    [soap12(ticket(5, 'Low')), 'application/soap+xml; charset=utf-8'],
  ]) {
    const answer = await stubAnswer(r.folder, '/Tickets.asmx', body, type, ASMX_ACTION);
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(/<(\w+:)?status>(Open|Closed)<\/(\w+:)?status>/);
  }
}, 120_000);

it('gSOAP: a SOAP 1.2 Sender fault answered with 400 does not cost the WSDL; the stub answers its enumeration', async () => {
  const item = (sku: string, unit: string) => soap12(`<ns:getItem xmlns:ns="urn:inventory"><sku>${sku}</sku><unit>${unit}</unit></ns:getItem>`);
  const r = await record('gsoap', [
    ['/inventory', item('A-1', 'box'), 'application/soap+xml; charset=utf-8'],
    ['/inventory', item('none', 'piece'), 'application/soap+xml; charset=utf-8'],
  ]);
  expect([r.code, r.said]).toEqual([0, expect.stringContaining(`typed by ${base}/inventory?wsdl`)]);
  expect(r.said).toMatch(/1 of 2 recorded calls? (does|do) not fit the WSDL/);
  expect(r.said).toMatch(/getItem.*status 400/);
  expect(r.contract).toMatch(/in-stock.*sold-out/s);
  expect(r.contract).toMatch(/piece.*box/s);
  expect(r.contract).toContain('status 400');
  await passesAgainstServer(r.folder);
  const answer = await stubAnswer(r.folder, '/inventory', item('B-22', 'piece'), 'application/soap+xml; charset=utf-8');
  expect([answer.status, answer.text]).toEqual([200, expect.stringMatching(/<state>(in-stock|sold-out)<\/state>/)]);
}, 120_000);

const order = (id: number) =>
  `<soapenv:Envelope xmlns:soapenv="${SOAP11}" ${XSD_NS}><soapenv:Body><ns1:getOrder soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns1="urn:orders"><id xsi:type="xsd:int">${id}</id></ns1:getOrder></soapenv:Body></soapenv:Envelope>`;

it('Axis 1.4 rpc/encoded: multi-ref answers and a fault with stackTrace/hostname detail entries, typed by the WSDL', async () => {
  const r = await record('axis', [
    ['/axis/services/Orders', order(7), 'text/xml; charset=utf-8', { soapaction: '""' }],
    ['/axis/services/Orders', order(8), 'text/xml; charset=utf-8', { soapaction: '""' }],
    ['/axis/services/Orders', order(99), 'text/xml; charset=utf-8', { soapaction: '""' }],
  ]);
  expect([r.code, r.said]).toEqual([0, expect.stringContaining(`typed by ${base}/axis/services/Orders?wsdl`)]);
  expect(r.said).toMatch(/1 of 3 recorded calls? (does|do) not fit the WSDL/);
  expect(r.contract).toMatch(/open.*shipped/s);
  expect(r.contract).not.toContain('href="(string)"');
  await passesAgainstServer(r.folder);
  const answer = await stubAnswer(r.folder, '/axis/services/Orders', order(5), 'text/xml; charset=utf-8', { soapaction: '""' });
  expect([answer.status, answer.text]).toEqual([200, expect.stringMatching(/<status[^>]*>(open|shipped)<\/status>/)]);
}, 120_000);

it('Axis 1.4 rpc/encoded recorded without a WSDL: the multi-ref answer is recorded as the structure it stands for, and the recording fits itself', async () => {
  const r = await record(
    'axis-bare',
    [
      ['/axis/services/Orders', order(7), 'text/xml; charset=utf-8', { soapaction: '""' }],
      ['/axis/services/Orders', order(8), 'text/xml; charset=utf-8', { soapaction: '""' }],
    ],
    ['--no-wsdl'],
  );
  expect([r.code, r.said]).toEqual([0, expect.stringContaining('checked: all 2 logged calls match the contract')]);
  expect(r.contract).not.toContain('href=');
  expect(r.contract).not.toContain('multiRef');
  expect(r.contract).toMatch(/<getOrderReturn[^>]*>\s*<id[^>]*>\(number\)<\/id>\s*<status[^>]*>\(string\)<\/status>\s*<\/getOrderReturn>/);
  await passesAgainstServer(r.folder);
}, 120_000);

const track = (n: number) => soap11(`<track xmlns="http://example.com/shop/"><order>${n}</order></track>`);

it('pysimplesoap: an unqualified faultcode (Server.OrderNotFound) is recorded as sent, with one warning that WS-I asks for a qualified one', async () => {
  for (const [name, args] of [
    ['shop', []],
    ['shop-bare', ['--no-wsdl']],
  ] as [string, string[]][]) {
    const r = await record(
      name,
      [
        ['/shop', track(4), 'text/xml; charset=utf-8', { soapaction: `"${base}/shop/track"` }],
        ['/shop', track(99), 'text/xml; charset=utf-8', { soapaction: `"${base}/shop/track"` }],
      ],
      args,
    );
    expect([name, r.code, r.said]).toEqual([name, 0, expect.stringContaining('Server.OrderNotFound')]);
    const warnings = r.said.split('\n').filter((l) => l.includes('R1004'));
    expect([name, warnings]).toEqual([name, [expect.stringContaining('"Server.OrderNotFound"')]]);
    expect(r.said).not.toContain('bug in accord');
    expect(r.contract).toContain('Server.OrderNotFound');
    if (name === 'shop') expect(r.contract).toMatch(/packed.*sent/s);
    await passesAgainstServer(r.folder);
  }
}, 180_000);

const hasPysimplesoap = spawnSync(PYTHON, ['-c', 'import pysimplesoap.server'], { stdio: 'ignore' }).status === 0;

/** Debian's python3-pysimplesoap itself (the WSDL it serves at GET /, its own fault bytes), recorded through the proxy. */
(hasPysimplesoap ? it : it.skip)(
  'a real pysimplesoap service (Debian): its unqualified fault code is recorded as sent; the recording passes against it',
  async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = netServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const py = spawn(PYTHON, [path.join(STACKS_DIR, 'pysimplesoap_server.py'), String(port)], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await new Promise<void>((resolve, reject) => {
        py.stdout.on('data', (d: Buffer) => (String(d).includes('listening') ? resolve() : undefined));
        py.once('exit', (code) => reject(new Error(`pysimplesoap exited ${code}`)));
      });
      const real = `http://127.0.0.1:${port}`;
      const folder = path.join(dir, 'pysimplesoap-real');
      mkdirSync(folder);
      // pysimplesoap serves its WSDL at GET / (its `?wsdl` is taken for a method name).
      const proxy = await runProxy(folder, ['--target', real, '--out', 'shop.spec', '--wsdl', `${real}/`]);
      try {
        for (const n of [3, 99]) {
          const r = await request(`${proxy.url}/`, { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${real}/track"` }, body: track(n) });
          await r.body.text();
        }
      } finally {
        proxy.stop();
      }
      const done = await proxy.exited;
      const said = done.stdout + done.stderr;
      expect([done.code, said]).toEqual([0, expect.stringContaining(`typed by ${real}/`)]);
      expect(said.split('\n').filter((l) => l.includes('R1004'))).toEqual([expect.stringContaining('"Server.OrderNotFound"')]);
      const contract = readFileSync(path.join(folder, 'shop.spec'), 'utf8');
      expect(contract).toContain('Server.OrderNotFound');
      const r = await runContractTests(folder, real);
      expect([r.status, r.output]).toEqual([0, expect.stringMatching(/Tests: .*passed/)]);
    } finally {
      py.kill();
    }
  },
  120_000,
);
