import { parseContract, testCases } from '../../src/contract/load';
import { ParsedBody } from '../../src/http/body';
import { buildRequest } from '../../src/http/build-request';
import { splitPath } from '../../src/http/match-request';
import type { HttpRequest } from '../../src/http/message';
import { STUB_LIMITS } from '../../src/limits';
import { loadContracts } from '../../src/stub/contracts';
import { dispatch, type Outcome } from '../../src/stub/dispatch';
import { DispatchMemo } from '../../src/stub/memo';
import { buildRoutes } from '../../src/stub/routes';
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
      const segments = splitPath(req.path);
      const expected = chosen(dispatch(table, req, segments, new ParsedBody(req.body)));
      expect(chosen(memo.dispatch(req, url, segments, new ParsedBody(req.body)))).toBe(expected);
      const again = new CountingBody(req.body);
      expect(chosen(memo.dispatch(req, url, segments, again))).toBe(expected);
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
    const o = memo.dispatch(req, '/ws', ['ws'], new ParsedBody(req.body));
    return o.kind === 'matched' ? o.route.scenario.name : o.kind;
  };
  expect([ask('ping'), ask('pong'), ask('ping'), ask('pong'), ask('other')]).toEqual(['ping', 'pong', 'ping', 'pong', 'no-match']);
});

it('stays bounded: past its size it starts again, and long bodies are never kept', () => {
  const table = buildRoutes(loadContracts([PET_SPEC]));
  const memo = new DispatchMemo(table);
  const ask = (id: string, padding = '') => {
    const body = petRequest(id).replace('<soapenv:Header/>', `<soapenv:Header/>${padding}`);
    return memo.dispatch({ method: 'POST', path: '/ws', query: [], headers: {}, body }, '/ws', ['ws'], new ParsedBody(body));
  };
  for (let i = 0; i < STUB_LIMITS.memoEntries + 5; i++) expect(ask(String(i)).kind).toBe('matched');
  expect(memo.size).toBeLessThanOrEqual(STUB_LIMITS.memoEntries);
  const before = memo.size;
  expect(ask('1', ' '.repeat(STUB_LIMITS.memoBodyChars)).kind).toBe('matched');
  expect(memo.size).toBe(before);
});

it('answers a repeated request with values generated afresh each time, as before', async () => {
  const stub = await startStub({ contracts: PET_SPEC });
  try {
    const answers = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const a = await post(`${stub.url}/ws`, petRequest('10'));
      expect(a.status).toBe(200);
      answers.add(a.body);
    }
    expect(answers.size).toBeGreaterThan(1);
    expect(stub.calls().every((c) => c.scenario?.name === 'Get a pet by id')).toBe(true);
  } finally {
    await stub.close();
  }
});
