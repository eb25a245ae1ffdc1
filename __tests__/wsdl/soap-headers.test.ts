import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { buildRequest } from '../../src/http/build-request';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { WSDL_FIXTURES } from './fixtures';
import { failures, host, runAll } from '../helpers/soap-host';

/** SOAP header parts are optional unless the binding marks them required (issue 13, class 1). */
const WSDL = path.join(WSDL_FIXTURES, 'soap-headers', 'login.wsdl');
const WSDL20 = path.join(WSDL_FIXTURES, 'soap-headers', 'login20.wsdl');

const envelope = (header: string) =>
  `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:h="urn:accord:headers"><soapenv:Header>${header}</soapenv:Header>` +
  '<soapenv:Body><h:Login><h:device>d1</h:device></h:Login></soapenv:Body></soapenv:Envelope>';
const credentials = '<h:Credentials><h:user>u</h:user><h:password>p</h:password></h:Credentials>';

/** The Login scenario as a Scenario Outline with these Examples. */
function withExamples(text: string, table: string): string {
  return `${text.replace('Scenario: Login', 'Scenario Outline: Login').trimEnd()}\n\n    Examples:\n${table}\n`;
}

describe('optional SOAP header parts', () => {
  const text = importWsdl(WSDL).text;

  test('the stub accepts a request without the optional headers, and refuses one without the required one', async () => {
    const stub = await startStub({ contracts: parseContract(text, 'login.spec'), port: 0, log: () => undefined });
    try {
      const post = (body: string) => fetch(`${stub.url}/login`, { method: 'POST', headers: { 'content-type': 'text/xml', soapaction: '"urn:Login"' }, body });
      expect((await post(envelope(credentials))).status).toBe(200);
      expect((await post(envelope(`${credentials}<h:Scope><h:scopeName>all</h:scopeName></h:Scope><h:ImpersonatedUser>bob</h:ImpersonatedUser>`))).status).toBe(200);
      const refused = await post(envelope('<h:Scope><h:scopeName>all</h:scopeName></h:Scope>'));
      expect(refused.status).toBe(400);
      expect(await refused.text()).toMatch(/Credentials/);
    } finally {
      await stub.close();
    }
  });

  test('a contract test sends the required header and leaves the optional ones out', () => {
    const [tc] = testCases(parseContract(text, 'login.spec'));
    const body = buildRequest(tc).body;
    expect(body).toMatch(/<tns:Credentials><tns:user>[^<]*<\/tns:user>/);
    expect(body).not.toMatch(/Scope|ImpersonatedUser/);
  });

  test('it sends an optional header when an Examples column names it or a node inside it', () => {
    const contract = parseContract(
      withExamples(text, '      | scopeName | ImpersonatedUser |\n      | admin     |                  |\n      |           | bob              |'),
      'login.spec',
    );
    const [scoped, impersonating] = testCases(contract).map((tc) => buildRequest(tc).body);
    expect(scoped).toMatch(/<tns:Scope><tns:scopeName>admin<\/tns:scopeName><\/tns:Scope>/);
    expect(scoped).not.toMatch(/ImpersonatedUser/);
    expect(impersonating).toMatch(/<tns:ImpersonatedUser>bob<\/tns:ImpersonatedUser>/);
    expect(impersonating).not.toMatch(/Scope/);
  });

  test('a response header part is optional too: a real service (the soap package) that sends none passes', async () => {
    const hosted = await host(WSDL, '/login', { LoginService: { LoginPort: { Login: () => ({ token: 't-1' }) } } });
    try {
      const results = await runAll(WSDL, hosted);
      expect(failures(results, hosted.url)).toEqual([]);
      expect(hosted.requests[0].body).not.toMatch(/Scope|ImpersonatedUser/);
    } finally {
      await hosted.close();
    }
  });

  test('WSDL 2.0: wsoap:header elements, optional unless required="true"', async () => {
    const contract = parseContract(importWsdl(WSDL20).text, 'login20.spec');
    const [tc] = testCases(contract);
    const body = buildRequest(tc).body;
    expect(body).toMatch(/<tns:Credentials>/);
    expect(body).not.toMatch(/Scope/);
    const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
    try {
      const post = (b: string) => fetch(`${stub.url}/login20`, { method: 'POST', headers: { 'content-type': 'application/soap+xml; action="urn:Login"' }, body: b });
      const soap12 = (s: string) => s.replace('http://schemas.xmlsoap.org/soap/envelope/', 'http://www.w3.org/2003/05/soap-envelope');
      expect((await post(soap12(envelope(credentials)))).status).toBe(200);
      expect((await post(soap12(envelope('')))).status).toBe(400);
    } finally {
      await stub.close();
    }
  });
});
