import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { loadContract, testCases } from '../../src/contract/load';
import { run } from '../../src/cli/main';
import { reportError } from '../../src/runner/error-display';
import { formatCaseReport, runCase } from '../../src/runner/run-case';
import { startStub, type RunningStub } from '../../src/stub';
import { CONTRACTS, PET_SPEC, post } from '../stub/helpers';

/**
 * Issue 11, defect 6: the Jest report printed the service's raw bytes, so an
 * answer could clear the screen, print a fake green PASS, set the window title
 * or spill gzip onto the terminal. Everything accord prints that came from
 * input shows control characters escaped and binary as a hex preview.
 */

/** Any character a terminal would act on: C0 but tab and newline, DEL, C1, bidi overrides. */

const RAW_CONTROL = /[\0-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

const ATTACK = '\u001b[2J\u001b[H\u001b[32mPASS\u001b[0m all tests\u001b]0;owned\u0007\r\u009b2J';

function serve(handler: (res: import('node:http').ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(res));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

const petCase = () => testCases(loadContract(PET_SPEC)).find((t) => t.name.startsWith('Get a pet by id'))!;

describe('the Jest report shows a service answer without letting it drive the terminal', () => {
  it('escape sequences in the body and headers are shown escaped', async () => {
    const { url, server } = await serve((res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(ATTACK);
    });
    try {
      const r = await runCase(petCase(), { baseUrl: url, timeoutMs: 5_000 });
      const report = formatCaseReport(r, url);
      expect(report).not.toMatch(RAW_CONTROL);
      expect(report).toContain('\\x1b[2J\\x1b[H\\x1b[32mPASS\\x1b[0m all tests\\x1b]0;owned\\x07\\r\\x9b2J');
      // The one door to Jest's output escapes whatever else reaches it.
      const err = reportError(`found ${ATTACK}`, 'pets.spec', 3);
      expect(err.message).not.toMatch(RAW_CONTROL);
      expect(err.stack).not.toMatch(RAW_CONTROL);
    } finally {
      server.close();
    }
  });

  it('a binary body is a hex preview with its length, not bytes (gzip sent without its Content-Encoding: with it, the body is read decompressed)', async () => {
    const gz = gzipSync('<soap:Envelope>…</soap:Envelope>'.repeat(50));
    const { url, server } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(gz);
    });
    try {
      const r = await runCase(petCase(), { baseUrl: url, timeoutMs: 5_000 });
      const report = formatCaseReport(r, url);
      expect(report).not.toMatch(RAW_CONTROL);
      expect(report).not.toContain('\ufffd');
      expect(report).toContain(`RESPONSE.BODY: expected an XML document, found <binary, ${gz.length} bytes: 1f 8b 08 00`);
      expect(report).toContain(`  <binary, ${gz.length} bytes: 1f 8b 08 00`);
    } finally {
      server.close();
    }
  });
});

describe('the stub answers and logs a hostile request without raw control characters', () => {
  let stub: RunningStub;
  let dir: string;
  const logged: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-terminal-'));
    // A contract from someone else's pull request names its scenarios.
    writeFileSync(path.join(dir, 'named.spec'), `Feature: Named\n\n  Scenario: Echo ${ATTACK}\n    When POST /echo\n    And request-body (number)\n    Then status 200\n`);
    stub = await startStub({ contracts: [CONTRACTS, dir], port: 0, host: '127.0.0.1', verbose: true, log: (l) => logged.push(l) });
  });
  afterAll(async () => {
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the 400 report quotes the request escaped', async () => {
    const res = await post(`${stub.url}/square`, ATTACK, { 'content-type': 'text/plain' });
    expect(res.status).toBe(400);
    expect(res.body).not.toMatch(RAW_CONTROL);
    expect(res.body).toContain('found "\\u001b[2J');
  });

  it('log lines are escaped (a scenario name from a contract)', async () => {
    const res = await post(`${stub.url}/echo`, '7', { 'content-type': 'text/plain' });
    expect(res.status).toBe(200);
    const line = logged.find((l) => l.startsWith('POST /echo'));
    expect(line).toBeDefined();
    expect(line).not.toMatch(RAW_CONTROL);
    expect(line).toContain('Echo \\x1b[2J');
  });
});

describe('the CLI never prints a control character it was given', () => {
  it('an option value quoted in an error is escaped', async () => {
    let err = '';
    const code = await run(['stub', CONTRACTS, '--port', `${ATTACK}1`], { stdout: () => {}, stderr: (s) => (err += s), cwd: process.cwd() });
    expect(code).toBe(2);
    expect(err).not.toMatch(RAW_CONTROL);
    expect(err).toContain('found "\\x1b[2J');
  });
});
