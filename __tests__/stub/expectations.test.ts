import { AccordError } from '../../src/errors';
import { startStub, type RunningStub } from '../../src/stub';
import { PET_SPEC, SOAP11, call, petRequest, post } from './helpers';
import path from 'node:path';
import { CONTRACTS } from './helpers';

/** Expectations set from code and over HTTP, checked against the contract, driven over real HTTP on 127.0.0.1. */
const PETS_SPEC = path.join(CONTRACTS, 'pets', 'api_pets_v1.spec');
let stub: RunningStub;

beforeAll(async () => {
  stub = await startStub({ contracts: [PET_SPEC, PETS_SPEC], log: () => {} });
});
afterAll(() => stub.close());
afterEach(() => stub.reset());

function petResponse(id: string, name: string, env = 'soapenv'): string {
  return (
    `<${env}:Envelope xmlns:${env}="${SOAP11}"><${env}:Header/><${env}:Body><pet:getPetResponse xmlns:pet="http://example.com/petstore">` +
    `<pet:id>${id}</pet:id><pet:name>${name}</pet:name><pet:type>dog</pet:type><pet:status>available</pet:status></pet:getPetResponse></${env}:Body></${env}:Envelope>`
  );
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('expectations from code', () => {
  it('answers a request with its values with the given response; others still get generated answers', async () => {
    const handle = stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('77') }, response: { status: 200, body: petResponse('77', 'Rex') } });
    expect(handle.scenario.name).toBe('Get a pet by id');
    // Other prefixes and URIs in the request: matched like any request.
    const hit = await post(`${stub.url}/ws`, petRequest('77', 'S', 'p'));
    expect(hit.status).toBe(200);
    expect(hit.body).toBe(petResponse('77', 'Rex'));
    expect(hit.headers['content-type']).toBe('text/xml; charset=utf-8');
    const other = await post(`${stub.url}/ws`, petRequest('78'));
    expect(other.status).toBe(200);
    expect(other.body).not.toContain('Rex');
    expect(handle.used).toBe(1);
    expect(handle.remaining).toBeUndefined();
  });

  it('refuses a response that breaks the contract, with the mismatch report, and never serves it', async () => {
    let refused: unknown;
    try {
      stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('5') }, response: { status: 200, body: petResponse('abc', 'Rex') } });
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(AccordError);
    const text = (refused as AccordError).describe();
    expect(text).toContain('expectation refused: its response does not satisfy scenario "Get a pet by id"');
    expect(text).toMatch(/RESPONSE\.BODY Envelope\/Body\/getPetResponse\/id: expected a number, found "abc"/);
    const res = await post(`${stub.url}/ws`, petRequest('5'));
    expect(res.body).not.toContain('abc');
  });

  it('refuses a request that no scenario takes, and a wrong status', () => {
    expect(() => stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('x') }, response: { body: petResponse('1', 'a') } })).toThrow(
      /its request matches no scenario; closest is "Get a pet by id"/,
    );
    expect(() => stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('1') }, response: { status: 404 } })).toThrow(/RESPONSE.STATUS: expected 200, found 404/);
    expect(() => stub.expect({ request: { method: 'GET', path: '/nope' } })).toThrow(/no scenario is at GET \/nope/);
    expect(() => stub.expect({ request: { method: 'GET', path: '/pets/1' }, tims: 2 } as never)).toThrow(/unknown keys "tims"/);
  });

  it('lets the newest of two expectations for the same request win', async () => {
    stub.expect({ request: { method: 'GET', path: '/pets/5' }, response: { body: { petid: 1 } } });
    stub.expect({ request: { method: 'GET', path: '/pets/5' }, response: { body: { petid: 2 } } });
    expect(json((await call(`${stub.url}/pets/5`, { method: 'GET' })).body)).toEqual({ petid: 2 });
  });

  it('makes a transient expectation with times, and a sequence of several, then falls back', async () => {
    stub.expect({ request: { method: 'GET', path: '/pets/9' }, response: { body: { petid: 0 } } });
    const first = stub.expect({ request: { method: 'GET', path: '/pets/9' }, response: { body: { petid: 1 } }, times: 2 });
    stub.expect({ request: { method: 'GET', path: '/pets/9' }, response: { body: { petid: 2 } }, times: 1 });
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(json((await call(`${stub.url}/pets/9`, { method: 'GET' })).body).petid);
    expect(seen).toEqual([1, 1, 2, 0]);
    expect(first.remaining).toBe(0);
    expect(first.remove()).toBe(false);
  });

  it('generates the body when the expectation gives only a request (and headers)', async () => {
    stub.expect({ request: { method: 'GET', path: '/pets/3' }, response: { headers: { 'x-from': 'expectation' } } });
    const res = await call(`${stub.url}/pets/3`, { method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.headers['x-from']).toBe('expectation');
    expect(typeof json(res.body).petid).toBe('number');
  });

  it('finds the one of a hundred expectations that a request carries the values of (they are indexed by value)', async () => {
    for (let i = 0; i < 100; i++)
      stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest(String(1000 + i)) }, response: { body: petResponse(String(1000 + i), `Pet${i}`) } });
    expect((await post(`${stub.url}/ws`, petRequest('1050', 'S', 'p'))).body).toContain('<pet:name>Pet50</pet:name>');
    // A character reference still spells the value (the index reads parsed text, not bytes).
    expect((await post(`${stub.url}/ws`, petRequest('10&#53;1'))).body).toContain('<pet:name>Pet51</pet:name>');
    expect((await post(`${stub.url}/ws`, petRequest('10'))).body).not.toContain('<pet:name>Pet');
    expect(stub.calls({ answeredBy: 'expectation' })).toHaveLength(2);
  });

  it('reset() removes every expectation', async () => {
    stub.expect({ request: { method: 'GET', path: '/pets/4' }, response: { body: { petid: 444 } } });
    stub.reset();
    expect(json((await call(`${stub.url}/pets/4`, { method: 'GET' })).body).petid).not.toBe(444);
  });
});

describe('expectations over HTTP', () => {
  it('sets, lists and deletes with POST/GET/DELETE /_accord/expectations', async () => {
    const set = await post(`${stub.url}/_accord/expectations`, JSON.stringify({ request: { method: 'GET', path: '/pets/6' }, response: { body: { petid: 66 } }, times: 3 }), {
      'content-type': 'application/json',
    });
    expect(set.status).toBe(201);
    const { id, scenario } = json(set.body) as { id: string; scenario: { name: string } };
    expect(scenario.name).toBe('Fetch a pet by id');
    expect(json((await call(`${stub.url}/pets/6`, { method: 'GET' })).body)).toEqual({ petid: 66 });
    const listed = JSON.parse((await call(`${stub.url}/_accord/expectations`, { method: 'GET' })).body) as { id: string; used: number; remaining: number }[];
    expect(listed).toEqual([expect.objectContaining({ id, used: 1, remaining: 2, times: 3 })]);
    expect((await call(`${stub.url}/_accord/expectations/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await call(`${stub.url}/_accord/expectations/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect(json((await call(`${stub.url}/pets/6`, { method: 'GET' })).body).petid).not.toBe(66);
  });

  it('refuses a contract-breaking expectation with 400 and the mismatch report', async () => {
    const res = await post(`${stub.url}/_accord/expectations`, JSON.stringify({ request: { method: 'GET', path: '/pets/6' }, response: { body: { petid: 'six' } } }), {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toContain('expectation refused: its response does not satisfy scenario "Fetch a pet by id"');
    expect(res.body).toMatch(/RESPONSE\.BODY petid: expected a number, found "six"/);
    expect(JSON.parse((await call(`${stub.url}/_accord/expectations`, { method: 'GET' })).body)).toEqual([]);
    const bad = await post(`${stub.url}/_accord/expectations`, '{"request": ', { 'content-type': 'application/json' });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('not valid JSON');
  });

  it("takes Specmatic's format at POST /_specmatic/expectations, delay-in-seconds included", async () => {
    const res = await post(
      `${stub.url}/_specmatic/expectations`,
      JSON.stringify({
        'http-request': { method: 'POST', path: '/ws', body: petRequest('31') },
        'http-response': { status: 200, body: petResponse('31', 'Spec') },
        'delay-in-seconds': 0.2,
      }),
      { 'content-type': 'application/json' },
    );
    expect(res.status).toBe(200);
    const started = Date.now();
    const hit = await post(`${stub.url}/ws`, petRequest('31'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(hit.body).toContain('<pet:name>Spec</pet:name>');
    const wrong = await post(
      `${stub.url}/_specmatic/expectations`,
      JSON.stringify({ 'http-request': { method: 'POST', path: '/ws', body: petRequest('31') }, 'http-response': { status: 200, body: petResponse('x', 'Spec') } }),
      { 'content-type': 'application/json' },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatch(/RESPONSE\.BODY Envelope\/Body\/getPetResponse\/id: expected a number, found "x"/);
  });

  it('answers 404 for an unknown admin path and 405 for a wrong method', async () => {
    expect((await call(`${stub.url}/_accord/nothing`, { method: 'GET' })).status).toBe(404);
    expect((await call(`${stub.url}/_accord/reset`, { method: 'GET' })).status).toBe(405);
  });
});
