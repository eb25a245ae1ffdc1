import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../helpers/child-env';
import { PET_SPEC, REPO, call, petRequest } from './helpers';
import { startStub } from '../../src/stub';

/**
 * A consumer whose tests are not Node's (zeep, JAX-WS, .NET) sets its expectations through the
 * stub's HTTP API: with `ACCORD_EXPORT_EXAMPLES=1 accord stub`, each one it accepts is exported
 * as connectStub exports a Jest test's, with the consumer's name and the test's title given in
 * the posted JSON. The real command, a child process in a project folder.
 */
const PLACE = path.join('.accord', 'consumes', 'shared', 'soap');
const EXPORTED = path.join('.accord', 'consumer-examples', 'shared', 'soap', 'api_pet_v1_examples');
let dir: string;
let stub: { url: string; child: ChildProcess; out: () => string; exited: Promise<number | null> };

function startCli(env: Record<string, string>): Promise<typeof stub> {
  const child = spawn(process.execPath, [path.join(REPO, 'bin', 'accord.js'), 'stub', PLACE, '--port', '0'], { cwd: dir, env: childEnv(env) });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 20_000);
    child.stdout!.on('data', () => {
      const m = /listening on (\S+)/.exec(out);
      if (m && out.includes('Press Ctrl+C')) {
        clearTimeout(timer);
        resolve({ url: m[1], child, out: () => out, exited });
      }
    });
  });
}

const json = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  call(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-export-api-'));
  mkdirSync(path.join(dir, PLACE), { recursive: true });
  copyFileSync(PET_SPEC, path.join(dir, PLACE, 'api_pet_v1.spec'));
  stub = await startCli({ ACCORD_EXPORT_EXAMPLES: '1', ACCORD_CONSUMER: 'shop-python' });
});

afterAll(async () => {
  stub?.child.kill('SIGTERM');
  await stub?.exited;
  rmSync(dir, { recursive: true, force: true });
});

function exported(): Record<string, unknown>[] {
  const folder = path.join(dir, EXPORTED);
  return existsSync(folder) ? readdirSync(folder).map((f) => JSON.parse(readFileSync(path.join(folder, f), 'utf8')) as Record<string, unknown>) : [];
}

test('says it exports, and where', () => {
  expect(stub.out()).toContain(`as a consumer example, into ${path.join('.accord', 'consumer-examples')} (consumer shop-python).`);
});

/**
 * Each kind of expectation a non-Node consumer sets, and what its exported example must hold.
 * The fault, templated and named-state kinds slot in here as rows once their export is settled
 * (export-examples.ts): `{ kind: 'fault', expectation: { ..., fault: 'soap-fault' }, holds: {...} }`.
 */
const KINDS: { kind: string; expectation: Record<string, unknown>; holds: Record<string, unknown> }[] = [
  {
    kind: 'plain (request and response given)',
    expectation: {
      request: { method: 'POST', path: '/ws', body: petRequest('41') },
      response: { status: 200, body: petAnswer('41', 'Rex') },
    },
    holds: { scenario: 'Get a pet by id', 'http-response': { status: 200, body: petAnswer('41', 'Rex') } },
  },
  {
    kind: 'typed (response left to the contract: only the request is the consumer’s)',
    expectation: { request: { method: 'POST', path: '/ws', body: petRequest('42') } },
    holds: { scenario: 'Get a pet by id', 'http-request': { method: 'POST', path: '/ws', body: petRequest('42') } },
  },
];

test.each(KINDS)('an expectation set over the API is exported: $kind', async ({ expectation, holds }) => {
  const before = exported().length;
  const r = await json(`${stub.url}/_accord/expectations`, { ...expectation, consumer: 'shop-python', test: `test_order (${before})` });
  expect(r.status).toBe(201);
  const all = exported();
  expect(all).toHaveLength(before + 1);
  expect(all.find((e) => e.name === `test_order (${before})`)).toMatchObject({ consumer: 'shop-python', ...holds });
});

test('the stub’s ACCORD_CONSUMER names an example whose expectation gives none; a scope exports alike', async () => {
  const r = await json(`${stub.url}/_scope/py-1/_accord/expectations`, {
    request: { method: 'POST', path: '/ws', body: petRequest('43') },
    response: { body: petAnswer('43', 'Tom') },
  });
  expect(r.status).toBe(201);
  const e = exported().find((x) => JSON.stringify(x).includes('<pet:id>43</pet:id>'));
  expect(e).toMatchObject({ consumer: 'shop-python', scenario: 'Get a pet by id' });
  expect(e).not.toHaveProperty('name');
});

test('an expectation that does not fit the contract is refused and not exported', async () => {
  const before = exported().length;
  const r = await json(`${stub.url}/_accord/expectations`, { request: { method: 'POST', path: '/ws', body: petRequest('not-a-number') }, test: 'bad' });
  expect(r.status).toBe(400);
  expect(exported()).toHaveLength(before);
});

test('a consumer name or title that is not one printable line is refused (400), not written into a file', async () => {
  const before = exported().length;
  for (const bad of [{ consumer: 'a\u001b[31mb' }, { test: 'x\ny' }, { test: 42 }, { consumer: 'x'.repeat(501) }, { consumer: '' }]) {
    const r = await json(`${stub.url}/_accord/expectations`, { request: { method: 'POST', path: '/ws', body: petRequest('44') }, ...bad });
    expect(r.status).toBe(400);
    expect(r.body).toMatch(/expectation has a "(consumer|test)" that is not/);
  }
  expect(exported()).toHaveLength(before);
});

test('an expectation connectStub exported in its own process (it says so) is not written twice', async () => {
  const before = exported().length;
  const r = await json(`${stub.url}/_accord/expectations`, { request: { method: 'POST', path: '/ws', body: petRequest('45') } }, { 'x-accord-exported': '1' });
  expect(r.status).toBe(201);
  expect(exported()).toHaveLength(before);
});

test('without ACCORD_EXPORT_EXAMPLES the stub writes nothing, and still takes "consumer" and "test"', async () => {
  const quiet = await startStub({ contracts: PET_SPEC, port: 0 });
  try {
    const r = await json(`${quiet.url}/_accord/expectations`, { request: { method: 'POST', path: '/ws', body: petRequest('46') }, consumer: 'c', test: 't' });
    expect(r.status).toBe(201);
    expect(existsSync(path.join(REPO, '.accord', 'consumer-examples', '_local'))).toBe(false);
  } finally {
    await quiet.close();
  }
});

function petAnswer(id: string, name: string): string {
  return `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body><pet:getPetResponse xmlns:pet="http://example.com/petstore"><pet:id>${id}</pet:id><pet:name>${name}</pet:name><pet:type>dog</pet:type><pet:status>available</pet:status></pet:getPetResponse></soapenv:Body></soapenv:Envelope>`;
}
