import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONTRACTS, PET_SPEC, petRequest, post, runCli, startStubProcess } from './helpers';
import { matchResponse } from '../../src/http/match-response';
import { loadContract } from '../../src/contract/load';

/** `accord stub` as a user runs it: a child process on 127.0.0.1. */
describe('accord stub (CLI)', () => {
  it('prints its URL and what it serves, answers, and closes cleanly on SIGTERM', async () => {
    const proc = await startStubProcess([CONTRACTS, '--port', '0']);
    const out = proc.stdout();
    expect(out).toMatch(/^accord stub listening on http:\/\/127\.0\.0\.1:\d+\nServing 8 scenarios:\n/);
    expect(out).toContain('  POST /ws -> 200  "Get a pet by id"  (');
    expect(out).toContain('"Adopt a pet (in progress)" @WIP');
    expect(out).toContain('  GET /pets/(petid:number) -> 200  "Fetch a pet by id"');
    const res = await post(`${proc.url}/ws`, petRequest('10'));
    expect(res.status).toBe(200);
    expect(matchResponse(loadContract(PET_SPEC).scenarios[0], res)).toEqual([]);
    const bad = await post(`${proc.url}/ws`, petRequest('abc'));
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('REQUEST.BODY Envelope/Body/getPetRequest/id: expected a number, found "abc"');
    // No per-request log by default.
    expect(proc.stderr()).toBe('');
    proc.child.kill('SIGTERM');
    const exit = await proc.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(proc.stderr()).toBe('accord stub: SIGTERM received, closing\n');
  });

  it('closes on SIGINT too, with keep-alive connections open, and logs requests with --verbose', async () => {
    const proc = await startStubProcess([PET_SPEC, '--port', '0', '--verbose']);
    await post(`${proc.url}/ws`, petRequest('1'));
    proc.child.kill('SIGINT');
    const exit = await proc.exited;
    expect(exit.code).toBe(0);
    expect(proc.stderr()).toMatch(/^POST \/ws -> 200 "Get a pet by id" \(.*api_pet_v1\.spec:3\) \(\d+\.\d\d ms\)\n/m);
  });

  it('lists Kafka scenarios under "Not served"', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-cli-'));
    try {
      writeFileSync(
        path.join(dir, 'api_events_v1.spec'),
        'Feature: Events\n  Scenario: Pet adopted\n    * kafka-message adoptions (string)\n\n  Scenario: Ping\n    When GET /ping\n    Then status 204\n',
      );
      const proc = await startStubProcess([dir, '--port', '0']);
      proc.child.kill('SIGTERM');
      await proc.exited;
      expect(proc.stdout()).toMatch(/Serving 1 scenario:\n {2}GET \/ping -> 204 {2}"Ping"/);
      expect(proc.stdout()).toMatch(/Not served:\n {2}"Pet adopted" \(.*api_events_v1\.spec:2\): a Kafka message contract/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 with a clear message for a bad contract, a missing path or a bad option', async () => {
    const missing = await runCli(['stub', 'no/such.spec']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('accord stub: no such file: no/such.spec');
    const port = await runCli(['stub', PET_SPEC, '--port', 'abc']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be a whole number');
    // The option as typed on the command line, not the library's `passThrough`.
    const target = await runCli(['stub', PET_SPEC, '--port', '0', '--passthrough', 'ftp://staging']);
    expect(target.code).toBe(2);
    expect(target.stderr).toBe('accord stub: --passthrough must be an http:// or https:// URL (a host, a port and a path prefix, no query), found "ftp://staging"\n');
    // A password in the URL is not said back (a terminal, a CI log), nor is a control character.
    const secret = await runCli(['stub', PET_SPEC, '--port', '0', '--passthrough', 'http://ci:s3cret@staging:8080/api']);
    expect(secret.code).toBe(2);
    expect(secret.stderr).toBe(
      'accord stub: --passthrough must not hold a user name or password (found in "http://staging:8080/api"): a request passed on keeps its own Authorization header\n',
    );
    const control = await runCli(['stub', PET_SPEC, '--port', '0', '--passthrough', 'ftp://x\u001b[31m']);
    expect(control.code).toBe(2);
    expect(control.stderr).not.toContain('\u001b');
    expect(control.stderr).toContain('found "ftp://x\\x1b[31m"');
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-cli-'));
    try {
      writeFileSync(path.join(dir, 'broken.spec'), 'Feature: Broken\n  Scenario: one\n    When GET /a\n    Then status 2000\n');
      const broken = await runCli(['stub', dir]);
      expect(broken.code).toBe(2);
      expect(broken.stderr).toMatch(/broken\.spec:4: status must be an HTTP status code from 100 to 599, found "2000"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const none = await runCli(['stub']);
    expect(none.code).toBe(2);
    // With no paths the stub serves what accord.config.json consumes; with no such file it says what to give.
    expect(none.stderr).toContain('accord stub: give the contracts to serve (files or folders), or name the ones this project consumes in accord.config.json');
  });

  it('says in one line that a file is not a contract (it printed one Gherkin token list per line of package.json)', async () => {
    const notContract = await runCli(['stub', 'package.json']);
    expect(notContract.code).toBe(2);
    expect(notContract.stderr).toBe('accord stub: package.json is not a contract: no Feature: line\n');
  });

  it('exits 2 when the port is taken', async () => {
    const first = await startStubProcess([PET_SPEC, '--port', '0']);
    try {
      const port = new URL(first.url).port;
      const second = await runCli(['stub', PET_SPEC, '--port', port]);
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+: the port is in use/);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });

  it('prints its version (the bundled CLI carries the package version)', async () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    const r = await runCli(['--version']);
    expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });
});
