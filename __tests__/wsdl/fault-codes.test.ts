import { parseContract } from '../../src/contract/load';
import { ParsedBody } from '../../src/http/body';
import { matchBody } from '../../src/http/match-body';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import path from 'node:path';

/**
 * SOAP fault codes: a stub of an imported contract answers SOAP's own codes (soapenv:Client or
 * soapenv:Server; SOAP 1.2 Sender or Receiver, with xml:lang on Reason/Text), never a made-up
 * name; matching judges a provider's code by SOAP's rules, whatever its prefix.
 */
const PETS = path.join(__dirname, '..', 'fixtures', 'wsdl', 'faults', 'pets.wsdl');
const ENV11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const ENV12 = 'http://www.w3.org/2003/05/soap-envelope';

function faultScenario(version: '1.1' | '1.2') {
  const c = parseContract(importWsdl(PETS, { soapVersion: version }).text, `pets${version}.spec`);
  return { contract: c, scenario: c.scenarios.find((s) => s.name === 'getPet fault notFound')! };
}

const detail = '<d:petNotFound xmlns:d="http://example.com/faults"><d:id>4</d:id><d:reason>deleted</d:reason></d:petNotFound>';
const fault11 = (code: string, decl = '') =>
  `<S:Envelope xmlns:S="${ENV11}"${decl}><S:Body><S:Fault><faultcode>${code}</faultcode><faultstring>no</faultstring><detail>${detail}</detail></S:Fault></S:Body></S:Envelope>`;
const fault12 = (code: string, lang = ' xml:lang="en"') =>
  `<env:Envelope xmlns:env="${ENV12}"><env:Body><env:Fault><env:Code><env:Value>${code}</env:Value></env:Code><env:Reason><env:Text${lang}>no</env:Text></env:Reason><env:Detail>${detail}</env:Detail></env:Fault></env:Body></env:Envelope>`;

function mismatches(version: '1.1' | '1.2', body: string): string[] {
  const { scenario } = faultScenario(version);
  return matchBody(scenario.response.body, new ParsedBody(body), scenario.scope, 'RESPONSE.BODY').map((m) => `${m.path}: expected ${m.expected}, found ${m.actual}`);
}

describe('SOAP 1.1 faultcode', () => {
  test.each([
    ['S:Server (JAX-WS)', fault11('S:Server')],
    ['SOAP-ENV:Client (PHP)', fault11('SOAP-ENV:Client', ` xmlns:SOAP-ENV="${ENV11}"`)],
    ['soap11env:Client.NotFound (spyne, a dotted extension)', fault11('soap11env:Client.NotFound', ` xmlns:soap11env="${ENV11}"`)],
    ['a code of the service in its own namespace (R1004)', fault11('t:NotFound', ' xmlns:t="urn:pets"')],
  ])('accepted: %s', (_name, body) => {
    expect(mismatches('1.1', body)).toEqual([]);
  });

  test.each([
    ['an unqualified name', fault11('echo71'), 'found "echo71" (no prefix: not in any namespace)'],
    ['an undeclared prefix', fault11('x:Server'), 'found "x:Server" (the prefix "x" is declared nowhere)'],
    ['a name SOAP does not define in its namespace', fault11('S:Oops'), 'found "S:Oops"'],
  ])('refused: %s', (_name, body, found) => {
    const m = mismatches('1.1', body);
    expect(m).toHaveLength(1);
    expect(m[0]).toMatch(/^RESPONSE\.BODY Envelope\/Body\/Fault\/faultcode: expected a qualified fault code \(WS-I Basic Profile R1004\)/);
    expect(m[0]).toContain(found);
  });
});

describe('SOAP 1.2 Code/Value and Reason/Text', () => {
  test.each(['env:Sender', 'env:Receiver', 'env:MustUnderstand', 'env:DataEncodingUnknown'])('accepted: %s', (code) => {
    expect(mismatches('1.2', fault12(code))).toEqual([]);
  });

  test('refused: a code outside the five, an unqualified one; a Text without xml:lang is accepted', () => {
    expect(mismatches('1.2', fault12('lima18'))[0]).toMatch(/Code\/Value: expected a SOAP 1\.2 fault code \(part 1, 5\.4\.6\).*found "lima18" \(no prefix/);
    expect(mismatches('1.2', fault12('env:Server'))[0]).toMatch(/Code\/Value: expected a SOAP 1\.2 fault code.*found "env:Server"$/);
    // PHP's SoapServer leaves xml:lang out, against SOAP 1.2 (part 1, 5.4.2.1); every client reads it: accepted.
    expect(mismatches('1.2', fault12('env:Sender', ''))).toEqual([]);
  });
});

describe('a stub answers SOAP fault codes', () => {
  test.each([
    ['1.1', /<faultcode>soapenv:(Client|Server)<\/faultcode>/, ENV11],
    ['1.2', /<soapenv:Value>soapenv:(Sender|Receiver)<\/soapenv:Value>.*<soapenv:Text xml:lang="[a-zA-Z-]+">/s, ENV12],
  ] as const)('SOAP %s', async (version, code, ns) => {
    const { contract } = faultScenario(version);
    const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
    try {
      const headers: Record<string, string> =
        version === '1.1' ? { 'content-type': 'text/xml', soapaction: '"urn:getPet"' } : { 'content-type': 'application/soap+xml; action="urn:getPet"' };
      const res = await fetch(`${stub.url}/_accord/expectations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          request: {
            method: 'POST',
            path: version === '1.1' ? '/pets' : '/pets12',
            headers,
            body: `<s:Envelope xmlns:s="${ns}" xmlns:t="http://example.com/faults"><s:Body><t:getPet><t:id>4</t:id></t:getPet></s:Body></s:Envelope>`,
          },
          fault: 'soap-fault',
          faultName: 'notFound',
        }),
      });
      expect([res.status, await res.text()]).toEqual([201, expect.anything()]);
      for (let id = 0; id < 8; id++) {
        const r = await fetch(`${stub.url}${version === '1.1' ? '/pets' : '/pets12'}`, {
          method: 'POST',
          headers,
          body: `<s:Envelope xmlns:s="${ns}" xmlns:t="http://example.com/faults"><s:Body><t:getPet><t:id>4</t:id></t:getPet></s:Body></s:Envelope>`,
        });
        const text = await r.text();
        expect([r.status, text]).toEqual([500, expect.stringMatching(code)]);
        expect(mismatches(version, text)).toEqual([]);
      }
    } finally {
      await stub.close();
    }
  });
});
