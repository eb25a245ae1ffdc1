import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { request } from 'undici';
import { readBody, readBodyUpTo, readBoundedBody, type BodyRead } from '../../src/http/read-body';
import { startExampleService, type RunningService } from '../../src/example/service';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/limits';

/**
 * http/read-body.ts, the one reader of a body under a byte limit: each way of treating a body past
 * the limit (destroyed, drained, paused) on real sockets, and the example service bounded by it.
 */
const KB64 = Buffer.alloc(64 * 1024, 'a');
let server: Server;
let url: string;
/** What the server's reader saw; past 1000 bytes a body is treated as its path says. */
const seen: { read?: BodyRead; destroyed?: boolean }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/answer') {
      // A big answer for the client side.
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 16; i++) res.write(KB64);
      return void res.end('end');
    }
    const past = req.url === '/destroy' ? 'destroy' : 'drain';
    readBody(req, 1000, past, (error, read) => {
      const entry = { read, destroyed: req.destroyed };
      seen.push(entry);
      if (error) return;
      if (read!.complete) return void res.end(`${read!.bytes.length}`);
      res.writeHead(413, { 'content-type': 'text/plain' });
      res.end('too large');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A chunked upload of `chunks` × 64 KiB; resolves with the status, or the error the client saw. */
function upload(path: string, chunks: number): Promise<{ status?: number; error?: string; sent: boolean }> {
  return new Promise((resolve) => {
    let sent = false;
    const req = httpRequest(`${url}${path}`, { method: 'POST', agent: false }, (res) => {
      res.resume();
      res.once('end', () => setImmediate(() => resolve({ status: res.statusCode, sent })));
    });
    req.once('error', (e) => resolve({ error: e.message, sent }));
    req.once('finish', () => (sent = true));
    let left = chunks;
    const pump = (): void => {
      while (left > 0) {
        left--;
        if (!req.write(KB64)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('readBody', () => {
  it('hands a body within the limit whole', async () => {
    const res = await request(`${url}/drain`, { method: 'POST', body: 'x'.repeat(1000) });
    expect(await res.body.text()).toBe('1000');
    expect(seen.at(-1)!.read!.complete).toBe(true);
  });

  it('drained past the limit: the upload goes on to its end and the 413 reaches the client', async () => {
    const r = await upload('/drain', 16);
    expect(r).toEqual({ status: 413, sent: true });
    expect(seen.at(-1)).toEqual({ read: { bytes: Buffer.alloc(0), complete: false }, destroyed: false });
  });

  it('destroyed past the limit: the request is cut off, no answer', async () => {
    const r = await upload('/destroy', 64);
    expect(r.status).toBeUndefined();
    expect(r.error).toBeDefined();
    expect(seen.at(-1)).toEqual({ read: { bytes: Buffer.alloc(0), complete: false }, destroyed: true });
  });

  it('paused past the limit: what was read, and the rest left to read', async () => {
    const res = await request(`${url}/answer`);
    const read = await readBodyUpTo(res.body, 100_000, 'pause');
    expect(read.complete).toBe(false);
    expect(read.bytes.length).toBeGreaterThan(100_000);
    // As the proxy does: the rest streamed on from where the read paused.
    let rest = 0;
    await new Promise<void>((done) =>
      res.body
        .on('data', (c: Buffer) => (rest += c.length))
        .once('end', done)
        .resume(),
    );
    expect(read.bytes.length + rest).toBe(16 * KB64.length + 3);
  });

  it('refuses a whole body one byte past the limit, and takes one exactly at it', async () => {
    const tooLarge = () => new RangeError('too large');
    const res = await request(`${url}/answer`);
    await expect(readBoundedBody(res.body, 16 * KB64.length + 2, tooLarge)).rejects.toThrow('too large');
    expect(res.body.destroyed).toBe(true);
    const again = await request(`${url}/answer`);
    expect((await readBoundedBody(again.body, 16 * KB64.length + 3, tooLarge)).length).toBe(16 * KB64.length + 3);
  });

  it("passes on the stream's error, and reads text chunks as bytes", async () => {
    const failing = new PassThrough();
    const read = readBodyUpTo(failing, 10, 'destroy');
    failing.destroy(new Error('the peer went away'));
    await expect(read).rejects.toThrow('the peer went away');
    const text = await readBodyUpTo(Readable.from(['ab', 'cé']), 10, 'destroy');
    expect(text).toEqual({ bytes: Buffer.from('abcé'), complete: true });
  });
});

describe('the example service reads its requests through it', () => {
  let service: RunningService;
  beforeAll(async () => (service = await startExampleService(0)));
  afterAll(() => service.close());

  it('answers within the bound, and 413 one byte past it', async () => {
    const ok = await request(`${service.url}/square`, { method: 'POST', body: '7' });
    expect(await ok.body.text()).toBe('49');
    const big = await request(`${service.url}/square`, { method: 'POST', body: Buffer.alloc(DEFAULT_MAX_BODY_BYTES + 1, ' ') });
    expect(big.statusCode).toBe(413);
    expect(await big.body.text()).toBe(`request body larger than ${DEFAULT_MAX_BODY_BYTES} bytes`);
  });
});
