import path from 'node:path';
import { AccordError } from '../../src/errors';
import { STUB_LIMITS } from '../../src/limits';
import { connectStub, startStub, type RunningStub } from '../../src/stub';
import { StubState } from '../../src/stub/admin/scope-state';
import { loadContracts } from '../../src/stub/contracts';
import { buildRoutes } from '../../src/stub/decide/build-routes';
import { CONTRACTS, call } from './helpers';

/**
 * Scopes and named state under a flood (issue 34, point 7). A scope a test put named state in is
 * that test's as much as one with expectations: 1,000 new scope names must not forget it. When
 * every scope the stub holds has expectations or state, a new scope is refused (503) saying so,
 * never made by dropping a test's. And named state is bounded across all scopes together
 * (STUB_LIMITS.stateNames), refused with a clear message once full, freed by a reset.
 */
const PETS_SPEC = path.join(CONTRACTS, 'pets', 'api_pets_v1.spec');
const json = { 'content-type': 'application/json' };

describe('over HTTP', () => {
  let stub: RunningStub;
  beforeEach(async () => {
    stub = await startStub({ contracts: PETS_SPEC, log: () => {} });
  });
  afterEach(() => stub.close());

  const setState = (scope: string, machine: string, to: string) =>
    call(`${stub.url}/_scope/${scope}/_accord/states/${machine}`, { method: 'PUT', body: JSON.stringify({ state: to }), headers: json });

  it('a scope holding only a named state is not forgotten when 1,000 new scopes come after it', async () => {
    expect((await setState('keep', 'cart', 'Full')).status).toBe(200);
    for (let i = 0; i <= STUB_LIMITS.scopes; i++) expect((await call(`${stub.url}/_scope/flood${i}/pets/1`, { method: 'GET' })).status).toBe(200);
    const kept = await call(`${stub.url}/_scope/keep/_accord/states/cart`, { method: 'GET' });
    expect(kept.status).toBe(200);
    expect(JSON.parse(kept.body)).toEqual({ name: 'cart', state: 'Full' });
  }, 120_000);

  it('when every scope has expectations or state, a new scope is refused (503) saying why; a reset makes room', async () => {
    const client = connectStub(stub.url);
    await client.scope('with-expectation').expect({ request: { method: 'GET', path: '/pets/8' }, response: { body: { petid: 8 } } });
    for (let i = 1; i < STUB_LIMITS.scopes; i++) expect((await setState(`held${i}`, 'cart', 'Full')).status).toBe(200);
    const refused = await call(`${stub.url}/_scope/newcomer/pets/1`, { method: 'GET' });
    expect(refused.status).toBe(503);
    expect(refused.body).toBe(
      `accord stub: scope "newcomer" refused: the stub holds ${STUB_LIMITS.scopes} scopes (STUB_LIMITS.scopes), each with expectations or named state; reset the scopes you are done with (POST /_scope/<id>/_accord/reset, scope.reset())\n`,
    );
    // Nobody's was dropped: the expectation still answers, the oldest state is still there.
    expect(JSON.parse((await call(`${stub.url}/_scope/with-expectation/pets/8`, { method: 'GET' })).body)).toEqual({ petid: 8 });
    expect(JSON.parse((await call(`${stub.url}/_scope/held1/_accord/states/cart`, { method: 'GET' })).body)).toEqual({ name: 'cart', state: 'Full' });
    // A test done with its scope resets it: it is idle, and makes room.
    expect((await call(`${stub.url}/_scope/held2/_accord/reset`, { method: 'POST' })).status).toBe(200);
    expect((await call(`${stub.url}/_scope/newcomer/pets/1`, { method: 'GET' })).status).toBe(200);
  }, 120_000);
});

describe('named state across every scope (STUB_LIMITS.stateNames)', () => {
  const table = buildRoutes(loadContracts([PETS_SPEC]));

  /** Fills scope `id` with 100 machines of 99 states each (9,900 names of the budget, plus each machine's name and Started). */
  function fill(state: StubState, id: string): void {
    const scope = state.scope(id);
    for (let m = 0; m < STUB_LIMITS.stateMachines; m++) for (let s = 1; s < STUB_LIMITS.statesPerMachine; s++) scope.states.set(`machine-${m}`, `state-${s}`);
  }

  it('is refused once full, with a message that says the bound; a reset of one scope frees its share', () => {
    const state = new StubState(table);
    // Each full scope holds 100 × (1 + 100) = 10,100 names: nine fit, the tenth passes the bound.
    for (let i = 0; i < 9; i++) fill(state, `full${i}`);
    let refused: unknown;
    try {
      fill(state, 'full9');
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(AccordError);
    expect((refused as AccordError).code).toBe('ACCORD_ERR_LIMIT');
    expect((refused as Error).message).toBe(
      `state refused: the stub's scopes hold ${STUB_LIMITS.stateNames} machine and state names together already (STUB_LIMITS.stateNames); reset the scopes you are done with`,
    );
    // The root is held to the same budget.
    expect(() => state.states.set('root-machine', 'Open')).toThrow('STUB_LIMITS.stateNames');
    // What was held stays as it was: a refusal changes nothing.
    expect(state.scope('full0').stateList()).toHaveLength(STUB_LIMITS.stateMachines);
    state.scope('full0').reset();
    expect(() => state.states.set('root-machine', 'Open')).not.toThrow();
    expect(() => fill(state, 'full9')).not.toThrow();
    expect(() => fill(state, 'full10')).toThrow('STUB_LIMITS.stateNames');
    state.scope('full1').reset();
    expect(() => fill(state, 'full10')).not.toThrow();
  });
});
