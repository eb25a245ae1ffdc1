import { checkCompatibility } from '../../src/compat';
import { parseContract } from '../../src/contract/load';

/*
 * specmatic_order="any" in `accord compatible`: a response that may now come in any order breaks
 * clients that read the nodes in order; a request that must now come in the order written breaks
 * clients that sent another. The opposite changes are compatible, and with nodes in any order on
 * either side the order they are written in says nothing.
 */
const ANY = ' specmatic_order="any"';
function spec(request: string, response: string, requestNodes = '<user>(string)</user><password>(string)</password>'): string {
  return (
    'Feature: Order\n  Scenario: login\n    When POST /ws\n' +
    `    And request-body <login${request}>${requestNodes}</login>\n` +
    `    Then status 200\n    And response-body <loginResponse${response}><session>(string)</session><result>(string)</result></loginResponse>\n`
  );
}
const rules = (older: string, newer: string) =>
  checkCompatibility(parseContract(older, 'older.spec'), parseContract(newer, 'newer.spec')).results.flatMap((r) => r.findings.map((f) => `${f.rule}: ${f.message}`));

it('a response in any order where it was ordered breaks clients; the reverse does not', () => {
  expect(rules(spec('', ''), spec('', ANY))).toEqual([
    'response-node-order-changed: POST /ws -> 200: RESPONSE.BODY loginResponse: child nodes were (session, result) in this order, now (session, result) in any order (order is part of the contract)',
  ]);
  expect(rules(spec('', ANY), spec('', ''))).toEqual([]);
});

it('a request that must come in order where any order was taken breaks clients; the reverse does not', () => {
  expect(rules(spec(ANY, ''), spec('', ''))).toEqual([
    'request-node-order-changed: POST /ws -> 200: REQUEST.BODY login: child nodes were (user, password) in any order, now (user, password) in this order (order is part of the contract)',
  ]);
  expect(rules(spec('', ''), spec(ANY, ''))).toEqual([]);
});

it('with nodes in any order, writing them in another order is no change, and a node removed is still found', () => {
  expect(rules(spec(ANY, ''), spec(ANY, '', '<password>(string)</password><user>(string)</user>'))).toEqual([]);
  expect(rules(spec('', ''), spec('', '', '<password>(string)</password><user>(string)</user>')).map((r) => r.split(':')[0])).toEqual(['request-node-order-changed']);
  expect(rules(spec(ANY, ''), spec(ANY, '', '<user>(string)</user>')).join('\n')).toContain('password');
});
