import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { PYTHON, runClient, runContractTests, startService, withStacks } from './stacks';

/**
 * spyne (document/literal, lxml validation on) serves an Orders service over SOAP 1.1 and 1.2.
 * Its WSDLs are imported; the imported contracts pass against spyne itself; a stub of them (from
 * the `.spec` files and from the `.wsdl` files) answers zeep, suds, PHP's SoapClient and
 * SOAP::Lite, whose scripts check the answer's types in their own language and parse a declared
 * fault (set with a `soap-fault` expectation).
 */
withStacks(['spyne', 'zeep', 'suds', 'php-soap', 'soap-lite'], 'spyne Orders service, SOAP 1.1 and 1.2', () => {
  let service: Awaited<ReturnType<typeof startService>>;
  let dir: string;
  const stubs: Record<'spec' | 'wsdl', RunningStub | undefined> = { spec: undefined, wsdl: undefined };
  const versions = ['11', '12'] as const;

  beforeAll(async () => {
    service = await startService(PYTHON, ['spyne_server.py']);
    const real = `http://127.0.0.1:${service.port}`;
    dir = mkdtempSync(path.join(tmpdir(), 'accord-interop-spyne-'));
    mkdirSync(path.join(dir, 'contracts'));
    for (const v of versions) {
      const wsdl = await (await fetch(`${real}/soap${v}?wsdl`)).text();
      writeFileSync(path.join(dir, `orders${v}.wsdl`), wsdl);
      writeFileSync(path.join(dir, 'contracts', `orders${v}.spec`), importWsdl(path.join(dir, `orders${v}.wsdl`), { soapVersion: v === '11' ? '1.1' : '1.2' }).text);
    }
    stubs.spec = await startStub({ contracts: versions.map((v) => path.join(dir, 'contracts', `orders${v}.spec`)), port: 0, log: () => undefined });
    stubs.wsdl = await startStub({ contracts: versions.map((v) => path.join(dir, `orders${v}.wsdl`)), port: 0, log: () => undefined });
    // The clients of the .spec stub read the WSDL with its addresses pointed at that stub.
    for (const v of versions) {
      const wsdl = (await (await fetch(`${real}/soap${v}?wsdl`)).text()).split(real).join(stubs.spec.url);
      writeFileSync(path.join(dir, `orders${v}-spec-stub.wsdl`), wsdl);
    }
  }, 90_000);

  afterAll(async () => {
    await stubs.spec?.close();
    await stubs.wsdl?.close();
    await service?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the imported contracts pass against spyne itself', async () => {
    const r = await runContractTests(path.join(dir, 'contracts'), `http://127.0.0.1:${service.port}`);
    expect(r.output).toMatch(/✓ getOrder/);
    expect([r.code, r.output]).toEqual([0, expect.stringMatching(/Tests: .*passed/)]);
  }, 120_000);

  const wsdlUrl = (from: 'spec' | 'wsdl', v: '11' | '12') => (from === 'wsdl' ? `${stubs.wsdl!.url}/soap${v}?wsdl` : `file://${path.join(dir, `orders${v}-spec-stub.wsdl`)}`);
  const clients = (from: 'spec' | 'wsdl', v: '11' | '12', id: number, fault: boolean): [string, string, string[]][] => {
    const extra = fault ? ['fault'] : [];
    const version = v === '11' ? '1.1' : '1.2';
    const list: [string, string, string[]][] = [
      ['zeep', PYTHON, ['py_client.py', 'zeep', wsdlUrl(from, v), String(id), ...extra]],
      ['PHP SoapClient', 'php', ['php_client.php', wsdlUrl(from, v), version, String(id), ...extra]],
      ['SOAP::Lite', 'perl', ['soaplite_client.pl', `${stubs[from]!.url}/soap${v}`, version, 'getOrder', String(id), ...extra]],
    ];
    // suds speaks SOAP 1.1 only.
    if (v === '11') list.push(['suds', PYTHON, ['py_client.py', 'suds', wsdlUrl(from, v), String(id), ...extra]]);
    return list;
  };

  describe.each(['spec', 'wsdl'] as const)('a stub from the .%s files', (from) => {
    test.each(versions)(
      'every client gets a typed answer over SOAP %s',
      async (v) => {
        const results = await Promise.all(clients(from, v, 7, false).map(async ([name, cmd, args]) => [name, await runClient(cmd, args)] as const));
        expect(results.filter(([, r]) => !r.ok).map(([name, r]) => `${name}: ${r.output}`)).toEqual([]);
      },
      60_000,
    );

    test.each(versions)(
      'every client parses the declared fault over SOAP %s',
      async (v) => {
        const stub = stubs[from]!;
        const ns = v === '11' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
        const headers = v === '11' ? { soapaction: '"getOrder"' } : { 'content-type': 'application/soap+xml; charset=utf-8; action="getOrder"' };
        const res = await fetch(`${stub.url}/_accord/expectations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            request: {
              method: 'POST',
              path: `/soap${v}`,
              headers,
              body: `<s:Envelope xmlns:s="${ns}" xmlns:o="urn:accord:interop:orders"><s:Body><o:getOrder><o:id>404</o:id></o:getOrder></s:Body></s:Envelope>`,
            },
            fault: 'soap-fault',
            faultName: 'NotFound',
          }),
        });
        const said = await res.text();
        expect([res.status, said]).toEqual([201, expect.stringContaining('"id"') as string]);
        const results = await Promise.all(clients(from, v, 404, true).map(async ([name, cmd, args]) => [name, await runClient(cmd, args)] as const));
        expect(results.filter(([, r]) => !r.ok).map(([name, r]) => `${name}: ${r.output}`)).toEqual([]);
      },
      60_000,
    );
  });
});
