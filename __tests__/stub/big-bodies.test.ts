import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { startStub, type RunningStub } from '../../src/stub';
import { CONTRACTS, PET_SPEC, SOAP11, petRequest, post, startStubProcess } from './helpers';

/**
 * Large bodies that parse but do not match (issue 11, item 7), and malformed HTTP after a
 * valid pipelined request (item 10). A 10 MB wrong body used to hold the stub for seconds
 * (every mismatch listed, the whole body parsed in one go) and took its memory to hundreds
 * of MB; a valid request pipelined before a malformed one lost its answer.
 */

const MB = 1024 * 1024;
const NOTE = '<pet:note>abcdefghijklmnopqrstuvwxyz0123456789abcdef</pet:note>';

/** A pet lookup followed by about `mb` MB of nodes the contract does not have: XML that parses, but wrong. */
function wrongBody(mb: number): string {
  return `<soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Header/><soapenv:Body><pet:getPetRequest xmlns:pet="http://example.com/petstore"><pet:id>1</pet:id>${NOTE.repeat(Math.floor((mb * MB) / NOTE.length))}</pet:getPetRequest></soapenv:Body></soapenv:Envelope>`;
}

describe('a large wrong body', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ contracts: PET_SPEC, log: () => undefined });
  });
  afterAll(() => stub.close());

  it('does not stop the stub answering another client meanwhile (9 MB)', async () => {
    const big = wrongBody(9);
    const started = performance.now();
    let done = false;
    const answer = post(`${stub.url}/ws`, big).finally(() => (done = true));
    // Another client, one small request after another until the big one is answered.
    const waits: number[] = [];
    while (!done) {
      const t = performance.now();
      const res = await post(`${stub.url}/ws`, petRequest('3'));
      expect(res.status).toBe(200);
      waits.push(performance.now() - t);
    }
    const res = await answer;
    const total = performance.now() - started;
    expect(res.status).toBe(400);
    expect(res.body).toContain('Envelope/Body/getPetRequest/note: expected no such node here, found unexpected node <note>');
    expect(res.body).toContain('… and more mismatches (the comparison stops after the first 50)');
    // Before: the body was parsed and compared in one block of seconds, and the small request
    // sent meanwhile waited for all of it (its wait was 67 % of the big one's time). Now the
    // parse gives way every slice: most waits are a slice; the slowest is the comparison of the
    // parsed body, which is not sliced, or a GC pause (measured 9-35 % under load). Before, 1-3
    // small requests were answered in all, one of them after 67 % of the time.
    expect(waits.length).toBeGreaterThanOrEqual(5);
    const sorted = [...waits].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(total / 10);
    expect(sorted[sorted.length - 1]).toBeLessThan(total / 2);
  });

  it("keeps the stub's memory bounded (RSS of a stub process)", async () => {
    const child = await startStubProcess([CONTRACTS, '--port', '0']);
    try {
      const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${child.child.pid}/status`, 'utf8'))?.[1]);
      for (let i = 0; i < 20; i++) expect((await post(`${child.url}/ws`, petRequest('1'))).status).toBe(200);
      const before = kb('VmRSS');
      const big = wrongBody(9);
      for (let i = 0; i < 2; i++) expect((await post(`${child.url}/ws`, big)).status).toBe(400);
      // Before: two 9 MB bodies took the stub from ~80 MB to ~500 MB (a tree of 500 bytes an
      // element, every mismatch listed); now ~190 MB. The bound is generous: GC timing varies.
      const grownMb = (kb('VmHWM') - before) / 1024;
      expect(grownMb).toBeLessThan(250);
      expect((await post(`${child.url}/ws`, petRequest('1'))).status).toBe(200);
    } finally {
      child.child.kill('SIGTERM');
      await child.exited;
    }
  });
});

describe('pipelined requests', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ contracts: PET_SPEC, log: () => undefined });
  });
  afterAll(() => stub.close());

  /** Writes `bytes` in one write on a raw socket; resolves with all that comes back until the stub closes. */
  function exchange(bytes: string): Promise<string> {
    const { port } = new URL(stub.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
      let out = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (out += d));
      socket.on('close', () => resolve(out));
      socket.on('error', reject);
      setTimeout(() => {
        socket.destroy();
        reject(new Error(`the stub did not close the connection; got:\n${out}`));
      }, 10_000).unref();
    });
  }

  /** The status of each response in a byte stream (a response body runs straight into the next status line). */
  const statusesOf = (out: string) => [...out.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);

  const valid = (id: string) => {
    const body = petRequest(id);
    return `POST /ws HTTP/1.1\r\nHost: stub\r\nContent-Type: text/xml\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };

  it('answers a valid request, then 400 to the malformed one that follows it in the same packet', async () => {
    const out = await exchange(`${valid('1')}NOT\u0001HTTP\r\n\r\n`);
    const statuses = statusesOf(out);
    // Before: only "400 Bad Request"; the valid request's answer was lost with the socket.
    expect(statuses).toEqual(['200', '400']);
    expect(out).toContain('<pet:getPetResponse');
    expect(out).toContain('accord stub: malformed HTTP request (HPE_INVALID_METHOD)');
    expect(out).not.toContain('\u0001');
  });

  it('answers every valid request before the malformed one, in order', async () => {
    const out = await exchange(`${valid('1')}${valid('2')}GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n`);
    expect(statusesOf(out)).toEqual(['200', '200', '400']);
  });

  it('answers a malformed request alone with 400 and a plain sentence', async () => {
    const out = await exchange('BAD\r\n\r\n');
    expect(out).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(out).toContain('Connection: close');
    expect(out).toContain('accord stub: malformed HTTP request');
    // Still serving.
    expect((await post(`${stub.url}/ws`, petRequest('4'))).status).toBe(200);
  });
});
