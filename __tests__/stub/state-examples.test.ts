import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClientAsync } from 'soap';
import { startStub, type RunningStub } from '../../src/stub';
import { connectStub } from '../../src/stub/client/connect';
import { post, REPO } from './helpers';

/**
 * Example files with a `state` rule (docs/stub.md "State across calls"): a stub of a WSDL with
 * `pets_examples/` beside it answers getPet "unknown" until the addPet example moved the machine,
 * then "available"; per scope; journaled as examples with their state.
 */
const ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const envelope = (inner: string) => `<soapenv:Envelope xmlns:soapenv="${ENV}"><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`;
const S = 'xmlns:s="http://example.com/shelter"';
const getPet = envelope(`<s:getPet ${S}><s:id>7</s:id></s:getPet>`);
const pet = (name: string, status: string) => envelope(`<s:getPetResponse ${S}><s:id>7</s:id><s:name>${name}</s:name><s:status>${status}</s:status></s:getPetResponse>`);
const HEADERS = { 'content-type': 'text/xml; charset=utf-8', soapaction: '"http://example.com/shelter/getPet"' };
let dir: string;
let stub: RunningStub;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-state-examples-'));
  copyFileSync(path.join(REPO, '__tests__', 'fixtures', 'state', 'pets.wsdl'), path.join(dir, 'pets.wsdl'));
  mkdirSync(path.join(dir, 'pets_examples'));
  const example = (name: string, json: object) => writeFileSync(path.join(dir, 'pets_examples', name), JSON.stringify(json));
  example('1-get-before.json', {
    'http-request': { method: 'POST', path: '/shelter', body: getPet },
    'http-response': { status: 200, body: pet('nobody', 'unknown') },
    state: { name: 'pets', requires: 'Started' },
  });
  example('2-add.json', {
    'http-request': { method: 'POST', path: '/shelter', body: envelope(`<s:addPet ${S}><s:id>7</s:id><s:name>Rex</s:name></s:addPet>`) },
    'http-response': { status: 200, body: envelope(`<s:addPetResponse ${S}><s:added>true</s:added></s:addPetResponse>`) },
    state: { name: 'pets', becomes: 'added' },
  });
  example('3-get-after.json', {
    'http-request': { method: 'POST', path: '/shelter', body: getPet },
    'http-response': { status: 200, body: pet('Rex', 'available') },
    state: { name: 'pets', requires: 'added' },
  });
  stub = await startStub({ contracts: [path.join(dir, 'pets.wsdl')], log: () => {} });
});
afterAll(async () => {
  await stub?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a `soap` client: getPet, addPet, getPet answered by the example files in the state each requires', async () => {
  const client = await createClientAsync(`${stub.url}/shelter?wsdl`);
  const [before] = (await client.getPetAsync({ id: 7 })) as [{ status: string }];
  expect(before.status).toBe('unknown');
  await client.addPetAsync({ id: 7, name: 'Rex' });
  const [after] = (await client.getPetAsync({ id: 7 })) as [{ name: string; status: string }];
  expect(after).toMatchObject({ name: 'Rex', status: 'available' });
  expect(stub.calls().map((c) => [c.answeredBy, c.state?.was, c.state?.now])).toEqual([
    ['example', 'Started', 'Started'],
    ['example', 'Started', 'added'],
    ['example', 'added', 'added'],
  ]);
  // Which example file answered each.
  expect(stub.calls().map((c) => path.basename(c.example ?? ''))).toEqual(['1-get-before.json', '2-add.json', '3-get-after.json']);
  expect(stub.states()).toEqual([{ name: 'pets', state: 'added' }]);
  // Another scope has not moved: its machine is still in Started.
  const other = connectStub(stub.url).scope('examples-other');
  expect((await post(`${other.url}/shelter`, getPet, HEADERS)).body).toContain('>unknown<');
  expect(await other.states()).toEqual([{ name: 'pets', state: 'Started' }]);
  stub.reset();
  expect((await post(`${stub.url}/shelter`, getPet, HEADERS)).body).toContain('>unknown<');
});

it('an example file with a bad state rule stops the stub from starting, with its file named', async () => {
  const bad = mkdtempSync(path.join(tmpdir(), 'accord-state-bad-'));
  try {
    copyFileSync(path.join(REPO, '__tests__', 'fixtures', 'state', 'pets.wsdl'), path.join(bad, 'pets.wsdl'));
    mkdirSync(path.join(bad, 'pets_examples'));
    writeFileSync(
      path.join(bad, 'pets_examples', 'x.json'),
      JSON.stringify({
        'http-request': { method: 'POST', path: '/shelter', body: getPet },
        'http-response': { status: 200, body: pet('a', 'b') },
        state: { name: 'pets', requires: 'a\u001bb' },
      }),
    );
    await expect(startStub({ contracts: [path.join(bad, 'pets.wsdl')], log: () => {} })).rejects.toThrow(/x\.json|"state" whose "requires" is not 1 to 64/);
  } finally {
    rmSync(bad, { recursive: true, force: true });
  }
});
