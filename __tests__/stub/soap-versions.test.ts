import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { wsdlFixture } from '../wsdl/fixtures';

/**
 * SOAP 1.1 and 1.2 served at one address (PHP, ASMX, CXF and WCF publish both so): the envelope's
 * namespace chooses the scenario, whatever headers a client adds (zeep and SOAP::Lite send a
 * SOAPAction header with SOAP 1.2 too), and the answer is of the request's version. A SOAP 1.2
 * request without the optional `action` media-type parameter is dispatched by its body, as
 * spyne, PHP and JAX-WS do. A stub of the WSDL itself serves every SOAP port.
 */
const MULTI = wsdlFixture('services/multi.wsdl');
const ENV11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const ENV12 = 'http://www.w3.org/2003/05/soap-envelope';
const ping = (ns: string) => `<s:Envelope xmlns:s="${ns}" xmlns:t="urn:accord:multi"><s:Body><t:ping/></s:Body></s:Envelope>`;

async function call(stub: RunningStub, headers: Record<string, string>, body: string): Promise<{ status: number; type: string; body: string }> {
  const res = await fetch(`${stub.url}/multi/search.asmx`, { method: 'POST', headers, body });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
}

const SOAP12_WITH_SOAPACTION = { 'content-type': 'application/soap+xml; charset=utf-8; action="urn:accord:multi/ping"', soapaction: '"urn:accord:multi/ping"' };
const SOAP12_NO_ACTION = { 'content-type': 'application/soap+xml; charset=utf-8' };
const SOAP11 = { 'content-type': 'text/xml; charset=utf-8', soapaction: '"urn:accord:multi/ping"' };

describe.each([
  ['two imported contracts (1.1, then 1.2)', () => [parseContract(importWsdl(MULTI).text, 'm11.spec'), parseContract(importWsdl(MULTI, { soapVersion: '1.2' }).text, 'm12.spec')]],
  ['the WSDL itself', () => [MULTI]],
])('1.1 and 1.2 on one path, stubbed from %s', (_name, sources) => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ contracts: sources(), port: 0, log: () => undefined });
  });
  afterAll(() => stub.close());

  it('a SOAP 1.2 request that also carries SOAPAction gets a SOAP 1.2 answer', async () => {
    const r = await call(stub, SOAP12_WITH_SOAPACTION, ping(ENV12));
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/soap\+xml/);
    expect(r.body).toContain(ENV12);
    expect(r.body).not.toContain(ENV11);
  });

  it('a SOAP 1.2 request without the optional action parameter is dispatched by its body', async () => {
    const r = await call(stub, SOAP12_NO_ACTION, ping(ENV12));
    expect(r.status).toBe(200);
    expect(r.body).toContain(ENV12);
  });

  it('a SOAP 1.1 request gets a SOAP 1.1 answer as text/xml', async () => {
    const r = await call(stub, SOAP11, ping(ENV11));
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/xml/);
    expect(r.body).toContain(ENV11);
  });

  it('a SOAP 1.2 action that names another operation is still refused', async () => {
    const r = await call(stub, { 'content-type': 'application/soap+xml; charset=utf-8; action="urn:accord:multi/search"' }, ping(ENV12));
    expect(r.status).toBe(400);
  });
});

it('a 1.2 envelope where only 1.1 is served is refused, and the report says which version was expected', async () => {
  const stub = await startStub({ contracts: [parseContract(importWsdl(MULTI).text, 'm11.spec')], port: 0, log: () => undefined });
  try {
    const r = await call(stub, SOAP12_WITH_SOAPACTION, ping(ENV12));
    expect(r.status).toBe(400);
    expect(r.body).toContain(`REQUEST.BODY Envelope: expected a SOAP 1.1 envelope (${ENV11}), found a SOAP 1.2 envelope (${ENV12})`);
  } finally {
    await stub.close();
  }
});

it('a stub of the WSDL serves the SOAP 1.2-only port too, and lists both versions of an operation', async () => {
  const stub = await startStub({ contracts: [MULTI], port: 0, log: () => undefined });
  try {
    const names = stub.served.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['Search ping', 'Search ping (SOAP 1.2)', 'Admin ping']));
    const res = await fetch(`${stub.url}/multi/Admin.svc`, {
      method: 'POST',
      headers: { 'content-type': 'application/soap+xml; charset=utf-8; action="urn:accord:multi/Admin/ping"' },
      body: `<s:Envelope xmlns:s="${ENV12}" xmlns:a="urn:accord:multi"><s:Body><a:ping/></s:Body></s:Envelope>`,
    });
    expect([res.status, (await res.text()).slice(0, 200)]).toEqual([200, expect.stringContaining(ENV12)]);
  } finally {
    await stub.close();
  }
});

it('a soap-fault expectation for a SOAP 1.2 request, where 1.1 and 1.2 share the path, answers the 1.2 fault', async () => {
  // PHP's SoapServer publishes both versions at one address (the interop suite's WSDL).
  const stub = await startStub({ contracts: [path.join(__dirname, '..', 'interop', 'stacks', 'php_orders.wsdl')], port: 0, log: () => undefined });
  try {
    const body = `<s:Envelope xmlns:s="${ENV12}" xmlns:o="urn:accord:interop:orders"><s:Body><o:getOrder><o:id>404</o:id></o:getOrder></s:Body></s:Envelope>`;
    const e = await stub.expect({ request: { method: 'POST', path: '/orders', body }, fault: 'soap-fault', faultName: 'NotFound' });
    expect(e.scenario.name).toBe('getOrder (SOAP 1.2)');
    const res = await fetch(`${stub.url}/orders`, { method: 'POST', headers: { 'content-type': 'application/soap+xml; action="urn:accord:interop:orders#getOrder"' }, body });
    const text = await res.text();
    expect([res.status, res.headers.get('content-type')]).toEqual([500, expect.stringMatching(/^application\/soap\+xml/) as string]);
    expect(text).toContain(ENV12);
    expect(text).toMatch(/<soapenv:Value>soapenv:(Sender|Receiver)<\/soapenv:Value>/);
  } finally {
    await stub.close();
  }
});
