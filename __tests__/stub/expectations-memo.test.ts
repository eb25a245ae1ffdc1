import path from 'node:path';
import { ParsedBody } from '../../src/http/body';
import type { HttpRequest } from '../../src/http/message';
import { STUB_LIMITS } from '../../src/limits';
import { loadContracts } from '../../src/stub/contracts';
import { Expectations, type ExpectationInput } from '../../src/stub/admin/expectations';
import { buildRoutes } from '../../src/stub/decide/build-routes';
import { CONTRACTS, PET_SPEC, petRequest } from './helpers';

/**
 * Expectations.take with the request's URL remembers which expectations fit a request; without
 * it every request is matched afresh. Both must answer alike through every change to the set.
 */
const table = buildRoutes(loadContracts([PET_SPEC, path.join(CONTRACTS, 'pets', 'api_pets_v1.spec')]));

/** A body that counts its parses: a remembered fit must not need one. */
class CountingBody extends ParsedBody {
  parses = 0;
  override asXml() {
    this.parses++;
    return super.asXml();
  }
}

interface Asked {
  req: HttpRequest;
  url: string;
}

const soap = (id: string, headers: Record<string, string> = {}): Asked => ({
  req: { method: 'POST', path: '/ws', query: [], headers: { 'content-type': 'text/xml', ...headers }, body: petRequest(id) },
  url: '/ws',
});
const rest = (id: string): Asked => ({ req: { method: 'GET', path: `/pets/${id}`, query: [], headers: {}, body: '' }, url: `/pets/${id}` });

function take(store: Expectations, a: Asked, memoised: boolean, body = new ParsedBody(a.req.body)): string {
  const e = store.take(a.req, body, memoised ? store.keyOf(a.req, a.url, body) : undefined);
  return e ? `${e.id} used ${e.used} left ${e.remaining ?? '-'}` : 'none';
}

/** A small deterministic generator: the same script every run. */
function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
}

const IDS = ['1', '2', '3'];

function expectation(pick: (n: number) => number): ExpectationInput {
  const id = IDS[pick(IDS.length)];
  const times = pick(3) === 0 ? undefined : 1 + pick(3);
  const request = pick(2) === 0 ? { method: 'POST', path: '/ws', body: petRequest(id) } : { method: 'GET', path: `/pets/${id}` };
  return { request, times, response: request.method === 'GET' ? { body: { petid: Number(id) } } : undefined };
}

it('answers like unremembered matching through adds, transient uses, sequences, removals and resets (random scripts)', () => {
  let steps = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const pick = random(seed);
    const plain = new Expectations();
    const memo = new Expectations();
    const log: string[] = [];
    for (let step = 0; step < 60; step++) {
      const op = pick(10);
      if (op < 2) {
        const input = expectation(pick);
        expect(memo.add(input, table).id).toBe(plain.add(input, table).id);
      } else if (op === 2 && plain.size > 0) {
        const id = plain.list()[pick(plain.size)].id;
        expect(memo.remove(id)).toBe(plain.remove(id));
      } else if (op === 3 && pick(4) === 0) {
        plain.clear();
        memo.clear();
      } else {
        const id = IDS[pick(IDS.length)];
        const asked = pick(2) === 0 ? soap(id) : rest(id);
        const got = take(plain, asked, false);
        log.push(got);
        expect(`${seed}/${step}: ${take(memo, asked, true)}`).toBe(`${seed}/${step}: ${got}`);
      }
      expect(memo.list().map((e) => `${e.id} ${e.used} ${e.remaining}`)).toEqual(plain.list().map((e) => `${e.id} ${e.used} ${e.remaining}`));
      steps++;
    }
    // The scripts do reach expectations (not only "none").
    if (seed === 1) expect(log.some((x) => x !== 'none')).toBe(true);
  }
  expect(steps).toBe(40 * 60);
});

it('runs a sequence of transient expectations in turn, then the permanent one, for the same remembered request', () => {
  const store = new Expectations();
  const ask = soap('7');
  store.add({ request: { method: 'POST', path: '/ws', body: petRequest('7') } }, table);
  store.add({ request: { method: 'POST', path: '/ws', body: petRequest('7') }, times: 2 }, table);
  store.add({ request: { method: 'POST', path: '/ws', body: petRequest('7') }, times: 1 }, table);
  const seen = Array.from({ length: 5 }, () => take(store, ask, true));
  expect(seen).toEqual(['e2 used 1 left 1', 'e2 used 2 left 0', 'e3 used 1 left 0', 'e1 used 1 left -', 'e1 used 2 left -']);
  // An expectation set after the request was remembered is found (the newest permanent one wins).
  store.add({ request: { method: 'POST', path: '/ws', body: petRequest('7') } }, table);
  expect(take(store, ask, true)).toBe('e4 used 1 left -');
  store.remove('e4');
  expect(take(store, ask, true)).toBe('e1 used 3 left -');
  store.clear();
  expect(take(store, ask, true)).toBe('none');
});

it('does not parse a repeated request again, but does after the expectations change', () => {
  const store = new Expectations();
  for (let i = 1; i <= 100; i++) store.add({ request: { method: 'POST', path: '/ws', body: petRequest(String(i)) } }, table);
  const ask = soap('50');
  expect(take(store, ask, true)).toBe('e50 used 1 left -');
  const again = new CountingBody(ask.req.body);
  expect(take(store, ask, true, again)).toBe('e50 used 2 left -');
  expect(again.parses).toBe(0);
  store.add({ request: { method: 'POST', path: '/ws', body: petRequest('50') }, times: 1 }, table);
  const changed = new CountingBody(ask.req.body);
  expect(take(store, ask, true, changed)).toBe('e101 used 1 left 0');
  expect(changed.parses).toBeGreaterThan(0);
  // A body longer than the memo keeps is matched every time.
  const long: Asked = { ...ask, req: { ...ask.req, body: ask.req.body.replace('<soapenv:Header/>', `<soapenv:Header/>${' '.repeat(STUB_LIMITS.memoBodyChars)}`) } };
  const big = new CountingBody(long.req.body);
  take(store, long, true);
  expect(take(store, long, true, big)).toBe('e50 used 4 left -');
  expect(big.parses).toBeGreaterThan(0);
});

it('tells requests apart by a header an expectation names, with the same URL and body', () => {
  const store = new Expectations();
  store.add({ request: { method: 'POST', path: '/ws', headers: { 'x-tenant': 'a' }, body: petRequest('5') } }, table);
  const seen = ['a', 'b', 'a', 'b'].map((tenant) => take(store, soap('5', { 'x-tenant': tenant }), true));
  expect(seen).toEqual(['e1 used 1 left -', 'none', 'e1 used 2 left -', 'none']);
  expect(take(store, soap('5'), true)).toBe('none');
});
