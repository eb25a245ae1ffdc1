import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { runImportLog } from '../../src/cli/commands/import-log';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { runProxy } from '../proxy/proxy-helpers';
import { fixture, scratch, soapHar } from './helpers';
import { runAccord } from '../helpers/cli-run';

/**
 * `accord import log --wsdl` and `accord proxy --wsdl` with a WSDL whose imported schema is gone:
 * refused as `accord import wsdl` refuses it (exit 2, the same lines) unless --allow-unresolved; the
 * proxy types its recording by the recorded values instead, and says why.
 */
const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';
const ORDERS_WSDL = readFileSync(fixture('orders.wsdl'), 'utf8');
// `total` typed by a schema imported from money.xsd, which is not there: it is (anything).
const PARTIAL_WSDL = ORDERS_WSDL.replace('xmlns:tns="urn:orders"', 'xmlns:tns="urn:orders" xmlns:m="urn:money"')
  .replace('elementFormDefault="qualified">', 'elementFormDefault="qualified">\n      <xs:import namespace="urn:money" schemaLocation="money.xsd"/>')
  .replace('name="total" type="xs:decimal"', 'name="total" type="m:Money"');
const IMPORT = 'orders.wsdl:6: import money.xsd not loaded (no such file, looked for at money.xsd): what it declares is typed (anything)';
const request_ = (id: string) => `<soap:Envelope xmlns:soap="${SOAP}" xmlns:o="urn:orders"><soap:Body><o:getOrder><o:id>${id}</o:id></o:getOrder></soap:Body></soap:Envelope>`;
const response = (id: string) =>
  `<soap:Envelope xmlns:soap="${SOAP}"><soap:Body><o:getOrderResponse xmlns:o="urn:orders"><o:id>${id}</o:id><o:status>open</o:status><o:total>7</o:total></o:getOrderResponse></soap:Body></soap:Envelope>`;

function har(): string {
  return soapHar(
    'http://orders.example/ws',
    '"getOrder"',
    ['4711', '4712'].map((id) => ({ request: request_(id), response: response(id) })),
  );
}

const dir = scratch();
afterAll(() => dir.cleanup());
beforeAll(() => {
  dir.write('orders.wsdl', PARTIAL_WSDL);
  dir.write('whole.wsdl', ORDERS_WSDL);
  dir.write('orders.har', har());
});

const cli = (args: string[]) => runAccord(args, dir.dir);

test('import log --wsdl refuses a partial WSDL; with --allow-unresolved it says which import was not loaded, once, and writes the WSDL contract as it is', async () => {
  const refused = await cli(['import', 'log', 'orders.har', '--wsdl', 'orders.wsdl', '-o', 'a.spec']);
  expect(refused.code).toBe(2);
  expect(refused.err).toContain(`accord import log: --wsdl orders.wsdl can only be imported in part; nothing written:\n  ${IMPORT}\n`);
  expect(existsSync(path.join(dir.dir, 'a.spec'))).toBe(false);
  const r = await cli(['import', 'log', 'orders.har', '--wsdl', 'orders.wsdl', '-o', 'a.spec', '--allow-unresolved']);
  expect(r.code).toBe(0);
  expect(r.err).toMatch(/^accord import log: --wsdl: warning: orders\.wsdl: node o?:?total is \(anything\), accepting any content: type \{urn:money\}Money not found$/m);
  expect(r.err).toContain(`accord import log: --wsdl: ${IMPORT}\n`);
  expect(r.err).toContain('accord import log: --wsdl: orders.wsdl: 1 declaration not found, the nodes it types are (anything): type {urn:money}Money\n');
  expect(r.err.split(IMPORT)).toHaveLength(2);
  expect(r.out).toContain('checked: all 2 logged calls match the contract');
  expect(readFileSync(path.join(dir.dir, 'a.spec'), 'utf8')).toBe(importWsdl(path.join(dir.dir, 'orders.wsdl'), { everyPort: true, source: 'orders.wsdl' }).text);
  // A whole WSDL: nothing said.
  const whole = await cli(['import', 'log', 'orders.har', '--wsdl', 'whole.wsdl', '-o', 'b.spec']);
  expect(whole.code).toBe(0);
  expect(whole.err).toBe('');
});

test("the proxy's recording typed by a WSDL it fetched: a partial one is refused, as a fetch that fails is, and the lines name the service's copy", async () => {
  let err = '';
  const problems: string[] = [];
  await runImportLog(
    ['orders.har'],
    {
      output: 'c.spec',
      verify: true,
      wsdl: 'orders.wsdl',
      wsdlSource: 'http://orders.example/ws?wsdl',
      onWsdlProblem: (why) => problems.push(why),
      command: 'accord proxy',
    },
    { stdout: () => undefined, stderr: (s) => (err += s), cwd: dir.dir },
  );
  expect(err).toContain('accord proxy: --wsdl: http://orders.example/ws?wsdl:6: import money.xsd not loaded (no such file, looked for at money.xsd)');
  expect(problems).toEqual(['it can only be imported in part']);
  // The recorded values typed it: the total is what was recorded, not (anything).
  expect(readFileSync(path.join(dir.dir, 'c.spec'), 'utf8')).not.toContain('(anything)');
});

test('accord proxy --wsdl FILE that can be read only in part: the proxy says which import was not loaded, and types the recording by the recorded values instead', async () => {
  const service = await startStub({ contracts: path.join(dir.dir, 'whole.wsdl'), log: () => undefined });
  try {
    const proxy = await runProxy(dir.dir, ['--target', service.url, '--out', 'd.spec', '--wsdl', 'orders.wsdl']);
    try {
      const res = await request(`${proxy.url}/ws`, { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"getOrder"' }, body: request_('1') });
      expect(res.statusCode).toBe(200);
      await res.body.text();
    } finally {
      proxy.stop();
    }
    const done = await proxy.exited;
    expect(done.stderr).toContain(`accord proxy: --wsdl: ${IMPORT}\n`);
    expect(done.stderr).toContain('accord proxy: the WSDL orders.wsdl cannot be used (it can only be imported in part); the recorded values type the contract');
    expect(done.code).toBe(0);
    expect(existsSync(path.join(dir.dir, 'd.spec'))).toBe(true);
    expect(readFileSync(path.join(dir.dir, 'd.spec'), 'utf8')).not.toContain('(anything)');
  } finally {
    await service.close();
  }
}, 60_000);
