import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectStub, startStub, type RunningStub } from '../../src/stub';
import { PET_SPEC, SOAP11, call, petRequest, post } from './helpers';

/**
 * docs/stub.md: an expectation's request may hold typed placeholders (`(number)`, `(int)`,
 * `(string)`, a contract type `(OrderId)`), in XML and JSON bodies, headers, query and path. Each
 * takes any value of its type that the contract takes there; one that cannot fit the contract's
 * type is refused. Driven over real HTTP on 127.0.0.1.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'accord-typed-'));
const ORDERS = path.join(dir, 'orders.spec');
const order = (inner: string) => `<s:Envelope xmlns:s="${SOAP11}"><s:Body><o:getOrder xmlns:o="urn:o">${inner}</o:getOrder></s:Body></s:Envelope>`;
const delivery = (inner: string) => `<s:Envelope xmlns:s="${SOAP11}"><s:Body><o:scheduleDelivery xmlns:o="urn:o">${inner}</o:scheduleDelivery></s:Body></s:Envelope>`;
writeFileSync(
  ORDERS,
  `Feature: Orders

  Background:
    Given type OrderId (int)
    And type Code (string maxLength=4)

  Scenario: getOrder
    When POST /orders
    And request-body ${order('<o:id>(OrderId)</o:id><o:code specmatic_occurs="optional" code="(Code)">(string)</o:code><o:note specmatic_occurs="optional">(string)</o:note>')}
    Then status 200
    And response-body <s:Envelope xmlns:s="${SOAP11}"><s:Body><o:getOrderResponse xmlns:o="urn:o"><o:status>(string)</o:status></o:getOrderResponse></s:Body></s:Envelope>

  Scenario: getOrder fault NotFound
    When POST /orders
    And request-body ${order('<o:id>(OrderId)</o:id><o:code specmatic_occurs="optional" code="(Code)">(string)</o:code><o:note specmatic_occurs="optional">(string)</o:note>')}
    Then status 500
    And response-body <s:Envelope xmlns:s="${SOAP11}"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>(string)</faultstring><detail><o:NotFound xmlns:o="urn:o"><o:id>(int)</o:id></o:NotFound></detail></s:Fault></s:Body></s:Envelope>

  Scenario: scheduleDelivery
    When POST /orders
    And request-body ${delivery('<o:orderId>(int)</o:orderId><o:day>(date)</o:day>')}
    Then status 200
    And response-body <s:Envelope xmlns:s="${SOAP11}"><s:Body><o:scheduleDeliveryResponse xmlns:o="urn:o"><o:ok>(boolean)</o:ok></o:scheduleDeliveryResponse></s:Body></s:Envelope>

  Scenario: Update an item
    When PUT /items/(itemId:int)?mode=(string)
    And request-header x-tenant (int)
    And request-body {"qty": "(number)", "name": "(string)", "tags": ["(string*)"]}
    Then status 200
    And response-body {"ok": "(boolean)"}
`,
);
const ok = (status: string) =>
  `<s:Envelope xmlns:s="${SOAP11}"><s:Body><o:getOrderResponse xmlns:o="urn:o"><o:status>${status}</o:status></o:getOrderResponse></s:Body></s:Envelope>`;
const getOrder = (id: string, code = 'AB', note = '') => order(`<o:id>${id}</o:id><o:code code="${code}">x</o:code>${note}`);

let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub({ contracts: [ORDERS, PET_SPEC], log: () => {} });
});
afterAll(async () => {
  await stub.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => stub.reset());

const put = (p: string, body: unknown, tenant = '3') =>
  call(`${stub.url}${p}`, { method: 'PUT', body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'x-tenant': tenant } });

describe('typed placeholders in an XML request', () => {
  it.each(['(string)', '(number)', '(int)', '(integer)', '(OrderId)'])('%s at a node answers every value the contract takes there, and only those', async (typed) => {
    const e = stub.expect({ request: { method: 'POST', path: '/orders', body: order(`<o:id>${typed}</o:id>`) }, response: { body: ok('typed') } });
    expect((await post(`${stub.url}/orders`, getOrder('7'))).body).toBe(ok('typed'));
    expect((await post(`${stub.url}/orders`, getOrder('123456', 'ZZ', '<o:note>n</o:note>'))).body).toBe(ok('typed'));
    // The contract's id is an int: 1.5 is no request the service takes, whatever the placeholder says.
    expect((await post(`${stub.url}/orders`, getOrder('1.5'))).status).toBe(400);
    expect(e.used).toBe(2);
  });

  it('the seed pet contract takes (number), (int) and (string) for its (number) id', async () => {
    for (const typed of ['(number)', '(int)', '(string)']) {
      const e = stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest(typed) }, response: { status: 200 } });
      expect((await post(`${stub.url}/ws`, petRequest('77'))).status).toBe(200);
      expect([typed, e.used]).toEqual([typed, 1]);
      stub.reset();
    }
    // (int) is narrower than the contract's (number): 1.5 is answered by the contract, not the expectation.
    const narrow = stub.expect({ request: { method: 'POST', path: '/ws', body: petRequest('(int)') }, response: { status: 200 } });
    await post(`${stub.url}/ws`, petRequest('1.5'));
    expect(narrow.used).toBe(0);
  });

  it('a typed attribute, a typed node beside a literal one, and a literal still decide alone', async () => {
    const e = stub.expect({ request: { method: 'POST', path: '/orders', body: order('<o:id>7</o:id><o:code code="(Code)">(string)</o:code>') }, response: { body: ok('seven') } });
    expect((await post(`${stub.url}/orders`, getOrder('7', 'QQ'))).body).toBe(ok('seven'));
    expect((await post(`${stub.url}/orders`, getOrder('8', 'QQ'))).body).not.toBe(ok('seven'));
    expect(e.used).toBe(1);
  });

  it('refuses a placeholder that cannot fit the contract type there, or names no type, saying where', () => {
    expect(() => stub.expect({ request: { method: 'POST', path: '/orders', body: order('<o:id>(date)</o:id>') } })).toThrow(
      /REQUEST\.BODY Envelope\/Body\/getOrder\/id: expected \(int\) \(the contract's type there\), or a type within it, found \(date\), which is neither within it nor holds it/,
    );
    expect(() => stub.expect({ request: { method: 'POST', path: '/orders', body: order('<o:id>(Nope)</o:id>') } })).toThrow(
      /found \(Nope\), which names no type of scenario "getOrder"/,
    );
    expect(() => stub.expect({ request: { method: 'POST', path: '/orders', body: order('<o:id>7</o:id><o:code code="(string minLength=9)">x</o:code>') } })).toThrow(
      /getOrder\/code\/@code: expected \(Code\)/,
    );
  });

  it('an expectation that leaves out a required node is refused naming that node, against the operation it is for', () => {
    let message = '';
    try {
      stub.expect({ request: { method: 'POST', path: '/orders', body: delivery('<o:orderId>(int)</o:orderId>') } });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/closest is "scheduleDelivery"/);
    expect(message).toMatch(/Envelope\/Body\/scheduleDelivery.*day/);
    expect(message).not.toMatch(/getOrder/);
  });
});

describe('typed placeholders in JSON bodies, headers, query and path', () => {
  it('answers every request whose values have the types, and refuses a type the contract has not', async () => {
    const e = stub.expect({
      request: { method: 'PUT', path: '/items/(int)', query: { mode: '(string)' }, headers: { 'x-tenant': '(number)' }, body: { qty: '(int)', name: 'pen', tags: ['(string)'] } },
      response: { body: { ok: true } },
    });
    expect(JSON.parse((await put('/items/4?mode=a', { qty: 2, name: 'pen', tags: ['x'] })).body)).toEqual({ ok: true });
    expect(JSON.parse((await put('/items/99?mode=b', { qty: 5, name: 'pen', tags: ['y'] }, '12')).body)).toEqual({ ok: true });
    expect(e.used).toBe(2);
    // Another name, a qty that is no int, an id that is no int: not this expectation's.
    await put('/items/4?mode=a', { qty: 2, name: 'cup', tags: ['x'] });
    await put('/items/4?mode=a', { qty: 2.5, name: 'pen', tags: ['x'] });
    await put('/items/x?mode=a', { qty: 2, name: 'pen', tags: ['x'] });
    await put('/items/4?mode=a', { qty: 2, name: 'pen', tags: ['x'] }, '1.5');
    expect(e.used).toBe(2);
    expect(() => stub.expect({ request: { method: 'PUT', path: '/items/1', body: { qty: '(string)', name: 'pen', tags: [] } } })).toThrow(/REQUEST\.BODY qty: expected \(number\)/);
    expect(() => stub.expect({ request: { method: 'PUT', path: '/items/(date)', body: { qty: 1, name: 'pen', tags: [] } } })).toThrow(/REQUEST\.PATH: expected \(int\)/);
    expect(() => stub.expect({ request: { method: 'PUT', path: '/items/1', headers: { 'x-tenant': '(boolean)' }, body: { qty: 1, name: 'pen', tags: [] } } })).toThrow(
      /REQUEST\.HEADER x-tenant: expected \(int\)/,
    );
  });
});

describe('typed expectations where features meet', () => {
  it('a soap-fault expectation with a (string) node answers the declared fault for any id', async () => {
    const e = stub.expect({ request: { method: 'POST', path: '/orders', body: order('<o:id>(string)</o:id>') }, fault: 'soap-fault', faultName: 'NotFound' });
    const res = await post(`${stub.url}/orders`, getOrder('31'));
    expect(res.status).toBe(500);
    expect(res.body).toMatch(/<o:NotFound/);
    const other = await post(`${stub.url}/orders`, getOrder('32'));
    expect(other.body).toMatch(/<o:NotFound/);
    expect(e.used).toBe(2);
  });

  it('a templated answer echoes the value a typed node took', async () => {
    stub.expect({ request: { method: 'POST', path: '/orders', body: order('<o:id>(number)</o:id>') }, response: { body: ok('order {{request.body.getOrder/id}}') } });
    expect((await post(`${stub.url}/orders`, getOrder('41'))).body).toBe(ok('order 41'));
    expect((await post(`${stub.url}/orders`, getOrder('42'))).body).toBe(ok('order 42'));
  });

  it('times, and the same request again (the repeat cache), count a typed expectation like any', async () => {
    stub.expect({ request: { method: 'POST', path: '/orders', body: order('<o:id>(int)</o:id>') }, response: { body: ok('later') } });
    const once = stub.expect({ request: { method: 'POST', path: '/orders', body: order('<o:id>(int)</o:id>') }, response: { body: ok('first') }, times: 1 });
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push((await post(`${stub.url}/orders`, getOrder('5'))).body);
    expect(seen).toEqual([ok('first'), ok('later'), ok('later')]);
    expect(once.remaining).toBe(0);
    // A request the same bytes again, after the typed one is removed: the contract answers, not a kept answer.
    stub.reset();
    expect((await post(`${stub.url}/orders`, getOrder('5'))).body).not.toBe(ok('later'));
  });

  it('a scope keeps its typed expectation to itself', async () => {
    const a = connectStub(stub.url).scope('typed-a');
    await a.expect({ request: { method: 'POST', path: '/orders', body: order('<o:id>(string)</o:id>') }, response: { body: ok('scoped') } });
    expect((await post(`${a.url}/orders`, getOrder('9'))).body).toBe(ok('scoped'));
    expect((await post(`${stub.url}/orders`, getOrder('9'))).body).not.toBe(ok('scoped'));
    await a.reset();
  });
});
