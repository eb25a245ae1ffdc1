import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runAccord } from '../helpers/cli-run';
import { startStub } from '../../src/stub';
import { post, SOAP11 } from '../stub/helpers';

/**
 * `accord import soapui`, one feature per fixture (__tests__/fixtures/soapui/): the cached WSDL becomes
 * the contract, test steps and mock responses example files that fit it, and what does not carry
 * over is listed by name and place.
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'soapui');
let out: string;
beforeEach(() => {
  out = mkdtempSync(path.join(tmpdir(), 'accord-soapui-'));
});
afterEach(() => rmSync(out, { recursive: true, force: true }));

async function importFixture(name: string) {
  const r = await runAccord(['import', 'soapui', path.join(FIXTURES, name), '-o', out], out);
  const examplesDir = path.join(out, 'PetsBinding_examples');
  const examples = readdirSync(examplesDir, { withFileTypes: true }).length ? readdirSync(examplesDir).sort() : [];
  const read = (f: string) =>
    JSON.parse(readFileSync(path.join(examplesDir, f), 'utf8')) as {
      'http-request': { body?: string; headers?: Record<string, string> };
      'http-response': { status: number; body?: string };
    };
  return { ...r, examples, read, notCarried: r.out.split('\n').filter((l) => l.startsWith('not carried: ')) };
}

test('the cached WSDL (its schema a part of its own, named with Windows separators) is the contract, as import wsdl writes it', async () => {
  const r = await importFixture('cached-wsdl-soapui-project.xml');
  expect(r.code).toBe(0);
  const spec = readFileSync(path.join(out, 'PetsBinding.spec'), 'utf8');
  expect(spec).toContain('Scenario: getPet');
  // The schema was found through the rewritten import: the request is typed, not (anything).
  expect(spec).toContain('<tns:id>(int)</tns:id>');
  expect(spec).not.toContain('(anything)');
  expect(readdirSync(path.join(out, 'wsdl', 'PetsBinding')).sort()).toEqual(['pets.wsdl', 'pets.xsd']);
  expect(r.examples).toEqual(['0001-GetPet-get-pet-1.json']);
  expect(r.notCarried).toEqual([]);
});

test('XPath Match and Contains values pick the mock response that holds them; a value no response holds is listed', async () => {
  const r = await importFixture('assertions-soapui-project.xml');
  expect(r.code).toBe(0);
  const first = r.read('0001-GetPet-get-pet-1.json');
  expect(first['http-response'].body).toContain('<pet:name>Rex</pet:name>');
  expect(first['http-request'].headers).toEqual({ soapaction: '"http://example.com/pets/getPet"' });
  // "get pet 2" asserts Garfield: no response holds it, so its value is not carried, by name and place.
  expect(r.notCarried.some((l) => l.includes('asserted XPath Match "XPath Match" of test step "get pet 2" at assertions-soapui-project.xml:') && l.includes('holds them'))).toBe(
    true,
  );
  expect(r.read('0002-GetPet-get-pet-2.json')['http-response'].body).toBeUndefined();
});

test('a SOAP Fault assertion pairs the request with the fault response, checked against the fault scenario', async () => {
  const r = await importFixture('fault-soapui-project.xml');
  expect(r.code).toBe(0);
  const ex = r.read('0001-GetPet-unknown-pet.json');
  expect(ex['http-response'].status).toBe(500);
  expect(ex['http-response'].body).toContain('<faultstring>no such pet</faultstring>');
});

test('mock responses: the default one answers every request of its operation; one picked by a query match is listed', async () => {
  const r = await importFixture('mock-dispatch-soapui-project.xml');
  expect(r.code).toBe(0);
  expect(r.examples).toEqual(['mock-getPet-Rex.json']);
  expect(r.read('mock-getPet-Rex.json')['http-request'].body).toBeUndefined();
  expect(r.notCarried.find((l) => l.includes('mock response "Tom"'))).toContain('query match ("pet 2")');
});

test('WS-Security: the outgoing configuration becomes the runner and stub settings, the password an environment reference, the keystore listed', async () => {
  const r = await importFixture('wss-soapui-project.xml');
  expect(r.code).toBe(0);
  const runner = JSON.parse(readFileSync(path.join(out, 'ws-security.runner.json'), 'utf8'));
  expect(runner).toEqual({
    username: 'alice',
    password: { env: 'SOAPUI_WSS_PETS_USER_PASSWORD' },
    timestampTtlSeconds: 120,
    contracts: { 'PetsBinding.spec#getPet': ['PasswordDigest', 'Timestamp'] },
  });
  const stub = readFileSync(path.join(out, 'ws-security.stub.json'), 'utf8');
  expect(JSON.parse(stub).users).toEqual({ alice: { env: 'SOAPUI_WSS_PETS_USER_PASSWORD' } });
  // The project's secrets are never copied.
  for (const f of readdirSync(out).filter((n) => n.endsWith('.json'))) expect(readFileSync(path.join(out, f), 'utf8')).not.toMatch(/wonderland|changeit/);
  expect(r.notCarried.some((l) => l.includes('keystore client.jks'))).toBe(true);
});

test('property expansion: values the project defines are resolved; ${=…} and ${Step#Response#…} are listed and their steps not written', async () => {
  const r = await importFixture('property-expansion-soapui-project.xml');
  expect(r.code).toBe(0);
  expect(r.examples).toEqual(['0001-GetPet-defined.json']);
  expect(r.read('0001-GetPet-defined.json')['http-request'].body).toContain('<pet:id>7</pet:id>');
  expect(r.notCarried.join('\n')).toContain('it uses ${=1+1}');
  expect(r.notCarried.join('\n')).toContain('it uses ${defined#Response#//pet:name}');
});

test('a Groovy step, a property transfer and a request saved on an operation are listed by name with their place', async () => {
  const r = await importFixture('groovy-soapui-project.xml');
  expect(r.code).toBe(0);
  expect(r.notCarried).toEqual([
    expect.stringMatching(
      /^not carried: request "Request 1" saved on operation "getPet" at groovy-soapui-project\.xml:\d+ \(interface "[^"]+"\): only test steps and mock responses become examples$/,
    ),
    expect.stringMatching(
      /^not carried: Groovy step "Make a pet" at groovy-soapui-project\.xml:\d+ \(test suite "PetsSuite" \/ test case "GetPet" \/ step "Make a pet"\): Groovy is not run$/,
    ),
    expect.stringContaining('property transfer step "Move the name" at groovy-soapui-project.xml:'),
  ]);
});

test('a composite project (a folder) reads as one project: interface, test case and mock operation files', async () => {
  const r = await importFixture('composite');
  expect(r.code).toBe(0);
  expect(r.examples).toEqual(['0001-Get-Pet-get-pet-1.json', 'mock-getPet-Rex.json']);
  expect(r.read('0001-Get-Pet-get-pet-1.json')['http-response'].body).toContain('Rex');
});

test('an example that does not fit the contract is reported by name and not written', async () => {
  const project = readFileSync(path.join(FIXTURES, 'cached-wsdl-soapui-project.xml'), 'utf8').replace('<pet:id>1</pet:id>', '<pet:id>one</pet:id>');
  const file = path.join(out, 'bad-soapui-project.xml');
  writeFileSync(file, project);
  const r = await runAccord(['import', 'soapui', file, '-o', path.join(out, 'o')], out);
  expect(r.code).toBe(0);
  expect(r.out).toContain('1 example, 0 written (they fit), 1 not');
  expect(r.out).toMatch(/not carried: example from test step "get pet 1" .* it does not fit PetsBinding\.spec: its request matches no scenario.*id/);
  expect(readdirSync(path.join(out, 'o', 'PetsBinding_examples'))).toEqual([]);
});

test('unreadable input: exit 2 with the reason, nothing else', async () => {
  const notXml = path.join(out, 'x-soapui-project.xml');
  writeFileSync(notXml, '<con:soapui-project xmlns:con="http://eviware.com/soapui/config"><unclosed>');
  const r = await runAccord(['import', 'soapui', notXml, '-o', path.join(out, 'a')], out);
  expect(r.code).toBe(2);
  expect(r.err).toContain('x-soapui-project.xml');
  const other = path.join(out, 'other.xml');
  writeFileSync(other, '<definitions/>');
  const o = await runAccord(['import', 'soapui', other, '-o', path.join(out, 'b')], out);
  expect(o.code).toBe(2);
  expect(o.err).toContain('not a SoapUI project');
  const none = await runAccord(['import', 'soapui', path.join(out, 'missing.xml'), '-o', path.join(out, 'c')], out);
  expect(none.code).toBe(2);
  // A folder is a composite project only with its settings.xml.
  const folder = await runAccord(['import', 'soapui', path.join(FIXTURES, 'composite', 'PetsSuite', '..', '..'), '-o', path.join(out, 'd')], out);
  expect(folder.code).toBe(2);
  expect(folder.err).toContain('whose settings.xml holds the <con:soapui-project>; there is none');
});

test('end to end: import a project, start the stub on the result, send a request a test step had, get the mock response', async () => {
  const r = await importFixture('assertions-soapui-project.xml');
  expect(r.code).toBe(0);
  const stub = await startStub({ contracts: [path.join(out, 'PetsBinding.spec')] });
  try {
    const step = r.read('0001-GetPet-get-pet-1.json')['http-request'].body!;
    expect(step).toContain(SOAP11);
    const answer = await post(`${stub.url}/pets`, step, { 'content-type': 'text/xml; charset=utf-8', soapaction: '"http://example.com/pets/getPet"' });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<pet:name>Rex</pet:name>');
    expect(answer.body).toContain('<pet:status>available</pet:status>');
  } finally {
    await stub.close();
  }
});
