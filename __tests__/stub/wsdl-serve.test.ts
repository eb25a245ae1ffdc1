import path from 'node:path';
import { createClientAsync } from 'soap';
import { startStub, type RunningStub } from '../../src/stub';
import { REPO, call } from './helpers';

/** `?wsdl` and `?xsd=…`: a stub started from a WSDL serves it, pointing at itself, to real SOAP clients. */
const PETSTORE = path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl');
const IMPORTS = path.join(REPO, '__tests__', 'fixtures', 'wsdl', 'imports', 'main.wsdl');
let stub: RunningStub;
let withImports: RunningStub;

beforeAll(async () => {
  stub = await startStub({ contracts: [PETSTORE], log: () => {} });
  // Its imports are partly gone on purpose (a URL, a missing file): served anyway, as the test is about what ?xsd= serves.
  withImports = await startStub({ contracts: [IMPORTS], log: () => {}, allowUnresolved: true });
});
afterAll(async () => {
  await stub.close();
  await withImports.close();
});

it('a `soap` package client reads the WSDL from the stub and then calls the stub', async () => {
  const client = await createClientAsync(`${stub.url}/ws?wsdl`);
  // The WSDL says http://localhost/ws (port 80, nothing there): the call reaches the stub only through the rewritten address.
  const [result] = (await client.getPetAsync({ id: 7 })) as [{ id: number; name: string; status: string }];
  expect(typeof result.id).toBe('number');
  expect(typeof result.name).toBe('string');
  expect(stub.calls()).toEqual([expect.objectContaining({ method: 'POST', path: '/ws', answeredBy: 'scenario', scenario: expect.objectContaining({ name: 'getPet' }) })]);
});

it('serves the files the WSDL imports at ?xsd=, with their own imports rewritten, and nothing else', async () => {
  const wsdl = await call(`${withImports.url}/api/catalog?wsdl`, { method: 'GET' });
  expect(wsdl.status).toBe(200);
  expect(wsdl.headers['content-type']).toBe('text/xml; charset=utf-8');
  expect(wsdl.body).toContain(`location="${withImports.url}/api/catalog"`);
  expect(wsdl.body).toContain(`location="${withImports.url}/api/catalog?xsd=wsdls%2Fbinding.wsdl"`);
  const binding = await call(`${withImports.url}/api/catalog?xsd=wsdls%2Fbinding.wsdl`, { method: 'GET' });
  expect(binding.body).toContain(`location="${withImports.url}/api/catalog?xsd=wsdls%2Fmessages.wsdl"`);
  const messages = await call(`${withImports.url}/api/catalog?xsd=wsdls%2Fmessages.wsdl`, { method: 'GET' });
  // The cycle back to the main WSDL, and the schema include one folder down.
  expect(messages.body).toContain('?xsd=main.wsdl"');
  expect(messages.body).toContain('schemaLocation="' + `${withImports.url}/api/catalog?xsd=wsdls%2Fxsds%2Fcatalog.xsd"`);
  const catalog = await call(`${withImports.url}/api/catalog?xsd=wsdls%2Fxsds%2Fcatalog.xsd`, { method: 'GET' });
  expect(catalog.status).toBe(200);
  expect(catalog.body).toContain('?xsd=wsdls%2Fxsds%2Fsub%2Fcommon.xsd');
  // Only what the imports reach: not the contract beside it, not a path outside.
  expect((await call(`${withImports.url}/api/catalog?xsd=main.spec`, { method: 'GET' })).status).toBe(404);
  expect((await call(`${withImports.url}/api/catalog?xsd=..%2F..%2F..%2Fpackage.json`, { method: 'GET' })).status).toBe(404);
});

it('a stub of .spec files has no ?wsdl', async () => {
  const spec = await startStub({ contracts: [path.join(REPO, 'contracts', 'pets', 'api_pets_v1.spec')], log: () => {} });
  try {
    expect((await call(`${spec.url}/pets/1?wsdl`, { method: 'GET' })).status).toBe(400);
  } finally {
    await spec.close();
  }
});

describe('?wsdl advertises exactly the ports a stub serves', () => {
  const ports = (wsdl: string, tag: string) => [...wsdl.matchAll(new RegExp(`<(?:wsdl:)?${tag} name="([^"]+)"`, 'g'))].map((m) => m[1]);

  it('WSDL 1.1: the SOAP 1.1 and 1.2 ports, not the HTTP GET and POST ones, and each advertised port answers', async () => {
    const stub = await startStub({ contracts: [path.join(REPO, '__tests__', 'fixtures', 'wsdl', 'services', 'http-ports.wsdl')], log: () => {} });
    try {
      const wsdl = await call(`${stub.url}/orders.asmx?wsdl`, { method: 'GET' });
      expect(wsdl.status).toBe(200);
      expect(ports(wsdl.body, 'port')).toEqual(['OrdersSoap', 'OrdersSoap12']);
      expect(wsdl.body).not.toContain('http:address');
      // Every port left is answered at the address it advertises, in its SOAP version.
      for (const [ns, type] of [
        ['http://schemas.xmlsoap.org/soap/envelope/', 'text/xml; charset=utf-8'],
        ['http://www.w3.org/2003/05/soap-envelope', 'application/soap+xml; charset=utf-8'],
      ]) {
        const res = await call(`${stub.url}/orders.asmx`, {
          method: 'POST',
          headers: { 'content-type': type, soapaction: '"urn:accord:interop:orders/getOrder"' },
          body: `<s:Envelope xmlns:s="${ns}"><s:Body><o:getOrder xmlns:o="urn:accord:interop:orders"><o:id>1</o:id></o:getOrder></s:Body></s:Envelope>`,
        });
        expect([res.status, res.body]).toEqual([200, expect.stringContaining(ns)]);
      }
    } finally {
      await stub.close();
    }
  });

  it('WSDL 2.0: the SOAP endpoints, not the HTTP one', async () => {
    const stub = await startStub({ contracts: [path.join(REPO, '__tests__', 'fixtures', 'wsdl', 'wsdl20', 'orders.wsdl')], log: () => {} });
    try {
      const wsdl = await call(`${stub.url}/orders/soap?wsdl`, { method: 'GET' });
      expect(ports(wsdl.body, 'endpoint')).toEqual(['OrdersSoap11Endpoint', 'OrdersSoap12Endpoint', 'AdminEndpoint']);
      expect(wsdl.body).toContain(`address="${stub.url}/orders/soap"`);
    } finally {
      await stub.close();
    }
  });
});
