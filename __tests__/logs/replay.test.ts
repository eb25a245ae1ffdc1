import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { run } from '../../src/cli/main';
import { startStub } from '../../src/stub';
import { scratch, soapHar } from './helpers';

/**
 * Replay (issue 27 point 4): with --examples each distinct recorded call is also written as an example
 * file in `<contract>_examples/`, so a stub of the recording answers a recorded request with its recorded
 * answer, exactly, and generates only for requests never recorded.
 */
const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';
const request = (id: string, prefix = 'soap', ns = 'o', extra = '') =>
  `<${prefix}:Envelope xmlns:${prefix}="${SOAP}" xmlns:${ns}="urn:orders"><${prefix}:Header>${extra}</${prefix}:Header><${prefix}:Body><${ns}:getOrder><${ns}:id>${id}</${ns}:id></${ns}:getOrder></${prefix}:Body></${prefix}:Envelope>`;
const response = (id: string, status: string, total: string) =>
  `<soap:Envelope xmlns:soap="${SOAP}"><soap:Body><o:getOrderResponse xmlns:o="urn:orders"><o:id>${id}</o:id><o:status>${status}</o:status><o:total>${total}</o:total></o:getOrderResponse></soap:Body></soap:Envelope>`;
const SECURITY =
  '<wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"><wsse:UsernameToken><wsse:Username>u</wsse:Username><wsse:Password>hunter2</wsse:Password></wsse:UsernameToken></wsse:Security>';

const recorded: [string, string, string][] = [
  ['4711', 'shipped', '12.50'],
  ['4712', 'open', '7'],
  ['4713', 'cancelled', '0.99'],
];

function har(): string {
  return soapHar(
    'http://orders.example/ws',
    '"getOrder"',
    recorded.map(([id, status, total]) => ({ request: request(id, 'soap', 'o', SECURITY), response: response(id, status, total) })),
  );
}

describe('a stub of a recording replays what was recorded', () => {
  const dir = scratch();
  afterAll(() => dir.cleanup());
  let out = '';

  beforeAll(async () => {
    dir.write('orders.har', har());
    const code = await run(['import', 'log', 'orders.har', '--examples', '-o', 'orders.spec'], { stdout: (s) => (out += s), stderr: (s) => (out += s), cwd: dir.dir });
    expect({ code, out }).toEqual({ code: 0, out: expect.stringContaining('wrote 3 recorded calls to orders_examples') as string });
  });

  it('writes one example file per distinct call, without the password', () => {
    const files = readdirSync(path.join(dir.dir, 'orders_examples'));
    expect(files).toEqual(['0001-GetOrder-200.json', '0002-GetOrder-200.json', '0003-GetOrder-200.json']);
    const all = files.map((f) => readFileSync(path.join(dir.dir, 'orders_examples', f), 'utf8')).join('\n');
    expect(all).not.toContain('hunter2');
    // The WS-Security header keeps its structure (the contract requires it), every value empty: any credentials take it.
    expect(all).toContain('<wsse:Password/>');
    expect(JSON.parse(readFileSync(path.join(dir.dir, 'orders_examples', files[0]), 'utf8'))['http-response'].body).toBe(response('4711', 'shipped', '12.50'));
  });

  it('answers each recorded request with its recorded answer, prefixes and white space aside, and generates for the others', async () => {
    const stub = await startStub({ contracts: path.join(dir.dir, 'orders.spec'), log: () => undefined });
    try {
      const ask = async (body: string) => {
        const res = await fetch(`${stub.url}/ws`, { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"getOrder"' }, body });
        return { status: res.status, body: await res.text() };
      };
      for (const [id, status, total] of recorded) {
        // Another client: other prefixes, white space between the tags, and its own credentials.
        const asked = request(id, 'env', 'ord', SECURITY.replace('hunter2', 'other')).replace(/></g, '>\n  <');
        expect(await ask(asked)).toEqual({ status: 200, body: response(id, status, total) });
      }
      const fresh = await ask(request('99', 'soap', 'o', SECURITY));
      expect(fresh.status).toBe(200);
      expect(recorded.some(([id, status, total]) => fresh.body === response(id, status, total))).toBe(false);
    } finally {
      await stub.close();
    }
  });
});
