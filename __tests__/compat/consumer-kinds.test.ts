import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../../src/cli/main';

/**
 * `accord compatible --consumers` reads a consumer's example as the stub read the expectation it
 * was exported from: a templated answer and typed placeholders the stub accepted are not stale,
 * and a change that breaks such an example names its consumer.
 */
const spec = (extra: string) => `Feature: Orders

  Scenario: getOrder
    When POST /orders
    And request-body
    """
    <getOrder><orderId>(number)</orderId><coupon specmatic_occurs="optional">(string)</coupon>${extra}</getOrder>
    """
    Then status 200
    And response-body
    """
    <total>(number)</total>
    """
`;

test('templated and typed examples are live, and a break of a node they send names their consumers', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-consumer-kinds-'));
  try {
    mkdirSync(path.join(dir, 'old'));
    mkdirSync(path.join(dir, 'new'));
    writeFileSync(path.join(dir, 'old/orders.spec'), spec(''));
    // The coupon goes: a break for whoever sends it.
    writeFileSync(path.join(dir, 'new/orders.spec'), spec('').replace('<coupon specmatic_occurs="optional">(string)</coupon>', ''));
    const examples: Record<string, unknown> = {
      'billing-ui': {
        scenario: 'getOrder',
        'http-request': { method: 'POST', path: '/orders', body: '<getOrder><orderId>5</orderId><coupon>X</coupon></getOrder>' },
        'http-response': { status: 200, body: '<total>{{request.body.getOrder/orderId}}</total>' },
      },
      mobile: { scenario: 'getOrder', 'http-request': { method: 'POST', path: '/orders', body: '<getOrder><orderId>(number)</orderId><coupon>(string)</coupon></getOrder>' } },
      web: { 'http-request': { method: 'POST', path: '/orders', body: '<getOrder><orderRef>1</orderRef></getOrder>' } },
    };
    for (const [consumer, example] of Object.entries(examples)) {
      mkdirSync(path.join(dir, 'shared', consumer, 'orders_examples'), { recursive: true });
      writeFileSync(path.join(dir, 'shared', consumer, 'orders_examples', 'e.json'), JSON.stringify(example));
    }
    let out = '';
    const code = await run(['compatible', 'old/orders.spec', 'new/orders.spec', '--consumers', 'shared', '--json'], {
      cwd: dir,
      stdout: (s) => (out += s),
      stderr: () => undefined,
    });
    const json = JSON.parse(out) as { files: { consumers: { stale: string[]; impacts: { broken: string[] }[] } }[] };
    const c = json.files[0].consumers;
    // Only web's example, which never fitted, is stale.
    expect(c.stale).toEqual([path.join(dir, 'shared', 'web', 'orders_examples', 'e.json')]);
    expect(c.impacts.flatMap((i) => i.broken).sort()).toEqual(['billing-ui', 'mobile']);
    expect(code).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
