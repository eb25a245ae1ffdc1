#!/usr/bin/env node
'use strict';
/**
 * `npm run soak -- [seconds]` (default 60): `accord stub` (a child process) under a steady mix
 * of good and bad requests from 127.0.0.1 only: matching SOAP and JSON requests, wrong values,
 * malformed XML, unknown paths, 1 MB wrong bodies, bodies over the limit, malformed HTTP; the
 * stub's API (an expectation set, used and reset in a scope of its own, scopes made and forgotten
 * past their bound, the journal and the expectations listed, a malformed id, a web page's
 * request); MTOM/XOP requests, and one whose part named many times would inflate past the limit;
 * signed requests to a second stub checking WS-Security (`--ws-security`): good ones (answered),
 * ones whose SignedInfo repeats a Reference 1,000 times or names 40 parts (a WS-Security Fault,
 * status 500 as SOAP 1.1 has it, and never a stall: other requests keep being answered).
 * Half the connections go through `accord proxy` (another child process) in front of the stub,
 * and must get the same answers. Prints both RSS and the counts every 10 s. Exits 1 if any answer
 * is a 500, a request fails or gets an unexpected status, the stub's RSS grows more than 60 MB past
 * its level after the warm-up (the first 10 s), the proxy's grows past that level by more than
 * what it may record (PROXY_LIMITS.recordedBytes) and 150 MB, or the proxy, stopped, does not
 * write its contract (exit 0) within 5 minutes.
 */
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const { connect } = require('node:net');
const path = require('node:path');
const { request } = require('undici');

const ROOT = path.join(__dirname, '..');
const SECONDS = Number(process.argv[2] ?? 60);
const GROWTH_MB = 60;
const PROXY_GROWTH_MB = 256 + 150;
const CONNECTIONS = 8;
const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';
const pet = (id) =>
  `<soapenv:Envelope xmlns:soapenv="${SOAP}"><soapenv:Header/><soapenv:Body><pet:getPetRequest xmlns:pet="http://example.com/petstore"><pet:id>${id}</pet:id></pet:getPetRequest></soapenv:Body></soapenv:Envelope>`;
const NOTE = '<pet:note>abcdefghijklmnopqrstuvwxyz0123456789abcdef</pet:note>';
const bigWrong = pet(`1</pet:id>${NOTE.repeat(18_000)}<pet:id>2`);
const XML = { 'content-type': 'text/xml; charset=utf-8' };
const JSON_TYPE = { 'content-type': 'application/json' };
const XOP_NS = 'http://www.w3.org/2004/08/xop/include';

/** An MTOM/XOP request for POST /ws whose pet id is a part (base64 "1234"), named `times` times, the part `size` bytes. */
function xop(times, size = 3) {
  const include = `<xop:Include href="cid:id1" xmlns:xop="${XOP_NS}"/>`;
  const part = size === 3 ? Buffer.from('1234', 'base64') : Buffer.alloc(size, 0xd7);
  const body = Buffer.concat([
    Buffer.from(`--b\r\nContent-ID: <root>\r\nContent-Type: application/xop+xml; type="text/xml"\r\n\r\n${pet(include.repeat(times))}\r\n--b\r\nContent-ID: <id1>\r\n\r\n`),
    part,
    Buffer.from('\r\n--b--\r\n'),
  ]);
  return { body, headers: { 'content-type': 'multipart/related; type="application/xop+xml"; boundary=b; start="<root>"; start-info="text/xml"' } };
}
const XOP_OK = xop(1);
// 240 KB sent, 6 MB once 3,000 Includes of a 1.5 KB part are inlined: past 4/3 of the 2 MiB body limit, so refused.
const XOP_INFLATED = xop(3000, 1536);
let scopes = 0;

// Signed requests (dist/: `npm run build` first), for the stub that checks WS-Security. A signature carries no nonce: one good request may be sent again while its Timestamp lasts.
const { addWsSecurity } = require(path.join(ROOT, 'dist', 'http', 'ws-security.js'));
const { selfSignedCertificate } = require(path.join(ROOT, 'dist', 'stub', 'tls.js'));
const SIGNER = selfSignedCertificate('127.0.0.1');
const SIGNED = addWsSecurity(pet(7), { timestampTtlSeconds: 24 * 3600, signature: { certificatePem: SIGNER.cert, privateKeyPem: SIGNER.key } });
const REFERENCE = /<ds:Reference [\s\S]*?<\/ds:Reference>/.exec(SIGNED)[0];
const SIGNED_REPEATED = SIGNED.replace(REFERENCE, REFERENCE.repeat(1000)).replace(
  '<soapenv:Header>',
  `<soapenv:Header><x:Pad xmlns:x="urn:x">${'<x:l>0123456789abcdef</x:l>'.repeat(10_000)}</x:Pad>`,
);
const SIGNED_MANY = SIGNED.replace(REFERENCE, REFERENCE.replace(/URI="[^"]*"/, 'URI="#nothing"').repeat(40) + REFERENCE);
const SOAP_ACTION = { ...{ 'content-type': 'text/xml; charset=utf-8' }, soapaction: '"http://example.com/petstore/getPet"' };
let wssUrl;

/** In a scope of its own (a new name each time: past 1,000 the stub forgets the oldest), set an expectation, use it, check the journal, reset. */
async function scoped(url) {
  const base = `${url}/_scope/soak${scopes++ % 3000}`;
  const set = await post(base, '/_accord/expectations', JSON.stringify({ request: { method: 'GET', path: '/pets/5' }, response: { body: { petid: 55 } } }), JSON_TYPE);
  if (set !== 201) return set;
  const res = await request(`${base}/pets/5`);
  const body = await res.body.text();
  if (res.statusCode !== 200 || JSON.parse(body).petid !== 55) return -1;
  const calls = await request(`${base}/_accord/requests?path=/pets/5`);
  const seen = JSON.parse(await calls.body.text());
  if (seen.length !== 1) return -2;
  return post(base, '/_accord/reset', '', {});
}

const ECHO = '{{request.body.getPetRequest/id}}';
const petAnswer = (name) =>
  `<soapenv:Envelope xmlns:soapenv="${SOAP}"><soapenv:Header/><soapenv:Body><pet:getPetResponse xmlns:pet="http://example.com/petstore"><pet:id>7</pet:id><pet:name>${name}</pet:name><pet:type>dog</pet:type><pet:status>x</pet:status></pet:getPetResponse></soapenv:Body></soapenv:Envelope>`;
const LONG_ID = `1${'0'.repeat(60_000)}`;

/**
 * In a scope of its own, an expectation whose answer is the request's id 255 times: a short id is
 * echoed (200), a 60 KB one passes TEMPLATE_LIMITS.answerChars and is refused (413) without the
 * 15 MB answer being made; then reset.
 */
async function templated(url) {
  const base = `${url}/_scope/tpl${scopes++ % 3000}`;
  const set = await post(base, '/_accord/expectations', JSON.stringify({ request: { method: 'POST', path: '/ws' }, response: { body: petAnswer(ECHO.repeat(255)) } }), JSON_TYPE);
  if (set !== 201) return set;
  const res = await request(`${base}/ws`, { method: 'POST', body: pet(12), headers: XML });
  const body = await res.body.text();
  if (res.statusCode !== 200 || !body.includes(`<pet:name>${'12'.repeat(255)}</pet:name>`)) return -3;
  const big = await post(base, '/ws', pet(LONG_ID), XML);
  if (big !== 413) return -4;
  return post(base, '/_accord/reset', '', {});
}

/** Each kind of request and the status it must get. */
const MIX = [
  { weight: 40, status: 200, send: (url) => post(url, '/ws', pet(7), XML) },
  { weight: 15, status: 200, send: (url) => get(url, '/pets/3') },
  { weight: 15, status: 400, send: (url) => post(url, '/ws', pet('abc'), XML) },
  { weight: 10, status: 400, send: (url) => post(url, '/ws', '<soapenv:Envelope><unclosed>', XML) },
  { weight: 8, status: 404, send: (url) => get(url, '/nowhere') },
  { weight: 4, status: 400, send: (url) => post(url, '/ws', bigWrong, XML) },
  { weight: 3, status: 413, send: (url) => post(url, '/ws', 'x'.repeat(2 * 1024 * 1024 + 1), XML) },
  { weight: 5, status: 400, send: (url) => raw(url, 'NOT HTTP\r\n\r\n') },
  { weight: 4, status: 200, send: (url) => scoped(url) },
  { weight: 2, status: 200, send: (url) => templated(url) },
  { weight: 1, status: 200, send: (url) => get(url, '/_accord/expectations') },
  { weight: 1, status: 200, send: (url) => get(url, '/_accord/requests?path=/nowhere') },
  { weight: 1, status: 400, send: (url) => del(url, '/_accord/expectations/%zz') },
  { weight: 1, status: 403, send: (url) => post(url, '/_accord/reset', 'x=1', { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' }) },
  { weight: 3, status: 200, send: (url) => post(url, '/ws', XOP_OK.body, XOP_OK.headers) },
  { weight: 1, status: 400, send: (url) => post(url, '/ws', XOP_INFLATED.body, XOP_INFLATED.headers) },
  // To the stub checking WS-Security (not through the proxy).
  { weight: 3, status: 200, send: () => post(wssUrl, '/ws', SIGNED, SOAP_ACTION) },
  { weight: 1, status: 500, send: () => post(wssUrl, '/ws', SIGNED_REPEATED, SOAP_ACTION) },
  { weight: 1, status: 500, send: () => post(wssUrl, '/ws', SIGNED_MANY, SOAP_ACTION) },
];
const TOTAL = MIX.reduce((n, m) => n + m.weight, 0);

async function post(url, p, body, headers) {
  const res = await request(url + p, { method: 'POST', body, headers });
  await res.body.text();
  return res.statusCode;
}

async function del(url, p) {
  const res = await request(url + p, { method: 'DELETE' });
  await res.body.text();
  return res.statusCode;
}

async function get(url, p) {
  const res = await request(url + p);
  await res.body.text();
  return res.statusCode;
}

function raw(url, bytes) {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), '127.0.0.1', () => s.end(bytes));
    let out = '';
    s.on('data', (d) => (out += d));
    s.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1] ?? 0)));
    s.on('error', reject);
  });
}

function rssMb(pid) {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
}

/** Starts `accord <args>` and resolves with the child and the URL it listens on. */
function start(args, cwd) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'accord.js'), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stderr.on('data', (d) => (out.stderr += d));
  const url = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out.stdout += d;
      const m = /listening on (http:\/\/[^\s,]+)/.exec(out.stdout);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`accord ${args[0]} exited with ${code}:\n${out.stderr}`)));
  });
  return { child, out, url };
}

async function main() {
  const stub = start(['stub', path.join(ROOT, 'contracts'), '--port', '0', '--max-body-bytes', String(2 * 1024 * 1024)]);
  const child = stub.child;
  const url = await stub.url;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'accord-soak-'));
  const proxy = start(['proxy', '--target', url, '--port', '0', '--out', 'soak.spec'], dir);
  const proxyUrl = await proxy.url;
  writeFileSync(path.join(dir, 'signer.pem'), SIGNER.cert);
  writeFileSync(path.join(dir, 'wss.json'), JSON.stringify({ trustedCertificates: ['signer.pem'], use: ['Signature', 'Timestamp'] }));
  const wss = start(['stub', path.join(ROOT, '__tests__', 'fixtures', 'soap', 'petstore.wsdl'), '--port', '0', '--ws-security', path.join(dir, 'wss.json')]);
  wssUrl = await wss.url;
  const stderr = () => stub.out.stderr;
  const counts = { requests: 0, errors: 0, wrongStatus: 0, internal: 0 };
  const problems = [];
  const end = Date.now() + SECONDS * 1000;
  let pick = 0;
  const worker = async (_, i) => {
    // Every other connection goes through the proxy: the same answers, passed through.
    const base = i % 2 === 1 ? proxyUrl : url;
    while (Date.now() < end) {
      // A fixed rotation through the weights: the same mix on every run.
      let n = (pick = (pick + 7) % TOTAL);
      const kind = MIX.find((m) => (n -= m.weight) < 0);
      counts.requests++;
      try {
        const status = await kind.send(base);
        // A 500 is a bug unless it is the SOAP 1.1 status of the WS-Security Fault the request was to get.
        if (status === 500 && kind.status !== 500) counts.internal++;
        if (status !== kind.status) {
          counts.wrongStatus++;
          if (problems.length < 5) problems.push(`expected ${kind.status}, got ${status} (${MIX.indexOf(kind)}${base === proxyUrl ? ', through the proxy' : ''})`);
        }
      } catch (e) {
        counts.errors++;
        if (problems.length < 5) problems.push(String(e.message ?? e));
      }
    }
  };
  let baseline;
  let proxyBaseline;
  let peakAfterWarmup = 0;
  let proxyPeak = 0;
  const started = Date.now();
  const report = () => {
    const rss = rssMb(child.pid);
    const proxyRss = rssMb(proxy.child.pid);
    const t = Math.round((Date.now() - started) / 1000);
    if (t >= 10 && baseline === undefined) {
      baseline = rss;
      proxyBaseline = proxyRss;
    } else if (baseline !== undefined) {
      peakAfterWarmup = Math.max(peakAfterWarmup, rss);
      proxyPeak = Math.max(proxyPeak, proxyRss);
    }
    console.log(
      `${String(t).padStart(4)} s  RSS ${rss.toFixed(1)} MB (proxy ${proxyRss.toFixed(1)} MB)  requests ${counts.requests}  errors ${counts.errors}  wrong status ${counts.wrongStatus}  500s ${counts.internal}`,
    );
  };
  const timer = setInterval(report, 10_000);
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  clearInterval(timer);
  report();
  child.kill('SIGTERM');
  wss.child.kill('SIGTERM');
  // The proxy, stopped, writes the contract of what it recorded (bounded: 10,000 calls, 256 MiB).
  const stopping = Date.now();
  proxy.child.kill('SIGTERM');
  const proxyCode = await new Promise((resolve) => {
    const timer = setTimeout(() => {
      proxy.child.kill('SIGKILL');
      resolve('killed after 5 minutes');
    }, 300_000);
    proxy.child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  const stopSeconds = (Date.now() - stopping) / 1000;
  rmSync(dir, { recursive: true, force: true });
  const growth = baseline === undefined ? 0 : peakAfterWarmup - baseline;
  const proxyGrowth = proxyBaseline === undefined ? 0 : proxyPeak - proxyBaseline;
  const failed =
    counts.errors > 0 ||
    counts.wrongStatus > 0 ||
    counts.internal > 0 ||
    growth > GROWTH_MB ||
    proxyGrowth > PROXY_GROWTH_MB ||
    proxyCode !== 0 ||
    /internal error/.test(stderr() + proxy.out.stderr + wss.out.stderr);
  console.log(`RSS after warm-up ${baseline?.toFixed(1) ?? '-'} MB, highest since ${peakAfterWarmup.toFixed(1)} MB: grew ${growth.toFixed(1)} MB (bound ${GROWTH_MB} MB)`);
  console.log(
    `proxy RSS after warm-up ${proxyBaseline?.toFixed(1) ?? '-'} MB, highest since ${proxyPeak.toFixed(1)} MB: grew ${proxyGrowth.toFixed(1)} MB (bound ${PROXY_GROWTH_MB} MB)`,
  );
  console.log(
    `proxy stopped in ${stopSeconds.toFixed(1)} s, exit ${proxyCode}: ${proxy.out.stderr.trim().split('\n').slice(-1)[0] ?? ''} ${proxy.out.stdout.includes('wrote soak.spec') ? '(wrote soak.spec)' : ''}`,
  );
  if (proxyCode !== 0) console.log(proxy.out.stderr.slice(-2000), proxy.out.stdout.slice(-2000));
  for (const p of problems) console.log(`  ${p}`);
  console.log(failed ? 'soak FAILED' : 'soak ok');
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e.stack ?? e);
  process.exit(1);
});
