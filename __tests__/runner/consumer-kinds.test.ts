import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectStub, startStub, type RunningStub, type StubClient } from '../../src/stub';
import { childEnv } from '../helpers/child-env';
import { runJestApp } from '../helpers/jest-app';
import { startServer, type Running } from '../helpers/servers';

/**
 * Every kind of expectation a consumer's test sets (plain, typed placeholders, a template, a
 * fault by each spelling, a state, a delay, a connection fault) is exported as what it means,
 * or left out with a line saying why, and the provider's run replays what was exported: a
 * correct provider passes every one, a broken one fails each, naming the consumer. The stub, the
 * consumer's export, the provider and Jest are all real, on 127.0.0.1.
 */
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const env = (body: string) => `<s:Envelope xmlns:s="${SOAP11}"><s:Body>${body}</s:Body></s:Envelope>`;
const getOrder = (id: string) => env(`<o:getOrder xmlns:o="urn:o"><o:id>${id}</o:id></o:getOrder>`);
const orderAnswer = (id: string, status: string) => env(`<o:getOrderResponse xmlns:o="urn:o"><o:id>${id}</o:id><o:status>${status}</o:status></o:getOrderResponse>`);
const notFound = (id: string) =>
  env(`<s:Fault><faultcode>s:Client</faultcode><faultstring>no order</faultstring><detail><o:NotFound xmlns:o="urn:o"><o:id>${id}</o:id></o:NotFound></detail></s:Fault>`);
const SPEC = `Feature: Orders

  Scenario: getOrder
    When POST /orders
    And request-body ${getOrder('(int)')}
    Then status 200
    And response-body ${orderAnswer('(int)', '(string)')}

  Scenario: getOrder fault NotFound
    When POST /orders
    And request-body ${getOrder('(int)')}
    Then status 500
    And response-body ${notFound('(int)')}

  Scenario: scheduleDelivery
    When POST /orders
    And request-body ${env('<o:scheduleDelivery xmlns:o="urn:o"><o:orderId>(int)</o:orderId></o:scheduleDelivery>')}
    Then status 200
    And response-body ${env('<o:scheduleDeliveryResponse xmlns:o="urn:o"><o:ok>(boolean)</o:ok></o:scheduleDeliveryResponse>')}
`;

let dir: string;
let stub: RunningStub;
let consumer: StubClient;
const lines: string[] = [];
let restore: () => void;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-kinds-'));
  mkdirSync(path.join(dir, 'consumer'));
  mkdirSync(path.join(dir, 'provider'));
  writeFileSync(path.join(dir, 'consumer', 'orders.spec'), SPEC);
  writeFileSync(path.join(dir, 'provider', 'orders.spec'), SPEC);
  stub = await startStub({ contracts: path.join(dir, 'consumer', 'orders.spec'), log: () => {} });
  consumer = connectStub(stub.url, { exportExamples: path.join(dir, 'exported'), consumer: 'billing-ui' });
  // The lines an export that leaves an expectation out prints.
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    lines.push(String(chunk));
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
  restore = () => (process.stderr.write = write);
});
afterAll(async () => {
  restore();
  await stub.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("billing-ui's tests set", () => {
  it('plain', () => consumer.expect({ request: { method: 'POST', path: '/orders', body: getOrder('7') }, response: { body: orderAnswer('7', 'shipped') } }));
  it('typed', () => consumer.expect({ request: { method: 'POST', path: '/orders', body: getOrder('(int)') }, response: { status: 200 } }));
  it('templated', () =>
    consumer.expect({ request: { method: 'POST', path: '/orders', body: getOrder('8') }, response: { body: orderAnswer('{{request.body.getOrder/id}}', 'echo') } }));
  it('soap-fault', () => consumer.expect({ request: { method: 'POST', path: '/orders', body: getOrder('404') }, fault: 'soap-fault' }));
  it('soap-fault by name', () => consumer.expect({ request: { method: 'POST', path: '/orders', body: getOrder('405') }, fault: 'soap-fault', faultName: 'NotFound' }));
  it('fault response', () => consumer.expect({ request: { method: 'POST', path: '/orders', body: getOrder('406') }, response: { status: 500, body: notFound('406') } }));
  it('state', () =>
    consumer.expect({
      request: { method: 'POST', path: '/orders', body: getOrder('9') },
      response: { body: orderAnswer('9', 'cancelled') },
      state: { name: 'order', requires: 'Cancelled' },
    }));
  it('delay', () => consumer.expect({ request: { method: 'POST', path: '/orders', body: getOrder('10') }, delayMs: 20 }));
  it('reset', () => consumer.expect({ request: { method: 'POST', path: '/orders', body: getOrder('11') }, fault: 'connection-reset' }));
  it('standard fault', () =>
    consumer.expect({
      request: { method: 'POST', path: '/orders', body: env('<o:scheduleDelivery xmlns:o="urn:o"><o:orderId>3</o:orderId></o:scheduleDelivery>') },
      fault: 'soap-fault',
    }));
});

const KINDS = ['plain', 'typed', 'templated', 'soap-fault', 'soap-fault by name', 'fault response', 'state', 'delay'];
const title = (kind: string) => `consumer billing-ui › billing-ui's tests set ${kind}`;

describe('the export', () => {
  it('writes each kind as what it means, and leaves out a connection fault and the standard fault, saying why', () => {
    const folder = path.join(dir, 'exported', '_local', 'orders_examples');
    const files = readdirSync(folder).map((f) => JSON.parse(readFileSync(path.join(folder, f), 'utf8')) as Record<string, unknown>);
    const byName = new Map(files.map((f) => [String(f.name).replace("billing-ui's tests set ", ''), f]));
    expect([...byName.keys()].sort()).toEqual([...KINDS].sort());
    // A fault is an example of the fault scenario that answered, with its status: the provider must answer that fault.
    for (const k of ['soap-fault', 'soap-fault by name', 'fault response']) expect([k, byName.get(k)!.scenario]).toEqual([k, 'getOrder fault NotFound']);
    expect(byName.get('soap-fault')!['http-response']).toEqual({ status: 500 });
    expect(byName.get('state')!.state).toEqual({ name: 'order', requires: 'Cancelled' });
    expect(byName.get('delay')!.delayMs).toBe(20);
    expect(byName.get('plain')!.scenario).toBe('getOrder');
    const said = lines.join('');
    expect(said).toMatch(/expectation of test "billing-ui's tests set reset" on scenario "getOrder" not exported as a consumer example: its fault "connection-reset" simulates/);
    expect(said).toMatch(
      /test "billing-ui's tests set standard fault" on scenario "scheduleDelivery" not exported .*standard fault: the contract declares no fault of "scheduleDelivery"/,
    );
    cpSync(folder, path.join(dir, 'provider', 'orders_consumers', 'billing-ui'), { recursive: true });
  });
});

/** A provider of the Orders contract: right, or wrong for every consumer example. Its state is set over HTTP by the states module. */
function provider(broken: boolean): Promise<Running> {
  let state = 'Started';
  return startServer((req) => {
    if (req.url.startsWith('/_state/')) {
      state = decodeURIComponent(req.url.slice('/_state/'.length));
      return { body: 'ok', type: 'text/plain' };
    }
    if (req.body.includes('scheduleDelivery')) return { body: env('<o:scheduleDeliveryResponse xmlns:o="urn:o"><o:ok>true</o:ok></o:scheduleDeliveryResponse>') };
    const id = /<o:id>([^<]*)<\/o:id>/.exec(req.body)?.[1] ?? '0';
    if (broken) return { body: orderAnswer('x', 'lost') };
    if (id.startsWith('40')) return { status: 500, body: notFound(id) };
    return { body: orderAnswer(id, id === '9' && state === 'Cancelled' ? 'cancelled' : 'shipped') };
  });
}

describe("the provider's run replays what was exported", () => {
  const states = (url: string) =>
    writeFileSync(
      path.join(dir, 'provider', 'states.js'),
      `module.exports = { order: async (value) => { await fetch(${JSON.stringify(url)} + '/_state/' + encodeURIComponent(value)); return () => fetch(${JSON.stringify(url)} + '/_state/Started'); } };\n`,
    );

  it('a correct provider passes every exported kind', async () => {
    const service = await provider(false);
    try {
      states(service.url);
      const run = await runJestApp(path.join(dir, 'provider'), { baseUrl: service.url, states: './states.js' }, childEnv());
      for (const k of KINDS) expect([k, run.output]).toEqual([k, expect.stringContaining(`✓ ${title(k)}`) as string]);
      expect(run.output).not.toMatch(/skipped: no longer fits/);
      // (The contract's own fault scenario, with a generated id, is not this test's business: the consumers' examples are.)
      expect(run.output.split('\n').filter((l) => l.includes('✕ consumer'))).toEqual([]);
    } finally {
      await service.close();
    }
  }, 120_000);

  it('a broken provider fails each of them, naming the consumer', async () => {
    const service = await provider(true);
    try {
      states(service.url);
      const run = await runJestApp(path.join(dir, 'provider'), { baseUrl: service.url, states: './states.js' }, childEnv());
      for (const k of KINDS) expect([k, run.output]).toEqual([k, expect.stringContaining(`✕ ${title(k)}`) as string]);
      expect(run.output).toMatch(/consumer billing-ui's example .*\(scenario "getOrder fault NotFound"\)/);
      expect(run.status).toBe(1);
    } finally {
      await service.close();
    }
  }, 120_000);

  it('a state example without a states module fails saying what the provider must be put in', async () => {
    const service = await provider(false);
    try {
      const run = await runJestApp(path.join(dir, 'provider'), { baseUrl: service.url }, childEnv());
      expect(run.output).toMatch(new RegExp(`✕ ${title('state').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      expect(run.output).toContain('it needs the provider in state order = "Cancelled"');
      expect(run.output).toMatch(new RegExp(`✓ ${title('plain')}`));
    } finally {
      await service.close();
    }
  }, 120_000);
});
