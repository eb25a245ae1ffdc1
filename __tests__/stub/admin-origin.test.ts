import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { connectStub, startStub, type RunningStub } from '../../src/stub';
import { CONTRACTS, startStubProcess } from './helpers';

/**
 * Any web page the developer opens can send requests to 127.0.0.1. The stub's API must not be
 * drivable from one: the requests below are what a browser sends for a hostile page (a form
 * post, a text/plain fetch, a CORS preflight, a DNS-rebound host name). The stub runs with
 * `cors: true`, which must still give the API no CORS permission.
 */
const PETS_SPEC = path.join(CONTRACTS, 'pets', 'api_pets_v1.spec');
let stub: RunningStub;

beforeAll(async () => {
  stub = await startStub({ contracts: PETS_SPEC, cors: true, allowedHosts: ['petstore-stub'], log: () => {} });
});
afterAll(() => stub.close());
afterEach(() => stub.reset());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with exactly these headers (Host included), as a browser would send it. */
function raw(method: string, target: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: stub.port, method, path: target, headers, setHost: headers.Host === undefined }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const EVIL = 'http://evil.example';
const EXPECTATION = JSON.stringify({ request: { method: 'GET', path: '/pets/7' }, response: { body: { petid: 777 } } });
const corsHeaders = (r: Raw) => Object.keys(r.headers).filter((h) => h.startsWith('access-control-'));

async function petid(id: number): Promise<number> {
  const r = await raw('GET', `/pets/${id}`, {});
  return (JSON.parse(r.body) as { petid: number }).petid;
}

describe('a hostile page cannot drive the stub', () => {
  it('a form POST and a text/plain POST from another site are refused, and register nothing', async () => {
    const form = await raw('POST', '/_accord/expectations', { Origin: EVIL, 'Content-Type': 'application/x-www-form-urlencoded' }, `x=${encodeURIComponent(EXPECTATION)}`);
    expect(form.status).toBe(403);
    expect(form.body).toContain("may not use the stub's API");
    const text = await raw('POST', '/_accord/expectations', { Origin: EVIL, 'Content-Type': 'text/plain;charset=UTF-8' }, EXPECTATION);
    expect(text.status).toBe(403);
    const specmatic = await raw('POST', '/_specmatic/expectations', { Origin: EVIL, 'Content-Type': 'text/plain' }, '{}');
    expect(specmatic.status).toBe(403);
    // Without an Origin (an old browser, a plugin) the content type alone refuses it.
    const noOrigin = await raw('POST', '/_accord/expectations', { 'Content-Type': 'text/plain' }, EXPECTATION);
    expect(noOrigin.status).toBe(415);
    expect(noOrigin.body).toContain('send Content-Type: application/json');
    expect(stub.calls({ path: '/_accord/expectations' })).toEqual([]);
    expect(await petid(7)).not.toBe(777);
    for (const r of [form, text, specmatic, noOrigin]) expect(corsHeaders(r)).toEqual([]);
  });

  it('a reset from another site (a bodiless no-cors fetch, a form) is refused: the journal is kept', async () => {
    await raw('GET', '/pets/1', {});
    expect((await raw('POST', '/_accord/reset', { Origin: EVIL })).status).toBe(403);
    expect((await raw('POST', '/_accord/reset', { Origin: 'null', 'Content-Type': 'application/x-www-form-urlencoded' }, '')).status).toBe(403);
    expect((await raw('DELETE', '/_accord/requests', { Origin: EVIL })).status).toBe(403);
    expect(stub.calls({ path: '/pets/1' })).toHaveLength(1);
  });

  it('a preflight from another origin gets no allow headers, even with cors on; the contract paths still get them', async () => {
    const preflight = await raw('OPTIONS', '/_accord/expectations', { Origin: EVIL, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' });
    expect(preflight.status).toBe(403);
    expect(corsHeaders(preflight)).toEqual([]);
    // From a loopback page too: the API is for test code, not for pages.
    const local = await raw('OPTIONS', '/_accord/requests', { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'GET' });
    expect(corsHeaders(local)).toEqual([]);
    const contract = await raw('OPTIONS', '/pets/1', { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'GET' });
    expect(contract.status).toBe(204);
    expect(contract.headers['access-control-allow-methods']).toBe('GET');
  });

  it('a foreign Host (DNS rebinding) cannot read the journal, and a loopback page gets no CORS on it', async () => {
    await raw('GET', '/pets/2', { Authorization: 'Bearer secret-token' });
    for (const host of ['evil.example', 'evil.example:9000', 'localhost.evil.example', '127.0.0.1.nip.io']) {
      const read = await raw('GET', '/_accord/requests', { Host: host, Origin: `http://${host}` });
      expect([host, read.status]).toEqual([host, 403]);
      expect(read.body).not.toContain('secret-token');
      const plain = await raw('GET', '/_accord/requests', { Host: host });
      expect([host, plain.status]).toEqual([host, 403]);
    }
    const own = await raw('GET', '/_accord/requests', { Origin: 'http://localhost:3000' });
    expect(own.status).toBe(200);
    expect(own.headers['access-control-allow-origin']).toBeUndefined();
    // The contracts' own paths keep --cors.
    expect((await raw('GET', '/pets/3', { Origin: EVIL })).headers['access-control-allow-origin']).toBe(EVIL);
  });
});

describe('test code still drives it', () => {
  it('answers under loopback names, IP addresses and allowed hosts', async () => {
    for (const host of [`127.0.0.1:${stub.port}`, `localhost:${stub.port}`, '[::1]:1', 'LOCALHOST', '10.0.0.7:9000', `petstore-stub:${stub.port}`, 'app.localhost']) {
      const r = await raw('GET', '/_accord/expectations', { Host: host });
      expect([host, r.status]).toEqual([host, 200]);
    }
  });

  it('curl-style: a JSON POST, a bodiless reset', async () => {
    const set = await raw('POST', '/_accord/expectations', { 'Content-Type': 'application/json; charset=utf-8' }, EXPECTATION);
    expect(set.status).toBe(201);
    expect(await petid(7)).toBe(777);
    expect((await raw('POST', '/_accord/reset', {})).status).toBe(200);
    expect(await petid(7)).not.toBe(777);
  });

  it('the Jest-side client (connectStub) works unchanged', async () => {
    const client = connectStub(stub.url);
    const { id } = await client.expect({ request: { method: 'GET', path: '/pets/8' }, response: { body: { petid: 888 } } });
    expect(await petid(8)).toBe(888);
    expect(await client.calls({ path: '/pets/8' })).toHaveLength(1);
    expect(await client.remove(id)).toBe(true);
    await client.reset();
    expect(await client.calls()).toEqual([]);
  });
});

it('accord stub --allow-host names a host the API answers under (repeatable); others are refused', async () => {
  const proc = await startStubProcess([PETS_SPEC, '--port', '0', '--allow-host', 'Petstore-Stub', '--allow-host', 'other']);
  try {
    const { port } = new URL(proc.url);
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/_accord/requests', headers: { Host: host }, setHost: false }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await status(`petstore-stub:${port}`)).toBe(200);
    expect(await status('other')).toBe(200);
    expect(await status('evil.example')).toBe(403);
  } finally {
    proc.child.kill('SIGTERM');
    await proc.exited;
  }
});
