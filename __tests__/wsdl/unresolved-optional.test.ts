import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { buildRequest } from '../../src/http/build-request';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { WSDL_FIXTURES } from './fixtures';

/**
 * Issue 38 point 2: a node whose declaration sits in an import that could not be read is
 * `(anything)` (`--allow-unresolved`). Made up, its content is text where the real schema wants
 * structure (`<ds:Signature>bravo5</ds:Signature>`); left out, an optional one is valid. So generated
 * messages (a contract test's request, a stub's answer) leave an optional unknown node out, as they
 * leave out an optional wildcard, unless an Examples column gives it; a required one is still made,
 * and both are still reported.
 */
const WSDL = path.join(WSDL_FIXTURES, 'unresolved', 'signed.wsdl');
const { text, summary } = importWsdl(WSDL);

const outline = (table: string) => `${text.replace('Scenario: Submit', 'Scenario Outline: Submit').trimEnd()}\n\n    Examples:\n${table}\n`;
const request =
  '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:t="urn:accord:signed" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><s:Body>' +
  '<t:Submit><t:document>d</t:document>SIGNATURE<ds:KeyInfo><ds:KeyName>k</ds:KeyName></ds:KeyInfo></t:Submit></s:Body></s:Envelope>';

test('both unknown nodes are reported, the optional one as optional', () => {
  expect(summary.holes.map((h) => h.node)).toEqual(['ds:Signature', 'ds:KeyInfo']);
  expect(text).toContain('<ds:Signature specmatic_occurs="optional">(anything)</ds:Signature>');
  expect(text).toContain('<ds:KeyInfo>(anything)</ds:KeyInfo>');
});

test('a contract test leaves the optional unknown node out and still sends the required one', () => {
  for (let seed = 0; seed < 5; seed++) {
    const [tc] = testCases(parseContract(text, 'signed.spec'));
    const body = buildRequest(tc, seed).body!;
    expect(body).not.toMatch(/Signature/);
    expect(body).toMatch(/<ds:KeyInfo>[^<]+<\/ds:KeyInfo>/);
  }
});

test('an Examples column that gives the optional unknown node puts it in', () => {
  const [tc] = testCases(parseContract(outline('      | Signature |\n      | signed-by-ann |'), 'signed.spec'));
  expect(buildRequest(tc).body).toMatch(/<ds:Signature>signed-by-ann<\/ds:Signature>/);
});

test("the stub's answer leaves it out, and the stub takes a request with or without it", async () => {
  const stub = await startStub({ contracts: parseContract(text, 'signed.spec'), port: 0, log: () => undefined });
  try {
    for (const signature of ['', '<ds:Signature><ds:SignedInfo/></ds:Signature>']) {
      const res = await fetch(`${stub.url}/signed`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml', soapaction: '"urn:Submit"' },
        body: request.replace('SIGNATURE', signature),
      });
      const answer = await res.text();
      expect([res.status, res.status === 200 ? '' : answer]).toEqual([200, '']);
      expect(answer).toMatch(/<tns:receipt>/);
      expect(answer).not.toMatch(/Signature/);
    }
    // The required unknown node is still required.
    const without = await fetch(`${stub.url}/signed`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml', soapaction: '"urn:Submit"' },
      body: request.replace('SIGNATURE', '').replace(/<ds:KeyInfo>.*<\/ds:KeyInfo>/, ''),
    });
    expect(without.status).toBe(400);
  } finally {
    await stub.close();
  }
});
