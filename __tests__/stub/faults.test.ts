import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseXml } from '../../src/xml/parse';
import { startStub, type RunningStub } from '../../src/stub';
import { PET_SPEC, SOAP11, petRequest, post } from './helpers';

/** Delays and faults, per expectation and for the whole stub, seen by real clients on 127.0.0.1. */
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
const dir = mkdtempSync(path.join(tmpdir(), 'accord-faults-'));
// A contract that declares its own SOAP Fault for the operation (as the WSDL importer writes for wsdl:fault).
const WITH_FAULT = path.join(dir, 'with_fault.spec');
writeFileSync(
  WITH_FAULT,
  `Feature: Orders

  Scenario: Place an order
    When POST /orders
    And request-body <s:Envelope xmlns:s="${SOAP11}"><s:Body><o:placeOrder xmlns:o="urn:o"><o:qty>(number)</o:qty></o:placeOrder></s:Body></s:Envelope>
    Then status 200
    And response-body <s:Envelope xmlns:s="${SOAP11}"><s:Body><o:placeOrderResponse xmlns:o="urn:o"><o:id>(number)</o:id></o:placeOrderResponse></s:Body></s:Envelope>

  Scenario: Place an order fails with OutOfStock
    When POST /orders
    And request-body <s:Envelope xmlns:s="${SOAP11}"><s:Body><o:placeOrder xmlns:o="urn:o"><o:qty>(number)</o:qty></o:placeOrder></s:Body></s:Envelope>
    Then status 500
    And response-body <s:Envelope xmlns:s="${SOAP11}"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>(string)</faultstring><detail><o:OutOfStock xmlns:o="urn:o"><o:left>(number)</o:left></o:OutOfStock></detail></s:Fault></s:Body></s:Envelope>

  Scenario: placeOrder fault Blocked
    When POST /orders
    And request-body <s:Envelope xmlns:s="${SOAP11}"><s:Body><o:placeOrder xmlns:o="urn:o"><o:qty>(number)</o:qty></o:placeOrder></s:Body></s:Envelope>
    Then status 500
    And response-body <s:Envelope xmlns:s="${SOAP11}"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>(string)</faultstring><detail><o:Blocked xmlns:o="urn:o"><o:until>(date)</o:until></o:Blocked></detail></s:Fault></s:Body></s:Envelope>
`,
);
const SOAP12_SPEC = path.join(dir, 'soap12.spec');
writeFileSync(
  SOAP12_SPEC,
  `Feature: Ping 1.2

  Scenario: Ping
    When POST /ping
    And request-body <e:Envelope xmlns:e="${SOAP12}"><e:Body><p:ping xmlns:p="urn:p"/></e:Body></e:Envelope>
    Then status 200
    And response-body <e:Envelope xmlns:e="${SOAP12}"><e:Body><p:pong xmlns:p="urn:p"/></e:Body></e:Envelope>
`,
);
const order = (qty: string) => `<s:Envelope xmlns:s="${SOAP11}"><s:Body><o:placeOrder xmlns:o="urn:o"><o:qty>${qty}</o:qty></o:placeOrder></s:Body></s:Envelope>`;

let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub({ contracts: [PET_SPEC, WITH_FAULT, SOAP12_SPEC], log: () => {} });
});
afterAll(async () => {
  await stub.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => stub.reset());

/** What a raw TCP client gets for one request: the bytes, and whether the connection was reset. */
function raw(url: string, p: string, body: string): Promise<{ bytes: string; reset: boolean }> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
    let bytes = '';
    socket.on('data', (d) => (bytes += d));
    socket.on('error', (e: NodeJS.ErrnoException) => resolve({ bytes, reset: e.code === 'ECONNRESET' }));
    socket.on('end', () => {
      resolve({ bytes, reset: false });
      socket.destroy();
    });
  });
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const r = await f();
  return [r, performance.now() - started];
}

describe('delays', () => {
  it('waits a fixed delay, or a random one within bounds, per expectation', async () => {
    stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('41') }, delayMs: 250 });
    stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('42') }, delayMs: { min: 100, max: 200 } });
    const [fixed, fixedMs] = await timed(() => post(`${stub.url}/ws`, petRequest('41')));
    expect(fixed.status).toBe(200);
    expect(fixedMs).toBeGreaterThanOrEqual(245);
    const [, randomMs] = await timed(() => post(`${stub.url}/ws`, petRequest('42')));
    expect(randomMs).toBeGreaterThanOrEqual(95);
    const [, plainMs] = await timed(() => post(`${stub.url}/ws`, petRequest('43')));
    expect(plainMs).toBeLessThan(95);
    expect(() => stub.expect({ request: { method: 'POST', path: '/ws' }, delayMs: { min: 5, max: 1 } })).toThrow(/"delayMs" that is not a number of milliseconds/);
  });

  it('waits before every answer with the stub-wide delayMs', async () => {
    const slow = await startStub({ contracts: [PET_SPEC], delayMs: 200, log: () => {} });
    try {
      const [res, ms] = await timed(() => post(`${slow.url}/ws`, petRequest('1')));
      expect(res.status).toBe(200);
      expect(ms).toBeGreaterThanOrEqual(195);
    } finally {
      await slow.close();
    }
  });
});

describe('faults', () => {
  it('connection-reset resets the connection without an answer', async () => {
    stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('50') }, fault: 'connection-reset' });
    expect(await raw(stub.url, '/ws', petRequest('50'))).toEqual({ bytes: '', reset: true });
    expect(stub.calls()[0]).toEqual(expect.objectContaining({ answeredBy: 'expectation', fault: 'connection-reset', status: undefined }));
  });

  it('empty-response closes the connection without a byte', async () => {
    stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('51') }, fault: 'empty-response' });
    expect(await raw(stub.url, '/ws', petRequest('51'))).toEqual({ bytes: '', reset: false });
  });

  it("malformed-body sends the contract's status and headers with a body that does not parse", async () => {
    stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('52') }, fault: 'malformed-body' });
    const res = await post(`${stub.url}/ws`, petRequest('52'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(res.body).toMatch(/^<\?xml version="1\.0" encoding="utf-8"\?><soapenv:Envelope/);
    expect(() => parseXml(res.body)).toThrow();
  });

  it("soap-fault answers with the contract's own fault scenario for the operation", async () => {
    stub.expect({ request: { method: 'POST', path: '/orders', body: order('99') }, fault: 'soap-fault' });
    const res = await post(`${stub.url}/orders`, order('99'));
    expect(res.status).toBe(500);
    expect(res.body).toMatch(/<s:Fault><faultcode>s:Client<\/faultcode><faultstring>.*<\/faultstring><detail><o:OutOfStock xmlns:o="urn:o"><o:left>\d+<\/o:left>/);
    // Without the expectation the same request is answered with the success scenario.
    expect((await post(`${stub.url}/orders`, order('98'))).status).toBe(200);
  });

  it('soap-fault answers a standard Fault envelope of the SOAP version when the contract declares none', async () => {
    stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('53') }, fault: 'soap-fault' });
    const v11 = await post(`${stub.url}/ws`, petRequest('53'));
    expect(v11.status).toBe(500);
    expect(v11.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(v11.body).toContain(`<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode>`);
    const ping = `<e:Envelope xmlns:e="${SOAP12}"><e:Body><p:ping xmlns:p="urn:p"/></e:Body></e:Envelope>`;
    stub.expect({ request: { method: 'POST', path: '/ping', body: ping }, fault: 'soap-fault' });
    const v12 = await post(`${stub.url}/ping`, ping, { 'content-type': 'application/soap+xml' });
    expect(v12.status).toBe(500);
    expect(v12.headers['content-type']).toBe('application/soap+xml; charset=utf-8');
    expect(v12.body).toContain('<env:Code><env:Value>env:Receiver</env:Value></env:Code>');
  });

  it('soap-fault with a faultName answers with that fault of several: by scenario name or by the wsdl:fault name', async () => {
    stub.expect({ request: { method: 'POST', path: '/orders', body: order('7') }, fault: 'soap-fault', faultName: 'Blocked' });
    stub.expect({ request: { method: 'POST', path: '/orders', body: order('8') }, fault: 'soap-fault', faultName: 'Place an order fails with OutOfStock' });
    const blocked = await post(`${stub.url}/orders`, order('7'));
    expect([blocked.status, blocked.body]).toEqual([500, expect.stringMatching(/<detail><o:Blocked xmlns:o="urn:o"><o:until>\d{4}-\d\d-\d\d<\/o:until>/)]);
    expect((await post(`${stub.url}/orders`, order('8'))).body).toContain('<o:OutOfStock');
    // The same through the HTTP form.
    const set = await post(
      `${stub.url}/_accord/expectations`,
      JSON.stringify({ request: { method: 'POST', path: '/orders', body: order('9') }, fault: 'soap-fault', faultName: 'placeOrder fault Blocked' }),
      {
        'content-type': 'application/json',
      },
    );
    expect(set.status).toBe(201);
    expect((await post(`${stub.url}/orders`, order('9'))).body).toContain('<o:Blocked');
  });

  it("refuses a faultName that names none of the request's faults, listing them, and one without soap-fault", async () => {
    const request = { method: 'POST', path: '/orders', body: order('1') };
    expect(() => stub.expect({ request, fault: 'soap-fault', faultName: 'Flooded' })).toThrow(
      'expectation refused: "faultName" "Flooded" names no SOAP fault of this request; its fault scenarios: "Place an order fails with OutOfStock", "placeOrder fault Blocked"',
    );
    expect(() => stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('5') }, fault: 'soap-fault', faultName: 'Blocked' })).toThrow(
      /names no SOAP fault of this request; the contract declares no fault scenario for it/,
    );
    expect(() => stub.expect({ request, fault: 'connection-reset', faultName: 'Blocked' })).toThrow(/"faultName" without "fault": "soap-fault"/);
    const refused = await post(`${stub.url}/_accord/expectations`, JSON.stringify({ request, fault: 'soap-fault', faultName: 'Flooded' }), { 'content-type': 'application/json' });
    expect([refused.status, refused.body]).toEqual([400, expect.stringContaining('its fault scenarios: "Place an order fails with OutOfStock", "placeOrder fault Blocked"')]);
  });

  it('refuses an unknown fault kind', () => {
    expect(() => stub.expect({ request: { method: 'POST', path: '/ws' }, fault: 'explode' as never })).toThrow(
      /unknown "fault" \(one of connection-reset, empty-response, malformed-body, soap-fault\)/,
    );
  });
});
