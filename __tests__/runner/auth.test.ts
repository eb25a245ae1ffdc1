import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import forge from 'node-forge';
import { serialHex } from '../../src/stub/tls';
import { childEnv } from '../helpers/child-env';
import { runJestApp } from '../helpers/jest-app';

/**
 * A protected service, tested through real `jest` child processes with accord's preset on a temp
 * project: servers on 127.0.0.1 that demand Basic, Bearer and API-key headers, an OAuth2 token
 * endpoint that counts its requests, an HTTPS server that demands a client certificate (certificates
 * made here with node-forge), an HTTP proxy that counts what passes through it, environments
 * chosen by ACCORD_ENV, and the redaction of every secret from a failure report.
 */

const SPEC = `Feature: Pets

  Scenario: Get a pet
    When GET /pets/1
    Then status 200
    And response-body {"id": "(number)"}

  Scenario: Get another pet
    When GET /pets/2
    Then status 200
    And response-body {"id": "(number)"}

  Scenario: Count pets
    When GET /count
    Then status 200
    And response-body {"id": "(number)"}
`;

const ORDERS = `Feature: Orders

  Scenario: Create an order
    When POST /orders
    And request-body {"item": "(string)", "count": "(number)"}
    Then status 201
    And response-body {"id": "(number)"}
`;

const PASSWORD = 'pw-Zq8vX2mK';
const TOKEN = 'tok-7Hc3Lr9w';
const API_KEY = 'key-Pd4Nb6Yt';
const CLIENT_SECRET = 'cs-Wm5Gk1Qe';

let dir: string;
const servers: Server[] = [];

interface Run {
  status: number;
  output: string;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-auth-'));
  mkdirSync(path.join(dir, 'contracts'));
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "private": true }');
  writeFileSync(path.join(dir, 'contracts', 'pets.spec'), SPEC);
  writeFileSync(path.join(dir, 'contracts', 'orders.spec'), ORDERS);
});

afterAll(async () => {
  await Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((r) => {
          s.closeAllConnections?.();
          s.close(() => r());
        }),
    ),
  );
  rmSync(dir, { recursive: true, force: true });
});

/** `jest --preset accord-contracts` on the temp project, with these accord settings and variables. */
function jest(accord: Record<string, unknown>, env: Record<string, string> = {}, args: string[] = ['contracts/pets.spec']): Promise<Run> {
  const clean = childEnv({ ACCORD_BASE_URL: '', ACCORD_ENV: '', ...env });
  if (!('HTTP_PROXY' in env)) for (const v of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy']) delete clean[v];
  // -i: one worker, so one token cache for the whole run.
  return runJestApp(dir, accord, clean, ['-i', ...args]);
}

function listen(server: Server, scheme = 'http'): Promise<string> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A pet service that answers only when `allowed` says the request's headers may pass; 401 otherwise. */
function petService(allowed: (req: IncomingMessage) => boolean, body: (req: IncomingMessage) => unknown = () => ({ id: 1 }), delayMs = 0) {
  const seen: IncomingMessage['headers'][] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => setTimeout(() => (allowed(req) ? answer(res, 200, body(req)) : answer(res, 401, { error: 'unauthorized' })), delayMs));
  });
  return { server, seen };
}

describe('HTTP authentication', () => {
  test('Basic: the user name and the password from the environment variable it names', async () => {
    const expected = `Basic ${Buffer.from(`svc:${PASSWORD}`).toString('base64')}`;
    const { server, seen } = petService((req) => req.headers.authorization === expected);
    const url = await listen(server);
    const r = await jest({ baseUrl: url, auth: { type: 'basic', username: 'svc', password: { env: 'PET_PASSWORD' } } }, { PET_PASSWORD: PASSWORD });
    expect(r.output).toMatch(/Tests: +3 passed, 3 total/);
    expect(r.status).toBe(0);
    expect(seen.map((h) => h.authorization)).toEqual([expected, expected, expected]);
  }, 60_000);

  test('Bearer and extra headers (an API key from a variable, a literal tenant id)', async () => {
    const { server } = petService((req) => req.headers.authorization === `Bearer ${TOKEN}` && req.headers['x-api-key'] === API_KEY && req.headers['x-tenant'] === 'acme');
    const url = await listen(server);
    const accord = { baseUrl: url, auth: { type: 'bearer', token: { env: 'PET_TOKEN' } }, headers: { 'X-Api-Key': { env: 'PET_API_KEY' }, 'X-Tenant': 'acme' } };
    const r = await jest(accord, { PET_TOKEN: TOKEN, PET_API_KEY: API_KEY });
    expect(r.output).toMatch(/Tests: +3 passed, 3 total/);
    expect(r.status).toBe(0);
  }, 60_000);

  test('a failure report shows the request sent with every secret as ***, even one the service echoes', async () => {
    // Authorised, but /count answers a wrong id that quotes the key and the token back.
    const { server } = petService(
      (req) => req.headers.authorization === `Bearer ${TOKEN}`,
      (req) => (req.url === '/count' ? { id: `not a number: ${req.headers['x-api-key']} ${TOKEN}` } : { id: 1 }),
    );
    const url = await listen(server);
    const accord = { baseUrl: url, auth: { type: 'bearer', token: { env: 'PET_TOKEN' } }, headers: { 'X-Api-Key': { env: 'PET_API_KEY' }, 'X-Tenant': 'acme' } };
    const r = await jest(accord, { PET_TOKEN: TOKEN, PET_API_KEY: API_KEY });
    expect(r.status).toBe(1);
    expect(r.output).toMatch(/Tests: +1 failed, 2 passed, 3 total/);
    expect(r.output).toContain('Request sent:\n      GET /count');
    expect(r.output).toContain('authorization: ***');
    expect(r.output).toContain('x-api-key: ***');
    expect(r.output).toContain('x-tenant: acme');
    expect(r.output).toContain('"not a number: *** ***"');
    expect(r.output).not.toContain(TOKEN);
    expect(r.output).not.toContain(API_KEY);
  }, 60_000);

  test('negative tests send the credentials too, so a refusal is about the invalid request, not a 401', async () => {
    // A lax service behind Basic: it accepts any order from an authenticated client, so every negative test must fail.
    const expected = `Basic ${Buffer.from(`svc:${PASSWORD}`).toString('base64')}`;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => (req.headers.authorization === expected ? answer(res, 201, { id: 7 }) : answer(res, 401, {})));
    });
    const url = await listen(server);
    const r = await jest({ baseUrl: url, negative: true, auth: { type: 'basic', username: 'svc', password: { env: 'PET_PASSWORD' } } }, { PET_PASSWORD: PASSWORD }, [
      'contracts/orders.spec',
    ]);
    expect(r.output).toMatch(/✓ Create an order \(\d+ ms\)/);
    expect(r.output).toMatch(/Tests: +\d+ failed, 1 passed/);
    expect(r.output).toContain('The provider accepted an invalid request (mutation: missing count)');
    expect(r.output).toContain('authorization: ***');
    expect(r.output).not.toContain(expected.slice('Basic '.length));
    expect(r.output).not.toContain(PASSWORD);
  }, 60_000);
});

describe('OAuth2 client credentials', () => {
  /** A token endpoint and a service that accepts only the tokens it issued. */
  async function oauth(expiresIn: number | undefined, options: { refuse?: boolean; delayMs?: number } = {}) {
    const issued: string[] = [];
    const forms: URLSearchParams[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.url === '/oauth/token') {
          forms.push(new URLSearchParams(body));
          const client = `Basic ${Buffer.from(`pets-client:${CLIENT_SECRET}`).toString('base64')}`;
          if (options.refuse || req.headers.authorization !== client) return answer(res, 401, { error: 'invalid_client', error_description: 'bad secret' });
          const token = `at-${randomBytes(6).toString('hex')}`;
          issued.push(token);
          return answer(res, 200, { access_token: token, token_type: 'Bearer', ...(expiresIn !== undefined && { expires_in: expiresIn }) });
        }
        const ok = issued.some((t) => req.headers.authorization === `Bearer ${t}`);
        setTimeout(() => (ok ? answer(res, 200, { id: 1 }) : answer(res, 401, {})), options.delayMs ?? 0);
      });
    });
    const url = await listen(server);
    const auth = {
      type: 'oauth2',
      tokenUrl: `${url}/oauth/token`,
      clientId: 'pets-client',
      clientSecret: { env: 'PET_CLIENT_SECRET' },
      scope: 'pets:read pets:write',
      audience: 'pets-api',
    };
    return { url, auth, issued, forms };
  }

  test('one token serves every scenario while it is valid; scope and audience are sent', async () => {
    const o = await oauth(3600);
    const r = await jest({ baseUrl: o.url, auth: o.auth }, { PET_CLIENT_SECRET: CLIENT_SECRET });
    expect(r.output).toMatch(/Tests: +3 passed, 3 total/);
    expect(o.forms).toHaveLength(1);
    expect(Object.fromEntries(o.forms[0])).toEqual({ grant_type: 'client_credentials', scope: 'pets:read pets:write', audience: 'pets-api' });
  }, 60_000);

  test('a token about to expire is fetched again', async () => {
    // Valid 1 s, renewed after half of it; each answer takes 700 ms, so each scenario needs a new token.
    const o = await oauth(1, { delayMs: 700 });
    const r = await jest({ baseUrl: o.url, auth: o.auth }, { PET_CLIENT_SECRET: CLIENT_SECRET });
    expect(r.output).toMatch(/Tests: +3 passed, 3 total/);
    expect(o.issued).toHaveLength(3);
  }, 60_000);

  test('a refused token request fails every test with one line naming the token URL and status, once, no secret', async () => {
    const o = await oauth(3600, { refuse: true });
    const r = await jest({ baseUrl: o.url, auth: o.auth }, { PET_CLIENT_SECRET: CLIENT_SECRET });
    expect(r.status).toBe(1);
    expect(r.output).toMatch(/Tests: +3 failed, 3 total/);
    const line = `OAuth2 token request to ${o.url}/oauth/token failed: status 401 (invalid_client)`;
    expect(r.output.split(line).length - 1).toBe(3);
    expect(o.forms).toHaveLength(1);
    expect(r.output).not.toContain(CLIENT_SECRET);
  }, 60_000);
});

/** A CA, and certificates it signs: the server's for 127.0.0.1, the client's. */
function pki() {
  const keys = () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    return { key: privateKey, publicKey };
  };
  const make = (cn: string, issuer: { cert?: forge.pki.Certificate; key: string } | undefined, own: { key: string; publicKey: string }, ext: object[]) => {
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.publicKeyFromPem(own.publicKey);
    cert.serialNumber = serialHex(randomBytes(16));
    cert.validity.notBefore = new Date(Date.now() - 3600_000);
    cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
    cert.setSubject([{ name: 'commonName', value: cn }]);
    cert.setIssuer(issuer?.cert ? issuer.cert.subject.attributes : [{ name: 'commonName', value: cn }]);
    cert.setExtensions(ext);
    cert.sign(forge.pki.privateKeyFromPem(issuer?.key ?? own.key), forge.md.sha256.create());
    return cert;
  };
  const pem = (c: forge.pki.Certificate) => forge.pki.certificateToPem(c).split('\r\n').join('\n');
  const caKeys = keys();
  const ca = make('accord test CA', undefined, caKeys, [
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true },
  ]);
  const serverKeys = keys();
  const server = make('127.0.0.1', { cert: ca, key: caKeys.key }, serverKeys, [
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
  ]);
  const clientKeys = keys();
  const client = make('accord-client', { cert: ca, key: caKeys.key }, clientKeys, [{ name: 'extKeyUsage', clientAuth: true }]);
  const p12 = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(clientKeys.key), [client], 'p12-Secret9', { algorithm: '3des' });
  return {
    ca: pem(ca),
    server: { cert: pem(server), key: serverKeys.key },
    client: { cert: pem(client), key: clientKeys.key },
    p12: Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'),
  };
}

/** An HTTP proxy (CONNECT tunnels and plain forwarding) that lists what passed through it and may demand credentials. */
async function startProxy(credentials?: string) {
  const passed: string[] = [];
  const refused: string[] = [];
  const allowed = (req: IncomingMessage) => !credentials || req.headers['proxy-authorization'] === `Basic ${Buffer.from(credentials).toString('base64')}`;
  const server = createServer((req, res) => {
    if (!allowed(req)) {
      refused.push(`${req.method} ${req.url}`);
      res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
      return;
    }
    passed.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const up = httpRequest({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (!allowed(req)) {
      refused.push(`CONNECT ${req.url}`);
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
      return;
    }
    passed.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const up = netConnect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  const url = await listen(server);
  return { url, passed, refused };
}

describe('transport', () => {
  let certs: ReturnType<typeof pki>;
  let httpsUrl: string;
  const clients: string[] = [];

  beforeAll(async () => {
    certs = pki();
    mkdirSync(path.join(dir, 'certs'));
    writeFileSync(path.join(dir, 'certs', 'ca.pem'), certs.ca);
    writeFileSync(path.join(dir, 'certs', 'client.pem'), certs.client.cert);
    writeFileSync(path.join(dir, 'certs', 'client-key.pem'), certs.client.key);
    writeFileSync(path.join(dir, 'certs', 'client.p12'), certs.p12);
    // Mutual TLS: no answer at all without a client certificate the CA signed.
    const server = createHttpsServer({ ...certs.server, ca: certs.ca, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      clients.push((req.socket as TLSSocket).getPeerCertificate().subject.CN as string);
      req.resume();
      answer(res, 200, { id: 1 });
    });
    httpsUrl = await listen(server, 'https');
  });

  test('a client certificate and key (PEM) and an extra CA bundle, from files under the rootDir', async () => {
    clients.length = 0;
    const r = await jest({ baseUrl: httpsUrl, tls: { cert: 'certs/client.pem', key: 'certs/client-key.pem', ca: 'certs/ca.pem' } });
    expect(r.output).toMatch(/Tests: +3 passed, 3 total/);
    expect(r.status).toBe(0);
    expect(clients).toEqual(['accord-client', 'accord-client', 'accord-client']);
    // Without the client certificate the server hangs up.
    const without = await jest({ baseUrl: httpsUrl, tls: { ca: 'certs/ca.pem' } });
    expect(without.output).toMatch(/Tests: +3 failed, 3 total/);
  }, 60_000);

  test('a PKCS#12 file with its passphrase from an environment variable', async () => {
    clients.length = 0;
    const r = await jest({ baseUrl: httpsUrl, tls: { pfx: 'certs/client.p12', passphrase: { env: 'P12_PASSPHRASE' }, ca: 'certs/ca.pem' } }, { P12_PASSPHRASE: 'p12-Secret9' });
    expect(r.output).toMatch(/Tests: +3 passed, 3 total/);
    expect(clients).toEqual(['accord-client', 'accord-client', 'accord-client']);
    const wrong = await jest({ baseUrl: httpsUrl, tls: { pfx: 'certs/client.p12', passphrase: { env: 'P12_PASSPHRASE' } } }, { P12_PASSPHRASE: 'not-it' });
    expect(wrong.output).toMatch(/Tests: +3 failed, 3 total/);
    expect(wrong.output).toContain('testEnvironmentOptions.accord.tls: Node cannot use pfx certs/client.p12 with the passphrase given');
  }, 60_000);

  test('HTTP_PROXY and HTTPS_PROXY (with the proxy credentials in the URL) carry the requests; NO_PROXY bypasses them', async () => {
    const { server } = petService(() => true);
    const url = await listen(server);
    const proxy = await startProxy('corp:proxy-Pw7');
    const through = `http://corp:proxy-Pw7@${new URL(proxy.url).host}`;
    const plainHttp = await jest({ baseUrl: url }, { HTTP_PROXY: through, NO_PROXY: '' });
    expect(plainHttp.output).toMatch(/Tests: +3 passed, 3 total/);
    expect(proxy.passed.length).toBeGreaterThan(0);
    expect(proxy.passed.every((p) => p.includes(new URL(url).host))).toBe(true);

    proxy.passed.length = 0;
    const tls = { cert: 'certs/client.pem', key: 'certs/client-key.pem', ca: 'certs/ca.pem' };
    const overTls = await jest({ baseUrl: httpsUrl, tls }, { HTTP_PROXY: '', HTTPS_PROXY: through, NO_PROXY: '' });
    expect(overTls.output).toMatch(/Tests: +3 passed, 3 total/);
    expect(proxy.passed.length).toBeGreaterThan(0);
    expect(new Set(proxy.passed)).toEqual(new Set([`CONNECT ${new URL(httpsUrl).host}`]));

    proxy.passed.length = 0;
    const bypassed = await jest({ baseUrl: url }, { HTTP_PROXY: through, NO_PROXY: '127.0.0.1' });
    expect(bypassed.output).toMatch(/Tests: +3 passed, 3 total/);
    expect(proxy.passed).toEqual([]);
    expect(proxy.refused).toEqual([]);
  }, 90_000);
});

describe('environments and configuration checks', () => {
  test('ACCORD_ENV chooses a named environment: its base URL, auth and headers', async () => {
    const { server } = petService((req) => req.headers.authorization === `Bearer ${TOKEN}` && req.headers['x-tenant'] === 'staging-tenant');
    const staging = await listen(server);
    const accord = {
      baseUrl: 'http://127.0.0.1:1',
      headers: { 'X-Tenant': 'default-tenant' },
      environments: {
        staging: { baseUrl: staging, auth: { type: 'bearer', token: { env: 'STAGING_TOKEN' } }, headers: { 'X-Tenant': 'staging-tenant' } },
        production: { baseUrl: 'https://pets.example.com', auth: { type: 'bearer', token: { env: 'PRODUCTION_TOKEN' } } },
      },
    };
    const r = await jest(accord, { ACCORD_ENV: 'staging', STAGING_TOKEN: TOKEN });
    expect(r.output).toMatch(/Tests: +3 passed, 3 total/);
    expect(r.status).toBe(0);
    const typo = await jest(accord, { ACCORD_ENV: 'stagin', STAGING_TOKEN: TOKEN });
    expect(typo.output).toMatch(/Tests: +3 failed, 3 total/);
    expect(typo.output).toContain(
      'ACCORD_ENV chooses the environment "stagin", which testEnvironmentOptions.accord.environments does not define (did you mean "staging"?); the environments are staging, production',
    );
  }, 60_000);

  test('a misspelt nested key, a missing variable and an unreadable certificate fail every test, each named', async () => {
    const accord = {
      baseUrl: 'http://127.0.0.1:1',
      auth: { type: 'basic', usrname: 'svc', password: { env: 'NOT_SET_PASSWORD' } },
      tls: { cert: 'certs/missing.pem', key: 'certs/missing-key.pem' },
    };
    const r = await jest(accord);
    expect(r.status).toBe(1);
    expect(r.output).toMatch(/Tests: +3 failed, 3 total/);
    for (const problem of [
      'unknown option "usrname" in testEnvironmentOptions.accord.auth (did you mean "username"?); basic auth takes type, username, password',
      'testEnvironmentOptions.accord.auth.password names the environment variable NOT_SET_PASSWORD, which is not set',
      'testEnvironmentOptions.accord.tls.cert: no such file: certs/missing.pem',
    ])
      expect(r.output.split(problem).length - 1).toBe(3);
  }, 60_000);
});
