import path from 'node:path';
import { Journal } from '../../src/stub/admin/journal';
import { STUB_LIMITS } from '../../src/limits';
import { accordMatchers, connectStub, startStub, type RunningStub } from '../../src/stub';
import { CONTRACTS, PET_SPEC, call, petRequest, post } from './helpers';

/** The request journal and the Jest matchers over it, against a stub on 127.0.0.1. */
expect.extend(accordMatchers);
const PETS_SPEC = path.join(CONTRACTS, 'pets', 'api_pets_v1.spec');
let stub: RunningStub;

beforeAll(async () => {
  stub = await startStub({ contracts: [PET_SPEC, PETS_SPEC], log: () => {} });
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

describe('the request journal', () => {
  it('records every request with what answered it, and the report of those nothing answered', async () => {
    const e = stub.expect({ request: { method: 'GET', path: '/pets/5' }, response: { body: { petid: 5 } } });
    await call(`${stub.url}/pets/5`, { method: 'GET' });
    await call(`${stub.url}/pets/10`, { method: 'GET' });
    await post(`${stub.url}/ws`, petRequest('12'));
    await post(`${stub.url}/ws`, petRequest('twelve'));
    await call(`${stub.url}/nowhere`, { method: 'GET' });
    const calls = stub.calls();
    expect(calls.map((c) => [c.seq, c.method, c.path, c.status, c.answeredBy, c.scenario?.name, c.expectation])).toEqual([
      [1, 'GET', '/pets/5', 200, 'expectation', 'Fetch a pet by id', e.id],
      [2, 'GET', '/pets/10', 200, 'example', 'Fetch a pet by id', undefined],
      [3, 'POST', '/ws', 200, 'scenario', 'Get a pet by id', undefined],
      [4, 'POST', '/ws', 400, 'none', undefined, undefined],
      [5, 'GET', '/nowhere', 404, 'none', undefined, undefined],
    ]);
    // Which example: the Examples row, by its contract and line.
    expect(calls.map((c) => c.example)).toEqual([undefined, `${PETS_SPEC}:10`, undefined, undefined, undefined]);
    expect(calls[2].body).toBe(petRequest('12'));
    expect(calls[3].report).toMatch(/REQUEST\.BODY Envelope\/Body\/getPetRequest\/id: expected a number, found "twelve"/);
    expect(stub.calls({ unmatched: true }).map((c) => c.seq)).toEqual([4, 5]);
    expect(stub.calls({ expectation: e }).map((c) => c.seq)).toEqual([1]);
    expect(stub.calls({ method: 'post', bodyIncludes: '>12<' }).map((c) => c.seq)).toEqual([3]);
  });

  it('is served at GET /_accord/requests with the same filters, and emptied by DELETE or reset', async () => {
    await post(`${stub.url}/ws`, petRequest('1'));
    await call(`${stub.url}/pets/3`, { method: 'GET' });
    const all = JSON.parse((await call(`${stub.url}/_accord/requests`, { method: 'GET' })).body) as { path: string }[];
    expect(all.map((c) => c.path)).toEqual(['/ws', '/pets/3']);
    const ws = JSON.parse((await call(`${stub.url}/_accord/requests?path=/ws&scenario=Get%20a%20pet%20by%20id`, { method: 'GET' })).body) as unknown[];
    expect(ws).toHaveLength(1);
    // The journal's own API calls are not in it.
    expect((await call(`${stub.url}/_accord/requests`, { method: 'DELETE' })).status).toBe(200);
    expect(stub.calls()).toEqual([]);
  });

  it('keeps the newest entries only, and the start of a long body', () => {
    const j = new Journal();
    const n = STUB_LIMITS.journalEntries + 5;
    for (let i = 1; i <= n; i++)
      j.record({ method: 'POST', path: `/${i}`, query: [], headers: {}, body: i === n ? 'x'.repeat(STUB_LIMITS.journalBodyChars + 10) : '' }, { answeredBy: 'none' });
    const kept = j.calls();
    expect(kept).toHaveLength(STUB_LIMITS.journalEntries);
    expect(kept[0].path).toBe('/6');
    expect(kept[kept.length - 1]).toEqual(expect.objectContaining({ path: `/${n}`, bodyCut: true }));
    expect(kept[kept.length - 1].body).toHaveLength(STUB_LIMITS.journalBodyChars);
    j.clear();
    expect(j.calls()).toEqual([]);
    j.record({ method: 'GET', path: '/a', query: [], headers: {}, body: '' }, { answeredBy: 'none' });
    expect(j.calls().map((c) => c.seq)).toEqual([1]);
  });
});

describe('Jest matchers', () => {
  it('toHaveReceived counts matching requests on an in-process stub (synchronously)', async () => {
    await post(`${stub.url}/ws`, petRequest('1'));
    await post(`${stub.url}/ws`, petRequest('2'));
    expect(stub).toHaveReceived({ path: '/ws' });
    expect(stub).toHaveReceived({ scenario: 'Get a pet by id' }, 2);
    expect(stub).toHaveReceived({ method: 'POST' }, { atLeast: 1, atMost: 2 });
    expect(stub).not.toHaveReceived({ path: '/pets/1' });
    expect(stub).toHaveNoUnmatchedRequests();
    expect(() => expect(stub).toHaveReceived({ path: '/ws' }, 3)).toThrow(
      /expected the stub to have received 3 requests matching \{"path":"\/ws"\}, it received 2\.\nRequests received:\n {2}POST \/ws -> 200 by scenario "Get a pet by id"/,
    );
  });

  it('explains a miss with the report of requests nothing answered', async () => {
    await post(`${stub.url}/ws`, petRequest('nine'));
    expect(() => expect(stub).toHaveReceived({ scenario: 'Get a pet by id' })).toThrow(/Requests nothing answered, and why:[\s\S]*expected a number, found "nine"/);
    expect(() => expect(stub).toHaveNoUnmatchedRequests()).toThrow(/1 got the stub's error/);
  });

  it('works over HTTP on a StubClient from connectStub (awaited), expectations included', async () => {
    const client = connectStub(stub.url);
    const { id } = await client.expect({ request: { method: 'GET', path: '/pets/7' }, response: { body: { petid: 7 } }, times: 1 });
    await expect(client.expect({ request: { method: 'GET', path: '/pets/7' }, response: { body: { petid: 'x' } } })).rejects.toThrow(/RESPONSE\.BODY petid: expected a number/);
    expect(JSON.parse((await call(`${stub.url}/pets/7`, { method: 'GET' })).body)).toEqual({ petid: 7 });
    await expect(client).toHaveReceived({ expectation: id }, 1);
    await expect(expect(client).toHaveReceived({ path: '/pets/8' })).rejects.toThrow(/it received 0/);
    expect(await client.calls({ path: '/pets/7' })).toHaveLength(1);
    await client.reset();
    expect(await client.calls()).toEqual([]);
  });
});
