import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startExampleService } from '../../src/example/service';
import { childEnv } from '../helpers/child-env';
import { runJest, type JestRun } from '../helpers/jest-app';
import { installApp, PKG, REPO, type App } from '../helpers/packed-app';
import type { Running } from '../helpers/servers';

/**
 * Many teams are still on Jest 29: the packed package, installed by the
 * README's Jest 29 command (no --legacy-peer-deps), runs the example contracts
 * with Jest 29's own test environment. The full preset behaviour is tested on
 * Jest 30 in jest-preset.test.ts; this is what differs between the versions.
 */
let installed: App;
let service: Running;

function jest(args: string[], env: Record<string, string> = {}): Promise<JestRun> {
  // runJest gives the output without colours: CI may turn them on (CI=true colours Jest's code frames).
  // The app's own node_modules/.bin/jest, which `npx jest` runs (npx itself is tried by `npx accord --version`).
  return runJest(path.join(installed.dir, 'node_modules', '.bin', 'jest'), ['--preset', PKG.name, '--ci', ...args], {
    cwd: installed.dir,
    env: childEnv({ ACCORD_BASE_URL: service.url, ...env }),
    killAfterMs: 120_000,
  });
}

const versionIn = (pkg: string) => (JSON.parse(readFileSync(path.join(installed.dir, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

beforeAll(async () => {
  [installed, service] = await Promise.all([installApp(/^npm install --save-dev accord-contracts jest@29$/), startExampleService(0)]);
  cpSync(path.join(REPO, 'contracts'), path.join(installed.dir, 'contracts'), { recursive: true });
}, 300_000);

afterAll(async () => {
  await service?.close();
  if (installed) rmSync(installed.dir, { recursive: true, force: true });
});

describe('an application on Jest 29', () => {
  it('has Jest 29 and its own jest-environment-node, with no second copy from accord', () => {
    expect(versionIn('jest')).toMatch(/^29\./);
    expect(versionIn('jest-environment-node')).toMatch(/^29\./);
    expect(() => readFileSync(path.join(installed.dir, 'node_modules', PKG.name, 'node_modules', 'jest-environment-node', 'package.json'))).toThrow();
  });

  it('runs every scenario, the @WIP one skipped with its verdict, and exits 0', async () => {
    const r = await jest(['--verbose']);
    expect(r.output).toMatch(/Tests: +1 skipped, 9 passed, 10 total/);
    expect(r.output).toContain('○ skipped Adopt a pet (in progress)');
    expect(r.output).toMatch(/\[accord\] @WIP "Adopt a pet \(in progress\)" \(.*api_pet_v1\.spec:62\) is in progress and skipped; it would have FAILED:/);
    expect(r.status).toBe(0);
  }, 120_000);

  it('fails a scenario with the mismatch and a code frame into the .spec file, and reports test locations', async () => {
    const r = await jest(['contracts/math', '-t', 'Square'], { ACCORD_BASE_URL: 'http://127.0.0.1:1' });
    expect(r.output).toContain('connection refused by http://127.0.0.1:1');
    expect(r.output).toContain('> 3 |   Scenario: Square of a number');
    expect(r.output).toMatch(/Tests: +1 failed, 1 skipped, 2 total/);
    expect(r.status).toBe(1);

    const json = await jest(['contracts/math', '--json', '--testLocationInResults']);
    const results = JSON.parse(json.output.slice(json.output.indexOf('{'), json.output.lastIndexOf('}') + 1));
    const located = results.testResults[0].assertionResults.map((a: { title: string; location: { line: number } }) => [a.title, a.location.line]);
    expect(located).toEqual([
      ['Square of a number', 3],
      ['Cube of a number', 9],
    ]);
  }, 120_000);

  it('runs npx accord --version', () => {
    const r = spawnSync('npx', ['accord', '--version'], { cwd: installed.dir, encoding: 'utf8', env: childEnv() });
    expect(r.stdout.trim()).toBe(PKG.version);
    expect(r.status).toBe(0);
  });
});
