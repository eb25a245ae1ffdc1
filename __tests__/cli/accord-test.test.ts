import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startExampleService } from '../../src/example/service';
import { childEnv, plain } from '../helpers/child-env';
import type { Running } from '../helpers/servers';

/**
 * `accord test`: the built command, in an app folder with no Jest configuration (a Java or .NET
 * provider), against the example service on 127.0.0.1 (issue 23, point 6). The app's Jest is this
 * repository's, linked into its node_modules as npm would install it.
 */
const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'accord.js');

interface Result {
  code: number | null;
  out: string;
}

/** Async, so the example service in this process answers while the command runs. */
function accord(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const e = childEnv(env);
    delete e.ACCORD_BASE_URL;
    const child = spawn(process.execPath, [BIN, 'test', ...args], { cwd, env: e });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: plain(out) }));
  });
}

function app(modules: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-test-app-'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'provider', private: true }));
  mkdirSync(path.join(dir, 'node_modules'));
  for (const m of modules) symlinkSync(path.join(ROOT, 'node_modules', m), path.join(dir, 'node_modules', m), 'dir');
  cpSync(path.join(ROOT, 'contracts'), path.join(dir, 'contracts'), { recursive: true });
  return dir;
}

let service: Running;
const dirs: string[] = [];
beforeAll(async () => {
  service = await startExampleService(0);
});
afterAll(async () => {
  await service.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function made(modules: string[]): string {
  const d = app(modules);
  dirs.push(d);
  return d;
}

describe("accord test runs contracts through the project's Jest with the preset", () => {
  it("passing contracts: exit 0, Jest's output, coverage, and junit.xml with --reporter junit", async () => {
    const dir = made(['jest', 'jest-junit']);
    const r = await accord(dir, ['contracts/soap', 'contracts/pets/api_pets_v1.spec', '--base-url', service.url, '--reporter', 'junit']);
    expect(r.out).toContain('PASS contracts/soap/api_pet_v1.spec');
    expect(r.out).toContain('PASS contracts/pets/api_pets_v1.spec');
    // Only the contracts named: not contracts/math.
    expect(r.out).not.toContain('api_math_v1');
    expect(r.out).toMatch(/Tests: {7}1 skipped, 7 passed, 8 total/);
    expect(r.out).toContain('accord contract coverage');
    expect(r.code).toBe(0);
    const junit = readFileSync(path.join(dir, 'junit.xml'), 'utf8');
    // A CI test view groups by classname (the feature) and file, and lists each scenario by name (issue 36, point 6).
    expect(junit).toContain('<testcase classname="Pet lookup over SOAP" name="Get a pet by id" time=');
    expect(junit).toMatch(/<testcase classname="Pet lookup over SOAP" name="Get a pet by id" time="[\d.]+" file="contracts\/soap\/api_pet_v1\.spec">/);
    expect(junit).toContain('tests="8"');
    expect(existsSync(path.join(dir, 'accord-coverage.json'))).toBe(true);
  }, 60_000);

  it('a failing contract: exit 1 with the report; -t, --seed and arguments after -- reach Jest', async () => {
    const dir = made(['jest']);
    // The base URL already holds the contract's path: the request goes to /ws/ws and fails, with a hint.
    const r = await accord(dir, ['contracts/soap/api_pet_v1.spec', '--base-url', `${service.url}/ws`, '-t', 'Get a pet', '--seed', '7', '--', '--ci']);
    expect(r.out).toContain('✕ Get a pet by id');
    expect(r.out).toContain('○ skipped Get the ids of all invoices');
    expect(r.out).toContain(`Set the base URL to ${service.url}.`);
    expect(r.out).toMatch(/Tests: {7}1 failed, 2 skipped, 3 total/);
    expect(r.code).toBe(1);
  }, 60_000);

  it('a service not there: the hint names --base-url, which was given, not ACCORD_BASE_URL', async () => {
    const dir = made(['jest']);
    const r = await accord(dir, ['contracts/pets', '--base-url', 'http://127.0.0.1:1']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('connection refused by http://127.0.0.1:1: is the service running? (is --base-url its address?)');
    expect(r.out).not.toContain('set ACCORD_BASE_URL');
  }, 60_000);

  it('--negative sends invalid requests too', async () => {
    const dir = made(['jest']);
    const r = await accord(dir, ['contracts/soap/api_pet_v1.spec', '--base-url', service.url, '--negative', '-t', 'Get a pet by id', '--timeout', '5000']);
    expect(r.out).toContain('Get a pet by id [negative: missing Envelope/Body/getPetRequest/id]');
    expect(r.code === 0 || r.code === 1).toBe(true);
  }, 60_000);
});

describe('usage errors exit 2 before Jest starts', () => {
  it('no Jest in the project: the Jest accord-contracts brings runs the contracts, jest-junit too', async () => {
    const dir = made([]);
    const r = await accord(dir, ['contracts/pets', '--base-url', service.url, '--reporter', 'junit']);
    expect(r.out).toContain('PASS contracts/pets/api_pets_v1.spec');
    expect(r.code).toBe(0);
    expect(existsSync(path.join(dir, 'junit.xml'))).toBe(true);
  }, 60_000);

  it('no base URL, a missing contract, a bad seed or reporter', async () => {
    const dir = made(['jest']);
    expect(await accord(dir, [])).toEqual({
      code: 2,
      out: 'accord test: give the service to test: --base-url http://127.0.0.1:8080 (or ACCORD_BASE_URL, or "baseUrl" in accord.config.json\'s "test")\n',
    });
    expect(await accord(dir, ['nope.spec', '--base-url', service.url])).toEqual({ code: 2, out: 'accord test: nope.spec does not exist\n' });
    expect(await accord(dir, ['package.json', '--base-url', service.url])).toEqual({ code: 2, out: 'accord test: package.json is not a .spec contract\n' });
    expect((await accord(dir, ['--base-url', service.url, '--seed', 'x'])).code).toBe(2);
    expect((await accord(dir, ['--base-url', service.url, '--reporter', 'xml'])).out).toBe('accord test: unknown --reporter "xml": use default, junit, html\n');
  });

  it('the base URL may come from ACCORD_BASE_URL', async () => {
    const dir = made(['jest']);
    const r = await accord(dir, ['contracts/pets'], {});
    expect(r.code).toBe(2);
    const e = await new Promise<Result>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'test', 'contracts/pets'], { cwd: dir, env: childEnv({ ACCORD_BASE_URL: service.url }) });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
      child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
      child.on('close', (code) => resolve({ code, out: plain(out) }));
    });
    expect(e.out).toContain('PASS contracts/pets/api_pets_v1.spec');
    expect(e.code).toBe(0);
  }, 60_000);
});
