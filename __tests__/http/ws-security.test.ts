import { X509Certificate } from 'node:crypto';
import { checkWsSecurity, NonceCache, wsSecurityFault, type WsSecurityCheck } from '../../src/http/ws-security-check';
import { addWsSecurity, tokensOfTags, unknownSecurityTags } from '../../src/http/ws-security';
import { parseXml } from '../../src/xml/parse';
import { redactPasswords } from '../../src/runner/soap-extras';
import { selfSignedCertificate } from '../../src/stub/tls';

/** Writing and checking WS-Security, one refusal reason at a time, and the faults they become. */
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
const envelope = (ns = SOAP11) => `<s:Envelope xmlns:s="${ns}"><s:Body><p:getPet xmlns:p="urn:pets"><p:id>7</p:id></p:getPet></s:Body></s:Envelope>`;
const pair = selfSignedCertificate('127.0.0.1');
const check: WsSecurityCheck = { users: new Map([['alice', 'pw']]), trusted: [new X509Certificate(pair.cert)], clockSkewSeconds: 60, tokenMaxAgeSeconds: 300 };
const verdict = (text: string, required: Parameters<typeof checkWsSecurity>[2], nonces = new NonceCache()) => checkWsSecurity(text, parseXml(text), required, check, nonces);

it('a signed request checks out; one whose signature covers the Timestamp but not the Body is refused', () => {
  const signed = addWsSecurity(envelope(), {
    timestampTtlSeconds: 60,
    signature: { certificatePem: pair.cert, privateKeyPem: pair.key },
    username: { name: 'alice', password: 'pw', digest: true },
  });
  expect(verdict(signed, ['Signature', 'Timestamp', 'PasswordDigest'])).toBeUndefined();
  // Move the Body's id to a copy of the Body hidden in the header (a signature wrapping attack): xml-crypto refuses the duplicate id, and without it the Body is not covered.
  const bodyId = /<s:Body [^>]*wsu:Id="([^"]+)"/.exec(signed)![1];
  const unsignedBody = signed.replace(`wsu:Id="${bodyId}"`, 'wsu:Id="other"');
  expect(verdict(unsignedBody, ['Signature'])?.code).toBe('FailedCheck');
});

it('names what is missing: the header, the token, the timestamp, the signature', () => {
  expect(verdict(envelope(), ['UsernameToken'])).toEqual({ code: 'InvalidSecurity', reason: 'no wsse:Security header in the request' });
  const stamped = addWsSecurity(envelope(), { timestampTtlSeconds: 60 });
  expect(verdict(stamped, ['UsernameToken'])?.reason).toBe('no wsse:UsernameToken in the wsse:Security header');
  expect(verdict(stamped, ['Signature'])?.reason).toBe('no ds:Signature in the wsse:Security header');
  const token = addWsSecurity(envelope(), { username: { name: 'alice', password: 'pw', digest: false } });
  expect(verdict(token, ['Timestamp'])?.reason).toBe('no wsu:Timestamp in the wsse:Security header');
  expect(verdict(token, ['UsernameToken'])).toBeUndefined();
});

it('an unknown user and a wrong password get the same answer; a wrong digest too', () => {
  const stranger = addWsSecurity(envelope(), { username: { name: 'mallory', password: 'pw', digest: true } });
  const wrong = addWsSecurity(envelope(), { username: { name: 'alice', password: 'pw', digest: true }, breakDigest: true });
  expect(verdict(stranger, ['PasswordDigest'])).toEqual(verdict(wrong, ['PasswordDigest']));
  expect(verdict(wrong, ['PasswordDigest'])?.code).toBe('FailedAuthentication');
});

it('the nonce cache refuses a replay and stays within its bound', () => {
  const cache = new NonceCache(3, 60_000);
  expect(cache.replayed('a', 0)).toBe(false);
  expect(cache.replayed('a', 1)).toBe(true);
  for (const k of ['b', 'c', 'd', 'e']) cache.replayed(k, 2);
  expect(cache.size).toBe(3);
  // Forgotten after its time.
  expect(cache.replayed('e', 70_000)).toBe(false);
});

it('the fault is of the request SOAP version: 1.1 faultcode wsse:…, 1.2 env:Sender with a wsse subcode', () => {
  const f11 = wsSecurityFault(false, { code: 'MessageExpired', reason: 'late & <old>' });
  expect(f11.status).toBe(500);
  expect(f11.body).toContain('<faultcode>wsse:MessageExpired</faultcode><faultstring>late &amp; &lt;old&gt;</faultstring>');
  const f12 = wsSecurityFault(true, { code: 'FailedAuthentication', reason: 'no' });
  expect(f12.status).toBe(400);
  expect(f12.headers['content-type']).toMatch(/^application\/soap\+xml/);
  expect(f12.body).toContain('<env:Value>env:Sender</env:Value><env:Subcode><env:Value>wsse:FailedAuthentication</env:Value></env:Subcode>');
  // A SOAP 1.2 request is written with a 1.2 mustUnderstand.
  expect(addWsSecurity(envelope(SOAP12), { timestampTtlSeconds: 5 })).toContain('s:mustUnderstand="true"');
});

it('tags name tokens; a misspelt one is found', () => {
  expect(tokensOfTags(['@ws-security:passworddigest', '@WS-Security:Timestamp', '@other'])).toEqual(['PasswordDigest', 'Timestamp']);
  expect(tokensOfTags(['@ws-security'])).toEqual(['UsernameToken']);
  expect(unknownSecurityTags(['@ws-security:Timestmp', '@ws-security:Signature'])).toEqual(['@ws-security:Timestmp']);
});

it('reports never show a password or a digest', () => {
  const text = addWsSecurity(envelope(), { username: { name: 'alice', password: 's3cret<&>', digest: false } });
  expect(text).toContain('s3cret&lt;&amp;&gt;');
  const shown = redactPasswords(text);
  expect(shown).not.toContain('s3cret');
  expect(shown).toMatch(/<wsse:Password Type="[^"]+#PasswordText">\*\*\*<\/wsse:Password>/);
  expect(parseXml(shown)).toBeDefined();
});
