import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { startStub, type RunningStub } from '../../src/stub';
import { writeTogether } from '../../src/stub/written-together';
import { PET_SPEC, petRequest, post } from './helpers';

/**
 * The stub writes the answers decided in one turn of the event loop together, after that turn's reads
 * (src/stub/written-together.ts). Each answer must still reach its own request, in order on a connection,
 * and one answer that cannot be written must not keep the others from theirs.
 */

describe('answers written together', () => {
  let server: Server;
  let url: string;
  const seen: { res: ServerResponse; path: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => seen.push({ res, path: req.url ?? '' }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Sends `n` requests at once and resolves when the server has all of them (their answers not yet given). */
  async function arrived(paths: string[]): Promise<Promise<Response>[]> {
    seen.length = 0;
    const answers = paths.map((p) => fetch(`${url}${p}`));
    while (seen.length < paths.length) await new Promise((r) => setTimeout(r, 5));
    return answers;
  }

  it('writes after the turn of the event loop, not at the call; each answer to its own request', async () => {
    const answers = await arrived(['/a', '/b', '/c']);
    for (const { res, path } of seen) writeTogether(res, 200, { 'content-type': 'text/plain' }, `answer to ${path}`, () => undefined);
    expect(seen.map(({ res }) => res.headersSent)).toEqual([false, false, false]);
    await new Promise((r) => setImmediate(r));
    expect(seen.map(({ res }) => res.headersSent)).toEqual([true, true, true]);
    expect(await Promise.all(answers.map(async (a) => a.then((r) => r.text())))).toEqual(['answer to /a', 'answer to /b', 'answer to /c']);
  });

  it('an answer that cannot be written goes to its own failure; the others are written; a connection gone is passed over', async () => {
    const answers = await arrived(['/ok1', '/bad', '/gone', '/ok2']);
    const failures: string[] = [];
    for (const { res, path } of seen) {
      if (path === '/gone') res.destroy();
      // A header value Node refuses to send: writeHead throws.
      const headers = path === '/bad' ? { 'x-broken': 'a\nb' } : {};
      writeTogether(res, 200, headers, `answer to ${path}`, (e) => {
        failures.push(`${path}: ${(e as Error).message}`);
        res.writeHead(500).end();
      });
    }
    const got = await Promise.all(answers.map((a) => a.then((r) => `${r.status} ${r.url.slice(url.length)}`).catch(() => 'no answer')));
    expect(got).toEqual(['200 /ok1', '500 /bad', 'no answer', '200 /ok2']);
    expect(failures).toEqual([expect.stringMatching(/^\/bad: Invalid character in header content \["x-broken"\]/)]);
  });
});

describe('through the stub, many requests decided in one turn', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ contracts: PET_SPEC, log: () => undefined });
  });
  afterAll(() => stub.close());

  const request = (path: string, body: string) =>
    `POST ${path} HTTP/1.1\r\nHost: stub\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

  /** What comes back on one connection for `bytes` written in one go, until `count` answers have come. */
  function exchange(bytes: string, count: number): Promise<string[]> {
    const { port } = new URL(stub.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
      let out = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => {
        out += d;
        const answers = out.split(/(?=HTTP\/1\.1 \d{3} )/);
        if (answers.length === count && complete(answers[count - 1])) {
          socket.destroy();
          resolve(answers);
        }
      });
      socket.on('error', reject);
      setTimeout(() => {
        socket.destroy();
        reject(new Error(`only part of the answers came:\n${out}`));
      }, 10_000).unref();
    });
  }
  const complete = (answer: string) => {
    const length = Number(/content-length: (\d+)/i.exec(answer)?.[1]);
    const at = answer.indexOf('\r\n\r\n');
    return at >= 0 && Buffer.byteLength(answer.slice(at + 4)) === length;
  };
  const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4);

  it('pipelined on one connection: each in order, with the answer that request gets on its own', async () => {
    // A new id, a wrong body (400), an unknown path (404), and the first id again (the repeat cache).
    const sent: { path: string; body: string; status: string }[] = [];
    for (let i = 0; i < 12; i++) {
      sent.push({ path: '/ws', body: petRequest(String(500 + i)), status: '200' });
      if (i % 3 === 0) sent.push({ path: '/ws', body: petRequest('not a number'), status: '400' });
      if (i % 4 === 0) sent.push({ path: '/nowhere', body: petRequest('1'), status: '404' });
      if (i % 5 === 0) sent.push({ path: '/ws', body: petRequest('500'), status: '200' });
    }
    const answers = await exchange(sent.map((s) => request(s.path, s.body)).join(''), sent.length);
    expect(answers.map((a) => a.slice(9, 12))).toEqual(sent.map((s) => s.status));
    for (const [i, s] of sent.entries()) {
      if (s.status !== '200') continue;
      const alone = await post(`${stub.url}${s.path}`, s.body);
      expect(bodyOf(answers[i])).toBe(alone.body);
    }
  });

  it('from many connections at once: each client gets the answer to its own request', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => String(9000 + i));
    const together = await Promise.all(ids.map((id) => post(`${stub.url}/ws`, petRequest(id))));
    const alone: string[] = [];
    for (const id of ids) alone.push((await post(`${stub.url}/ws`, petRequest(id))).body);
    expect(together.map((a) => a.body)).toEqual(alone);
    // Values of their own: not one answer written to every client.
    expect(new Set(alone).size).toBeGreaterThan(30);
  });
});
