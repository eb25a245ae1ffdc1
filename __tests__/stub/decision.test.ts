import path from 'node:path';
import { ParsedBody } from '../../src/http/body';
import type { HttpRequest } from '../../src/http/message';
import { loadContracts } from '../../src/stub/contracts';
import { buildRoutes } from '../../src/stub/decide/build-routes';
import { decide, verboseLine, type Served } from '../../src/stub/decide/decide';
import { DispatchMemo } from '../../src/stub/decide/memo';
import { StubState } from '../../src/stub/admin/scope-state';
import { startStub } from '../../src/stub';
import { post, REPO } from './helpers';

/**
 * decide() (src/stub/decide/decide.ts) works out who answers once; the journal entry, the --verbose line and
 * the repeat cache all read that one Decision, so they cannot tell different stories of one answer.
 */
const PET_SPEC = path.join(REPO, 'contracts', 'soap', 'api_pet_v1.spec');
const ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const petRequest = (id: string) =>
  `<soapenv:Envelope xmlns:soapenv="${ENV}"><soapenv:Header/><soapenv:Body><pet:getPetRequest xmlns:pet="http://example.com/petstore"><pet:id>${id}</pet:id></pet:getPetRequest></soapenv:Body></soapenv:Envelope>`;
const petAnswer = `<soapenv:Envelope xmlns:soapenv="${ENV}"><soapenv:Header/><soapenv:Body><pet:getPetResponse xmlns:pet="http://example.com/petstore"><pet:id>11</pet:id><pet:name>Rex</pet:name><pet:type>dog</pet:type><pet:status>sold</pet:status></pet:getPetResponse></soapenv:Body></soapenv:Envelope>`;

function setting() {
  const table = buildRoutes(loadContracts([PET_SPEC]));
  const state = new StubState(table);
  const memo = new DispatchMemo(table);
  let dispatched = 0;
  const counted = memo.dispatch.bind(memo);
  memo.dispatch = (...args) => {
    dispatched++;
    return counted(...args);
  };
  const served = (more: Partial<Served> = {}): Served => ({ table, memo, strict: false, passThrough: false, ...more });
  const ask = (body: string, s: Served) => {
    const request: HttpRequest = { method: 'POST', path: '/ws', query: [], headers: { 'content-type': 'text/xml' }, body };
    return decide({ request, url: '/ws', line: 'POST /ws', body: new ParsedBody(body), mtom: false }, s, state);
  };
  return { state, served, ask, dispatched: () => dispatched };
}

it('with WS-Security, a request is looked up once, and a refusal is one decision the journal and the log line both read', () => {
  const { served, ask, dispatched } = setting();
  let checked = 0;
  const lenient = served({ wsSecurity: { refusal: () => void checked++ } });
  const d = ask(petRequest('10'), lenient);
  expect(d.kind).toBe('scenario');
  expect(checked).toBe(1);
  // Before decide(), the server dispatched once for the WS-Security check and again to answer.
  expect(dispatched()).toBe(1);

  const fault = { status: 500, headers: { 'content-type': 'text/xml' }, body: '<soap:Fault/>' };
  const strictWs = served({ wsSecurity: { refusal: () => ({ fault, said: 'refused: WS-Security fault wsse:FailedAuthentication, no token' }) } });
  const refused = ask(petRequest('11'), strictWs);
  if (refused.kind === 'pass-through') throw new Error('not a refusal');
  expect(refused.kind).toBe('refused');
  expect(refused.response).toBe(fault);
  expect(refused.entry).toEqual({ status: 500, answeredBy: 'none', scenario: expect.objectContaining({ name: 'Get a pet by id' }), report: 'WS-Security: <soap:Fault/>' });
  expect(refused.repeat).toBeUndefined();
  expect(verboseLine('POST /ws', refused, refused.entry.status, 1)).toBe('POST /ws -> 500 refused: WS-Security fault wsse:FailedAuthentication, no token (1.00 ms)');
});

it('each kind of decision carries its answer, journal entry and log line together', () => {
  const { state, served, ask } = setting();
  const plain = served();
  const scenario = ask(petRequest('10'), plain);
  if (scenario.kind === 'pass-through') throw new Error('passed through');
  expect([scenario.kind, scenario.entry.answeredBy, scenario.entry.status, scenario.response.status]).toEqual(['scenario', 'scenario', 200, 200]);
  expect(scenario.said).toMatch(/^"Get a pet by id" \(.*api_pet_v1\.spec:3\)$/);

  const refused = ask('<not-a-pet/>', plain);
  if (refused.kind === 'pass-through') throw new Error('passed through');
  expect([refused.kind, refused.entry.status, refused.report]).toEqual(['refused', 400, true]);
  expect(refused.response.body).toBe(refused.entry.report);
  expect(refused.repeat).toBeUndefined();

  const strict = ask(petRequest('12'), served({ strict: true }));
  if (strict.kind === 'pass-through') throw new Error('passed through');
  expect([strict.kind, strict.entry.status]).toEqual(['refused', 400]);
  expect(strict.entry.report).toMatch(/^accord stub \(strict\): no expectation or example answers POST \/ws/);

  expect(ask(petRequest('13'), served({ passThrough: true }))).toEqual({ kind: 'pass-through', scenario: expect.objectContaining({ name: 'Get a pet by id' }), said: '' });

  state.expect({ request: { method: 'POST', path: '/ws', body: petRequest('11') }, response: { body: petAnswer }, state: { name: 'pets', becomes: 'sold' } });
  const expected = ask(petRequest('11'), plain);
  if (expected.kind === 'pass-through') throw new Error('passed through');
  expect([expected.kind, expected.entry.answeredBy, expected.entry.expectation]).toEqual(['expectation', 'expectation', 'e1']);
  expect(expected.entry.state).toEqual({ name: 'pets', was: 'Started', now: 'sold' });
  // A state move: never repeated, and the log line says the move the journal records.
  expect(expected.repeat).toBeUndefined();
  expect(verboseLine('POST /ws', expected, expected.entry.status, 0)).toMatch(/^POST \/ws -> 200 expectation e1 \(.*\), state pets: Started -> sold \(0\.00 ms\)$/);
});

it('a running stub journals and logs each request from the same decision', async () => {
  const lines: string[] = [];
  const stub = await startStub({ contracts: PET_SPEC, verbose: true, log: (l) => lines.push(l) });
  try {
    stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('11') }, response: { body: petAnswer }, state: { name: 'pets', becomes: 'sold' } });
    const statuses = [];
    for (const body of [petRequest('10'), petRequest('11'), '<nope/>']) statuses.push((await post(`${stub.url}/ws`, body)).status);
    expect(statuses).toEqual([200, 200, 400]);
    const calls = stub.calls();
    expect(calls.map((c) => c.answeredBy)).toEqual(['scenario', 'expectation', 'none']);
    expect(lines).toHaveLength(3);
    calls.forEach((c, i) => {
      expect(lines[i]).toContain(`POST /ws -> ${c.status} `);
      if (c.state) expect(lines[i]).toContain(`, state ${c.state.name}: ${c.state.was} -> ${c.state.now}`);
    });
    expect(lines[1]).toMatch(/expectation e1 .*, state pets: Started -> sold/);
  } finally {
    await stub.close();
  }
});
