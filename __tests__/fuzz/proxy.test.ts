import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccordError } from '../../src/errors';
import { isSecretHeader, REDACTED } from '../../src/http/redact';
import { importLogs } from '../../src/logs';
import { startProxy, type RunningProxy } from '../../src/proxy/proxy';
import { startStub, type RunningStub } from '../../src/stub';
import { CONTRACTS, petRequest } from '../stub/helpers';
import { damagedRequest, fuzzCases, fuzzExchanges, sendInCuts } from './oracle';

/**
 * `accord proxy` fed damaged HTTP over raw sockets, in front of a real stub (under a path prefix)
 * and a second server it must never reach. It never hangs, never answers 500 of its own, never
 * logs an internal error, never forwards outside the target's origin and prefix, and nothing it
 * says holds a stack trace or a raw control character; what it recorded always imports (or is
 * refused with an AccordError, never a crash).
 */
const CASES = fuzzCases(600);
const HANG_MS = 10_000;

let stub: RunningStub;
let proxy: RunningProxy;
let elsewhere: Server;
let elsewhereHits = 0;
const upstreamPaths: string[] = [];
const logged: string[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'accord-fuzz-proxy-'));

beforeAll(async () => {
  stub = await startStub({ contracts: [CONTRACTS], log: () => {}, maxBodyBytes: 64 * 1024 });
  // The target is a path prefix in front of the stub: a tiny relay that strips it, and notes every path that arrives.
  const stubPort = Number(new URL(stub.url).port);
  const relay = createServer((req, res) => {
    upstreamPaths.push(req.url ?? '');
    try {
      const url = (req.url ?? '/').replace(/^\/svc/, '') || '/';
      const out = httpRequest({ host: '127.0.0.1', port: stubPort, method: req.method, path: url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.destroy());
      req.pipe(out);
    } catch {
      res.writeHead(400).end();
    }
  });
  relays.push(relay);
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  elsewhere = createServer((_req, res) => {
    elsewhereHits++;
    res.end();
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  proxy = await startProxy({ target: `http://127.0.0.1:${(relay.address() as AddressInfo).port}/svc`, log: (l) => logged.push(l), stopGraceMs: 200 });
});
const relays: Server[] = [];
afterAll(async () => {
  await proxy.close();
  await stub.close();
  for (const r of relays) {
    r.closeAllConnections();
    await new Promise((resolve) => r.close(resolve));
  }
  await new Promise((resolve) => elsewhere.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const XML = ['Content-Type: text/xml; charset=utf-8'];
const TEMPLATES: Array<() => [string, string, string[], string]> = [
  () => ['POST', '/ws', XML, petRequest('10')],
  () => ['GET', '/pets/7', ['Accept: application/json', 'Authorization: Bearer x', 'Cookie: a=b'], ''],
  () => ['POST', '/pets', ['Content-Type: application/json'], '{"name":"Rex","type":"dog","status":"available","card":"4111111111111111"}'],
  () => ['GET', '/ws?wsdl', [], ''],
  () => ['GET', '/pets/../pets/1', ['Connection: X-Hop', 'X-Hop: 1', 'Keep-Alive: 5'], ''],
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'get', 'X'.repeat(40)];
const TARGET_PARTS = ['/..', '/%2e%2e', '%2E', '\\..', '//', '@', 'http://127.0.0.1:1/', '*', '?', '#', '%', '%zz', '%00', ':', '\u0000', ' ', 'é'];
const PALETTE = [
  '\r\n',
  '\n',
  ' ',
  ':',
  '/',
  '%',
  '%00',
  '<',
  '>',
  '"',
  '\u0000',
  '\u0001',
  '\u001b[2J',
  'é',
  'Content-Length: 5\r\n',
  'Transfer-Encoding: chunked\r\n',
  'Expect: 100-continue\r\n',
  'Connection: close, Host\r\n',
  '0\r\n\r\n',
  '{',
  '9'.repeat(30),
  'x'.repeat(2000),
];

/**
 * Sends `bytes` in one to three writes and collects one answer. Node's server drops a request whose
 * client half-closes before the answer, so the socket is ended only when no answer came within
 * 500 ms (a request cut short by the damage, which waits for bytes that never come).
 */
function exchange(bytes: Buffer, cuts: number[]): Promise<string> {
  return sendInCuts(Number(new URL(proxy.url).port), bytes, cuts, { hangMs: HANG_MS, quietMs: 500, complete });
}

/** One whole answer: its head, and its body by Content-Length or to the last chunk (a HEAD's or a 1xx/204/304's has none). */
function complete(out: string): boolean {
  const end = out.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = out.slice(0, end);
  if (/^HTTP\/1\.1 (1\d\d|204|304)/.test(head) || lastMethod === 'HEAD') return true;
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (length) return out.length >= end + 4 + Number(length[1]);
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) return out.endsWith('0\r\n\r\n');
  return false;
}
let lastMethod = '';
const DAMAGE = {
  templates: TEMPLATES,
  methods: METHODS,
  palette: PALETTE,
  targetParts: TARGET_PARTS,
  targetOdds: 0.35,
  wholeOdds: 0.2,
  head: ['Host: proxy', 'Connection: close'],
};

test(`${CASES} damaged HTTP requests through the proxy: no hang, no 500 of its own, only the target under its prefix, a recording that imports`, async () => {
  const statuses = await fuzzExchanges(
    CASES,
    (r) => {
      const d = damagedRequest(r, DAMAGE);
      lastMethod = d.method;
      return d;
    },
    exchange,
    (answer, status) => (/accord proxy/.test(answer) && status === '502' ? 'a 502 of its own (the target is up)' : undefined),
  );
  expect(logged.filter((l) => /internal error|TypeError|RangeError/.test(l))).toEqual([]);
  expect(elsewhereHits).toBe(0);
  expect(upstreamPaths.filter((p) => p !== '/svc' && !p.startsWith('/svc/') && !p.startsWith('/svc?'))).toEqual([]);
  expect(statuses.get('200') ?? 0).toBeGreaterThan(CASES / 10);
  expect(statuses.get('400') ?? 0).toBeGreaterThan(CASES / 20);
  // The recording imports: a contract, or an AccordError saying why not; never a crash.
  const file = path.join(dir, 'fuzz.har');
  writeFileSync(file, [...proxy.harText()].join(''));
  const imported = await importLogs([file]).catch((e: unknown) => (e instanceof AccordError ? e : Promise.reject(e)));
  if (!(imported instanceof AccordError)) expect(imported.report.exchanges).toBeGreaterThan(0);
  const recorded = JSON.stringify(proxy.har());
  // The card number, wherever the damage left it whole (not run into other digits), is masked; credentials are redacted.
  expect(/(?<![\d -])4111111111111111(?!\d|[ -]\d)/.test(recorded)).toBe(false);
  const secretHeaders = proxy
    .har()
    .log.entries.flatMap((e) => [...e.request.headers, ...e.response.headers])
    .filter((h) => isSecretHeader(h.name) && h.value !== REDACTED);
  expect(secretHeaders).toEqual([]);
}, 600_000);
