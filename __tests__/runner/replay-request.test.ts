import { parseContract, testCases } from '../../src/contract/load';
import { buildRequest } from '../../src/http/build-request';
import { replayRequest } from '../../src/runner/consumers';

/** What the provider's run sends for a consumer's example: the recorded request, gaps filled from the scenario. */
const SPEC = `Feature: Pets

  Scenario: add pet
    When POST /pets
    And request-header X-Api-Version (number)
    And request-header X-Trace? (string)
    And request-body {"name": "(string)", "tag?": "(string)"}
    Then status 201
`;

const tc = testCases(parseContract(SPEC, 'pets.spec'))[0];
const built = buildRequest(tc, 0);

test('a recorded JSON body is sent as it is, with no generated optional key or header; Host and Content-Length are not', () => {
  const sent = replayRequest(
    { method: 'POST', path: '/pets', query: [], headers: { host: 'old:1', 'content-length': '3' }, body: '{"name":"Rex"}', givenBody: true },
    built,
    tc.scenario,
  );
  expect(sent.body).toBe('{"name":"Rex"}');
  expect(Object.keys(sent.headers).sort()).toEqual(['content-type', 'x-api-version']);
  expect(sent.headers['x-api-version']).toBe(built.headers['x-api-version']);
  expect(sent.headers['content-type']).toBe('application/json');
});

test("the recorded headers win over the contract's, and a left-out body is the generated one", () => {
  const sent = replayRequest(
    { method: 'POST', path: '/pets', query: [['a', 'b']], headers: { 'x-api-version': '2', 'x-trace': 't1' }, body: '', givenBody: false },
    built,
    tc.scenario,
  );
  expect(sent).toEqual({
    method: 'POST',
    path: '/pets',
    query: [['a', 'b']],
    headers: { 'x-api-version': '2', 'x-trace': 't1', 'content-type': 'application/json' },
    body: built.body,
  });
});
