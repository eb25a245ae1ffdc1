import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';

/**
 * A stub of `.spec` files answers `?wsdl` with the WSDL exported from its SOAP scenarios, its
 * addresses the stub's (the Host the client used); a stub with no SOAP scenario still refuses it,
 * saying why. It answered every `.spec` stub's `?wsdl` with a 405 and advice.
 */
const QUOTES = path.join(__dirname, '..', 'fixtures', 'export', 'quotes.spec');
let stub: RunningStub | undefined;
let dir: string | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("GET /quotes?wsdl of a .spec stub: the exported WSDL, its address the stub's; ?WSDL and another path too", async () => {
  stub = await startStub({ contracts: [QUOTES], port: 0, log: () => undefined });
  const r = await fetch(`${stub.url}/quotes?wsdl`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('text/xml; charset=utf-8');
  const text = await r.text();
  expect(text).toContain('<wsdl:operation name="getQuote">');
  expect(text).toContain(`<soap:address location="${stub.url}/quotes"/>`);
  // The address is the one the client used (its Host), as for a stub of a WSDL.
  const port = new URL(stub.url).port;
  const viaHost = await new Promise<string>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/quotes?WSDL', headers: { host: `localhost:${port}` } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
  expect(viaHost).toContain(`<soap:address location="http://localhost:${port}/quotes"/>`);
  // A SOAP request is answered as before.
  const answer = await fetch(`${stub.url}/quotes`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml', soapaction: '"urn:accord:quotes:listSymbols"' },
    body: '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><q:listSymbols xmlns:q="urn:accord:quotes"/></soapenv:Body></soapenv:Envelope>',
  });
  expect(answer.status).toBe(200);
});

test('a stub with no SOAP scenario: ?wsdl is refused as before, with the advice', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-spec-wsdl-'));
  const file = path.join(dir, 'pets.spec');
  writeFileSync(file, 'Feature: Pets\n  Scenario: pets\n    When POST /pets\n    And request-body {"name": "(string)"}\n    Then status 200\n');
  stub = await startStub({ contracts: [file], port: 0, log: () => undefined });
  const r = await fetch(`${stub.url}/pets?wsdl`);
  expect(r.status).toBe(405);
  expect(await r.text()).toContain('serves ?wsdl');
});
