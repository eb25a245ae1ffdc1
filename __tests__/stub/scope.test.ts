import path from 'node:path';
import { accordMatchers, connectStub, startStub, type RunningStub } from '../../src/stub';
import { STUB_LIMITS } from '../../src/limits';
import { CONTRACTS, call } from './helpers';

/**
 * Scopes: `/_scope/<id>/…` is the stub with expectations and a journal of its own, so test files
 * sharing one stub (Jest's parallel workers) do not answer, count or reset one another's requests.
 */
const PETS_SPEC = path.join(CONTRACTS, 'pets', 'api_pets_v1.spec');
expect.extend(accordMatchers);
let stub: RunningStub;

beforeAll(async () => {
  stub = await startStub({ contracts: PETS_SPEC, log: () => {} });
});
afterAll(() => stub.close());

const petid = async (url: string) => (JSON.parse((await call(url, { method: 'GET' })).body) as { petid: number }).petid;

it('each scope answers with its own expectations, keeps its own journal and resets only itself', async () => {
  const root = connectStub(stub.url);
  const a = root.scope('file-a');
  const b = root.scope('file-b');
  expect(a.url).toBe(`${stub.url}/_scope/file-a`);
  await a.expect({ request: { method: 'GET', path: '/pets/7' }, response: { body: { petid: 1 } } });
  await b.expect({ request: { method: 'GET', path: '/pets/7' }, response: { body: { petid: 2 } } });
  expect(await petid(`${a.url}/pets/7`)).toBe(1);
  expect(await petid(`${b.url}/pets/7`)).toBe(2);
  expect(await petid(`${b.url}/pets/7`)).toBe(2);
  // The root has none of them: the contract answers.
  expect(await petid(`${stub.url}/pets/7`)).not.toBe(1);
  const seen = await a.calls();
  expect(seen.map((c) => [c.path, c.seq, c.scope, c.answeredBy])).toEqual([['/pets/7', 1, 'file-a', 'expectation']]);
  expect(await b.calls({ path: '/pets/7' })).toHaveLength(2);
  expect((await root.calls()).map((c) => c.scope)).toEqual([undefined]);
  await expect(a).toHaveReceived({ path: '/pets/7' }, 1);

  await a.reset();
  expect(await a.calls()).toEqual([]);
  expect(await petid(`${a.url}/pets/7`)).not.toBe(1);
  expect(await petid(`${b.url}/pets/7`)).toBe(2);
  expect(await b.calls()).toHaveLength(3);
  // A scope of a scope is a scope of the stub.
  expect(a.scope('c').url).toBe(`${stub.url}/_scope/c`);
  // A random id when none is given: two clients, two scopes.
  expect(root.scope().url).not.toBe(root.scope().url);
  await root.reset();
  expect(await b.calls()).toHaveLength(3);
});

it("past its bound the stub forgets the least recently used scope without expectations: a flood of requests cannot take a test's", async () => {
  const busy = connectStub(stub.url).scope('busy');
  await busy.expect({ request: { method: 'GET', path: '/pets/8' }, response: { body: { petid: 8 } } });
  const first = connectStub(stub.url).scope('s0');
  for (let i = 0; i <= STUB_LIMITS.scopes; i++) expect((await call(`${stub.url}/_scope/s${i}/pets/1`, { method: 'GET' })).status).toBe(200);
  expect(await petid(`${busy.url}/pets/8`)).toBe(8);
  // s0, the oldest without expectations, was forgotten with its journal.
  expect(await first.calls()).toEqual([]);
}, 60_000);
