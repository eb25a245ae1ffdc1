import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../helpers/child-env';
import { runJestApp } from '../helpers/jest-app';
import { startServer, type Running } from '../helpers/servers';

/**
 * The provider's run replays consumers' examples (`<contract>_consumers/<consumer>/*.json`, where
 * `accord contracts pull` puts them): an example that fits but gets a wrong answer is a provider
 * failure, reported at the example file and naming the consumer. The provider receives each
 * consumer's request as recorded: no generated value at an optional node the consumer never sent.
 */
const SPEC = `Feature: Orders

  Scenario: getOrder
    When POST /orders?lang=(string)
    And request-header SOAPAction "urn:getOrder"
    And request-header X-Trace? (string)
    And request-body
    """
    <getOrder>
      <orderId>(number)</orderId>
      <coupon specmatic_occurs="optional">(string)</coupon>
      <giftWrap specmatic_occurs="optional">(boolean)</giftWrap>
    </getOrder>
    """
    Then status 200
    And response-body
    """
    <total>(number)</total>
    """
`;

let dir: string;
let service: Running;
/** What the provider received, in order: the consumer's requests among the contract's own. */
const received: { body: string; headers: Record<string, unknown>; url: string }[] = [];
const SEVEN = '<getOrder><orderId>7</orderId></getOrder>';
const COUPON = '<getOrder>\n  <orderId>8</orderId>\n  <coupon>SAVE10</coupon>\n</getOrder>';

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-replay-'));
  writeFileSync(path.join(dir, 'orders.spec'), SPEC);
  mkdirSync(path.join(dir, 'orders_consumers/billing-ui'), { recursive: true });
  writeFileSync(
    path.join(dir, 'orders_consumers/billing-ui/order-7.json'),
    JSON.stringify({
      name: 'order seven',
      'http-request': { method: 'POST', path: '/orders', body: SEVEN },
      'http-response': { status: 200 },
    }),
  );
  mkdirSync(path.join(dir, 'orders_consumers/mobile'), { recursive: true });
  writeFileSync(
    path.join(dir, 'orders_consumers/mobile/order-8.json'),
    JSON.stringify({
      name: 'order eight with a coupon',
      'http-request': { method: 'POST', path: '/orders?lang=en', headers: { SOAPAction: 'urn:getOrder', 'Content-Type': 'application/xml', 'Content-Length': '1' }, body: COUPON },
      'http-response': { status: 200 },
    }),
  );
  // Right for every order but billing-ui's.
  service = await startServer((req) => {
    received.push({ body: req.body, headers: req.headers, url: req.url });
    return { body: req.body.includes('<orderId>7</orderId>') ? '<total>lots</total>' : '<total>1</total>' };
  });
});

afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a consumer's example that fits but gets a wrong answer fails at the example, naming the consumer", async () => {
  const run = await runJestApp(dir, { baseUrl: service.url }, childEnv());
  expect(run.output).toMatch(/✓ getOrder/);
  expect(run.output).toMatch(/✕ consumer billing-ui › order seven/);
  expect(run.output).toMatch(/✓ consumer mobile › order eight with a coupon/);
  // Each consumer's request reached the provider as its example has it: no generated coupon, giftWrap or X-Trace.
  const seven = received.filter((r) => r.body.includes('<orderId>7</orderId>'));
  const eight = received.filter((r) => r.body.includes('<orderId>8</orderId>'));
  expect(seven.map((r) => r.body)).toEqual([SEVEN]);
  expect(eight.map((r) => r.body)).toEqual([COUPON]);
  // What billing-ui's file leaves out and the contract requires is filled as for a generated request.
  expect(seven[0].headers).toMatchObject({ soapaction: '"urn:getOrder"', 'content-type': 'text/xml; charset=utf-8' });
  expect(seven[0].headers['x-trace']).toBeUndefined();
  expect(seven[0].url).toBe('/orders');
  // mobile's own headers and query are sent as recorded (its Content-Length is the client's to set).
  expect(eight[0].headers).toMatchObject({ soapaction: 'urn:getOrder', 'content-type': 'application/xml', 'content-length': String(Buffer.byteLength(COUPON)) });
  expect(eight[0].url).toBe('/orders?lang=en');
  // Named from the project folder, not as an absolute path of the build machine (issue 36, point 6).
  expect(run.output).toContain(`consumer billing-ui's example orders_consumers/billing-ui/order-7.json (scenario "getOrder")`);
  expect(run.output).not.toContain(dir);
  expect(run.output).toContain('RESPONSE.BODY');
  expect(run.status).toBe(1);
}, 120_000);

test("the coverage summary counts a consumer's failed example against its scenario: not 100 % passed", async () => {
  const run = await runJestApp(dir, { baseUrl: service.url }, childEnv());
  expect(run.status).toBe(1);
  // getOrder's own test passed, but the provider failed billing-ui's example of it.
  expect(run.output).toContain('orders.spec: 1 scenario: 0 passed, 1 failed, 0 WIP, 0 skipped, 0 not run');
  expect(run.output).toContain("consumers' examples: 1 passed, 1 failed, 0 not run");
  expect(run.output).toContain('all contracts: 1 scenario: 0 passed, 1 failed, 0 WIP, 0 skipped, 0 not run (0 % of those not WIP or skipped passed)');
  expect(run.output).not.toContain('100 %');
}, 120_000);
