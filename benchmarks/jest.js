#!/usr/bin/env node
'use strict';
/**
 * Contract suites with many files under Jest (issue 14): 1,000 SOAP pet-lookup scenarios in
 * 50 `.spec` files, run by Jest with accord's preset against a node:http server answering a
 * fixed envelope, next to the floor: plain Jest running 50 `.test.js` files of 20 trivial
 * async tests. Both in the same temp project, the same Jest, default workers, a warm transform
 * cache (each is run once first), alternated for several rounds; the medians and their ratio
 * are printed. Target: accord / plain Jest <= 1.2, in wall clock and CPU time. Also 1,000 scenarios in one file and 1,000
 * trivial tests in one file, for the cost of each extra file: accord's beside Jest's own (a
 * test file costs plain Jest ~100 ms of CPU too, so only the difference is accord's). Run by `npm run bench` (after a build); `--rounds N` (default 5).
 */
const { spawn } = require('node:child_process');
const { mkdirSync, mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const http = require('node:http');
const { tmpdir } = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(argValue('--root') ?? path.join(__dirname, '..'));
const ROUNDS = Number(argValue('--rounds') ?? 5);
const FILES = 50;
const PER_FILE = 20;
const TARGET = 1.2;

const ANSWER =
  '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body>' +
  '<pet:getPetResponse xmlns:pet="http://example.com/petstore"><pet:id>10</pet:id><pet:name>Archie</pet:name><pet:type>dog</pet:type><pet:status>available</pet:status></pet:getPetResponse>' +
  '</soapenv:Body></soapenv:Envelope>';

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function specFile(n, scenarios) {
  const env = (inner) =>
    `    """\n    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">\n      <soapenv:Header/>\n      <soapenv:Body>\n${inner}      </soapenv:Body>\n    </soapenv:Envelope>\n    """\n`;
  let s = `Feature: Pet lookup ${n}\n`;
  for (let i = 0; i < scenarios; i++) {
    s +=
      `\n  Scenario: Get pet ${n}.${i}\n    Given type PetRequest\n` +
      env('        <pet:getPetRequest xmlns:pet="http://example.com/petstore">\n          <pet:id>(number)</pet:id>\n        </pet:getPetRequest>\n') +
      `    And type PetResponse\n` +
      env(
        '        <pet:getPetResponse xmlns:pet="http://example.com/petstore">\n          <pet:id>(number)</pet:id>\n          <pet:name>(string)</pet:name>\n          <pet:type>(string)</pet:type>\n          <pet:status>(string)</pet:status>\n        </pet:getPetResponse>\n',
      ) +
      `    When POST /ws\n    And request-body (PetRequest)\n    Then status 200\n    And response-body (PetResponse)\n`;
  }
  return s;
}

function plainFile(n, tests = PER_FILE) {
  let s = `describe('plain ${n}', () => {\n`;
  for (let i = 0; i < tests; i++) s += `  test('t${i}', async () => { await Promise.resolve(); expect(${i}).toBe(${i}); });\n`;
  return `${s}});\n`;
}

/** One project folder per suite, each with its own Jest config and cache folder. */
function project(dir, name, config, files) {
  const root = path.join(dir, name);
  mkdirSync(path.join(root, 'tests'), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(root, 'tests', file), text);
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: `bench-${name}`, private: true }));
  writeFileSync(path.join(root, 'jest.config.js'), `module.exports = ${config};\n`);
  return root;
}

/**
 * Runs Jest in a child, asynchronously (the service answering the scenarios lives in this process),
 * under bash's `time`, which adds the CPU time of Jest's workers to Jest's own: on a machine shared
 * with other work the wall clock says more about the neighbours than about Jest.
 */
async function runJest(root, env) {
  const t = performance.now();
  const jest = [process.execPath, path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--silent'].map((a) => `'${a}'`).join(' ');
  const child = spawn('bash', ['-c', `TIMEFORMAT='accord-bench-cpu %U %S'; time ${jest}`], {
    cwd: root,
    env: { ...process.env, ...env, CI: 'true', FORCE_COLOR: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const status = await new Promise((resolve) => child.on('close', resolve));
  const ms = performance.now() - t;
  if (status !== 0) throw new Error(`jest in ${root} exited ${status}:\n${stderr.slice(-3000)}`);
  const cpu = /accord-bench-cpu ([\d.]+) ([\d.]+)/.exec(stderr);
  return { ms, cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000 };
}

async function main() {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': Buffer.byteLength(ANSWER) });
      res.end(ANSWER);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const env = { ACCORD_BASE_URL: `http://127.0.0.1:${server.address().port}` };
  // `--keep <dir>`: the projects are written there and left (to profile by hand); otherwise a temp folder.
  const keep = argValue('--keep');
  const dir = keep ? path.resolve(keep) : mkdtempSync(path.join(tmpdir(), 'accord-bench-jest-'));
  try {
    const preset = `{ ...require(${JSON.stringify(path.join(ROOT, 'preset', 'create-preset.js'))}).createPreset(), rootDir: __dirname, cacheDirectory: __dirname + '/.cache' }`;
    const files = {};
    for (let n = 0; n < FILES; n++) files[`pets_${n}.spec`] = specFile(n, PER_FILE);
    const many = project(dir, 'accord-many', preset, files);
    const one = project(dir, 'accord-one', preset, { 'pets.spec': specFile(0, FILES * PER_FILE) });
    const plainFiles = {};
    for (let n = 0; n < FILES; n++) plainFiles[`plain_${n}.test.js`] = plainFile(n);
    const plainConfig = `{ rootDir: __dirname, cacheDirectory: __dirname + '/.cache' }`;
    const plain = project(dir, 'plain', plainConfig, plainFiles);
    const plainOne = project(dir, 'plain-one', plainConfig, { 'plain.test.js': plainFile(0, FILES * PER_FILE) });
    const suites = [
      ['plain Jest, 50 files x 20 trivial async tests', plain],
      ['accord, 1,000 scenarios in 50 .spec files', many],
      ['accord, 1,000 scenarios in one .spec file', one],
      ['plain Jest, 1,000 trivial async tests in one file', plainOne],
    ];
    console.log(
      `Jest ${require(path.join(ROOT, 'node_modules', 'jest', 'package.json')).version}, Node ${process.version}, load average ${require('node:os').loadavg()[0].toFixed(2)}, median of ${ROUNDS} alternated rounds, warm transform cache, Jest's default workers for both (${require('node:os').availableParallelism()} cores: ${Math.max(1, require('node:os').availableParallelism() - 1)} worker${require('node:os').availableParallelism() > 2 ? 's' : ', in band'})`,
    );
    for (const [, root] of suites) await runJest(root, env); // fills the transform caches
    const runs = suites.map(() => []);
    const ratios = [];
    const cpuRatios = [];
    for (let r = 0; r < ROUNDS; r++) {
      const round = [];
      for (const [, root] of suites) round.push(await runJest(root, env));
      round.forEach((run, i) => runs[i].push(run));
      ratios.push(round[1].ms / round[0].ms);
      cpuRatios.push(round[1].cpuMs / round[0].cpuMs);
    }
    const s = (ms) => (ms / 1000).toFixed(2);
    const wall = (i) => median(runs[i].map((r) => r.ms));
    const cpu = (i) => median(runs[i].map((r) => r.cpuMs));
    suites.forEach(([label], i) => console.log(`${label.padEnd(48)} wall ${s(wall(i))} s, CPU ${s(cpu(i))} s  (wall by round: ${runs[i].map((r) => s(r.ms)).join(' ')})`));
    const perFile = (many, single) => `wall ${((wall(many) - wall(single)) / (FILES - 1)).toFixed(0)} ms, CPU ${((cpu(many) - cpu(single)) / (FILES - 1)).toFixed(0)} ms`;
    console.log(`cost per extra file (50 files vs one): accord ${perFile(1, 2)}; plain Jest's own ${perFile(0, 3)}`);
    const ratio = median(ratios);
    const cpuRatio = median(cpuRatios);
    const verdict = (what, r) =>
      `${r <= TARGET ? 'ok  ' : 'MISS'} 50 .spec files / plain Jest 50 files, ${what}: ${r.toFixed(2)} (median of per-round ratios) <= ${TARGET}: ${(r / TARGET).toFixed(2)} x the limit`;
    console.log(verdict('wall clock', ratio));
    console.log(verdict('CPU time', cpuRatio));
    console.log(`load average at the end ${require('node:os').loadavg()[0].toFixed(2)}`);
  } finally {
    server.close();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e.stack ?? e);
  process.exit(1);
});
