#!/usr/bin/env node
'use strict';
/**
 * Large valid-but-wrong bodies at the stub (issues 11 and 14): XML that parses but
 * does not match, 5 and 10 MB.
 *
 * 1. In-process, per body shape: the XML parser's own speed on the body (the floor), and
 *    the stub's matching and 400 report on the parsed body, in MB/s; printed as the ratio
 *    of the stub's whole work (parse + match + report) to the parser alone.
 *    Target: matching and reporting >= 50 MB/s.
 * 2. Over HTTP, `accord stub` in a child process: time to the 400 for a 5 MB and a 10 MB
 *    wrong body, the latency of small requests sent meanwhile by another client (the stub
 *    must keep answering), and the child's peak RSS.
 *    Targets: first answer to 5 MB within 250 ms (issue 39; it was 500); other clients answered within 100 ms.
 * Each verdict line gives its figure as a share of its limit, measured in the same run: at most 1 is
 * within it (for a floor such as MB/s, the limit over the figure).
 * Run by `npm run bench` (after a build). `--root <checkout>` measures another build (the
 * numbers before a change); `--rounds N` takes the median of N (default 3).
 */
const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { request } = require('undici');

const ROOT = path.resolve(argValue('--root') ?? path.join(__dirname, '..'));
const ROUNDS = Number(argValue('--rounds') ?? 3);
const MB = 1024 * 1024;
const PET = path.join(ROOT, 'contracts', 'soap', 'api_pet_v1.spec');
const ORDERS = path.join(__dirname, 'contracts', 'bulk_orders.spec');
const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';

const envelope = (inner) => `<soapenv:Envelope xmlns:soapenv="${SOAP}"><soapenv:Header/><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`;
const pet = (inner) => `<pet:getPetRequest xmlns:pet="http://example.com/petstore">${inner}</pet:getPetRequest>`;
const orders = (inner) => `<ord:placeOrders xmlns:ord="http://example.com/orders"><ord:customer>c</ord:customer>${inner}</ord:placeOrders>`;
const line = (i, q = i) => `<ord:line><ord:sku>SKU-${i}</ord:sku><ord:quantity>${q}</ord:quantity></ord:line>`;
const fill = (bytes, unit) => {
  const parts = [];
  for (let i = 0, n = 0; n < bytes; i++) {
    const u = unit(i);
    parts.push(u);
    n += u.length;
  }
  return parts.join('');
};

/** Wrong bodies of about `bytes`, each of a shape a hostile or broken client sends. */
const SHAPES = {
  // 90,000 unexpected nodes where one is expected.
  'unexpected nodes': { path: '/ws', make: (bytes) => envelope(pet(`<pet:id>1</pet:id>${fill(bytes, () => '<pet:note>abcdefghijklmnopqrstuvwxyz0123456789abcdef</pet:note>')}`)) },
  // Every line wrong: a (number) that is not one.
  'every line wrong': { path: '/orders', make: (bytes) => envelope(orders(fill(bytes, (i) => line(i, 'x')))) },
  // Every line right but the last: the whole body must be compared.
  'last line wrong': { path: '/orders', make: (bytes) => envelope(orders(fill(bytes, (i) => line(i)) + line(0, 'x'))) },
  // Past the element limit (200,000): refused while parsing.
  'too many elements': { path: '/ws', make: (bytes) => envelope(pet(fill(bytes, () => '<pet:id>x</pet:id>'))) },
};

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function inProcess(size) {
  const { parseContract } = require(path.join(ROOT, 'dist', 'contract', 'load'));
  const { buildRoutes } = require(path.join(ROOT, 'dist', 'stub', 'decide', 'build-routes'));
  const { dispatch } = require(path.join(ROOT, 'dist', 'stub', 'decide', 'dispatch'));
  const { noMatchReport } = require(path.join(ROOT, 'dist', 'stub', 'decide', 'error-report'));
  const { ParsedBody } = require(path.join(ROOT, 'dist', 'http', 'body'));
  const { parseXml } = require(path.join(ROOT, 'dist', 'xml', 'parse'));
  const table = buildRoutes([PET, ORDERS].map((f) => parseContract(readFileSync(f, 'utf8'), f)));
  const rows = [];
  for (const [name, shape] of Object.entries(SHAPES)) {
    const text = shape.make(size);
    const mb = text.length / MB;
    const parse = [];
    const work = [];
    for (let r = 0; r < ROUNDS; r++) {
      global.gc?.();
      let t = performance.now();
      try {
        parseXml(text);
      } catch {
        /* the element limit: the parser's refusal is its own work */
      }
      parse.push(performance.now() - t);
      global.gc?.();
      t = performance.now();
      const body = new ParsedBody(text);
      body.asXml();
      const parsed = performance.now();
      const req = { method: 'POST', path: shape.path, query: [], headers: {}, body: text };
      const outcome = dispatch(table, req, [shape.path.slice(1)], body);
      if (outcome.kind !== 'no-match') throw new Error(`${name}: expected no match, got ${outcome.kind}`);
      noMatchReport(`POST ${shape.path}`, outcome.attempts, body);
      work.push([performance.now() - t, performance.now() - parsed]);
    }
    const p = median(parse);
    const whole = median(work.map((w) => w[0]));
    const match = median(work.map((w) => w[1]));
    rows.push({ name, mb, parseMbs: mb / (p / 1000), wholeMbs: mb / (whole / 1000), matchMbs: mb / (Math.max(match, 0.01) / 1000), ratio: p / whole });
  }
  return rows;
}

/** `accord stub` in a child; resolves with its URL. */
function startStub() {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'accord.js'), 'stub', PET, ORDERS, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`stub exited with ${code}`)));
  });
}

function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

const SMALL = envelope(pet('<pet:id>7</pet:id>'));

async function post(url, body) {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'text/xml' } });
  await res.body.text();
  return res.statusCode;
}

/** Sends `body`; meanwhile another client sends small requests one after another. */
async function bigWithNeighbour(url, shape, body) {
  let done = false;
  const latencies = [];
  const neighbour = (async () => {
    while (!done) {
      const t = performance.now();
      if ((await post(`${url}/ws`, SMALL)) !== 200) throw new Error('the small request was not answered 200');
      latencies.push(performance.now() - t);
    }
  })();
  const t = performance.now();
  const status = await post(`${url}${shape.path}`, body);
  const ms = performance.now() - t;
  done = true;
  await neighbour;
  if (status !== 400) throw new Error(`expected 400, got ${status}`);
  return { ms, worst: Math.max(...latencies), requests: latencies.length };
}

async function overHttp() {
  const { child, url } = await startStub();
  const rows = [];
  try {
    await post(`${url}/ws`, SMALL);
    for (const size of [5, 10]) {
      for (const name of ['unexpected nodes', 'last line wrong']) {
        const shape = SHAPES[name];
        const body = shape.make(size * MB - 2048);
        const runs = [];
        for (let r = 0; r < ROUNDS; r++) runs.push(await bigWithNeighbour(url, shape, body));
        rows.push({ size, name, ms: median(runs.map((r) => r.ms)), worst: median(runs.map((r) => r.worst)), requests: median(runs.map((r) => r.requests)) });
      }
    }
    return { rows, peak: peakRssMb(child.pid) };
  } finally {
    child.kill('SIGTERM');
  }
}

async function main() {
  console.log(
    `${ROOT === path.join(__dirname, '..') ? 'this build' : ROOT}, Node ${process.version}, load average ${require('node:os').loadavg()[0].toFixed(2)}, median of ${ROUNDS}`,
  );
  const checks = [];
  // [text, figure, limit, 'max' | 'min']: the share of the limit is figure / limit (a ceiling) or limit / figure (a floor).
  const check = (text, figure, limit, kind) => checks.push([text, kind === 'max' ? figure / limit : limit / Math.max(figure, 1e-9)]);
  for (const r of inProcess(5 * MB)) {
    console.log(
      `${r.name.padEnd(18)} ${r.mb.toFixed(1)} MB: parser alone ${r.parseMbs.toFixed(0)} MB/s; match + report ${r.matchMbs.toFixed(0)} MB/s; whole ${r.wholeMbs.toFixed(0)} MB/s = ${r.ratio.toFixed(2)} x the parser`,
    );
    check(`${r.name}: matching and reporting ${r.matchMbs.toFixed(0)} MB/s >= 50 MB/s`, r.matchMbs, 50, 'min');
  }
  const http = await overHttp();
  for (const r of http.rows) {
    console.log(`HTTP ${r.size} MB ${r.name.padEnd(16)}: 400 after ${r.ms.toFixed(0)} ms; another client meanwhile: ${r.requests} answers, slowest ${r.worst.toFixed(0)} ms`);
    if (r.size === 5) check(`5 MB ${r.name}: 400 after ${r.ms.toFixed(0)} ms <= 250 ms`, r.ms, 250, 'max');
    check(`${r.size} MB ${r.name}: other client's slowest answer ${r.worst.toFixed(0)} ms <= 100 ms`, r.worst, 100, 'max');
  }
  console.log(`stub peak RSS ${http.peak.toFixed(0)} MB`);
  for (const [text, share] of checks) console.log(`${share <= 1 ? 'ok  ' : 'MISS'} ${text}: ${share.toFixed(2)} x the limit`);
  // A missed target is reported, not failed: timings depend on the machine.
}

main().catch((e) => {
  console.error(e.stack ?? e);
  process.exit(1);
});
