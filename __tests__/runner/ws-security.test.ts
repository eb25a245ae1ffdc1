import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { parseContract, testCases } from '../../src/contract/load';
import { resolveRunnerConfig } from '../../src/runner/config';
import { runCase } from '../../src/runner/run-case';
import { selfSignedCertificate } from '../../src/stub/tls';
import { childEnv } from '../helpers/child-env';
import { runJestApp } from '../helpers/jest-app';
import { startServer, type Received, type Reply, type Running } from '../helpers/servers';

/**
 * The runner writing WS-Security for a provider that checks it: a small service here verifies
 * each request on its own terms (the digest as the `soap` package computes it, the Timestamp, a
 * nonce seen once, and the signature with xml-crypto against the certificate it trusts) and
 * answers a SOAP Fault otherwise. A real Jest run on a temp project: the scenarios pass, the
 * negative tests (a missing header, a wrong digest, an expired timestamp) pass because the
 * provider refuses them, and fail against a provider that checks nothing. No report shows the password.
 */
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const PASSWORD = 'correct horse';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { passwordDigest } = require('soap/lib/utils') as { passwordDigest(nonce: string, created: string, password: string): string };

const contract = (tags: string) => `${tags}
Feature: Pets

  Scenario: getPet
    When POST /ws
    And request-header SOAPAction "urn:getPet"
    And request-body
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Header/>
      <soapenv:Body><getPet><id>(number)</id></getPet></soapenv:Body>
    </soapenv:Envelope>
    """
    Then status 200
    And response-body
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Body><getPetResponse><ok>(boolean)</ok></getPetResponse></soapenv:Body>
    </soapenv:Envelope>
    """
`;

const OK =
  '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><getPetResponse><ok>true</ok></getPetResponse></soapenv:Body></soapenv:Envelope>';
const fault = (why: string): Reply => ({
  status: 500,
  body: `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><soapenv:Fault><faultcode>wsse:FailedAuthentication</faultcode><faultstring>${why}</faultstring></soapenv:Fault></soapenv:Body></soapenv:Envelope>`,
});

const pair = selfSignedCertificate('127.0.0.1');

/** The provider's own check, written from the profiles, not from accord's code. */
function verify(req: Received, o: { signature: boolean }, nonces: Set<string>): string | undefined {
  const doc = new DOMParser().parseFromString(req.body, 'text/xml');
  const security = doc.getElementsByTagNameNS(WSSE, 'Security')[0];
  if (!security) return 'no security header';
  const ts = security.getElementsByTagNameNS(WSU, 'Timestamp')[0];
  if (!ts) return 'no timestamp';
  const expires = Date.parse(ts.getElementsByTagNameNS(WSU, 'Expires')[0]?.textContent ?? '');
  if (!(expires > Date.now())) return 'expired';
  if (o.signature) {
    const signature = doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature')[0];
    if (!signature) return 'not signed';
    const sig = new SignedXml({ publicCert: pair.cert });
    sig.loadSignature(signature as never);
    if (!sig.checkSignature(req.body)) return 'bad signature';
    const body = doc.getElementsByTagNameNS('http://schemas.xmlsoap.org/soap/envelope/', 'Body')[0] as Element;
    const bodyId = body.getAttributeNS(WSU, 'Id');
    if (!sig.getReferences().some((r) => r.uri === `#${bodyId}`)) return 'body not signed';
    return undefined;
  }
  const token = security.getElementsByTagNameNS(WSSE, 'UsernameToken')[0];
  if (!token) return 'no token';
  const text = (local: string, ns = WSSE) => token.getElementsByTagNameNS(ns, local)[0]?.textContent ?? '';
  const nonce = text('Nonce');
  if (text('Username') !== 'alice' || text('Password') !== passwordDigest(nonce, text('Created', WSU), PASSWORD)) return 'wrong password';
  if (nonces.has(nonce)) return 'replayed';
  nonces.add(nonce);
  return undefined;
}

let dir: string;
let strict: Running;
let signed: Running;
let lax: Running;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-wss-runner-'));
  mkdirSync(path.join(dir, 'contracts'));
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "private": true }');
  writeFileSync(path.join(dir, 'client.pem'), pair.cert);
  writeFileSync(path.join(dir, 'client.key'), pair.key);
  const nonces = new Set<string>();
  strict = await startServer((req) => {
    const why = verify(req, { signature: false }, nonces);
    return why ? fault(why) : { body: OK };
  });
  signed = await startServer((req) => {
    const why = verify(req, { signature: true }, nonces);
    return why ? fault(why) : { body: OK };
  });
  lax = await startServer(() => ({ body: OK }));
});

afterAll(async () => {
  await Promise.all([strict?.close(), signed?.close(), lax?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

function jest(spec: string, baseUrl: string, accord: Record<string, unknown>, env: Record<string, string> = {}): Promise<{ status: number; output: string }> {
  writeFileSync(path.join(dir, 'contracts', 'pets.spec'), spec);
  return runJestApp(dir, { baseUrl, ...accord }, childEnv({ ACCORD_TEST_PASSWORD: PASSWORD, ...env }));
}

const credentials = { username: 'alice', password: { env: 'ACCORD_TEST_PASSWORD' } };

test('a UsernameToken with a digest and a Timestamp: the scenario passes, and the provider refuses each broken one', async () => {
  const r = await jest(contract('@ws-security:PasswordDigest @ws-security:Timestamp'), strict.url, { negative: true, wsSecurity: credentials });
  expect(r.output).toContain('✓ getPet (');
  expect(r.output).toContain('✓ getPet [negative: WS-Security header missing]');
  expect(r.output).toContain('✓ getPet [negative: WS-Security wrong password digest]');
  expect(r.output).toContain('✓ getPet [negative: WS-Security expired timestamp]');
  // The other negative tests carry valid security: the provider here checks only that, so they fail for their content, as they should.
  expect(r.output).toContain('✕ getPet [negative: missing Envelope/Body/getPet/id]');
  expect(r.output).not.toContain(PASSWORD);
}, 120_000);

test('a provider that checks nothing fails the WS-Security negative tests; reports show no password', async () => {
  const r = await jest(contract('@ws-security:UsernameToken'), lax.url, { wsSecurity: credentials }, { ACCORD_NEGATIVE: '1' });
  expect(r.output).toContain('✕ getPet [negative: WS-Security header missing]');
  expect(r.output).toContain('✕ getPet [negative: WS-Security wrong password]');
  expect(r.output).toContain('The provider accepted an invalid request (mutation: WS-Security wrong password)');
  expect(r.output).toMatch(/<wsse:Password Type="[^"]+#PasswordText">\*\*\*<\/wsse:Password>/);
  expect(r.output).not.toContain(PASSWORD);
  expect(r.output).not.toContain('horse');
}, 120_000);

test('a signature (BinarySecurityToken, Body and Timestamp) from the configured certificate and key, per contract file', async () => {
  const r = await jest(contract(''), signed.url, { wsSecurity: { certificate: 'client.pem', privateKey: 'client.key', contracts: { 'contracts/pets.spec': ['Signature'] } } });
  expect(r.output).toContain('✓ getPet (');
  expect(r.status).toBe(0);
}, 120_000);

test('the settings are checked: a missing variable is named, a misspelt key and token get a did-you-mean, an unreadable file is named', () => {
  const problems = resolveRunnerConfig(
    {
      baseUrl: 'http://x',
      wsSecurity: { username: 'a', password: { env: 'ACCORD_NOT_SET_ANYWHERE' }, certficate: 'x', use: ['PasswordDigst'], certificate: 'nowhere.pem', privateKey: 'nowhere.key' },
    },
    {},
  ).problems;
  expect(problems).toEqual(
    expect.arrayContaining([
      'testEnvironmentOptions.accord.wsSecurity.password names the environment variable ACCORD_NOT_SET_ANYWHERE, which is not set',
      expect.stringContaining('unknown option "certficate" in testEnvironmentOptions.accord.wsSecurity (did you mean "certificate"?)'),
      expect.stringContaining('unknown token "PasswordDigst" (did you mean "PasswordDigest"?)'),
      expect.stringMatching(/^testEnvironmentOptions\.accord\.wsSecurity\.certificate: .*nowhere\.pem/),
    ]),
  );
});

test('a contract that asks for WS-Security with no settings fails saying what to set, and sends nothing unsecured', async () => {
  const [tc] = testCases(parseContract(contract('@ws-security:PasswordDigest'), 'pets.spec'));
  const r = await runCase(tc, { baseUrl: lax.url });
  expect(r.passed).toBe(false);
  expect(r.error).toContain('the contract asks for WS-Security (PasswordDigest): set testEnvironmentOptions.accord.wsSecurity');
  expect(r.response).toBeUndefined();
});
