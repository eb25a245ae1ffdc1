import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClientAsync, listen } from 'soap';
import { request } from 'undici';
import { REPO } from '../stub/helpers';
import { PROXY_LIMITS } from '../../src/limits';
import { runProxy } from './proxy-helpers';

/**
 * A client built from the WSDL it fetched through `accord proxy` calls through the proxy, so
 * its calls are recorded: the proxy points the WSDL's service address (and the imports that
 * point at the target) at itself. A real service made with the `soap` package, which
 * advertises its own address, and a real `soap` client built from the proxy's `?wsdl`.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'accord-proxy-wsdl-'));
let service: Server;
let serviceUrl: string;

beforeAll(async () => {
  service = createServer((req, res) => {
    if (req.url === '/doc.wsdl') {
      // A WSDL whose schema and service address are absolute URLs on the service itself.
      const text =
        `<?xml version="1.0" encoding="UTF-8"?><definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:x">` +
        `<types><xsd:schema><xsd:import namespace="urn:c" schemaLocation="${serviceUrl}/schemas/common.xsd"/><xsd:import namespace="urn:o" schemaLocation="http://other.example/o.xsd"/></xsd:schema></types>` +
        `<service name="S"><port name="P" binding="b"><soap:address location="${serviceUrl}/ws"/></port><port name="P12" binding="b12"><soap12:address location="http://localhost:8080/ws12"/></port></service></definitions>`;
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
      res.end(text);
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  const pets: Record<number, string> = { 1: 'Rex', 2: 'Tom' };
  // The service advertises its own address, as real services do: a client that follows it unchanged bypasses the proxy.
  const wsdl = readFileSync(path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl'), 'utf8').replace('http://localhost/ws', `${serviceUrl}/ws`);
  listen(service, '/ws', { PetService: { PetPort: { getPet: ({ id }: { id: number }) => ({ id, name: pets[id] ?? 'Nobody', type: 'dog', status: 'available' }) } } }, wsdl);
});
afterAll(async () => {
  await new Promise((resolve) => service.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

it("a soap client built from the proxy's ?wsdl calls through the proxy, and the contract records its calls and cites no deleted file", async () => {
  const proxy = await runProxy(dir, ['--target', serviceUrl, '--out', 'pets.spec']);
  try {
    const client = await createClientAsync(`${proxy.url}/ws?wsdl`);
    for (const id of [1, 2]) {
      const [result] = (await client.getPetAsync({ id })) as [{ name: string }];
      expect(result.name).toBe({ 1: 'Rex', 2: 'Tom' }[id]);
    }
    // The imports on the target point at the proxy too; an import elsewhere, and every service address, as the proxy stands for the service.
    const doc = await (await request(`${proxy.url}/doc.wsdl`)).body.text();
    expect(doc).toContain(`schemaLocation="${proxy.url}/schemas/common.xsd"`);
    expect(doc).toContain('schemaLocation="http://other.example/o.xsd"');
    expect(doc).toContain(`location="${proxy.url}/ws"`);
    expect(doc).toContain(`location="${proxy.url}/ws12"`);
    expect(doc).not.toContain(serviceUrl);
  } finally {
    proxy.stop();
  }
  const done = await proxy.exited;
  expect(done.stdout).toContain('checked: all 2 logged calls match the contract');
  expect(done.code).toBe(0);
  const contract = readFileSync(path.join(dir, 'pets.spec'), 'utf8');
  // Typed by the service's WSDL, fetched through the proxy into a temporary copy: the contract names the service's address.
  expect(contract).toContain(`${serviceUrl}/ws?wsdl`);
  expect(contract).not.toContain(proxy.url);
  // The temporary recording and WSDL copy are gone: the contract does not send its reader there.
  expect(contract).not.toContain(tmpdir());
  expect(contract).not.toContain('recording.har');
  expect(contract).not.toContain('ws.wsdl');
}, 60_000);

it('a service without a WSDL: the recorded values type the contract, and one line says so', async () => {
  const envelope = (body: string) => `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;
  const bare = createServer((req, res) => {
    req.resume();
    if (req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(envelope('<p:pingResponse xmlns:p="urn:p"><p:n>1</p:n></p:pingResponse>'));
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  try {
    const proxy = await runProxy(dir, ['--target', target, '--out', 'bare.spec']);
    try {
      const r = await request(`${proxy.url}/svc`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: envelope('<p:ping xmlns:p="urn:p"/>') });
      await r.body.text();
    } finally {
      proxy.stop();
    }
    const done = await proxy.exited;
    expect(done.code).toBe(0);
    // Named by the service's address: the proxy's is gone once it stops.
    expect(done.stderr).toContain(`accord proxy: no WSDL (${target}/svc?wsdl answered 404); the recorded values type the contract`);
    expect(done.stderr).not.toContain(`${proxy.url}/svc?wsdl`);
    expect(readFileSync(path.join(dir, 'bare.spec'), 'utf8')).toContain('<p:n>(number)</p:n>');
  } finally {
    await new Promise((resolve) => bare.close(resolve));
  }
}, 60_000);

it('a WSDL importing its schema from ?xsd=1 (as JAX-WS publishes it): the recording is typed by that schema, fetched through the proxy', async () => {
  const NS = 'urn:jx';
  const envelope = (body: string) => `<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>${body}</S:Body></S:Envelope>`;
  let base = '';
  const asked: string[] = [];
  const jaxws = createServer((req, res) => {
    asked.push(req.url ?? '');
    req.resume();
    if (req.method === 'GET' && req.url === '/orders?wsdl') {
      res
        .writeHead(200, { 'content-type': 'text/xml;charset=utf-8' })
        .end(
          `<?xml version="1.0" encoding="UTF-8"?><definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="${NS}" targetNamespace="${NS}" name="Orders">` +
            `<types><xsd:schema><xsd:import namespace="${NS}" schemaLocation="${base}/orders?xsd=1"/></xsd:schema></types>` +
            `<message name="getOrder"><part name="parameters" element="tns:getOrder"/></message><message name="getOrderResponse"><part name="parameters" element="tns:getOrderResponse"/></message>` +
            `<portType name="P"><operation name="getOrder"><input message="tns:getOrder"/><output message="tns:getOrderResponse"/></operation></portType>` +
            `<binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/><operation name="getOrder"><soap:operation soapAction=""/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>` +
            `<service name="Orders"><port name="OrdersPort" binding="tns:B"><soap:address location="${base}/orders"/></port></service></definitions>`,
        );
    } else if (req.method === 'GET' && req.url === '/orders?xsd=1') {
      res
        .writeHead(200, { 'content-type': 'text/xml;charset=utf-8' })
        .end(
          `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="${NS}" targetNamespace="${NS}" elementFormDefault="qualified">` +
            `<xs:element name="getOrder"><xs:complexType><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType></xs:element>` +
            `<xs:element name="getOrderResponse"><xs:complexType><xs:sequence><xs:element name="status"><xs:simpleType><xs:restriction base="xs:string"><xs:enumeration value="open"/><xs:enumeration value="shipped"/></xs:restriction></xs:simpleType></xs:element></xs:sequence></xs:complexType></xs:element></xs:schema>`,
        );
    } else if (req.method === 'POST') {
      res
        .writeHead(200, { 'content-type': 'text/xml;charset=utf-8' })
        .end(envelope(`<ns2:getOrderResponse xmlns:ns2="${NS}"><ns2:status>open</ns2:status></ns2:getOrderResponse>`));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => jaxws.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(jaxws.address() as AddressInfo).port}`;
  try {
    const proxy = await runProxy(dir, ['--target', base, '--out', 'jx.spec']);
    try {
      const r = await request(`${proxy.url}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml', soapaction: '""' },
        body: envelope(`<j:getOrder xmlns:j="${NS}"><j:id>7</j:id></j:getOrder>`),
      });
      await r.body.text();
    } finally {
      proxy.stop();
    }
    const done = await proxy.exited;
    expect([done.code, done.stdout + done.stderr]).toEqual([0, expect.stringContaining(`typed by ${base}/orders?wsdl`)]);
    expect(asked).toContain('/orders?xsd=1');
    const contract = readFileSync(path.join(dir, 'jx.spec'), 'utf8');
    // The schema's types and enumeration, not the `(anything)` of an unresolved import.
    expect(contract).not.toContain('(anything)');
    expect(contract).toMatch(/<tns:id>\(int\w*\)<\/tns:id>|<tns:id>\(number\)/);
    expect(contract).toMatch(/"open".*"shipped"|open,\s*shipped/s);
    expect(contract).not.toContain(proxy.url);
    expect(contract).not.toContain('orders_xsd1.xsd');
  } finally {
    await new Promise((resolve) => jaxws.close(resolve));
  }
}, 60_000);

it('a WSDL whose imports never end: the proxy stops fetching at PROXY_LIMITS.wsdlDocuments and says so', async () => {
  let asked = 0;
  const endless = createServer((req, res) => {
    req.resume();
    const m = /^\/svc\?(?:wsdl|xsd=(\d+))$/.exec(req.url ?? '');
    if (req.method === 'GET' && m) {
      asked++;
      const next = Number(m[1] ?? 0) + 1;
      res
        .writeHead(200, { 'content-type': 'text/xml' })
        .end(
          `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:e${next}"><xs:import namespace="urn:e${next + 1}" schemaLocation="?xsd=${next}"/></xs:schema>`,
        );
    } else
      res
        .writeHead(200, { 'content-type': 'text/xml' })
        .end('<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><p:ok xmlns:p="urn:p"/></S:Body></S:Envelope>');
  });
  await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(endless.address() as AddressInfo).port}`;
  try {
    const proxy = await runProxy(dir, ['--target', target, '--out', 'endless.spec']);
    try {
      const r = await request(`${proxy.url}/svc`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml' },
        body: '<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><p:ping xmlns:p="urn:p"/></S:Body></S:Envelope>',
      });
      await r.body.text();
    } finally {
      proxy.stop();
    }
    const done = await proxy.exited;
    expect(done.code).toBe(0);
    expect(done.stderr).toContain(`accord proxy: no WSDL (${target}/svc?wsdl imports more than ${PROXY_LIMITS.wsdlDocuments} documents); the recorded values type the contract`);
    expect(asked).toBe(PROXY_LIMITS.wsdlDocuments);
  } finally {
    await new Promise((resolve) => endless.close(resolve));
  }
}, 60_000);
