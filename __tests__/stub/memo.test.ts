import { parseContract, testCases } from '../../src/contract/load';
import { ParsedBody } from '../../src/http/body';
import { buildRequest } from '../../src/http/build-request';
import { splitPath } from '../../src/http/match-request';
import type { HttpRequest } from '../../src/http/message';
import { STUB_LIMITS } from '../../src/limits';
import { loadContracts } from '../../src/stub/contracts';
import { dispatch, type Outcome } from '../../src/stub/decide/dispatch';
import { DispatchMemo, keyText, RequestMap } from '../../src/stub/decide/memo';
import { requestRandom, respond } from '../../src/stub/answer/respond';
import { buildRoutes } from '../../src/stub/decide/build-routes';
import { startStub } from '../../src/stub/server';
import { importWsdl } from '../../src/wsdl';
import { wsdlFixtures } from '../wsdl/fixtures';
import { CONTRACTS, PET_SPEC, petRequest, post } from './helpers';

/** A body that counts its parses: a remembered choice must not need one. */
class CountingBody extends ParsedBody {
  parses = 0;
  override asXml() {
    this.parses++;
    return super.asXml();
  }
}

function chosen(o: Outcome): string {
  return o.kind === 'matched' ? `${o.route.label} row ${o.row?.line ?? '-'} file ${o.fixed?.file ?? '-'}` : o.kind;
}

it('gives the choice dispatch gives, for every request of the example contracts and the repository WSDLs asked twice, and the second time without parsing', () => {
  const contracts = [...loadContracts([CONTRACTS]), ...wsdlFixtures().map((w) => parseContract(importWsdl(w.file).text, `${w.name}.spec`))];
  let asked = 0;
  for (const contract of contracts) {
    const table = buildRoutes([contract]);
    const memo = new DispatchMemo(table);
    for (const tc of testCases(contract)) {
      const req = buildRequest(tc, 1);
      const url = req.path + (req.query.length > 0 ? `?${new URLSearchParams(req.query)}` : '');
      const expected = chosen(dispatch(table, req, splitPath(req.path), new ParsedBody(req.body)));
      const first = new ParsedBody(req.body);
      expect(chosen(memo.dispatch(req, first, memo.keyOf(req, url, first)))).toBe(expected);
      const again = new CountingBody(req.body);
      expect(chosen(memo.dispatch(req, again, memo.keyOf(req, url, again)))).toBe(expected);
      // Bodies over the memo's limit are matched every time.
      if (expected !== 'no-match' && expected !== 'unknown-path' && req.body.length <= STUB_LIMITS.memoBodyChars) expect(again.parses).toBe(0);
      asked++;
    }
  }
  expect(asked).toBeGreaterThan(30);
});

it('tells requests apart by a header the contract names, even with the same body', () => {
  const spec = (action: string) =>
    `  Scenario: ${action}\n    When POST /ws\n    And request-header SOAPAction urn:${action}\n    And request-body (anything)\n    Then status 200\n    And response-body ${action}\n`;
  const table = buildRoutes([parseContract(`Feature: Actions\n${spec('ping')}${spec('pong')}`, 'actions.spec')]);
  const memo = new DispatchMemo(table);
  const ask = (action: string) => {
    const req: HttpRequest = { method: 'POST', path: '/ws', query: [], headers: { soapaction: `urn:${action}` }, body: '<x/>' };
    const body = new ParsedBody(req.body);
    const o = memo.dispatch(req, body, memo.keyOf(req, '/ws', body));
    return o.kind === 'matched' ? o.route.scenario.name : o.kind;
  };
  expect([ask('ping'), ask('pong'), ask('ping'), ask('pong'), ask('other')]).toEqual(['ping', 'pong', 'ping', 'pong', 'no-match']);
});

it('stays bounded: past its size it starts again, and long bodies are never kept', () => {
  const table = buildRoutes(loadContracts([PET_SPEC]));
  const memo = new DispatchMemo(table);
  const ask = (id: string, padding = '') => {
    const body = petRequest(id).replace('<soapenv:Header/>', `<soapenv:Header/>${padding}`);
    const req: HttpRequest = { method: 'POST', path: '/ws', query: [], headers: {}, body };
    const parsed = new ParsedBody(body);
    return memo.dispatch(req, parsed, memo.keyOf(req, '/ws', parsed));
  };
  for (let i = 0; i < STUB_LIMITS.memoEntries + 5; i++) expect(ask(String(i)).kind).toBe('matched');
  expect(memo.size).toBeLessThanOrEqual(STUB_LIMITS.memoEntries);
  const before = memo.size;
  expect(ask('1', ' '.repeat(STUB_LIMITS.memoBodyChars)).kind).toBe('matched');
  expect(memo.size).toBe(before);
});

it('answers a repeated request with the same answer, another request with values of its own, and the same again after a restart', async () => {
  const answersOf = async (ids: string[]) => {
    const stub = await startStub({ contracts: PET_SPEC });
    try {
      const out: string[] = [];
      for (const id of ids) {
        const a = await post(`${stub.url}/ws`, petRequest(id));
        expect(a.status).toBe(200);
        out.push(a.body);
      }
      expect(stub.calls().every((c) => c.scenario?.name === 'Get a pet by id')).toBe(true);
      return out;
    } finally {
      await stub.close();
    }
  };
  const first = await answersOf(['10', '11', '10', '12', '10']);
  expect(new Set([first[0], first[2], first[4]]).size).toBe(1);
  expect(new Set([first[0], first[1], first[3]]).size).toBe(3);
  // Another order of requests, another stub process's life: each request still gets its own answer.
  expect(await answersOf(['12', '10', '11'])).toEqual([first[3], first[0], first[1]]);
});

it('gives a request whose answer is too long to keep the same answer each time, made again', () => {
  const spec = `Feature: Long\n  Scenario: long\n    When POST /ws\n    And request-body (anything)\n    Then status 200\n    And response-body (string)\n`;
  const table = buildRoutes([parseContract(spec, 'long.spec')]);
  const route = table.routes[0];
  const memo = new DispatchMemo(table);
  const req: HttpRequest = { method: 'POST', path: '/ws', query: [], headers: {}, body: '<x/>' };
  const body = new ParsedBody(req.body);
  const key = memo.keyOf(req, '/ws', body);
  const choice = memo.dispatch(req, body, key);
  if (choice.kind !== 'matched') throw new Error(choice.kind);
  const long = { status: 200, headers: {}, body: 'x'.repeat(STUB_LIMITS.memoAnswerChars + 1) };
  expect(DispatchMemo.answer(choice, () => long)).toBe(long);
  expect(choice.answer).toBeUndefined();
  const short = respond(route, undefined, requestRandom(route, keyText(key)));
  expect(DispatchMemo.answer(choice, () => short)).toBe(short);
  expect(DispatchMemo.answer(choice, () => long)).toBe(short);
  // Made again from the same key, the answer is the same.
  expect(respond(route, undefined, requestRandom(route, keyText(key)))).toEqual(short);
});

it('gives an expectation without a body the same generated answer for the same request, and another request its own', async () => {
  const stub = await startStub({ contracts: PET_SPEC });
  try {
    stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('10') }, response: { headers: { 'x-from': 'expectation' } } });
    const answers: string[] = [];
    // Content-Type is part of what an answer is a function of: the second request is another request.
    for (const type of ['text/xml; charset=utf-8', 'text/xml', 'text/xml; charset=utf-8']) {
      const a = await post(`${stub.url}/ws`, petRequest('10'), { 'content-type': type });
      expect([a.status, a.headers['x-from']]).toEqual([200, 'expectation']);
      answers.push(a.body);
    }
    expect(answers[2]).toBe(answers[0]);
    expect(answers[1]).not.toBe(answers[0]);
    expect(stub.calls().map((c) => c.answeredBy)).toEqual(['expectation', 'expectation', 'expectation']);
  } finally {
    await stub.close();
  }
});

test('a request map tells keys apart by head and body, keeps its last entry in front and forgets it when cleared', () => {
  const map = new RequestMap<string>();
  const key = (head: string, body: string) => ({ head, body: body.slice(0) });
  map.set(key('POST /a', '<x>1</x>'), 'a1');
  map.set(key('POST /b', '<x>1</x>'), 'b1');
  map.set(key('POST /a', '<x>2</x>'), 'a2');
  expect(map.size).toBe(3);
  // Equal text in new strings (as each request's body is) finds the entry; the last one found is in front.
  for (let i = 0; i < 2; i++) {
    expect(map.get(key('POST /a', '<x>1</x>'))).toBe('a1');
    expect(map.get(key('POST /b', '<x>1</x>'))).toBe('b1');
    expect(map.get(key('POST /a', '<x>2</x>'))).toBe('a2');
  }
  expect(map.get(key('POST /b', '<x>2</x>'))).toBeUndefined();
  expect(map.get(key('POST /a', '<x>3</x>'))).toBeUndefined();
  // A new value for the entry in front replaces it there too.
  map.set(key('POST /a', '<x>2</x>'), 'a2 again');
  expect(map.get(key('POST /a', '<x>2</x>'))).toBe('a2 again');
  expect(map.size).toBe(3);
  map.clear();
  expect(map.size).toBe(0);
  expect(map.get(key('POST /a', '<x>2</x>'))).toBeUndefined();
  expect(keyText(key('POST /a', '<x>2</x>'))).toBe('POST /a\n<x>2</x>');
});
