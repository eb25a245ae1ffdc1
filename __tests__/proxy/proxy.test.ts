import { existsSync, readdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClientAsync, listen } from 'soap';
import { loadContract } from '../../src/contract/load';
import { startProxy as startRecordingProxy } from '../../src/proxy/proxy';
import { runPresetProject, writePresetProject } from '../helpers/jest-app';
import { REPO, runCli } from '../stub/helpers';
import { runProxy } from './proxy-helpers';

/**
 * `accord proxy`: a real SOAP service built with the `soap` package, called through the proxy
 * by a `soap` client; the contract written on stop then passes `jest --preset` against the service.
 */
const WSDL = path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl');
const dir = mkdtempSync(path.join(tmpdir(), 'accord-proxy-'));
let service: Server;
let serviceUrl: string;

beforeAll(async () => {
  service = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  const pets: Record<number, string> = { 1: 'Rex', 2: 'Tom', 3: 'Kitty' };
  listen(
    service,
    '/ws',
    { PetService: { PetPort: { getPet: ({ id }: { id: number }) => ({ id, name: pets[id] ?? 'Nobody', type: 'dog', status: 'available' }) } } },
    readFileSync(WSDL, 'utf8'),
  );
});
afterAll(async () => {
  await new Promise((resolve) => service.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

it('forwards a soap client to the real service, writes a typed contract on stop, and the contract passes jest --preset against the service', async () => {
  const proxy = await runProxy(dir, ['--target', serviceUrl, '--out', 'pets.spec', '--har', 'pets.har']);
  const client = await createClientAsync(WSDL, { endpoint: `${proxy.url}/ws` });
  for (const id of [1, 2, 3]) {
    const [result] = (await client.getPetAsync({ id })) as [{ name: string }];
    // The real service's answers, through the proxy.
    expect(result.name).toBe({ 1: 'Rex', 2: 'Tom', 3: 'Kitty' }[id]);
  }
  proxy.stop();
  const done = await proxy.exited;
  expect(done.stderr).toContain('SIGTERM received; recorded 3 calls');
  expect(done.stdout).toContain('wrote pets.spec');
  expect(done.stdout).toContain('checked: all 3 logged calls match the contract');
  expect(done.code).toBe(0);
  expect(existsSync(path.join(dir, 'pets.har'))).toBe(true);
  const contract = loadContract(path.join(dir, 'pets.spec'));
  expect(contract.scenarios.map((s) => `${s.request.method} ${s.request.path} -> ${s.response.status}`)).toEqual(['POST /ws -> 200']);
  // Typed by the service's own WSDL, asked for through the proxy as it stopped; the recorded calls are its example files.
  expect(done.stdout).toContain(`typed by ${serviceUrl}/ws?wsdl`);
  expect(readFileSync(path.join(dir, 'pets.spec'), 'utf8')).toMatch(/getPetRequest[\s\S]*<tns:id>\(/);
  expect(readdirSync(path.join(dir, 'pets_examples'))).toHaveLength(3);

  writePresetProject(dir);
  const jest = await runPresetProject(dir, serviceUrl);
  expect(jest.output).toMatch(/Tests: +1 passed, 1 total/);
  expect(jest.status).toBe(0);
}, 120_000);

it('refuses a target that is not an http URL, and says so when nothing was recorded', async () => {
  const bad = await runCli(['proxy', '--target', 'ftp://x', '--out', path.join(dir, 'x.spec'), '--port', '0']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--target must be an http:// or https:// URL');
  const idle = await runProxy(dir, ['--target', serviceUrl, '--out', 'none.spec']);
  idle.stop();
  const r = await idle.exited;
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('no call was recorded; nothing written');
});

it('forwards credentials unchanged but keeps them out of the recording (Authorization, Cookie, Set-Cookie)', async () => {
  const received: string[] = [];
  const service = createServer((req, res) => {
    received.push(`${req.headers.authorization} ${req.headers.cookie}`);
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=srv-Session-77; HttpOnly' });
    res.end('{"ok": true}');
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const proxy = await startRecordingProxy({ target: `http://127.0.0.1:${(service.address() as AddressInfo).port}`, port: 0, log: () => undefined });
  try {
    const res = await fetch(`${proxy.url}/pets`, { headers: { authorization: 'Bearer tok-Recorded-1', cookie: 'sid=client-Cookie-2', 'x-tenant': 'acme' } });
    expect(res.headers.get('set-cookie')).toBe('session=srv-Session-77; HttpOnly');
    expect(received).toEqual(['Bearer tok-Recorded-1 sid=client-Cookie-2']);
    const [entry] = proxy.har().log.entries;
    const header = (list: { name: string; value: string }[], name: string) => list.find((h) => h.name === name)?.value;
    expect(header(entry.request.headers, 'authorization')).toBe('***');
    expect(header(entry.request.headers, 'cookie')).toBe('***');
    expect(header(entry.request.headers, 'x-tenant')).toBe('acme');
    expect(header(entry.response.headers, 'set-cookie')).toBe('***');
    expect(JSON.stringify(proxy.har())).not.toMatch(/tok-Recorded-1|client-Cookie-2|srv-Session-77/);
  } finally {
    await proxy.close();
    await new Promise((resolve) => service.close(resolve));
  }
});
