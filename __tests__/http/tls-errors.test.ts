import { createServer, type Server } from 'node:https';
import { createServer as createHttp } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestCa } from '../helpers/pki';
import { createDispatcher, send, type TlsFiles } from '../../src/http/client';
import type { HttpRequest } from '../../src/http/message';

/**
 * Mutual TLS and server-certificate failures are named as the TLS layer reports them, against
 * real node:https servers on 127.0.0.1 with certificates made here, not as "connection closed".
 */
const ca = new TestCa();
const other = new TestCa('another CA');
const servers: Server[] = [];

async function serve(options: object): Promise<string> {
  const server = createServer(options, (req, res) => {
    req.resume();
    res.end('ok');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterAll(() => servers.forEach((s) => s.close()));

const get: HttpRequest = { method: 'GET', path: '/', query: [], headers: {}, body: '' };

async function failure(url: string, tls: TlsFiles): Promise<string> {
  try {
    const r = await send(url, get, { dispatcher: createDispatcher(tls, {}), timeoutMs: 5_000 });
    return `answered ${r.status}`;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('mutual TLS refusals', () => {
  let mtls: string;
  beforeAll(async () => {
    mtls = await serve({ ...ca.server(), ca: ca.pem, requestCert: true, rejectUnauthorized: true });
  });

  test('with the CA’s client certificate (PEM or PKCS#12) the server answers', async () => {
    expect(await failure(mtls, { ca: ca.pem, ...ca.client() })).toBe('answered 200');
    expect(await failure(mtls, { ca: ca.pem, pfx: ca.client().p12, passphrase: 'p12-Secret9' })).toBe('answered 200');
  });

  test('no client certificate: the TLS 1.3 alert certificate_required, named', async () => {
    const why = await failure(mtls, { ca: ca.pem });
    expect(why).toBe(`TLS: ${mtls} refused the connection (alert certificate_required): it requires a client certificate, and none was given (tls.cert and tls.key, or tls.pfx)`);
  });

  test('a client certificate from another CA, or an expired one: the refusal of the certificate is named', async () => {
    for (const client of [other.client(), ca.client('accord-client', { expired: true })]) {
      const why = await failure(mtls, { ca: ca.pem, cert: client.cert, key: client.key });
      expect(why).toContain(`${mtls} closed the TLS connection in or right after the handshake, before any answer: it most likely refused the client certificate`);
      expect(why).not.toContain('closed before a complete answer');
    }
  });

  test('TLS 1.2, where a missing certificate is refused in the handshake', async () => {
    const tls12 = await serve({ ...ca.server(), ca: ca.pem, requestCert: true, rejectUnauthorized: true, maxVersion: 'TLSv1.2' });
    expect(await failure(tls12, { ca: ca.pem })).toMatch(
      new RegExp(`^TLS: ${tls12.replace(/[.:/]/g, '\\$&')} refused the connection \\(alert (handshake_failure|certificate_required|bad_certificate)\\)`),
    );
    const stranger = other.client();
    const why = await failure(tls12, { ca: ca.pem, cert: stranger.cert, key: stranger.key });
    // Node's own servers check the certificate after the handshake and close without an alert.
    expect(why).toContain(`${tls12} closed the TLS connection in or right after the handshake, before any answer: it most likely refused the client certificate`);
  });
});

describe('the server’s certificate', () => {
  test('not signed by a trusted CA, expired, or for another host', async () => {
    const plain = await serve({ ...ca.server() });
    expect(await failure(plain, {})).toBe(`TLS: the certificate of ${plain} is not signed by a CA accord trusts (UNABLE_TO_VERIFY_LEAF_SIGNATURE): give its CA bundle as tls.ca`);
    expect(await failure(plain, { ca: other.pem })).toContain('is not signed by a CA accord trusts');
    const expired = await serve({ ...ca.server('127.0.0.1', { expired: true }) });
    expect(await failure(expired, { ca: ca.pem })).toBe(`TLS: the certificate of ${expired} has expired (CERT_HAS_EXPIRED)`);
    const elsewhere = await serve({ ...ca.server('service.example') });
    expect(await failure(elsewhere, { ca: ca.pem })).toBe(
      `TLS: the certificate of ${elsewhere} is not for host 127.0.0.1 (ERR_TLS_CERT_ALTNAME_INVALID): use a host name it names`,
    );
  });

  test('a plain HTTP server at an https:// address', async () => {
    const server = createHttp((_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await failure(url, {})).toBe(`TLS: ${url} does not answer TLS (ERR_SSL_WRONG_VERSION_NUMBER): is it http://?`);
    } finally {
      server.close();
    }
  });
});
