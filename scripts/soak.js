#!/usr/bin/env node
'use strict';
/**
 * `npm run soak -- [seconds]` (default 60): `accord stub` (a child process) under a steady mix
 * of good and bad requests from 127.0.0.1 only: matching SOAP and JSON requests, wrong values,
 * malformed XML, unknown paths, 1 MB wrong bodies, bodies over the limit, malformed HTTP.
 * Prints the stub's RSS and the counts every 10 s. Exits 1 if any answer is a 500, a request
 * fails or gets an unexpected status, or the RSS grows more than 60 MB past its level after
 * the warm-up (the first 10 s): memory must stay flat.
 */
const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { connect } = require('node:net');
const path = require('node:path');
const { request } = require('undici');

const ROOT = path.join(__dirname, '..');
const SECONDS = Number(process.argv[2] ?? 60);
const GROWTH_MB = 60;
const CONNECTIONS = 8;
const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';
const pet = (id) =>
  `<soapenv:Envelope xmlns:soapenv="${SOAP}"><soapenv:Header/><soapenv:Body><pet:getPetRequest xmlns:pet="http://example.com/petstore"><pet:id>${id}</pet:id></pet:getPetRequest></soapenv:Body></soapenv:Envelope>`;
const NOTE = '<pet:note>abcdefghijklmnopqrstuvwxyz0123456789abcdef</pet:note>';
const bigWrong = pet(`1</pet:id>${NOTE.repeat(18_000)}<pet:id>2`);
const XML = { 'content-type': 'text/xml; charset=utf-8' };

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
];
const TOTAL = MIX.reduce((n, m) => n + m.weight, 0);

async function post(url, p, body, headers) {
  const res = await request(url + p, { method: 'POST', body, headers });
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

async function main() {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'accord.js'), 'stub', path.join(ROOT, 'contracts'), '--port', '0', '--max-body-bytes', String(2 * 1024 * 1024)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`accord stub exited with ${code}:\n${stderr}`)));
  });
  const counts = { requests: 0, errors: 0, wrongStatus: 0, internal: 0 };
  const problems = [];
  const end = Date.now() + SECONDS * 1000;
  let pick = 0;
  const worker = async () => {
    while (Date.now() < end) {
      // A fixed rotation through the weights: the same mix on every run.
      let n = (pick = (pick + 7) % TOTAL);
      const kind = MIX.find((m) => (n -= m.weight) < 0);
      counts.requests++;
      try {
        const status = await kind.send(url);
        if (status === 500) counts.internal++;
        if (status !== kind.status) {
          counts.wrongStatus++;
          if (problems.length < 5) problems.push(`expected ${kind.status}, got ${status} (${MIX.indexOf(kind)})`);
        }
      } catch (e) {
        counts.errors++;
        if (problems.length < 5) problems.push(String(e.message ?? e));
      }
    }
  };
  let baseline;
  let peakAfterWarmup = 0;
  const started = Date.now();
  const report = () => {
    const rss = rssMb(child.pid);
    const t = Math.round((Date.now() - started) / 1000);
    if (t >= 10 && baseline === undefined) baseline = rss;
    else if (baseline !== undefined) peakAfterWarmup = Math.max(peakAfterWarmup, rss);
    console.log(
      `${String(t).padStart(4)} s  RSS ${rss.toFixed(1)} MB  requests ${counts.requests}  errors ${counts.errors}  wrong status ${counts.wrongStatus}  500s ${counts.internal}`,
    );
  };
  const timer = setInterval(report, 10_000);
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  clearInterval(timer);
  report();
  child.kill('SIGTERM');
  const growth = baseline === undefined ? 0 : peakAfterWarmup - baseline;
  const failed = counts.errors > 0 || counts.wrongStatus > 0 || counts.internal > 0 || growth > GROWTH_MB || /internal error/.test(stderr);
  console.log(`RSS after warm-up ${baseline?.toFixed(1) ?? '-'} MB, highest since ${peakAfterWarmup.toFixed(1)} MB: grew ${growth.toFixed(1)} MB (bound ${GROWTH_MB} MB)`);
  for (const p of problems) console.log(`  ${p}`);
  console.log(failed ? 'soak FAILED' : 'soak ok');
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e.stack ?? e);
  process.exit(1);
});
