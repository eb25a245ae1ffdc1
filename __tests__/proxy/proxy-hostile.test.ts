import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { rawExchange, runProxy, type ProxyRun } from './proxy-helpers';

/**
 * `accord proxy` forwards only to its target, under the target's path prefix; it does not pass
 * hop-by-hop headers on; and what it records (the HAR, 0600) and writes (the contract) holds no
 * credential header, session id or card number. Real servers on 127.0.0.1, the CLI as a child.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'accord-proxy-hostile-'));
let service: Server;
let elsewhere: Server;
let serviceUrl: string;
let elsewhereUrl: string;
const seenPaths: string[] = [];
const seenHeaders: IncomingHttpHeaders[] = [];
let elsewhereHits = 0;
let proxy: ProxyRun;

const listen = async (s: Server) => {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  service = createServer((req, res) => {
    seenPaths.push(req.url ?? '');
    seenHeaders.push(req.headers);
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const text = req.method === 'POST' ? JSON.stringify({ paid: true, card: '4111111111111111', sessionId: 'S3SSION-abcdef0123456789' }) : JSON.stringify({ id: 7, name: 'Rex' });
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
        'set-cookie': 'JSESSIONID=COOKIESECRET42; Path=/',
        connection: 'keep-alive, X-Up-Hop',
        'x-up-hop': 'hop',
        'x-kept': 'kept',
      });
      res.end(body.length >= 0 ? text : '');
    });
  });
  elsewhere = createServer((_req, res) => {
    elsewhereHits++;
    res.end('elsewhere');
  });
  serviceUrl = await listen(service);
  elsewhereUrl = await listen(elsewhere);
  proxy = await runProxy(dir, ['--target', `${serviceUrl}/api`, '--out', 'hostile.spec', '--har', 'hostile.har', '--examples']);
});
afterAll(async () => {
  await new Promise((resolve) => service.close(resolve));
  await new Promise((resolve) => elsewhere.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const status = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

it('forwards only to the target, under its path prefix: other hosts and paths that climb out are refused with 400', async () => {
  const other = new URL(elsewhereUrl);
  const targets = [
    `${elsewhereUrl}/x`, // absolute-form
    `@${other.host}/x`,
    `:${other.port}@127.0.0.1/x`,
    '/../x',
    '/pets/../../x',
    '/%2e%2e/x',
    '/%2E%2E%2fx/../../x',
    '/..\\x',
    // What a service that decodes the path, folds `//` or drops `;parameters` (Tomcat, Spring) sees as a climb.
    '/pets/..;/..;/x',
    '/..;x/x',
    '/pets%2f..%2f..%2fx',
    '/pets/..%5C..%5Cx',
    '/%252e%252e/x',
    '/pets//../../x',
    '*',
  ];
  for (const t of targets) {
    const answer = await rawExchange(proxy.url, `GET ${t} HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n\r\n`);
    expect({ t, status: status(answer) }).toEqual({ t, status: 400 });
  }
  expect(elsewhereHits).toBe(0);
  expect(seenPaths.filter((p) => !p.startsWith('/api/'))).toEqual([]);
  // `//host/x` is a path on the target like any other (it names no host there).
  expect(status(await rawExchange(proxy.url, `GET //${other.host}/x HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n\r\n`))).toBe(200);
  expect(seenPaths[seenPaths.length - 1]).toBe(`/api//${other.host}/x`);
  expect(elsewhereHits).toBe(0);
  // A dot segment that stays inside is resolved, not refused.
  const inside = await rawExchange(proxy.url, 'GET /pets/x/../7 HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n\r\n');
  expect(status(inside)).toBe(200);
  expect(seenPaths[seenPaths.length - 1]).toBe('/api/pets/7');
});

it('does not forward hop-by-hop headers, nor those Connection names, either way', async () => {
  const answer = await rawExchange(
    proxy.url,
    'GET /pets/8 HTTP/1.1\r\nHost: proxy\r\nConnection: close, X-Hop\r\nX-Hop: secret\r\nKeep-Alive: timeout=5\r\nProxy-Authorization: Basic cHJveHk6cHc=\r\nTE: trailers\r\nX-Kept: yes\r\n\r\n',
  );
  expect(status(answer)).toBe(200);
  const sent = seenHeaders[seenHeaders.length - 1];
  expect(sent['x-kept']).toBe('yes');
  for (const h of ['x-hop', 'keep-alive', 'proxy-authorization', 'te']) expect({ h, v: sent[h] }).toEqual({ h, v: undefined });
  const head = answer.slice(0, answer.indexOf('\r\n\r\n')).toLowerCase();
  expect(head).toContain('x-kept: kept');
  expect(head).not.toContain('x-up-hop');
});

it('records no credential header, session id or card number, and keeps the HAR readable by its owner only', async () => {
  const res = await request(`${proxy.url}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer TOKENSECRET99', cookie: 'JSESSIONID=COOKIESECRET42', 'x-session-id': 'HDRSESSION77' },
    body: JSON.stringify({ cardNumber: '4111 1111 1111 1111', amount: 12, sessionId: 'S3SSION-abcdef0123456789' }),
  });
  expect(res.statusCode).toBe(200);
  await (await request(`${proxy.url}/pets/9?access_token=QTOKEN55&x=1`)).body.text();
  // The client gets the real answer, secrets and all: only the recording is redacted.
  expect(await res.body.text()).toContain('4111111111111111');
  proxy.stop();
  const done = await proxy.exited;
  expect(done.code).toBe(0);
  const harFile = path.join(dir, 'hostile.har');
  expect(statSync(harFile).mode & 0o777).toBe(0o600);
  const har = readFileSync(harFile, 'utf8');
  const contract = readFileSync(path.join(dir, 'hostile.spec'), 'utf8');
  for (const secret of ['TOKENSECRET99', 'COOKIESECRET42', 'HDRSESSION77', '4111111111111111', '4111 1111 1111 1111', 'QTOKEN55']) {
    expect({ secret, inHar: har.includes(secret) }).toEqual({ secret, inHar: false });
    expect({ secret, inContract: contract.includes(secret) }).toEqual({ secret, inContract: false });
  }
  // Session ids in bodies stay out of the contract's Examples (the raw HAR is the owner's).
  expect(contract).not.toContain('S3SSION-abcdef0123456789');
  expect(contract).toMatch(/Examples:/);
  expect(har).toContain('"value": "***"');
}, 30_000);
