import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { clientFailures, expectContractsPass, expectGetOrderFault, fetchText, PYTHON, resetStub, startPhp, tearDown, withStacks, type Client, type Service } from './stacks';

/**
 * PHP's SoapServer publishes the Orders service over SOAP 1.1 and 1.2 at one address
 * (document/literal), and a classic rpc/encoded service answering a SOAP-encoded array of
 * structs. Their WSDLs are imported (the 1.1 and the 1.2 contract both, served on one path by a
 * stub of the specs), the contracts pass against PHP, and stubs of them (from `.spec` and from
 * `.wsdl`) answer zeep, suds, PHP's SoapClient and SOAP::Lite, typed answers and declared faults.
 */
withStacks(['php-soap', 'zeep', 'suds', 'soap-lite'], 'PHP SoapServer: document/literal 1.1 and 1.2 at one address, rpc/encoded', () => {
  let service: Service;
  let dir: string;
  const stubs: Record<'spec' | 'wsdl', RunningStub | undefined> = { spec: undefined, wsdl: undefined };

  beforeAll(async () => {
    service = await startPhp();
    const real = service.url;
    dir = mkdtempSync(path.join(tmpdir(), 'accord-interop-php-'));
    mkdirSync(path.join(dir, 'contracts'));
    for (const name of ['orders', 'rpc']) {
      const wsdl = await fetchText(`${real}/${name}?wsdl`);
      writeFileSync(path.join(dir, `${name}.wsdl`), wsdl);
      // The clients of the .spec stub read the WSDL with its addresses pointed at that stub (set below).
      writeFileSync(path.join(dir, `${name}-real.wsdl`), wsdl.split(real).join('STUB'));
    }
    writeFileSync(path.join(dir, 'contracts', 'orders11.spec'), importWsdl(path.join(dir, 'orders.wsdl')).text);
    writeFileSync(path.join(dir, 'contracts', 'orders12.spec'), importWsdl(path.join(dir, 'orders.wsdl'), { soapVersion: '1.2' }).text);
    writeFileSync(path.join(dir, 'contracts', 'rpc.spec'), importWsdl(path.join(dir, 'rpc.wsdl')).text);
    stubs.spec = await startStub({ contracts: [path.join(dir, 'contracts')], port: 0, log: () => undefined });
    stubs.wsdl = await startStub({ contracts: ['orders', 'rpc'].map((n) => path.join(dir, `${n}.wsdl`)), port: 0, log: () => undefined });
    for (const name of ['orders', 'rpc']) {
      writeFileSync(
        path.join(dir, `${name}-spec-stub.wsdl`),
        readFileSync(path.join(dir, `${name}-real.wsdl`), 'utf8')
          .split('STUB')
          .join(stubs.spec.url),
      );
    }
  }, 90_000);

  afterAll(() => tearDown({ stubs: [stubs.spec, stubs.wsdl], service, dir }));

  test('the imported contracts (1.1, 1.2, rpc/encoded) pass against PHP itself', async () => {
    await expectContractsPass(path.join(dir, 'contracts'), service.url, /✓ listOrders/);
  }, 120_000);

  const wsdlUrl = (from: 'spec' | 'wsdl', name: string) => (from === 'wsdl' ? `${stubs.wsdl!.url}/${name}?wsdl` : `file://${path.join(dir, `${name}-spec-stub.wsdl`)}`);
  const clients = (from: 'spec' | 'wsdl', v: '1.1' | '1.2', id: number, fault: boolean): Client[] => {
    const extra = fault ? ['fault'] : [];
    const port = v === '1.1' ? 'port=OrdersSoap' : 'port=OrdersSoap12';
    const list: Client[] = [
      ['zeep', PYTHON, ['py_client.py', 'zeep', wsdlUrl(from, 'orders'), String(id), port, ...extra]],
      ['PHP SoapClient', 'php', ['php_client.php', wsdlUrl(from, 'orders'), v, String(id), ...extra]],
      ['SOAP::Lite', 'perl', ['soaplite_client.pl', `${stubs[from]!.url}/orders`, v, 'urn:accord:interop:orders#getOrder', String(id), ...extra]],
    ];
    if (v === '1.1') list.push(['suds', PYTHON, ['py_client.py', 'suds', wsdlUrl(from, 'orders'), String(id), port, ...extra]]);
    return list;
  };

  describe.each(['spec', 'wsdl'] as const)('a stub from the .%s files', (from) => {
    test.each(['1.1', '1.2'] as const)(
      'every client gets a typed answer over SOAP %s, at the one address',
      async (v) => {
        expect(await clientFailures(clients(from, v, 7, false))).toEqual([]);
      },
      60_000,
    );

    test.each(['1.1', '1.2'] as const)(
      'every client parses the declared fault over SOAP %s',
      async (v) => {
        await expectGetOrderFault(stubs[from]!.url, { path: '/orders', version: v, faultName: 'NotFound' });
        expect(await clientFailures(clients(from, v, 404, true))).toEqual([]);
      },
      60_000,
    );

    // docs/stub.md: typed placeholders in an expectation's request; `(string)` was read as the text "(string)" and never fired.
    test.each(['1.1', '1.2'] as const)(
      'a soap-fault expectation whose id is (string) answers every client for any id over SOAP %s',
      async (v) => {
        try {
          await expectGetOrderFault(stubs[from]!.url, { path: '/orders', version: v, faultName: 'NotFound', id: '(string)' });
          expect(await clientFailures(clients(from, v, 31, true))).toEqual([]);
        } finally {
          await resetStub(stubs[from]!.url);
        }
      },
      60_000,
    );

    test('PHP SoapClient reads the rpc/encoded array of structs, typed', async () => {
      expect(await clientFailures([['PHP SoapClient', 'php', ['php_rpc_client.php', wsdlUrl(from, 'rpc'), '3']]])).toEqual([]);
    }, 60_000);

    test("SOAP::Lite reads the rpc/encoded array of structs as an array, as it reads PHP's own", async () => {
      expect(await clientFailures([['SOAP::Lite (PHP)', 'perl', ['soaplite_rpc_client.pl', `${service.url}/rpc`, '3']]])).toEqual([]);
      expect(await clientFailures([['SOAP::Lite', 'perl', ['soaplite_rpc_client.pl', `${stubs[from]!.url}/rpc`, '3']]])).toEqual([]);
    }, 60_000);

    // suds types an encoded answer by the message: SOAP-ENC:arrayType for the members, xsi:type for the accessors.
    test('suds reads the rpc/encoded array of structs, typed', async () => {
      expect(await clientFailures([['suds', PYTHON, ['rpc_client.py', 'suds', wsdlUrl(from, 'rpc'), '3']]])).toEqual([]);
    }, 60_000);
  });
});
