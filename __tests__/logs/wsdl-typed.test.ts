import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { run } from '../../src/cli/main';
import { runImportLog } from '../../src/cli/commands/import-log';
import { parseContract } from '../../src/contract/load';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { fixture, scratch, soapHar } from './helpers';

/**
 * `accord import log --wsdl`: with the service's WSDL at hand the schema types the operations (an
 * enumeration stays an enumeration, an int an int), so the recorded contract's tests never send a value
 * the service refuses, and the logged calls become its example files (replayed by a stub).
 */
const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';
const ORDERS_WSDL = readFileSync(fixture('orders.wsdl'), 'utf8');
const request = (id: string) => `<soap:Envelope xmlns:soap="${SOAP}" xmlns:o="urn:orders"><soap:Body><o:getOrder><o:id>${id}</o:id></o:getOrder></soap:Body></soap:Envelope>`;
const response = (id: string, status: string, total: string) =>
  `<soap:Envelope xmlns:soap="${SOAP}"><soap:Body><o:getOrderResponse xmlns:o="urn:orders"><o:id>${id}</o:id><o:status>${status}</o:status><o:total>${total}</o:total></o:getOrderResponse></soap:Body></soap:Envelope>`;
const recorded: [string, string, string][] = [
  ['4711', 'shipped', '12.50'],
  ['4712', 'open', '7'],
];

function har(calls: [string, string, string][]): string {
  return soapHar(
    'http://orders.example/ws',
    '"getOrder"',
    calls.map(([id, status, total]) => ({ request: request(id), response: response(id, status, total) })),
  );
}

describe('accord import log --wsdl', () => {
  const dir = scratch();
  afterAll(() => dir.cleanup());
  const cli = async (args: string[]) => {
    let out = '';
    const code = await run(args, { stdout: (s) => (out += s), stderr: (s) => (out += s), cwd: dir.dir });
    return { code, out };
  };

  it("writes the WSDL's contract (an enumeration stays one) with the logged calls as its example files", async () => {
    dir.write('orders.wsdl', ORDERS_WSDL);
    dir.write('orders.har', har(recorded));
    const r = await cli(['import', 'log', 'orders.har', '--wsdl', 'orders.wsdl', '-o', 'orders.spec']);
    expect(r).toEqual({ code: 0, out: expect.stringContaining('checked: all 2 logged calls match the contract') as string });
    const text = readFileSync(path.join(dir.dir, 'orders.spec'), 'utf8');
    expect(text).toBe(importWsdl(path.join(dir.dir, 'orders.wsdl'), { everyPort: true, source: 'orders.wsdl' }).text);
    expect(text).toMatch(/open.*shipped.*cancelled/);
    expect(readdirSync(path.join(dir.dir, 'orders_examples'))).toHaveLength(2);
    // The contract's own generated requests carry an int id, never a made-up string.
    const s = parseContract(text, 'orders.spec').scenarios.find((x) => x.name === 'getOrder')!;
    expect(JSON.stringify(s.scope.types.get('Status') ?? s.scope.types)).toContain('cancelled');
  });

  it('a stub of it replays the recorded calls and answers others from the schema (status one of the enumeration)', async () => {
    const stub = await startStub({ contracts: path.join(dir.dir, 'orders.spec'), log: () => undefined });
    try {
      const ask = async (id: string) => {
        const res = await fetch(`${stub.url}/ws`, { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"getOrder"' }, body: request(id) });
        return { status: res.status, body: await res.text() };
      };
      for (const [id, status, total] of recorded) expect(await ask(id)).toEqual({ status: 200, body: response(id, status, total) });
      for (const id of ['1', '2', '3', '4', '5']) {
        const fresh = await ask(id);
        expect(fresh.status).toBe(200);
        expect(fresh.body).toMatch(/<[\w]+:status>(open|shipped|cancelled)</);
      }
    } finally {
      await stub.close();
    }
  });

  it('a logged call the WSDL does not take is reported and left out of the examples', async () => {
    dir.write('odd.har', har([['1', 'lost', '1'], ...recorded]));
    const r = await cli(['import', 'log', 'odd.har', '--wsdl', 'orders.wsdl', '-o', 'odd.spec']);
    expect(r.code).toBe(1);
    expect(r.out).toContain("1 of 3 logged calls do not match the WSDL's contract");
    expect(r.out).toContain('left out of odd_examples: 1 recorded call');
    expect(readdirSync(path.join(dir.dir, 'odd_examples'))).toHaveLength(2);
  });

  it('a WSDL that cannot be read is a usage error, nothing written', async () => {
    dir.write('bad.wsdl', '<definitions');
    const r = await cli(['import', 'log', 'orders.har', '--wsdl', 'bad.wsdl', '-o', 'bad.spec']);
    expect(r.code).toBe(2);
    expect(r.out).toContain('--wsdl bad.wsdl');
  });

  it('a WSDL found by guessing (the proxy) that does not take every call keeps typing what it describes; the other call is typed from the recording, saying which and why', async () => {
    const other = JSON.parse(har([['5', 'open', '1']])) as { log: { entries: { request: { url: string; postData: { text: string } } }[] } };
    other.log.entries[0].request.url = 'http://orders.example/other';
    other.log.entries[0].request.postData.text = request('5').replace(/getOrder/g, 'ping');
    const mixed = JSON.parse(har(recorded)) as { log: { entries: unknown[] } };
    mixed.log.entries.push(other.log.entries[0]);
    dir.write('mixed.har', JSON.stringify(mixed));
    const said: string[] = [];
    let out = '';
    await runImportLog(
      ['mixed.har'],
      { output: 'mixed.spec', verify: true, wsdl: 'orders.wsdl', onWsdlProblem: (why) => said.push(why) },
      { stdout: (t) => (out += t), stderr: (t) => (out += t), cwd: dir.dir },
    );
    // Issue 38: the WSDL is no longer thrown away for one call it does not describe.
    expect(said).toEqual([]);
    expect(out).toContain('1 of 3 recorded calls does not fit the WSDL orders.wsdl; it is typed from the recording, beside the WSDL');
    expect(out).toMatch(/ping answered with status 200 \(mixed\.har:\d+\): /);
    expect(out).toContain('checked: all 3 logged calls match the contract');
    const contract = readFileSync(path.join(dir.dir, 'mixed.spec'), 'utf8');
    expect(contract).toContain('(recorded: the WSDL does not describe it)');
    expect(contract).not.toContain('Logged values became typed placeholders');
  });
});
