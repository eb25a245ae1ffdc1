import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import path from 'node:path';
import { createClientAsync, listen } from 'soap';
import { parseContract } from '../../src/contract/load';
import { connectStub, startStub, type RunningStub } from '../../src/stub';
import { PET_SPEC, petRequest, post, REPO, startStubProcess } from './helpers';

/**
 * `accord stub --passthrough`: a request that fits a scenario but no expectation or example answers goes to a real
 * service on 127.0.0.1, and its answer comes back as it was, checked against the contract. Real `soap` clients;
 * real services that answer right, answer wrong, are down, are slow, or answer too much.
 */
const WSDL = path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl');

interface Upstream {
  url: string;
  server: Server;
  seen: { url: string; headers: IncomingHttpHeaders; body: string }[];
}

/** A real SOAP service (the `soap` package) whose getPet answers with what `pet` returns. */
async function soapService(pet: (id: number) => Record<string, unknown>): Promise<Upstream> {
  const seen: Upstream['seen'] = [];
  const server = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const getPet = (args: { id: number }, _cb: unknown, _headers: unknown, req: IncomingMessage) => {
    seen.push({ url: req.url ?? '', headers: req.headers, body: '' });
    return pet(Number(args.id));
  };
  listen(server, '/ws', { PetService: { PetPort: { getPet } } }, readFileSync(WSDL, 'utf8'));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen };
}

/** A plain service answering every request with `answer` (or never, when it returns false). */
async function plainService(answer: (res: import('node:http').ServerResponse) => unknown): Promise<Upstream> {
  const seen: Upstream['seen'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen };
}

const PETS: Record<number, string> = { 1: 'Rex', 2: 'Tom' };
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await (o as RunningStub).close?.();
});

async function stubFor(passThrough: string | { target: string; timeoutMs?: number }, more: { maxBodyBytes?: number; strict?: boolean; verbose?: boolean } = {}) {
  const lines: string[] = [];
  const stub = await startStub({ contracts: PET_SPEC, passThrough, log: (l) => lines.push(l), ...more });
  open.push(stub);
  return { stub, lines };
}

function serve(u: Upstream): Upstream {
  open.push({ close: () => new Promise((resolve) => u.server.close(resolve)) });
  u.server.closeAllConnections?.();
  return u;
}

it('passes a soap client through to the healthy service: its answers come back, the journal says pass-through and no drift', async () => {
  const service = serve(await soapService((id) => ({ id, name: PETS[id] ?? 'Nobody', type: 'dog', status: 'available' })));
  const { stub, lines } = await stubFor(service.url, { verbose: true });
  const client = await createClientAsync(WSDL, { endpoint: `${stub.url}/ws` });
  const [one] = (await client.getPetAsync({ id: 1 })) as [{ name: string }];
  const [two] = (await client.getPetAsync({ id: 2 })) as [{ name: string }];
  expect([one.name, two.name]).toEqual(['Rex', 'Tom']);
  expect(service.seen.map((s) => s.url)).toEqual(['/ws', '/ws']);
  const calls = stub.calls();
  expect(calls.map((c) => [c.answeredBy, c.status, c.scenario?.name, c.drift])).toEqual([
    ['pass-through', 200, 'Get a pet by id', undefined],
    ['pass-through', 200, 'Get a pet by id', undefined],
  ]);
  expect(lines.filter((l) => l.includes('drift'))).toEqual([]);
  // --verbose: a line per request once the answer is passed on, with its status and time.
  expect(lines.filter((l) => l.includes('passed through')).map((l) => l.replace(/\(\d+\.\d+ ms\)$/, '(t)'))).toEqual(
    Array(2).fill(`POST /ws -> 200 passed through to ${service.url} (t)`),
  );
});

it('answers from an expectation or example first; only what nothing answers is passed through; nothing is generated', async () => {
  const service = serve(await soapService((id) => ({ id, name: PETS[id] ?? 'Nobody', type: 'dog', status: 'available' })));
  const { stub } = await stubFor(service.url);
  stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('9') } });
  expect((await post(`${stub.url}/ws`, petRequest('9'))).status).toBe(200);
  const client = await createClientAsync(WSDL, { endpoint: `${stub.url}/ws` });
  const [real] = (await client.getPetAsync({ id: 1 })) as [{ name: string }];
  expect(real.name).toBe('Rex');
  expect(stub.calls().map((c) => c.answeredBy)).toEqual(['expectation', 'pass-through']);
  expect(service.seen).toHaveLength(1);
  // A request that fits no scenario is the client's mistake: the stub's 400, not passed on.
  const wrong = await post(`${stub.url}/ws`, petRequest('not-a-number'));
  expect(wrong.status).toBe(400);
  expect(service.seen).toHaveLength(1);
  expect(stub.calls({ unmatched: true })).toHaveLength(1);
});

it('returns a wrong answer as it came, and reports the drift in the journal and in one log line', async () => {
  // The service leaves out <status> and sends a name for the id.
  const service = serve(await soapService(() => ({ id: 'seven', name: 'Rex', type: 'dog' })));
  const { stub, lines } = await stubFor(service.url);
  const client = await createClientAsync(WSDL, { endpoint: `${stub.url}/ws` });
  const [got] = (await client.getPetAsync({ id: 7 })) as [{ id: string; name: string; status?: string }];
  expect(got.name).toBe('Rex');
  expect(got.status).toBeUndefined();
  const [entry] = stub.calls();
  expect(entry.answeredBy).toBe('pass-through');
  expect(entry.status).toBe(200);
  expect(entry.drift?.length).toBeGreaterThan(0);
  expect(entry.drift!.map((d) => `${d.path} ${d.actual}`).join('\n')).toMatch(/id[\s\S]*seven|status/);
  const drift = lines.filter((l) => l.startsWith('drift: '));
  expect(drift).toHaveLength(1);
  expect(drift[0]).toMatch(/^drift: POST \/ws "Get a pet by id": RESPONSE\.BODY \S+: expected .+, found .+/);
  expect(entry.report).toBe(drift[0]);
  // From a test that holds only the stub's URL, the same.
  const [remote] = await connectStub(stub.url).calls({ answeredBy: 'pass-through' });
  expect(remote.drift).toEqual(entry.drift);
});

it('--strict with a pass-through passes on what strict mode alone would refuse', async () => {
  const service = serve(await soapService((id) => ({ id, name: 'Rex', type: 'dog', status: 'available' })));
  const { stub } = await stubFor(service.url, { strict: true });
  const r = await post(`${stub.url}/ws`, petRequest('1'));
  expect(r.status).toBe(200);
  expect(stub.calls().map((c) => c.answeredBy)).toEqual(['pass-through']);
});

it('accord stub --passthrough (the command): says so at start and logs each drift in one line', async () => {
  const service = serve(await soapService(() => ({ id: 'seven', name: 'Rex', type: 'dog' })));
  const stub = await startStubProcess([PET_SPEC, '--port', '0', '--passthrough', service.url]);
  try {
    expect(stub.stdout()).toContain(`Pass-through: requests no expectation or example answers go to ${service.url}; drift is logged.`);
    const r = await post(`${stub.url}/ws`, petRequest('7'));
    expect(r.status).toBe(200);
    const end = Date.now() + 10_000;
    while (!stub.stderr().includes('drift: ') && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(stub.stderr()).toMatch(/^drift: POST \/ws "Get a pet by id": RESPONSE\.BODY /m);
  } finally {
    stub.child.kill('SIGTERM');
    await stub.exited;
  }
}, 30_000);

it('keeps the stub answering its own API while a pass-through call waits', async () => {
  const slow = serve(await plainService(() => false));
  const { stub } = await stubFor({ target: slow.url, timeoutMs: 2000 });
  const waiting = post(`${stub.url}/ws`, petRequest('1'));
  // The call is at the service, waiting for its answer.
  for (const end = Date.now() + 10_000; slow.seen.length === 0 && Date.now() < end;) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(slow.seen).toHaveLength(1);
  // Answered at once over HTTP while the call waits; it is journaled once it ends.
  expect(await connectStub(stub.url).calls()).toEqual([]);
  expect((await waiting).status).toBe(504);
  expect((await connectStub(stub.url).calls()).map((c) => [c.answeredBy, c.status])).toEqual([['pass-through', 504]]);
});

it('a service that is down: 502 in one line naming it, and a journal entry', async () => {
  const down = serve(await plainService(() => false));
  const url = down.url;
  await new Promise((resolve) => down.server.close(resolve));
  const { stub, lines } = await stubFor(url);
  const r = await post(`${stub.url}/ws`, petRequest('1'));
  expect(r.status).toBe(502);
  expect(r.body).toBe(`accord stub: pass-through: could not reach ${url}: connect ECONNREFUSED ${url.slice('http://'.length)}\n`);
  expect(r.body.trim().split('\n')).toHaveLength(1);
  expect(stub.calls().map((c) => [c.answeredBy, c.status, c.report])).toEqual([['pass-through', 502, r.body.trim()]]);
  expect(lines.some((l) => l.includes('-> 502'))).toBe(true);
});

it('a slow service: 504 once the pass-through timeout has passed, never a hang', async () => {
  const slow = serve(await plainService(() => false));
  const { stub } = await stubFor({ target: slow.url, timeoutMs: 400 });
  const started = Date.now();
  const r = await post(`${stub.url}/ws`, petRequest('1'));
  expect(r.status).toBe(504);
  expect(r.body).toBe(`accord stub: pass-through: ${slow.url} did not answer within 400 ms\n`);
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(stub.calls().map((c) => [c.answeredBy, c.status])).toEqual([['pass-through', 504]]);
});

it('an answer over the stub body limit: 502 saying so (declared or streamed), and a journal entry', async () => {
  const big = 'x'.repeat(200_000);
  const declared = serve(await plainService((res) => res.writeHead(200, { 'content-type': 'text/xml', 'content-length': String(big.length) }).end(big)));
  const chunked = serve(
    await plainService((res) => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      for (let i = 0; i < 20; i++) res.write(big.slice(0, 10_000));
      res.end();
    }),
  );
  for (const service of [declared, chunked]) {
    const { stub } = await stubFor(service.url, { maxBodyBytes: 64 * 1024 });
    const r = await post(`${stub.url}/ws`, petRequest('1'));
    expect(r.status).toBe(502);
    expect(r.body).toBe(`accord stub: pass-through: the answer of ${service.url} is larger than 65536 bytes (the stub's body limit; raise it with --max-body-bytes)\n`);
    expect(stub.calls().map((c) => [c.answeredBy, c.status])).toEqual([['pass-through', 502]]);
  }
});

/** Sends raw HTTP/1.1 text (a request target undici would not send as is) and returns the status line and body. */
function raw(url: string, text: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    // Written, not ended: a client that half-closes its side has gone away, as far as the stub can tell.
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let got = '';
    socket.on('data', (d: Buffer) => (got += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(got)?.[1]), body: got.slice(got.indexOf('\r\n\r\n') + 4) }));
  });
}

it('reaches only the configured service: absolute-form and a foreign Host do not redirect it, ".." may not climb above its prefix', async () => {
  const service = serve(await plainService((res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"name": "x"}')));
  const contract = parseContract(
    'Feature: Files\n\n  Scenario: Read a file\n    When GET /(dir:string)/(name:string)\n    Then status 200\n    And response-body {"name": "(string)"}\n',
    'files.spec',
  );
  const stub = await startStub({ contracts: contract, passThrough: `${service.url}/base`, log: () => undefined });
  open.push(stub);
  const req = (target: string, host: string) => `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\ncontent-length: 0\r\n\r\n`;
  const ok = await raw(stub.url, req('/a/b', 'evil.example:80'));
  expect(ok.status).toBe(200);
  // A foreign Host is not where the call goes: it goes to the configured service, which sees its own host.
  expect(service.seen.map((s) => [s.url, s.headers.host])).toEqual([['/base/a/b', new URL(service.url).host]]);
  const absolute = await raw(stub.url, req('http://evil.example/a/b', 'evil.example'));
  expect(absolute.status).toBe(400);
  expect(absolute.body).toContain('accord stub: pass-through: forwards only to');
  const climb = await raw(stub.url, req('/../etc', new URL(stub.url).host));
  expect(climb.status).toBe(400);
  expect(climb.body).toBe('accord stub: pass-through: a path may not climb above /base of the target ("/../")\n');
  const encoded = await raw(stub.url, req('/%2e%2e/etc', new URL(stub.url).host));
  expect(encoded.status).toBe(400);
  // Climbs to a service that decodes `%2f`, or drops a segment's `;parameters` (`..;` is `..` to Tomcat): refused too.
  for (const t of ['/..;/etc', '/..%2fetc/x', '/x/..%2F..%2Fetc', '/..%5cetc/x', '/%252e%252e/etc']) {
    const r = await raw(stub.url, req(t, new URL(stub.url).host));
    expect({ t, status: r.status }).toEqual({ t, status: 400 });
  }
  // An encoded slash that stays inside is passed on as written.
  expect((await raw(stub.url, req('/a%2fb/c', new URL(stub.url).host))).status).toBe(200);
  expect(service.seen.map((s) => s.url)).toEqual(['/base/a/b', '/base/a%2fb/c']);
  expect(stub.calls().map((c) => [c.answeredBy, c.status])).toEqual([
    ['pass-through', 200],
    ['pass-through', 400],
    ['pass-through', 400],
    ['pass-through', 400],
    ['pass-through', 400],
    ['pass-through', 400],
    ['pass-through', 400],
    ['pass-through', 400],
    ['pass-through', 400],
    ['pass-through', 200],
  ]);
});

it('forwards credentials but hides them in the journal; hop-by-hop headers stay at the stub', async () => {
  const service = serve(await soapService((id) => ({ id, name: 'Rex', type: 'dog', status: 'available' })));
  const { stub } = await stubFor(service.url);
  const body = petRequest('1');
  // Raw, since an HTTP client library decides the Connection header itself.
  const r = await raw(
    stub.url,
    `POST /ws HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: text/xml; charset=utf-8\r\nauthorization: Bearer real-Token-1\r\nx-api-key: key-2\r\n` +
      `connection: close, x-hop\r\nx-hop: mine\r\nx-tenant: acme\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  expect(r.status).toBe(200);
  const [seen] = service.seen;
  expect(seen.headers.authorization).toBe('Bearer real-Token-1');
  expect(seen.headers['x-tenant']).toBe('acme');
  expect(seen.headers['x-hop']).toBeUndefined();
  const [entry] = stub.calls();
  expect(entry.headers.authorization).toBe('***');
  expect(entry.headers['x-api-key']).toBe('***');
  expect(entry.headers['x-tenant']).toBe('acme');
  expect(JSON.stringify(stub.calls())).not.toContain('real-Token-1');
});

it('a drift line, the journal and --verbose hide the credentials sent, also when the service echoes them escaped', async () => {
  const TOKEN = 'real/Token&Q1';
  const QUERY = 'q-Secret/77';
  // A wrong answer (a text id) that echoes the bearer token JSON-escaped and base64url'd, and the query's token percent-encoded.
  const service: Upstream = serve(
    await plainService((res) => {
      const seen = service.seen[service.seen.length - 1];
      const token = String(seen.headers.authorization).slice('Bearer '.length);
      const echoed = `${JSON.stringify(token).slice(1, -1).replace(/\//g, '\\/').replace(/&/g, '\\u0026')} ${Buffer.from(`x${token}`).toString('base64url')} ${encodeURIComponent(QUERY)}`;
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"id": "${echoed}"}`);
    }),
  );
  const contract = parseContract(
    'Feature: Items\n\n  Scenario: Get items\n    When GET /items?access_token=(string)\n    Then status 200\n    And response-body {"id": "(number)"}\n',
    'items.spec',
  );
  const lines: string[] = [];
  const stub = await startStub({ contracts: contract, passThrough: service.url, verbose: true, log: (l) => lines.push(l) });
  open.push(stub);
  const target = `/items?access_token=${encodeURIComponent(QUERY)}`;
  const r = await raw(stub.url, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: Bearer ${TOKEN}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
  expect(r.status).toBe(200);
  // The service got the real request.
  expect(service.seen.map((s) => [s.url, s.headers.authorization])).toEqual([[target, `Bearer ${TOKEN}`]]);
  for (const end = Date.now() + 10_000; !lines.some((l) => l.startsWith('drift:')) && Date.now() < end;) await new Promise((resolve) => setTimeout(resolve, 10));
  const drift = lines.filter((l) => l.startsWith('drift:'));
  expect(drift).toHaveLength(1);
  expect(drift[0]).toContain('GET /items?access_token=***');
  // A base64 run keeps the characters it shares with its neighbours (`eH***E`), nothing of the token.
  expect(drift[0]).toMatch(/found "\*\*\* [\w-]{0,3}\*\*\*[\w-]? \*\*\*"/);
  const shown = [...lines, JSON.stringify(stub.calls())].join('\n');
  for (const f of [
    TOKEN,
    QUERY,
    encodeURIComponent(QUERY),
    JSON.stringify(TOKEN).slice(1, -1).replace(/\//g, '\\/'),
    'real\\/Token',
    Buffer.from(`x${TOKEN}`).toString('base64url').slice(2, 12),
  ]) {
    expect({ f, shown: shown.includes(f) }).toEqual({ f, shown: false });
  }
  expect(lines.some((l) => l.includes('passed through') && l.startsWith('GET /items?access_token=***'))).toBe(true);
});
