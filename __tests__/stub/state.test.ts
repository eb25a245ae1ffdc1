import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createClientAsync } from 'soap';
import { startStub, type RunningStub } from '../../src/stub';
import { connectStub } from '../../src/stub/client/connect';
import { STUB_LIMITS } from '../../src/limits';
import { call, post, REPO } from './helpers';

/**
 * Named state across calls (src/stub/decide/scenario-state.ts): an expectation may require its scope's
 * state machine to be in a state and move it to another, so that after addPet, getPet finds the
 * pet. Per scope, reset with the scope, listed and reset through the API; a request waiting for a
 * state nothing can reach gets a one-line 409 and a journal entry.
 */
const SHELTER = path.join(REPO, '__tests__', 'fixtures', 'state', 'pets.wsdl');
const ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const envelope = (inner: string) => `<soapenv:Envelope xmlns:soapenv="${ENV}"><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`;
const addPet = (id: number, name: string) => envelope(`<s:addPet xmlns:s="http://example.com/shelter"><s:id>${id}</s:id><s:name>${name}</s:name></s:addPet>`);
const added = envelope('<s:addPetResponse xmlns:s="http://example.com/shelter"><s:added>true</s:added></s:addPetResponse>');
const getPet = (id: number) => envelope(`<s:getPet xmlns:s="http://example.com/shelter"><s:id>${id}</s:id></s:getPet>`);
const pet = (id: number, name: string, status: string) =>
  envelope(`<s:getPetResponse xmlns:s="http://example.com/shelter"><s:id>${id}</s:id><s:name>${name}</s:name><s:status>${status}</s:status></s:getPetResponse>`);
const SOAP = (op: string) => ({ 'content-type': 'text/xml; charset=utf-8', soapaction: `"http://example.com/shelter/${op}"` });

it('--verbose says the state move of each answer, as the journal does', async () => {
  const lines: string[] = [];
  const verbose = await startStub({ contracts: [SHELTER], verbose: true, log: (l) => lines.push(l) });
  try {
    verbose.expect({ request: { method: 'POST', path: '/shelter', body: addPet(3, 'Rex') }, response: { body: added }, state: { name: 'pets', becomes: 'added' } });
    expect((await post(`${verbose.url}/shelter`, addPet(3, 'Rex'), SOAP('addPet'))).status).toBe(200);
    expect(lines.filter((l) => l.startsWith('POST /shelter')).map((l) => l.replace(/ \(\d+\.\d+ ms\)$/, ''))).toEqual([
      expect.stringMatching(/^POST \/shelter -> 200 expectation e1 \(.*\), state pets: Started -> added$/),
    ]);
  } finally {
    await verbose.close();
  }
});

let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub({ contracts: [SHELTER], log: () => {} });
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

/** The story: not there before it is added, there after. */
function story(s: { expect: RunningStub['expect'] }, id = 7) {
  s.expect({ request: { method: 'POST', path: '/shelter', body: getPet(id) }, response: { body: pet(id, 'nobody', 'unknown') }, state: { name: 'pets', requires: 'Started' } });
  s.expect({ request: { method: 'POST', path: '/shelter', body: addPet(id, 'Rex') }, response: { body: added }, state: { name: 'pets', becomes: 'added' } });
  s.expect({ request: { method: 'POST', path: '/shelter', body: getPet(id) }, response: { body: pet(id, 'Rex', 'available') }, state: { name: 'pets', requires: 'added' } });
}

it('a `soap` package client adds a pet, then finds it; the journal says which state each answer required and moved to', async () => {
  story(stub);
  const client = await createClientAsync(`${stub.url}/shelter?wsdl`);
  const [before] = (await client.getPetAsync({ id: 7 })) as [{ name: string; status: string }];
  expect(before).toMatchObject({ name: 'nobody', status: 'unknown' });
  const [done] = (await client.addPetAsync({ id: 7, name: 'Rex' })) as [{ added: boolean }];
  expect(done.added).toBe(true);
  const [after] = (await client.getPetAsync({ id: 7 })) as [{ name: string; status: string }];
  expect(after).toMatchObject({ name: 'Rex', status: 'available' });
  expect(stub.states()).toEqual([{ name: 'pets', state: 'added' }]);
  expect(stub.calls().map((c) => [c.expectation, c.state])).toEqual([
    ['e1', { name: 'pets', requires: 'Started', was: 'Started', now: 'Started' }],
    ['e2', { name: 'pets', was: 'Started', now: 'added' }],
    ['e3', { name: 'pets', requires: 'added', was: 'added', now: 'added' }],
  ]);
});

it('zeep (Python) adds a pet, then finds it', async () => {
  if (spawnSync('/usr/bin/python3', ['-c', 'import zeep'], { encoding: 'utf8' }).status !== 0) {
    console.warn('zeep is not installed: skipped');
    return;
  }
  story(stub);
  const script = [
    'import sys, zeep',
    'c = zeep.Client(sys.argv[1] + "/shelter?wsdl")',
    'print(c.service.getPet(id=7).status)',
    'print(c.service.addPet(id=7, name="Rex"))',
    'print(c.service.getPet(id=7).name)',
  ].join('\n');
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('/usr/bin/python3', ['-c', script, stub.url]);
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  expect(out.trim().split('\n')).toEqual(['unknown', 'True', 'Rex']);
}, 60_000);

it('reset() of the stub puts the machine back in Started; resetState and setState move it from a test', async () => {
  story(stub);
  expect((await post(`${stub.url}/shelter`, addPet(7, 'Rex'), SOAP('addPet'))).status).toBe(200);
  expect((await post(`${stub.url}/shelter`, getPet(7), SOAP('getPet'))).body).toContain('>Rex<');
  expect(stub.resetState('pets')).toBe(true);
  expect(stub.states()).toEqual([{ name: 'pets', state: 'Started' }]);
  expect((await post(`${stub.url}/shelter`, getPet(7), SOAP('getPet'))).body).toContain('>nobody<');
  stub.setState('pets', 'added');
  expect((await post(`${stub.url}/shelter`, getPet(7), SOAP('getPet'))).body).toContain('>Rex<');
  expect(stub.resetState('nothing-named-so')).toBe(false);
  stub.reset();
  expect(stub.states()).toEqual([]);
  expect(() => stub.setState('bad\u001b[31mname', 'x')).toThrow(/state machine name is not 1 to 64 letters/);
});

it('`times` and state compose: a transient expectation waiting for its state is not used up meanwhile, and answers its turns once there', async () => {
  const get = (name: string, extra: object) => stub.expect({ request: { method: 'POST', path: '/shelter', body: getPet(3) }, response: { body: pet(3, name, 'x') }, ...extra });
  get('before', { state: { name: 'order', requires: 'Started' } });
  get('first', { times: 1, state: { name: 'order', requires: 'placed' } });
  get('second', { times: 1, state: { name: 'order', requires: 'placed', becomes: 'done' } });
  get('done', { state: { name: 'order', requires: 'done' } });
  stub.expect({ request: { method: 'POST', path: '/shelter', body: addPet(3, 'Tom') }, response: { body: added }, state: { name: 'order', becomes: 'placed' } });
  const names: string[] = [];
  const ask = async () => names.push(/<s:name>([^<]*)</.exec((await post(`${stub.url}/shelter`, getPet(3), SOAP('getPet'))).body)![1]);
  await ask();
  await ask();
  await post(`${stub.url}/shelter`, addPet(3, 'Tom'), SOAP('addPet'));
  await ask();
  await ask();
  await ask();
  expect(names).toEqual(['before', 'before', 'first', 'second', 'done']);
});

it('a request waiting for a state nothing can reach gets a one-line 409 naming it, journaled; one still reachable is answered from the contract', async () => {
  stub.expect({ request: { method: 'POST', path: '/shelter', body: getPet(9) }, response: { body: pet(9, 'Rex', 'sold') }, state: { name: 'pets', requires: 'sold' } });
  const stuck = await post(`${stub.url}/shelter`, getPet(9), SOAP('getPet'));
  expect(stuck.status).toBe(409);
  expect(stuck.body.trim().split('\n')).toHaveLength(1);
  expect(stuck.body).toMatch(
    /^accord stub: no expectation answers POST \/shelter in the state it is in: e\d+ waits for state "sold" of "pets", which is "Started", and no expectation or example moves it there/,
  );
  expect(stub.calls({ unmatched: true })).toEqual([
    expect.objectContaining({ status: 409, report: stuck.body, state: { name: 'pets', requires: 'sold', was: 'Started', now: 'Started' } }),
  ]);
  // Once something can move it there, the request is answered as if the expectation waiting were not set: from the contract.
  stub.expect({ request: { method: 'POST', path: '/shelter', body: addPet(9, 'Rex') }, response: { body: added }, state: { name: 'pets', becomes: 'sold' } });
  const meanwhile = await post(`${stub.url}/shelter`, getPet(9), SOAP('getPet'));
  expect(meanwhile.status).toBe(200);
  expect(stub.calls().at(-1)).toMatchObject({ answeredBy: 'scenario' });
  await post(`${stub.url}/shelter`, addPet(9, 'Rex'), SOAP('addPet'));
  expect((await post(`${stub.url}/shelter`, getPet(9), SOAP('getPet'))).body).toContain('>sold<');
});

it('a state reachable only through a state nothing reaches is unreachable too', async () => {
  stub.expect({ request: { method: 'POST', path: '/shelter', body: addPet(4, 'A') }, response: { body: added }, state: { name: 'o', requires: 'paid', becomes: 'shipped' } });
  stub.expect({ request: { method: 'POST', path: '/shelter', body: getPet(4) }, response: { body: pet(4, 'A', 'shipped') }, state: { name: 'o', requires: 'shipped' } });
  expect((await post(`${stub.url}/shelter`, getPet(4), SOAP('getPet'))).status).toBe(409);
  stub.setState('o', 'paid');
  expect((await post(`${stub.url}/shelter`, getPet(4), SOAP('getPet'))).status).toBe(200);
});

describe('over HTTP, per scope', () => {
  it('two scopes have their own machines; the API lists, sets and resets them; a scope reset resets its states', async () => {
    const root = connectStub(stub.url);
    const a = root.scope('state-a');
    const b = root.scope('state-b');
    for (const s of [a, b]) {
      await s.expect({ request: { method: 'POST', path: '/shelter', body: addPet(1, 'Rex') }, response: { body: added }, state: { name: 'pets', becomes: 'added' } });
      await s.expect({ request: { method: 'POST', path: '/shelter', body: getPet(1) }, response: { body: pet(1, 'Rex', 'here') }, state: { name: 'pets', requires: 'added' } });
      await s.expect({ request: { method: 'POST', path: '/shelter', body: getPet(1) }, response: { body: pet(1, 'none', 'gone') }, state: { name: 'pets', requires: 'Started' } });
    }
    await post(`${a.url}/shelter`, addPet(1, 'Rex'), SOAP('addPet'));
    expect((await post(`${a.url}/shelter`, getPet(1), SOAP('getPet'))).body).toContain('>here<');
    expect((await post(`${b.url}/shelter`, getPet(1), SOAP('getPet'))).body).toContain('>gone<');
    expect(await a.states()).toEqual([{ name: 'pets', state: 'added' }]);
    expect(await b.states()).toEqual([{ name: 'pets', state: 'Started' }]);
    expect(await root.states()).toEqual([]);
    expect((await b.calls())[0].state).toEqual({ name: 'pets', requires: 'Started', was: 'Started', now: 'Started' });

    await b.setState('pets', 'added');
    expect((await post(`${b.url}/shelter`, getPet(1), SOAP('getPet'))).body).toContain('>here<');
    expect(await a.resetState('pets')).toBe(true);
    expect(await a.resetState('other')).toBe(false);
    expect(await a.states()).toEqual([{ name: 'pets', state: 'Started' }]);
    expect(await b.resetState()).toBe(true);
    expect(await b.states()).toEqual([{ name: 'pets', state: 'Started' }]);
    await a.setState('pets', 'added');
    // One machine by name, as the list has it.
    const one = await call(`${stub.url}/_scope/state-a/_accord/states/pets`, { method: 'GET' });
    expect([one.status, JSON.parse(one.body)]).toEqual([200, { name: 'pets', state: 'added' }]);
    expect((await call(`${stub.url}/_scope/state-a/_accord/states/nobody`, { method: 'GET' })).status).toBe(404);
    await a.reset();
    expect(await a.states()).toEqual([]);

    const list = await call(`${stub.url}/_scope/state-a/_accord/states`, { method: 'GET' });
    expect(list).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' } });
  });

  it('hostile input: bad names, unknown keys, too many machines or states are refused in one line, never echoing control characters', async () => {
    const s = connectStub(stub.url).scope('state-hostile');
    const base = { request: { method: 'POST', path: '/shelter', body: getPet(1) }, response: { body: pet(1, 'a', 'b') } };
    const refused = async (state: unknown) => {
      const r = await call(`${s.url}/_accord/expectations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...base, state }) });
      expect(r.body).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
      expect(r.body.trim().split('\n')).toHaveLength(1);
      return r;
    };
    expect((await refused({ name: 'o\u001b]0;owned\u0007', requires: 'x' })).body).toMatch(/^accord stub: expectation has a "state" whose "name" is not 1 to 64 letters/);
    expect((await refused({ name: 'o', requires: 'x'.repeat(65) })).status).toBe(400);
    expect((await refused({ name: 'o', requires: '' })).status).toBe(400);
    expect((await refused({ name: 'o', requires: ' x' })).status).toBe(400);
    expect((await refused({ name: 'o', requires: 7 })).status).toBe(400);
    expect((await refused({ name: 'o' })).body).toMatch(/neither "requires" nor "becomes"/);
    expect((await refused({ name: 'o', requires: 'a', then: 'b' })).body).toMatch(/unknown keys "then"/);
    expect((await refused('placed')).status).toBe(400);
    const put = await call(`${s.url}/_accord/states/o`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: 'a\u0000b' }) });
    expect(put.status).toBe(400);
    expect(put.body).not.toContain('\u0000');
    expect((await call(`${s.url}/_accord/states/%E0%A4%A`, { method: 'DELETE' })).status).toBe(400);
    expect((await call(`${s.url}/_accord/states/${'x'.repeat(100)}`, { method: 'DELETE' })).status).toBe(400);

    for (let i = 0; i < STUB_LIMITS.stateMachines; i++) await s.setState(`m${i}`, 'x');
    const tooMany = await refused({ name: 'one-more', requires: 'x' });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body).toMatch(/this scope has 100 state machines already/);
    await s.reset();
    for (let i = 1; i < STUB_LIMITS.statesPerMachine; i++) await s.setState('big', `s${i}`);
    expect((await call(`${s.url}/_accord/states/big`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"state":"one-more"}' })).status).toBe(413);
    // A refused expectation is not registered: nothing of it is left to answer.
    expect(JSON.parse((await call(`${s.url}/_accord/expectations`, { method: 'GET' })).body)).toEqual([]);
    expect(await s.states()).toHaveLength(1);
  }, 60_000);
});
