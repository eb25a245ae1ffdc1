import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';
import { createDispatcher, send, type TlsFiles } from '../../src/http/client';
import { TestCa, p12Passphrase } from '../helpers/pki';
import { hasStack, PYTHON } from '../interop/stacks';
import { PET_SPEC, REPO, petRequest, runCli, startStubProcess } from './helpers';

/**
 * The stub asks for client certificates (mutual TLS): required, a client without one or with one
 * another CA signed is refused at the TLS layer and the log says so in one line; optional, the
 * journal says which certificate each request came with. Real clients: undici (accord's own), and
 * zeep through requests with Session.cert.
 */
const PETSTORE_WSDL = path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl');
const dir = mkdtempSync(path.join(tmpdir(), 'accord-mtls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ca = new TestCa();
const other = new TestCa('another CA');
const client = ca.client('pet-shop');
const stranger = other.client('intruder');

async function post(stub: RunningStub, tls: TlsFiles): Promise<string> {
  try {
    const r = await send(
      stub.url,
      { method: 'POST', path: '/ws', query: [], headers: { 'content-type': 'text/xml' }, body: petRequest('4') },
      { dispatcher: createDispatcher(tls, {}), timeoutMs: 5_000 },
    );
    return `answered ${r.status}`;
  } catch (e) {
    return (e as Error).message;
  }
}

async function start(required: boolean, lines: string[], contracts = [PET_SPEC]): Promise<RunningStub> {
  return startStub({ contracts, tls: ca.server(), clientCertificates: { ca: ca.pem, required }, log: (l) => lines.push(l) });
}

test('required: only clients with a certificate the CA signed are served; the others are refused by TLS, one log line each', async () => {
  const lines: string[] = [];
  const stub = await start(true, lines);
  try {
    expect(await post(stub, { ca: ca.pem, cert: client.cert, key: client.key })).toBe('answered 200');
    expect(await post(stub, { ca: ca.pem, pfx: client.p12, passphrase: p12Passphrase })).toBe('answered 200');
    expect(stub.calls().map((c) => c.clientCertificate?.subject)).toEqual(['CN=pet-shop', 'CN=pet-shop']);
    expect(stub.calls()[0]!.clientCertificate).toMatchObject({ issuer: 'CN=accord test CA', fingerprint256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/) });
    expect(lines.filter((l) => l.includes('TLS'))).toEqual([]);

    expect(await post(stub, { ca: ca.pem })).toContain('(alert certificate_required): it requires a client certificate, and none was given');
    expect(await post(stub, { ca: ca.pem, cert: stranger.cert, key: stranger.key })).toContain('it most likely refused the client certificate');
    const expired = ca.client('old', { expired: true });
    expect(await post(stub, { ca: ca.pem, cert: expired.cert, key: expired.key })).toContain('it most likely refused the client certificate');
    expect(stub.calls()).toHaveLength(2);
    const tls = lines.filter((l) => l.includes('TLS'));
    // accord's runner connects once more to read why: two lines per refused request.
    expect(tls).toContain('accord stub: TLS: refused a client at 127.0.0.1: no client certificate (the stub requires one, --tls-client-ca)');
    expect(tls).toContain('accord stub: TLS: refused a client: the client certificate is not signed by --tls-client-ca (UNABLE_TO_VERIFY_LEAF_SIGNATURE)');
    expect(tls).toContain('accord stub: TLS: refused a client: the client certificate has expired (CERT_HAS_EXPIRED)');
    expect(tls).toHaveLength(6);
  } finally {
    await stub.close();
  }
}, 30_000);

test('optional: a client without a certificate is served and recorded as such; one that does not verify is still refused', async () => {
  const lines: string[] = [];
  const stub = await start(false, lines);
  try {
    expect(await post(stub, { ca: ca.pem })).toBe('answered 200');
    expect(await post(stub, { ca: ca.pem, cert: client.cert, key: client.key })).toBe('answered 200');
    expect(stub.calls().map((c) => c.clientCertificate)).toEqual([null, expect.objectContaining({ subject: 'CN=pet-shop' })]);
    expect(await post(stub, { ca: ca.pem, cert: stranger.cert, key: stranger.key })).toContain('it most likely refused the client certificate');
    expect(stub.calls()).toHaveLength(2);
    expect(lines).toContain(
      'accord stub: TLS: refused a client at 127.0.0.1: the client certificate (CN=intruder, issued by CN=another CA) is not signed by --tls-client-ca (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
    );
  } finally {
    await stub.close();
  }
  // Without client certificates asked for, the journal says nothing of them.
  const plain = await startStub({ contracts: [PET_SPEC], tls: ca.server(), log: () => {} });
  try {
    expect(await post(plain, { ca: ca.pem, cert: client.cert, key: client.key })).toBe('answered 200');
    expect(plain.calls()[0]!.clientCertificate).toBeUndefined();
  } finally {
    await plain.close();
  }
}, 30_000);

test('the CLI: --tls-client-ca with --tls-cert/--tls-key (or --tls), --tls-client-optional; refused without HTTPS (exit 2)', async () => {
  const server = ca.server();
  for (const [name, text] of [
    ['ca.pem', ca.pem],
    ['server.pem', server.cert],
    ['server-key.pem', server.key],
  ])
    writeFileSync(path.join(dir, name), text);
  const p = await startStubProcess([
    PET_SPEC,
    '--port',
    '0',
    '--tls-cert',
    path.join(dir, 'server.pem'),
    '--tls-key',
    path.join(dir, 'server-key.pem'),
    '--tls-client-ca',
    path.join(dir, 'ca.pem'),
  ]);
  try {
    const running = { url: p.url } as RunningStub;
    expect(await post(running, { ca: ca.pem, cert: client.cert, key: client.key })).toBe('answered 200');
    expect(await post(running, { ca: ca.pem })).toContain('alert certificate_required');
  } finally {
    p.child.kill('SIGTERM');
    await p.exited;
  }
  expect(p.stdout()).toContain(`Client certificates signed by ${path.join(dir, 'ca.pem')}: required.`);
  expect(p.stderr()).toContain('accord stub: TLS: refused a client at 127.0.0.1: no client certificate');
  const plain = await runCli(['stub', PET_SPEC, '--port', '0', '--tls-client-ca', path.join(dir, 'ca.pem')]);
  expect(plain.code).toBe(2);
  expect(plain.stderr).toContain('--tls-client-ca needs HTTPS: give --tls, or --tls-cert and --tls-key');
  const alone = await runCli(['stub', PET_SPEC, '--port', '0', '--tls', '--tls-client-optional']);
  expect(alone.code).toBe(2);
  expect(alone.stderr).toContain('--tls-client-optional goes with --tls-client-ca');
}, 60_000);

const zeepTest = hasStack('zeep') ? test : test.skip;

zeepTest(
  'zeep (requests Session.cert) reads ?wsdl and calls with its client certificate; without one requests fails with the TLS alert',
  async () => {
    for (const [name, text] of [
      ['ca.pem', ca.pem],
      ['client.pem', client.cert],
      ['client-key.pem', client.key],
    ])
      writeFileSync(path.join(dir, name), text);
    const script = `
import sys, requests, zeep
from zeep.transports import Transport
url, ca, cert, key = sys.argv[1:5]
s = requests.Session()
s.verify = ca
if cert:
    s.cert = (cert, key)
try:
    c = zeep.Client(url + '/ws?wsdl', transport=Transport(session=s))
    r = c.service.getPet(id=3)
    print('ok', r.name is not None)
except Exception as e:
    print('error', type(e).__name__, e)
`;
    const run = (stub: RunningStub, cert: string, key: string) =>
      new Promise<string>((resolve) =>
        execFile(
          PYTHON,
          ['-c', script, stub.url, path.join(dir, 'ca.pem'), cert, key],
          { timeout: 30_000, env: { ...process.env, REQUESTS_CA_BUNDLE: '', CURL_CA_BUNDLE: '' } },
          (_e, out, err) => resolve(`${out}${err}`.trim()),
        ),
      );
    const lines: string[] = [];
    const stub = await start(true, lines, [PETSTORE_WSDL]);
    try {
      expect(await run(stub, path.join(dir, 'client.pem'), path.join(dir, 'client-key.pem'))).toBe('ok True');
      expect(stub.calls().map((c) => c.clientCertificate?.subject)).toEqual(['CN=pet-shop']);
      const without = await run(stub, '', '');
      expect(without).toMatch(/^error SSLError .*(CERTIFICATE_REQUIRED|certificate required)/i);
      expect(lines).toContain('accord stub: TLS: refused a client at 127.0.0.1: no client certificate (the stub requires one, --tls-client-ca)');
    } finally {
      await stub.close();
    }
  },
  60_000,
);
