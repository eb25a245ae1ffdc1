import { Agent as HttpsAgent } from 'node:https';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClientAsync } from 'soap';
import { Agent, request } from 'undici';
import { startStub } from '../../src/stub';
import { createSecureContext } from 'node:tls';
import { selfSignedCertificate, serialHex } from '../../src/stub/tls';
import { PET_SPEC, REPO, petRequest, runCli, startStubProcess } from './helpers';

/** HTTPS: a generated self-signed certificate, or the user's own, with undici and the soap client. */
const PETSTORE_WSDL = path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl');
const dir = mkdtempSync(path.join(tmpdir(), 'accord-tls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function postPet(url: string, ca?: string): Promise<{ status: number; body: string }> {
  const dispatcher = new Agent({ connect: ca ? { ca } : {} });
  try {
    const res = await request(`${url}/ws`, { method: 'POST', body: petRequest('4'), headers: { 'content-type': 'text/xml' }, dispatcher });
    return { status: res.statusCode, body: await res.body.text() };
  } finally {
    await dispatcher.close();
  }
}

it('tls: true serves HTTPS with a self-signed certificate that undici trusts once given it', async () => {
  const stub = await startStub({ contracts: [PET_SPEC], tls: true, log: () => {} });
  try {
    expect(stub.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(stub.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    await expect(postPet(stub.url)).rejects.toThrow(/self-signed certificate/);
    const res = await postPet(stub.url, stub.certificate);
    expect(res.status).toBe(200);
    expect(res.body).toContain('<pet:getPetResponse');
    const cert = await request(`${stub.url}/_accord/certificate`, { dispatcher: new Agent({ connect: { ca: stub.certificate } }) });
    expect(await cert.body.text()).toBe(stub.certificate);
  } finally {
    await stub.close();
  }
});

it('a soap client reads ?wsdl over HTTPS and calls the stub at its https address', async () => {
  const stub = await startStub({ contracts: [PETSTORE_WSDL], tls: true, log: () => {} });
  try {
    const httpsAgent = new HttpsAgent({ ca: stub.certificate });
    const client = await createClientAsync(`${stub.url}/ws?wsdl`, { wsdl_options: { httpsAgent } });
    const [result] = (await client.getPetAsync({ id: 3 }, { httpsAgent })) as [{ name: string }];
    expect(typeof result.name).toBe('string');
    expect(stub.calls()).toHaveLength(1);
    httpsAgent.destroy();
  } finally {
    await stub.close();
  }
});

it('the CLI serves HTTPS with --tls-cert/--tls-key, and refuses a half or a bad pair (exit 2)', async () => {
  const { cert, key } = selfSignedCertificate('127.0.0.1');
  writeFileSync(path.join(dir, 'cert.pem'), cert);
  writeFileSync(path.join(dir, 'key.pem'), key);
  const p = await startStubProcess([PET_SPEC, '--port', '0', '--tls-cert', path.join(dir, 'cert.pem'), '--tls-key', path.join(dir, 'key.pem')]);
  try {
    expect(p.url).toMatch(/^https:/);
    expect((await postPet(p.url, cert)).status).toBe(200);
  } finally {
    p.child.kill('SIGTERM');
    await p.exited;
  }
  const half = await runCli(['stub', PET_SPEC, '--tls-cert', path.join(dir, 'cert.pem')]);
  expect(half.code).toBe(2);
  expect(half.stderr).toContain('--tls-cert and --tls-key go together');
  const swapped = await runCli(['stub', PET_SPEC, '--port', '0', '--tls-cert', path.join(dir, 'key.pem'), '--tls-key', path.join(dir, 'cert.pem')]);
  expect(swapped.code).toBe(2);
  expect(swapped.stderr).toContain('cannot serve HTTPS with this certificate and key');
});

it('the generated serial is a minimal positive DER integer whatever the random bytes (OpenSSL refused a leading zero byte)', () => {
  for (let first = 0; first < 256; first++) {
    const hex = serialHex(Buffer.from([first, 0, 0x80, 0xff]));
    expect(hex).toHaveLength(8);
    expect(parseInt(hex.slice(0, 2), 16)).toBeGreaterThanOrEqual(1);
    expect(parseInt(hex.slice(0, 2), 16)).toBeLessThan(0x80);
  }
  // The random draws that used to make "illegal padding": a zero byte first, then one below 0x80.
  for (const serial of [Buffer.from('0002233f', 'hex'), Buffer.alloc(16), Buffer.alloc(16, 0xff)]) {
    const { cert, key } = selfSignedCertificate('127.0.0.1', serial);
    expect(() => createSecureContext({ cert, key })).not.toThrow();
    expect(new X509Certificate(cert).serialNumber).toBe(serialHex(serial).toUpperCase());
  }
});
