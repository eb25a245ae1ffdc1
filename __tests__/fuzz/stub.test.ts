import { connect } from 'node:net';
import { startStub, type RunningStub } from '../../src/stub';
import { mutant, seeded } from '../helpers/mutate';
import { CONTRACTS, invoiceRequest, petRequest } from '../stub/helpers';
import { badOutput, FUZZ_SEED, fuzzCases } from './oracle';

/**
 * The stub fed damaged HTTP over raw sockets: methods, paths, headers, bodies, chunked
 * encoding, split writes, bytes that are not HTTP at all. It never answers 500, never hangs
 * (every exchange ends within its time-out), never logs an internal error, and nothing it
 * says holds a stack trace or a raw control character.
 */
const CASES = fuzzCases(1500);
const HANG_MS = 10_000;

let stub: RunningStub;
const logged: string[] = [];
beforeAll(async () => {
  stub = await startStub({ contracts: [CONTRACTS], log: (l) => logged.push(l), maxBodyBytes: 64 * 1024 });
});
afterAll(() => stub.close());

function request(method: string, target: string, headers: string[], body: string, chunked: boolean): string {
  const head = [`${method} ${target} HTTP/1.1`, 'Host: stub', ...headers];
  if (chunked) {
    const size = Buffer.byteLength(body).toString(16);
    return `${[...head, 'Transfer-Encoding: chunked'].join('\r\n')}\r\n\r\n${body ? `${size}\r\n${body}\r\n` : ''}0\r\n\r\n`;
  }
  return `${[...head, `Content-Length: ${Buffer.byteLength(body)}`].join('\r\n')}\r\n\r\n${body}`;
}

const XML = ['Content-Type: text/xml; charset=utf-8'];
const TEMPLATES: Array<() => [string, string, string[], string]> = [
  () => ['POST', '/ws', XML, petRequest('10')],
  () => ['POST', '/ws', [...XML, 'SOAPAction: "getPet"'], invoiceRequest('3')],
  () => ['GET', '/pets/7', ['Accept: application/json'], ''],
  () => ['POST', '/square', ['Content-Type: text/plain'], '12'],
  () => ['POST', '/pets', ['Content-Type: application/json'], '{"name":"Rex","type":"dog","status":"available"}'],
  () => ['OPTIONS', '/ws', ['Origin: http://x', 'Access-Control-Request-Method: POST'], ''],
  () => ['HEAD', '/pets/1', [], ''],
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'get', 'P0ST', 'X'.repeat(40), ''];
const PALETTE = [
  '\r\n',
  '\r',
  '\n',
  ' ',
  ':',
  '/',
  '%',
  '%00',
  '%zz',
  '?',
  '#',
  '&',
  '=',
  '<',
  '>',
  '"',
  '\u0000',
  '\u0001',
  '\u001b[2J',
  'é',
  '\uFEFF',
  'Content-Length: 5\r\n',
  'Transfer-Encoding: chunked\r\n',
  'Content-Type: application/json\r\n',
  'Expect: 100-continue\r\n',
  '0\r\n\r\n',
  'HTTP/1.1',
  '(number)',
  '<![CDATA[x]]>',
  '&#0;',
  '{',
  '[',
  '9'.repeat(30),
  'x'.repeat(2000),
];

/** Sends `bytes` in one to three writes, half-closes, and collects the answer until the stub closes. */
function exchange(bytes: Buffer, cuts: number[]): Promise<string> {
  const { port } = new URL(stub.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end after ${HANG_MS} ms`));
    }, HANG_MS);
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (out += d));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      let at = 0;
      for (const cut of [...cuts, bytes.length]) {
        socket.write(bytes.subarray(at, cut));
        at = cut;
      }
      socket.end();
    });
  });
}

test(`${CASES} damaged HTTP requests: never 500, never a hang, no internal error, no stack trace or control character in an answer`, async () => {
  const r = seeded(FUZZ_SEED);
  const statuses = new Map<string, number>();
  for (let i = 0; i < CASES; i++) {
    const template = TEMPLATES[Math.floor(r() * TEMPLATES.length)]();
    const headers = template[2];
    let [method, target, , body] = template;
    if (r() < 0.15) method = METHODS[Math.floor(r() * METHODS.length)];
    if (r() < 0.3) body = mutant(body, r, PALETTE);
    if (r() < 0.2) target = mutant(target, r, PALETTE, 1);
    let text = request(method, target, headers, body, r() < 0.2);
    // Now and then the whole message is damaged, head included: malformed HTTP.
    if (r() < 0.25) text = mutant(text, r, PALETTE);
    const bytes = Buffer.from(text, 'utf8');
    const cuts = [Math.floor(r() * bytes.length), Math.floor(r() * bytes.length)].sort((a, b) => a - b).slice(0, Math.floor(r() * 3));
    let answer: string;
    try {
      answer = await exchange(bytes, cuts);
    } catch (e) {
      throw new Error(`case ${i} (seed ${FUZZ_SEED}): ${(e as Error).message}\nrequest: ${JSON.stringify(text.slice(0, 2000))}`, { cause: e });
    }
    const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 'none';
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const bad = status === '500' ? 'a 500' : badOutput(answer.replace(/\r\n/g, '\n'));
    if (bad) throw new Error(`case ${i} (seed ${FUZZ_SEED}): ${bad}\nrequest: ${JSON.stringify(text.slice(0, 2000))}\nanswer: ${JSON.stringify(answer.slice(0, 2000))}`);
  }
  expect(logged.filter((l) => /internal error/.test(l))).toEqual([]);
  // Both sides were exercised: answered requests and refused ones.
  expect(statuses.get('200') ?? 0).toBeGreaterThan(CASES / 10);
  expect(statuses.get('400') ?? 0).toBeGreaterThan(CASES / 10);
  // The stub still answers.
  expect(await exchange(Buffer.from(request('POST', '/ws', XML, petRequest('1'), false)), [])).toMatch(/^HTTP\/1\.1 200/);
});
