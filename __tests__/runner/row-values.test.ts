import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../helpers/child-env';
import { runJestApp } from '../helpers/jest-app';
import { startServer, type Received, type Running } from '../helpers/servers';
import { startStub } from '../../src/stub';

/**
 * An Examples row's response cells are a promise (issue 35, point 2): `| 7 | Bob Builder | Paris |`
 * is what the stub answers for the row, and what the provider must answer. Jest with the preset on
 * a temp project, against a real provider on 127.0.0.1 that answers the row's values (written
 * another way: `10.5` for `10.50`, `1` for `true`, white space around a name), or other values;
 * and against accord's own stub of the same contracts. `@stub-values` makes cells the stub's only.
 */
const ENVELOPE = (path: string, body: string) => `    When POST ${path}
    And request-body
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Header/>
      <soapenv:Body>
        <o:getOrder xmlns:o="http://example.com/orders"><o:orderId>(number)</o:orderId></o:getOrder>
      </soapenv:Body>
    </soapenv:Envelope>
    """
    ${body}`;

const ORDER = `Then status 200
    And response-body
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Header/>
      <soapenv:Body>
        <o:getOrderResponse xmlns:o="http://example.com/orders">
          <o:orderId>(number)</o:orderId>
          <o:name>(string)</o:name>
          <o:city>(string)</o:city>
          <o:total>(decimal)</o:total>
          <o:paid>(boolean)</o:paid>
          <o:placed>(datetime)</o:placed>
          <o:note>(string)</o:note>
        </o:getOrderResponse>
      </soapenv:Body>
    </soapenv:Envelope>
    """`;

const FAULT = `Then status 500
    And response-body
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Body>
        <soapenv:Fault><faultcode>soapenv:Client</faultcode><faultstring>(string)</faultstring></soapenv:Fault>
      </soapenv:Body>
    </soapenv:Envelope>
    """`;

const ORDERS = `Feature: Orders

  Scenario Outline: getOrder for known orders
${ENVELOPE('/orders', ORDER)}

    Examples:
      | orderId | name        | city  | total | paid | placed               | note     |
      | 7       | Bob Builder | Paris | 10.50 | true | 2024-02-29T10:00:00Z | (string) |

  @fault
  Scenario Outline: getOrder fault NotFound
${ENVELOPE('/orders', FAULT)}

    Examples:
      | orderId | faultstring     |
      | 404     | Order not found |

  Scenario Outline: Get a customer
    When GET /customers/(id:number)
    Then status 200
    And response-header X-Region (string)
    And response-body {"id": "(number)", "name": "(string)", "balance": "(number)", "vip": "(boolean)"}

    Examples:
      | id | name | balance | vip   | x-region |
      | 3  | Ada  | 1.0     | false | eu       |
`;

/** The same rows, whose values a team keeps for its stub: the old reading, asked for by a tag. */
const LEGACY = `Feature: Legacy orders

  Scenario Outline: getOrder for known orders
${ENVELOPE('/legacy', ORDER)}

    @stub-values
    Examples:
      | orderId | name        | city  | total | paid | placed               | note     |
      | 7       | Bob Builder | Paris | 10.50 | true | 2024-02-29T10:00:00Z | (string) |
`;

/** Only the city is the stub's: the name is still a promise. */
const PARTIAL = `Feature: Partly stub orders

  @stub-values:city,total
  Scenario Outline: getOrder for known orders
${ENVELOPE('/partial', ORDER)}

    Examples:
      | orderId | name        | city  | total | paid | placed               | note     |
      | 7       | Bob Builder | Paris | 10.50 | true | 2024-02-29T10:00:00Z | (string) |
`;

type Mode = 'right' | 'wrong';
let mode: Mode = 'right';
let dir: string;
let provider: Running;

function answer(req: Received) {
  if (req.method === 'GET') {
    const body = mode === 'right' ? { id: 3, name: 'Ada', balance: 1, vip: false } : { id: 3, name: 'Bob', balance: 2, vip: true };
    return { type: 'application/json', headers: { 'x-region': mode === 'right' ? 'eu' : 'us' }, body: JSON.stringify(body) };
  }
  const id = /<[\w]*:?orderId>([^<]*)</.exec(req.body)?.[1] ?? '0';
  if (id === '404') {
    return {
      status: 500,
      body:
        '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Client</faultcode>' +
        `<faultstring>${mode === 'right' ? 'Order not found' : 'Internal error'}</faultstring></s:Fault></s:Body></s:Envelope>`,
    };
  }
  // The row's values written as a real service may write them: 10.5, 1, milliseconds, white space around the city.
  const [name, city, total, paid, placed] =
    mode === 'right' ? ['Bob Builder', '  Paris\n', '10.5', '1', '2024-02-29T10:00:00.000Z'] : ['Ada Lovelace', 'Bristol', '99.00', 'false', '2023-01-01T00:00:00Z'];
  return {
    body:
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header/><s:Body><o:getOrderResponse xmlns:o="http://example.com/orders">' +
      `<o:orderId>${id}</o:orderId><o:name>${name}</o:name><o:city>${city}</o:city><o:total>${total}</o:total><o:paid>${paid}</o:paid>` +
      `<o:placed>${placed}</o:placed><o:note>whatever</o:note></o:getOrderResponse></s:Body></s:Envelope>`,
  };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-row-values-'));
  mkdirSync(path.join(dir, 'contracts'));
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "private": true }');
  writeFileSync(path.join(dir, 'contracts', 'orders.spec'), ORDERS);
  writeFileSync(path.join(dir, 'contracts', 'legacy.spec'), LEGACY);
  writeFileSync(path.join(dir, 'contracts', 'partial.spec'), PARTIAL);
  provider = await startServer(answer);
});

afterAll(async () => {
  await provider?.close();
  rmSync(dir, { recursive: true, force: true });
});

function jest(m: Mode, only?: string): Promise<{ status: number; output: string }> {
  mode = m;
  return runJestApp(dir, { baseUrl: provider.url }, childEnv(), only ? [only] : []);
}

test("a provider (or accord's stub) that answers the rows' values, written its own way, passes; one that answers others fails, naming the row, the column, the value expected and the one found", async () => {
  const right = await jest('right');
  expect(right.output).toMatch(/Tests:\s+5 passed, 5 total/);
  expect(right.status).toBe(0);
  const stub = await startStub({ contracts: [path.join(dir, 'contracts')], log: () => {} });
  try {
    const run = await runJestApp(dir, { baseUrl: stub.url }, childEnv());
    expect(run.output).toMatch(/Tests:\s+5 passed, 5 total/);
    expect(run.status).toBe(0);
  } finally {
    await stub.close();
  }
  const run = await jest('wrong', 'orders.spec');
  expect(run.status).toBe(1);
  expect(run.output).toMatch(/Tests:\s+3 failed, 3 total/);
  const o = run.output;
  expect(o).toContain('RESPONSE.BODY Envelope/Body/getOrderResponse/name: expected "Bob Builder" (Examples row 1, column name), found "Ada Lovelace"');
  expect(o).toContain('RESPONSE.BODY Envelope/Body/getOrderResponse/city: expected "Paris" (Examples row 1, column city), found "Bristol"');
  expect(o).toContain('RESPONSE.BODY Envelope/Body/getOrderResponse/total: expected "10.50" (Examples row 1, column total), found "99.00"');
  expect(o).toContain('RESPONSE.BODY Envelope/Body/getOrderResponse/paid: expected "true" (Examples row 1, column paid), found "false"');
  expect(o).toContain('expected "2024-02-29T10:00:00Z" (Examples row 1, column placed), found "2023-01-01T00:00:00Z"');
  // A placeholder cell is a type check: "whatever" is a string.
  expect(o).not.toContain('column note');
  expect(o).toContain('RESPONSE.BODY Envelope/Body/Fault/faultstring: expected "Order not found" (Examples row 1, column faultstring), found "Internal error"');
  // JSON, as JSON compares: 1.0 is the number 1; a header too.
  expect(o).toContain('RESPONSE.BODY name: expected "Ada" (Examples row 1, column name), found "Bob"');
  expect(o).toContain('RESPONSE.BODY balance: expected 1 (Examples row 1, column balance), found 2');
  expect(o).toContain('RESPONSE.BODY vip: expected false (Examples row 1, column vip), found true');
  expect(o).toContain('RESPONSE.HEADER X-Region: expected "eu" (Examples row 1, column x-region), found "us"');
  // The way back for a team whose rows were the stub's only.
  expect(o).toContain('tag the Scenario Outline or its Examples block @stub-values');
}, 120_000);

test('@stub-values makes the cells of an Examples block, or the named columns, the stub’s only', async () => {
  const legacy = await jest('wrong', 'legacy.spec');
  expect(legacy.output).toMatch(/Tests:\s+1 passed, 1 total/);
  expect(legacy.status).toBe(0);
  const partial = await jest('wrong', 'partial.spec');
  expect(partial.status).toBe(1);
  expect(partial.output).toContain('expected "Bob Builder" (Examples row 1, column name), found "Ada Lovelace"');
  expect(partial.output).not.toContain('column city');
  expect(partial.output).not.toContain('column total');
}, 120_000);
