import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';
import { REPO, call } from './helpers';

/**
 * `?xsd=` serves only files under the WSDL's own folder: an import that points outside it
 * (`../`, an absolute path, a symlink out) is answered 404 and left as written in the served
 * WSDL, as is an import that cannot be read. The documents are read once, not on every request,
 * and read again when the stub reloads.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'accord-xsd-folder-'));
const site = path.join(dir, 'site');
const secret = path.join(dir, 'secret', 'settings.xsd');
let stub: RunningStub;

const schema = (ns: string, note = '') =>
  `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="${ns}">${note ? `<xsd:annotation><xsd:documentation>${note}</xsd:documentation></xsd:annotation>` : ''}</xsd:schema>`;

beforeAll(async () => {
  mkdirSync(site);
  mkdirSync(path.dirname(secret));
  writeFileSync(secret, schema('http://example.com/other', 'db.password=hunter2'));
  symlinkSync(path.join('..', 'secret', 'settings.xsd'), path.join(site, 'link.xsd'));
  writeFileSync(path.join(site, 'good.xsd'), schema('http://example.com/good', 'first version'));
  writeFileSync(path.join(site, 'broken.xsd'), '<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"><unclosed>');
  const imports = [
    ['other', '../secret/settings.xsd'],
    ['abs', secret],
    ['link', 'link.xsd'],
    ['missing', 'missing.xsd'],
    ['broken', 'broken.xsd'],
    ['good', 'good.xsd'],
  ]
    .map(([ns, at]) => `<xsd:import namespace="http://example.com/${ns}" schemaLocation="${at}"/>`)
    .join('');
  const wsdl = readFileSync(path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl'), 'utf8').replace(
    '<xsd:schema targetNamespace="http://example.com/petstore" elementFormDefault="qualified">',
    `$&${imports}`,
  );
  writeFileSync(path.join(site, 'main.wsdl'), wsdl);
  // Its imports climb out, are missing or broken on purpose: served anyway (--allow-unresolved), as the test is about what ?xsd= serves.
  stub = await startStub({ contracts: [path.join(site, 'main.wsdl')], log: () => {}, allowUnresolved: true });
});
afterAll(async () => {
  await stub.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (q: string) => call(`${stub.url}/ws?${q}`, { method: 'GET' });

it('never serves a file outside the WSDL folder, whether the import climbs out, is absolute, or is a link out', async () => {
  const wsdl = await get('wsdl');
  expect(wsdl.status).toBe(200);
  // The import inside the folder is served and pointed at the stub.
  expect(wsdl.body).toContain(`schemaLocation="${stub.url}/ws?xsd=good.xsd"`);
  // The others are left as written: nothing of the stub's is offered for them.
  expect(wsdl.body).toContain('schemaLocation="../secret/settings.xsd"');
  expect(wsdl.body).toContain(`schemaLocation="${secret}"`);
  expect(wsdl.body).toContain('schemaLocation="link.xsd"');
  for (const name of ['../secret/settings.xsd', secret, secret.slice(1), 'link.xsd']) {
    const r = await get(`xsd=${encodeURIComponent(name)}`);
    expect({ name, status: r.status }).toEqual({ name, status: 404 });
    expect(r.body).not.toContain('hunter2');
  }
  const good = await get('xsd=good.xsd');
  expect(good.status).toBe(200);
  expect(good.body).toContain('first version');
});

it('answers 404 for an import that is missing or not well-formed, and keeps serving the rest', async () => {
  expect((await get('xsd=missing.xsd')).status).toBe(404);
  const broken = await get('xsd=broken.xsd');
  expect(broken.status).toBe(404);
  expect(broken.body).not.toMatch(/internal error/i);
  expect((await get('xsd=good.xsd')).status).toBe(200);
});

it('reads the documents once, not on every request, and again after a reload', async () => {
  expect((await get('xsd=good.xsd')).body).toContain('first version');
  writeFileSync(path.join(site, 'good.xsd'), schema('http://example.com/good', 'second version'));
  // Served from what was read: the file is not parsed again per request.
  expect((await get('xsd=good.xsd')).body).toContain('first version');
  expect(stub.reload().ok).toBe(true);
  expect((await get('xsd=good.xsd')).body).toContain('second version');
});
