import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, connectStub, type RunningStub, type TemplateValue } from '../../src/stub';
import { call, CONTRACTS, PET_SPEC } from './helpers';

/**
 * Defects found by trying issue 27's stub features as a new user would (docs/stub.md's worked
 * examples, from a packed install): each test here failed before its fix.
 */
let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub({ contracts: [PET_SPEC], log: () => {} });
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const put = (name: string, body: string) => call(`${stub.url}/_accord/states/${name}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body });

describe('PUT /_accord/states/<name> says what its body must be', () => {
  it('a misspelt key is named, not reported as a bad state, and sets nothing', async () => {
    const a = await put('order', '{"stat": "placed"}');
    expect(a.status).toBe(400);
    expect(a.body).toBe('accord stub: the body of PUT /_accord/states/<name> must be {"state": "<state>"}, not unknown keys "stat"\n');
    expect(stub.states()).toEqual([]);
  });

  it('an extra key beside "state" is refused, as an expectation refuses unknown keys', async () => {
    const a = await put('order', '{"state": "placed", "becomes": "shipped"}');
    expect(a.status).toBe(400);
    expect(a.body).toContain('not unknown keys "becomes"');
    expect(stub.states()).toEqual([]);
  });

  it('a body without "state", or one that is not an object, says so', async () => {
    expect((await put('order', '{}')).body).toBe('accord stub: the body of PUT /_accord/states/<name> must be {"state": "<state>"}: "state" is missing\n');
    expect((await put('order', '"placed"')).body).toBe('accord stub: the body of PUT /_accord/states/<name> must be {"state": "<state>"}\n');
  });

  it('the documented body still sets the state, from curl and from connectStub', async () => {
    expect(await put('order', '{"state": "placed"}')).toMatchObject({ status: 200, body: '{"name":"order","state":"placed"}' });
    await connectStub(stub.url).setState('order', 'shipped');
    expect(stub.states()).toEqual([{ name: 'order', state: 'shipped' }]);
  });
});

describe('TemplateValue', () => {
  it("types Specmatic's spelling, which the stub reads alike, so a Specmatic user's placeholder compiles", async () => {
    const id: TemplateValue = '{{REQUEST.BODY.getPetRequest/id}}';
    const others: TemplateValue[] = ['{{REQUEST.PATH.id}}', '{{REQUEST.QUERY-PARAMS.page}}', '{{REQUEST.HEADERS.x-id}}'];
    // @ts-expect-error -- Specmatic writes QUERY-PARAMS, not QUERY
    const wrong: TemplateValue = '{{REQUEST.QUERY.page}}';
    expect(others).toHaveLength(3);
    expect(wrong).toBeDefined();
    const ns = 'xmlns:pet="http://example.com/petstore"';
    const soap = (body: string) => `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
    stub.expect({
      request: { method: 'POST', path: '/ws' },
      response: {
        body: soap(`<pet:getPetResponse ${ns}><pet:id>${id}</pet:id><pet:name>Rex</pet:name><pet:type>dog</pet:type><pet:status>sold</pet:status></pet:getPetResponse>`),
      },
    });
    const a = await call(`${stub.url}/ws`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: soap(`<p:getPetRequest xmlns:p="http://example.com/petstore"><p:id>4711</p:id></p:getPetRequest>`),
    });
    expect(a.body).toContain('<pet:id>4711</pet:id>');
  });
});

describe('a state machine only an example file names', () => {
  let dir: string;
  let pets: RunningStub;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-issue27-'));
    copyFileSync(path.join(CONTRACTS, 'pets', 'api_pets_v1.spec'), path.join(dir, 'pets.spec'));
    mkdirSync(path.join(dir, 'pets_examples'));
    const example = {
      'http-request': { method: 'GET', path: '/pets/5' },
      'http-response': { status: 200, body: { petid: 5 } },
      state: { name: 'pets', requires: 'Started', becomes: 'seen' },
    };
    writeFileSync(path.join(dir, 'pets_examples', 'seen.json'), JSON.stringify(example));
    pets = await startStub({ contracts: [dir], log: () => {} });
  });
  afterAll(async () => {
    await pets.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is listed in Started, and reset by name, before any answer moved it (it was a 404 "no expectation or example names it")', async () => {
    expect(pets.states()).toEqual([{ name: 'pets', state: 'Started' }]);
    expect(pets.resetState('pets')).toBe(true);
    const scope = connectStub(pets.url).scope('fresh');
    expect(await scope.states()).toEqual([{ name: 'pets', state: 'Started' }]);
    const del = await call(`${scope.url}/_accord/states/pets`, { method: 'DELETE' });
    expect(del).toMatchObject({ status: 200, body: '{"reset":"pets"}' });
    expect(await scope.resetState('nothing')).toBe(false);
  });

  it('after an answer and a reset it is listed again in Started, and the example answers again', async () => {
    const scope = connectStub(pets.url).scope('story');
    expect(await (await fetch(`${scope.url}/pets/5`)).json()).toEqual({ petid: 5 });
    expect(await scope.states()).toEqual([{ name: 'pets', state: 'seen' }]);
    await scope.reset();
    expect(await scope.states()).toEqual([{ name: 'pets', state: 'Started' }]);
    await fetch(`${scope.url}/pets/5`);
    expect((await scope.calls()).map((c) => c.answeredBy)).toEqual(['example']);
  });
});

describe('?wsdl asked of a stub of .spec files (a replayed recording)', () => {
  it('answers ?wsdl with the WSDL exported from its SOAP scenarios; says why for what it has no document for, instead of a bare "served for POST"', async () => {
    const a = await call(`${stub.url}/ws?wsdl`, { method: 'GET' });
    expect(a.status).toBe(200);
    expect(a.body).toContain('<wsdl:definitions ');
    const xsd = await call(`${stub.url}/ws?xsd=1`, { method: 'GET' });
    expect(xsd.status).toBe(405);
    expect(xsd.body).toContain('accord stub: GET /ws?xsd=1 is not served; this path is served for POST\n');
    expect(xsd.body).toContain('A stub serves ?wsdl only for a .wsdl file it was started from (accord stub service.wsdl)');
    expect((await call(`${stub.url}/elsewhere?singleWsdl`, { method: 'GET' })).body).toContain('A stub serves ?wsdl only');
    expect((await call(`${stub.url}/ws?xsd=1`, { method: 'GET' })).body).toContain('A stub serves ?wsdl only');
    expect((await call(`${stub.url}/ws`, { method: 'GET' })).body).not.toContain('?wsdl');
    expect((await call(`${stub.url}/ws?page=wsdl`, { method: 'GET' })).body).not.toContain('A stub serves ?wsdl');
  });
});
