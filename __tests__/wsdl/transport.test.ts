import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { buildRequest } from '../../src/http/build-request';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { addressPath } from '../../src/wsdl/address';
import { WSDL_FIXTURES } from './fixtures';

/** Transport details of a WSDL (issue 13, class 8): address, URL imports, SOAP with Attachments, MTOM. */
const WSDL = path.join(WSDL_FIXTURES, 'transport', 'upload.wsdl');

describe('the port address', () => {
  test.each([
    ['http://example.com/2.0/', '/2.0/'],
    ['http://example.com/ws/Calc?wsdl', '/ws/Calc'],
    ['http://example.com/service.php?ver=2&wsdl', '/service.php?ver=2'],
    ['https://example.com/a b/x', undefined],
    ['http://example.com/q?name=(x)', '/q?name=%28x%29'],
    ['/relative/path/?k=v', '/relative/path/?k=v'],
    ['http://example.com', '/'],
  ])('%s → %s', (location, path) => expect(addressPath(location)).toBe(path));

  test('a trailing slash and a query string are kept in the request line, sent by tests and answered by the stub', async () => {
    const { text } = importWsdl(WSDL);
    expect(text).toContain('When POST /api/2.0/?client=accord\n');
    const contract = parseContract(text, 'upload.spec');
    const req = buildRequest(testCases(contract)[0]);
    expect([req.path, req.query]).toEqual(['/api/2.0/', [['client', 'accord']]]);
    const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
    try {
      const res = await fetch(`${stub.url}${req.path}?client=accord`, { method: 'POST', headers: req.headers, body: req.body });
      expect(res.status).toBe(200);
    } finally {
      await stub.close();
    }
  });
});

describe('messages the WSDL does not hold in its envelope', () => {
  const { text, summary } = importWsdl(WSDL);
  const contract = parseContract(text, 'upload.spec');
  const scenario = (name: string) => contract.scenarios.find((s) => s.name === name)!;

  test('a message from a wsdl:import given as a URL is an (anything) body with a note, not an empty Body', () => {
    expect(text).toMatch(/Scenario: ping\n[\s\S]*<soapenv:Body>\(anything\)<\/soapenv:Body>/);
    expect(summary.unresolved.map((u) => u.location)).toEqual(['http://example.com/remote.wsdl']);
    expect(summary.notes).toContain('message remote:PingIn (line 27): not defined (an import was not loaded); its body is (anything)');
    expect(summary.skipped).toEqual([]);
  });

  test('SOAP with Attachments: the SOAP part is the Body, the attachment part is left out with a note', () => {
    const body = buildRequest(testCases(contract).find((t) => t.name === scenario('uploadPhoto').name)!).body;
    expect(body).toMatch(/<soapenv:Body><tns:uploadPhoto><tns:title>[^<]*<\/tns:title><\/tns:uploadPhoto><\/soapenv:Body>/);
    expect(body).not.toMatch(/photo>/);
    expect(summary.notes).toContain('operation uploadPhoto input: part photo is a MIME attachment (image/jpeg, SOAP with Attachments); the contract holds the SOAP part only');
  });

  test('MTOM/XOP (xmime:expectedContentTypes) is noted', () => {
    expect(summary.notes.some((n) => n.startsWith('MTOM/XOP: '))).toBe(true);
    expect(importWsdl(path.join(WSDL_FIXTURES, 'soap-headers', 'login.wsdl')).summary.notes.some((n) => n.startsWith('MTOM'))).toBe(false);
  });
});
