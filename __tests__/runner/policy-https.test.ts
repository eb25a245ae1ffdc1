import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { createDispatcher } from '../../src/http/client';
import { runCase } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { selfSignedCertificate } from '../../src/stub/tls';
import { stubWsSecurity } from '../../src/stub/ws-security';
import { importWsdl } from '../../src/wsdl/import';
import { startServer, type Running } from '../helpers/servers';

/**
 * `@https`, what the importer writes for a WS-SecurityPolicy sp:TransportBinding: the runner
 * sends such a scenario only to an https:// base URL; over plain HTTP the case fails saying why
 * and sends nothing (a provider with that policy would refuse it, or never listen there).
 */
const CONTRACT = importWsdl(path.join(__dirname, '..', 'fixtures', 'wsdl', 'policy', 'cxf-username-transport.wsdl')).text.replace(/@ws-security:\S+/g, '');
const OK =
  '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><greetMeResponse xmlns="http://example.com/greeter"><greeting>hi</greeting></greetMeResponse></soapenv:Body></soapenv:Envelope>';

let plain: Running;
const plainCalls: string[] = [];
let secure: Server;
let secureUrl: string;
const pair = selfSignedCertificate('127.0.0.1');
let secureCalls = 0;

beforeAll(async () => {
  plain = await startServer((req) => {
    plainCalls.push(req.url);
    return { status: 200, body: OK };
  });
  secure = createHttpsServer({ cert: pair.cert, key: pair.key }, (req, res) => {
    secureCalls++;
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/xml' }).end(OK));
  });
  await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
  secureUrl = `https://127.0.0.1:${(secure.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await plain?.close();
  await new Promise((resolve) => secure?.close(resolve));
});

test('the imported contract carries @https, and over plain HTTP the case fails naming it, sending nothing', async () => {
  expect(CONTRACT).toMatch(/^@https\b/m);
  const [tc] = testCases(parseContract(CONTRACT, 'greeter.spec'));
  const r = await runCase(tc, { baseUrl: plain.url });
  expect(r.passed).toBe(false);
  expect(r.error).toMatch(/the contract asks for HTTPS \(@https, the WSDL's sp:TransportBinding\) and the request would go to http:\/\/127\.0\.0\.1:\d+\/greeter/);
  expect(plainCalls).toEqual([]);
});

test('over HTTPS the same case is sent and passes', async () => {
  const [tc] = testCases(parseContract(CONTRACT, 'greeter.spec'));
  const r = await runCase(tc, { baseUrl: secureUrl, dispatcher: createDispatcher({ ca: pair.cert }) });
  expect(r.error).toBeUndefined();
  expect(r.passed).toBe(true);
  expect(secureCalls).toBe(1);
});

test('the tests send what the policy asks and a TLS stub of the same WSDL checks it: digest and Timestamp pass, a wrong password fails', async () => {
  const wsdl = path.join(__dirname, '..', 'fixtures', 'wsdl', 'policy', 'cxf-username-transport.wsdl');
  const env = { ...process.env, ACCORD_TEST_ALICE_PASSWORD: 'wonder land' };
  const stub = await startStub({
    contracts: [wsdl],
    log: () => {},
    tls: true,
    wsSecurity: stubWsSecurity({ users: { alice: { env: 'ACCORD_TEST_ALICE_PASSWORD' } } }, { env }),
  });
  try {
    const [tc] = testCases(parseContract(importWsdl(wsdl).text, 'greeter.spec'));
    const dispatcher = createDispatcher({ ca: stub.certificate });
    const ws = (password: string) => ({
      addressing: false,
      mtom: false,
      wsSecurity: { username: 'alice', password, timestampTtlSeconds: 300, rules: { use: [], contracts: new Map() } },
    });
    const good = await runCase(tc, { baseUrl: stub.url, dispatcher, ws: ws('wonder land') });
    expect(good.error).toBeUndefined();
    expect(good.passed).toBe(true);
    expect(good.request?.body).toContain('#PasswordDigest');
    expect(good.request?.body).toContain('Timestamp');
    const bad = await runCase(tc, { baseUrl: stub.url, dispatcher, ws: ws('guess') });
    expect(bad.passed).toBe(false);
    expect(stub.calls().map((c) => c.status)).toEqual([200, 500]);
    // Without settings the case fails saying what to set, sending nothing unsecured.
    const unset = await runCase(tc, { baseUrl: stub.url, dispatcher });
    expect(unset.error).toContain('the contract asks for WS-Security');
    expect(stub.calls()).toHaveLength(2);
  } finally {
    await stub.close();
  }
});
