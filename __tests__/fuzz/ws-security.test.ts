import path from 'node:path';
import { addWsSecurity } from '../../src/http/ws-security';
import { startStub, type RunningStub } from '../../src/stub';
import { selfSignedCertificate } from '../../src/stub/tls';
import { stubWsSecurity } from '../../src/stub/ws-security';
import { REPO, petRequest } from '../stub/helpers';
import { damagedRequest, fuzzCases, fuzzExchanges, httpText, sendInCuts } from './oracle';

/**
 * A `--ws-security` stub fed damaged signed and UsernameToken requests over raw sockets: the
 * signature's parts (References, Transforms, algorithms, ids, base64) and the nonce cut, repeated
 * and replaced. It never answers a 500 that is not a SOAP Fault with a WS-Security (or
 * MustUnderstand) code, never hangs, never logs an internal error, says nothing with a stack trace
 * or a raw control character, and answers each within its time-out (bounded work per request).
 */
const CASES = fuzzCases(300);
const HANG_MS = 10_000;
const PETSTORE = path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl');
const signer = selfSignedCertificate('127.0.0.1');

let stub: RunningStub;
const logged: string[] = [];
beforeAll(async () => {
  stub = await startStub({
    contracts: [PETSTORE],
    log: (l) => logged.push(l),
    maxBodyBytes: 256 * 1024,
    allowedHosts: ['stub'],
    wsSecurity: stubWsSecurity({
      users: { alice: 'wonder land' },
      trustedCertificatePems: [signer.cert],
      contracts: { 'petstore.wsdl': ['Signature', 'Timestamp'] },
    }),
  });
});
afterAll(() => stub.close());

const XML = ['Content-Type: text/xml; charset=utf-8', 'SOAPAction: "http://example.com/petstore/getPet"'];
// Made once: signing costs more than checking, and a damaged copy of a good request is the point.
const SIGNED = addWsSecurity(petRequest('7'), { timestampTtlSeconds: 3600, signature: { certificatePem: signer.cert, privateKeyPem: signer.key } });
const TOKEN = addWsSecurity(petRequest('7'), { username: { name: 'alice', password: 'wonder land', digest: true }, timestampTtlSeconds: 3600 });
const reference = /<ds:Reference [\s\S]*?<\/ds:Reference>/.exec(SIGNED)![0];
const TEMPLATES: Array<() => [string, string, string[], string]> = [
  () => ['POST', '/ws', XML, SIGNED],
  () => ['POST', '/ws', XML, TOKEN],
  () => ['POST', '/ws', XML, SIGNED.replace(reference, reference.repeat(40))],
  () => ['POST', '/ws', XML, SIGNED.replace('</ds:SignedInfo>', `${reference.replace(/URI="[^"]*"/, 'URI="#nothing"')}</ds:SignedInfo>`)],
  () => ['POST', '/ws', XML, SIGNED.replace(/<ds:Transform [^>]*\/>/, (t) => t.repeat(50))],
  () => ['POST', '/ws', XML, SIGNED.replace('</wsse:Security>', '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/></wsse:Security>')],
];
const PALETTE = [
  '<',
  '>',
  '"',
  '=',
  '#',
  '/',
  '+',
  ' ',
  '\n',
  '\u0000',
  '\u001b[2J',
  'A'.repeat(3000),
  reference,
  '<ds:Transform Algorithm="http://www.w3.org/TR/1999/REC-xpath-19991116"><ds:XPath>1</ds:XPath></ds:Transform>',
  'wsu:Id="Body-1" ',
  'URI="" ',
  'soapenv:mustUnderstand="1" ',
  '<wsu:Timestamp><wsu:Created>1970-01-01T00:00:00Z</wsu:Created></wsu:Timestamp>',
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  '<!--x-->',
  '<![CDATA[x]]>',
  '&#0;',
  '&amp;',
];

function exchange(bytes: Buffer, cuts: number[]): Promise<string> {
  return sendInCuts(Number(new URL(stub.url).port), bytes, cuts, { hangMs: HANG_MS, endAfterWrite: true });
}

test(`${CASES} damaged WS-Security requests: a 500 only as a WS-Security Fault, never a hang, no internal error`, async () => {
  const statuses = await fuzzExchanges(
    CASES,
    (r) => damagedRequest(r, { templates: TEMPLATES, methods: ['POST'], palette: PALETTE, targetParts: ['/'], targetOdds: 0, wholeOdds: 0.05, head: ['Host: stub'] }),
    exchange,
    undefined,
    /\r\n\r\n(?:<\?xml version="1\.0" encoding="utf-8"\?>)?<soap:Envelope [^>]*><soap:Body><soap:Fault><faultcode>(wsse:[A-Za-z]+|soap:MustUnderstand)<\/faultcode>/,
  );
  expect(logged.filter((l) => /internal error/.test(l))).toEqual([]);
  // Both sides: requests let through (the undamaged signed ones) and refused ones.
  expect(statuses.get('200') ?? 0).toBeGreaterThan(0);
  expect(statuses.get('500') ?? 0).toBeGreaterThan(CASES / 10);
  // Still answering, a good signed request too (a fresh one: the nonce-free signature may be sent again).
  expect(await exchange(Buffer.from(httpText('POST', '/ws', ['Host: stub'], XML, SIGNED, false)), [])).toMatch(/^HTTP\/1\.1 200/);
});
