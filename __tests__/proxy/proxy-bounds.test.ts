import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { PROXY_LIMITS } from '../../src/limits';
import { refusedAtStart, rssMb, runProxy } from './proxy-helpers';

/**
 * `accord proxy` bounds what it holds and loses nothing it should keep: an endless answer is
 * streamed to the client (not buffered), an answer larger than what is recorded passes whole
 * and the import goes on with the other calls, a stop does not wait on a silent target, and an
 * output it could not write is refused before recording starts. Real upstream servers, the CLI
 * as a child process.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'accord-proxy-bounds-'));
const BIG = 20 * 1024 * 1024;
let upstream: Server;
let target: string;
let endlessClosed = 0;
const silent: ServerResponse[] = [];

beforeAll(async () => {
  const bigBody = `{"items":["${'x'.repeat(BIG)}"]}`;
  upstream = createServer((req, res) => {
    req.resume();
    if (req.url === '/endless') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      res.write('{"a":"');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.once('close', () => endlessClosed++);
      pump();
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(bigBody)) });
      res.end(bigBody);
    } else if (req.url === '/silent') {
      silent.push(res);
    } else {
      const text = JSON.stringify({ id: 7, name: 'Rex' });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
      res.end(text);
    }
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const r of silent) r.destroy();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

it('streams an endless answer to the client with flat memory, and ends the upstream request when the client goes away', async () => {
  const proxy = await runProxy(dir, ['--target', target, '--out', 'endless.spec', '--har', 'endless.har']);
  try {
    const before = rssMb(proxy.pid);
    const ac = new AbortController();
    const res = await request(`${proxy.url}/endless`, { signal: ac.signal, headersTimeout: 5000 });
    expect(res.statusCode).toBe(200);
    let got = 0;
    let peak = 0;
    let nextSample = 0;
    for await (const chunk of res.body) {
      got += (chunk as Buffer).length;
      if (got >= nextSample) {
        peak = Math.max(peak, rssMb(proxy.pid));
        nextSample += 8 * 1024 * 1024;
      }
      if (got > 256 * 1024 * 1024) break;
    }
    ac.abort();
    expect(got).toBeGreaterThan(256 * 1024 * 1024);
    // 256 MB went through; the proxy held little of it (4 MiB recorded, stream buffers; about 70 MB of growth seen, most of it the heap warming up).
    expect(peak - before).toBeLessThan(150);
    for (let i = 0; i < 50 && endlessClosed === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(endlessClosed).toBe(1);
    // A call that completes, so that there is a contract to write.
    await (await request(`${proxy.url}/pets/7`)).body.text();
  } finally {
    proxy.stop();
  }
  const done = await proxy.exited;
  expect(done.code).toBe(0);
  // The cut-off answer is recorded cut and marked, and left out of the contract (with a note), not typed from its beginning.
  const har = JSON.parse(readFileSync(path.join(dir, 'endless.har'), 'utf8')) as {
    log: { entries: { request: { url: string }; response: { content: { text: string; _truncated?: boolean; comment?: string } } }[] };
  };
  const endless = har.log.entries.find((e) => e.request.url.endsWith('/endless'))!;
  expect(endless.response.content._truncated).toBe(true);
  expect(endless.response.content.text.length).toBeLessThanOrEqual(PROXY_LIMITS.recordedBodyBytes);
  expect(endless.response.content.comment).toMatch(/recorded only the first 4194304 of \d+ or more bytes/);
  expect(done.stdout).toMatch(/HAR entries with a body recorded only in part/);
  const contract = readFileSync(path.join(dir, 'endless.spec'), 'utf8');
  expect(contract).toContain('GET /pets/(');
  expect(contract).not.toContain('Scenario: GET /endless');
  // The kept recording is cited as given.
  expect(contract).toMatch(/1 logged call: endless\.har:\d+/);
}, 60_000);

it('passes a 20 MiB answer whole, records it cut, and still writes the contract of the other calls', async () => {
  const proxy = await runProxy(dir, ['--target', target, '--out', 'big.spec']);
  try {
    const res = await request(`${proxy.url}/big`);
    const text = await res.body.text();
    expect(text.length).toBe(BIG + '{"items":[""]}'.length);
    await (await request(`${proxy.url}/pets/7`)).body.text();
  } finally {
    proxy.stop();
  }
  const done = await proxy.exited;
  expect(done.stderr).not.toMatch(/nothing written/);
  expect(done.code).toBe(0);
  expect(readFileSync(path.join(dir, 'big.spec'), 'utf8')).toContain('GET /pets/(');
}, 60_000);

it('stops within its grace when a call still waits on a silent target, and says so', async () => {
  const proxy = await runProxy(dir, ['--target', target, '--out', 'silent.spec']);
  const pending = request(`${proxy.url}/silent`).then(
    (r) => r.statusCode,
    () => 'failed',
  );
  for (let i = 0; i < 50 && silent.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  expect(silent.length).toBe(1);
  proxy.stop();
  const done = await proxy.exited;
  expect(done.stopMs).toBeLessThan(PROXY_LIMITS.stopGraceMs + 3000);
  expect(done.stderr).toContain('recorded 0 calls (1 cut off, still waiting on the target when stopped)');
  expect(done.code).toBe(2);
  expect(await pending).not.toBe(200);
}, 30_000);

it('refuses to start when --out (or --har) exists without --force, or its folder is missing', async () => {
  writeFileSync(path.join(dir, 'taken.spec'), 'Feature: mine\n');
  writeFileSync(path.join(dir, 'taken.har'), '{}');
  const exists = await refusedAtStart(dir, ['--target', target, '--out', 'taken.spec']);
  expect(exists.code).toBe(2);
  // It names the proxy's own options: it has --out and --har, no --output.
  expect(exists.stderr).toContain('taken.spec exists; use --force to overwrite it or --out to write elsewhere');
  const har = await refusedAtStart(dir, ['--target', target, '--out', 'fresh.spec', '--har', 'taken.har']);
  expect(har.code).toBe(2);
  expect(har.stderr).toContain('taken.har exists; use --force to overwrite it or --har to write elsewhere');
  const missing = await refusedAtStart(dir, ['--target', target, '--out', path.join('no', 'such', 'folder', 'x.spec')]);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toMatch(/cannot write no\/such\/folder\/x\.spec: its folder does not exist/);
  expect(readFileSync(path.join(dir, 'taken.spec'), 'utf8')).toBe('Feature: mine\n');
  expect(existsSync(path.join(dir, 'fresh.spec'))).toBe(false);
}, 30_000);

it('cuts a recorded entry to what accord import log reads of one', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  expect(require('../../src/proxy/har').HAR_ENTRY_CHARS).toBe(require('../../src/logs/limits').DEFAULT_LOG_LIMITS.maxHarEntryChars);
});
