import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { run } from '../../src/cli/main';
import { startStub } from '../../src/stub';
import { childEnv, plain } from '../helpers/child-env';
import { startServer, type Running } from '../helpers/servers';
import { BIN, fixture, REPO, scratch } from './helpers';

/**
 * A recording typed by the service's WSDL (`accord import log --wsdl`, and `accord proxy` with the `?wsdl` it finds)
 * that caught a declared fault: the fault scenario gets the recorded request as its Examples row, so `accord test`
 * of the recording sends it and checks the Fault (it was skipped as "without an example that triggers it", and a
 * service that stopped answering the fault stayed green). Seen with gSOAP and Axis 1.4 (issue 38).
 */
const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';
const request = (id: string) => `<soap:Envelope xmlns:soap="${SOAP}" xmlns:o="urn:orders"><soap:Body><o:getOrder><o:id>${id}</o:id></o:getOrder></soap:Body></soap:Envelope>`;
const answer = (id: string) =>
  `<soap:Envelope xmlns:soap="${SOAP}"><soap:Body><o:getOrderResponse xmlns:o="urn:orders"><o:id>${id}</o:id><o:status>open</o:status><o:total>3</o:total></o:getOrderResponse></soap:Body></soap:Envelope>`;
const fault = (id: string) =>
  `<soap:Envelope xmlns:soap="${SOAP}"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>no order ${id}</faultstring><detail><o:OrderNotFound xmlns:o="urn:orders"><o:id>${id}</o:id></o:OrderNotFound></detail></soap:Fault></soap:Body></soap:Envelope>`;

/** A HAR of getOrder calls, each answered 200 or with the declared fault (500); pretty or on one line. */
function har(calls: [string, 200 | 500][], pretty: boolean): string {
  const entries = calls.map(([id, status]) => ({
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 1,
    request: {
      method: 'POST',
      url: 'http://orders.example/ws',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'SOAPAction', value: '"getOrder"' }],
      postData: { mimeType: 'text/xml; charset=utf-8', text: request(id) },
    },
    response: {
      status,
      statusText: 'x',
      httpVersion: 'HTTP/1.1',
      headers: [],
      content: { size: 1, mimeType: 'text/xml; charset=utf-8', text: status === 200 ? answer(id) : fault(id) },
    },
  }));
  const log = { log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } };
  return pretty ? JSON.stringify(log, null, 2) : JSON.stringify(log);
}

/** The service: the ids in `missing` get the declared fault, unless it has stopped sending it. */
function service(missing: Set<string>, faults: boolean): Promise<Running> {
  return startServer((req) => {
    const id = /<(?:\w+:)?id>(\d+)</.exec(req.body)?.[1] ?? '0';
    return missing.has(id) && faults ? { status: 500, type: 'text/xml; charset=utf-8', body: fault(id) } : { status: 200, type: 'text/xml; charset=utf-8', body: answer(id) };
  });
}

function accordTest(cwd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const e = childEnv({});
    delete e.ACCORD_BASE_URL;
    const child = spawn(process.execPath, [BIN, 'test', ...args], { cwd, env: e });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: plain(out) }));
  });
}

describe('a declared fault caught by a WSDL-typed recording is tested', () => {
  const dir = scratch();
  mkdirSync(path.join(dir.dir, 'node_modules'));
  symlinkSync(path.join(REPO, 'node_modules', 'jest'), path.join(dir.dir, 'node_modules', 'jest'), 'dir');
  dir.write('package.json', JSON.stringify({ name: 'provider', private: true }));
  dir.write('orders.wsdl', readFileSync(fixture('orders-fault.wsdl'), 'utf8'));
  afterAll(() => dir.cleanup());
  const cli = async (args: string[]) => {
    let out = '';
    const code = await run(args, { stdout: (s) => (out += s), stderr: (s) => (out += s), cwd: dir.dir });
    return { code, out };
  };

  it.each([
    ['a pretty HAR', true],
    ['a HAR on one line (every call at line 1)', false],
  ])('from %s, the fault scenario gets the recorded requests as its rows, and says so', async (_, pretty) => {
    const name = pretty ? 'pretty' : 'flat';
    dir.write(
      `${name}.har`,
      har(
        [
          ['4711', 200],
          ['999', 500],
          ['4712', 200],
          ['998', 500],
        ],
        pretty,
      ),
    );
    const r = await cli(['import', 'log', `${name}.har`, '--wsdl', 'orders.wsdl', '-o', `${name}.spec`]);
    expect(r.out).toContain('fault "getOrder fault notFound": 2 recorded calls pinned as its Examples rows');
    expect(r.out).toContain('checked: all 4 logged calls match the contract');
    expect(r.code).toBe(0);
    const text = readFileSync(path.join(dir.dir, `${name}.spec`), 'utf8');
    const faultPart = text.slice(text.indexOf('Scenario: getOrder fault notFound'));
    expect(faultPart).toMatch(/Examples:\n\s+\| id {2}\|\n\s+\| 999 \|\n\s+\| 998 \|/);
    // The ordinary scenario is not pinned: its test still draws values from the schema.
    expect(text.slice(0, text.indexOf('Scenario: getOrder fault notFound'))).not.toContain('Examples:');
    expect(readdirSync(path.join(dir.dir, `${name}_examples`))).toHaveLength(4);
  });

  it('accord test of the recording runs the fault against the service: green when it still answers it, red when it stopped', async () => {
    const good = await service(new Set(['999', '998']), true);
    const bad = await service(new Set(['999', '998']), false);
    try {
      const ok = await accordTest(dir.dir, ['pretty.spec', '--base-url', good.url]);
      expect(ok.out).toContain('getOrder fault notFound - example 1: id=999');
      expect(ok.out).not.toContain('not run: fault scenario without an example');
      expect(ok.out).toMatch(/Tests: +3 passed, 3 total/);
      expect(ok.code).toBe(0);
      const no = await accordTest(dir.dir, ['pretty.spec', '--base-url', bad.url]);
      expect(no.out).toContain('RESPONSE.STATUS: expected 500, found 200');
      expect(no.out).toMatch(/Tests: +2 failed, 1 passed, 3 total/);
      expect(no.code).toBe(1);
    } finally {
      await Promise.all([good.close(), bad.close()]);
    }
  });

  it("a stub of the recording answers the recorded fault's request with the fault, and another id with an answer", async () => {
    const stub = await startStub({ contracts: path.join(dir.dir, 'pretty.spec'), log: () => undefined });
    try {
      const ask = async (id: string) => {
        const res = await fetch(`${stub.url}/ws`, { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"getOrder"' }, body: request(id) });
        return { status: res.status, body: await res.text() };
      };
      const f = await ask('999');
      expect(f.status).toBe(500);
      expect(f.body).toContain('OrderNotFound');
      const a = await ask('5');
      expect(a.status).toBe(200);
      expect(a.body).toContain('getOrderResponse');
    } finally {
      await stub.close();
    }
  });

  it('a recording without a fault leaves the contract exactly as the WSDL import writes it', async () => {
    dir.write('plain.har', har([['4711', 200]], true));
    const r = await cli(['import', 'log', 'plain.har', '--wsdl', 'orders.wsdl', '-o', 'plain.spec']);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('pinned');
    expect(readFileSync(path.join(dir.dir, 'plain.spec'), 'utf8')).not.toContain('Examples:');
  });
});
