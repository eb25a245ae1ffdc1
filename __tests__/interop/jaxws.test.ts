import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { clientFailures, expectContractsPass, expectGetOrderFault, fetchText, PYTHON, resetStub, startJaxws, tearDown, withStacks, type Client, type Service } from './stacks';

/**
 * JAX-WS RI (Debian's libjaxws-java on Java 17) publishes the Orders service with
 * Endpoint.publish over SOAP 1.1 and 1.2. Its WSDLs (and the schema each imports) are imported,
 * the contracts pass against JAX-WS, and stubs of them (from `.spec` and `.wsdl`) answer a JAX-WS
 * client built from the WSDL, zeep, suds, PHP's SoapClient and SOAP::Lite.
 */
withStacks(['jax-ws', 'zeep', 'suds', 'php-soap', 'soap-lite'], 'JAX-WS RI Endpoint.publish, SOAP 1.1 and 1.2', () => {
  let service: Service;
  let dir: string;
  let classpath: string;
  const stubs: Record<'spec' | 'wsdl', RunningStub | undefined> = { spec: undefined, wsdl: undefined };
  const versions = ['11', '12'] as const;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-interop-jaxws-'));
    mkdirSync(path.join(dir, 'contracts'));
    ({ service, classpath } = await startJaxws(dir));
    const real = service.url;
    for (const v of versions) {
      // The WSDL imports its schema from ?xsd=1: kept beside it, as the importer never reaches the network.
      const xsd = await fetchText(`${real}/orders${v}?xsd=1`);
      writeFileSync(path.join(dir, `orders${v}.xsd`), xsd);
      const wsdl = (await fetchText(`${real}/orders${v}?wsdl`)).split(`${real}/orders${v}?xsd=1`).join(`orders${v}.xsd`);
      writeFileSync(path.join(dir, `orders${v}.wsdl`), wsdl);
      writeFileSync(path.join(dir, 'contracts', `orders${v}.spec`), importWsdl(path.join(dir, `orders${v}.wsdl`), { soapVersion: v === '11' ? '1.1' : '1.2' }).text);
    }
    stubs.spec = await startStub({ contracts: [path.join(dir, 'contracts')], port: 0, log: () => undefined });
    stubs.wsdl = await startStub({ contracts: versions.map((v) => path.join(dir, `orders${v}.wsdl`)), port: 0, log: () => undefined });
    for (const v of versions) {
      writeFileSync(
        path.join(dir, `orders${v}-spec-stub.wsdl`),
        readFileSync(path.join(dir, `orders${v}.wsdl`), 'utf8')
          .split(real)
          .join(stubs.spec.url),
      );
    }
  }, 120_000);

  afterAll(() => tearDown({ stubs: [stubs.spec, stubs.wsdl], service, dir }));

  test('the imported contracts pass against JAX-WS itself', async () => {
    await expectContractsPass(path.join(dir, 'contracts'), service.url, /✓ getOrder/);
  }, 120_000);

  const wsdlUrl = (from: 'spec' | 'wsdl', v: '11' | '12') => (from === 'wsdl' ? `${stubs.wsdl!.url}/orders${v}?wsdl` : `file://${path.join(dir, `orders${v}-spec-stub.wsdl`)}`);
  const clients = (from: 'spec' | 'wsdl', id: number, fault: boolean): Client[] => {
    const extra = fault ? ['fault'] : [];
    // One JVM for both versions: it is the slowest client to start.
    const java = versions.flatMap((v) => [wsdlUrl(from, v), `Orders${v}`, `Orders${v}Port`, String(id), ...extra, '--']);
    const list: Client[] = [['JAX-WS', 'java', ['-cp', classpath, 'OrdersClient', ...java]]];
    for (const v of versions) {
      const version = v === '11' ? '1.1' : '1.2';
      list.push(
        [`zeep ${version}`, PYTHON, ['py_client.py', 'zeep', wsdlUrl(from, v), String(id), ...extra]],
        [`PHP SoapClient ${version}`, 'php', ['php_client.php', wsdlUrl(from, v), version, String(id), ...extra]],
        [`SOAP::Lite ${version}`, 'perl', ['soaplite_client.pl', `${stubs[from]!.url}/orders${v}`, version, 'urn:accord:interop:orders:getOrder', String(id), ...extra]],
      );
    }
    list.push(['suds 1.1', PYTHON, ['py_client.py', 'suds', wsdlUrl(from, '11'), String(id), ...extra]]);
    return list;
  };

  describe.each(['spec', 'wsdl'] as const)('a stub from the .%s files', (from) => {
    test('every client gets a typed answer over SOAP 1.1 and 1.2', async () => {
      expect(await clientFailures(clients(from, 7, false))).toEqual([]);
    }, 90_000);

    test('every client parses the declared fault over SOAP 1.1 and 1.2', async () => {
      for (const v of versions) await expectGetOrderFault(stubs[from]!.url, { path: `/orders${v}`, version: v === '11' ? '1.1' : '1.2' });
      expect(await clientFailures(clients(from, 404, true))).toEqual([]);
    }, 90_000);

    // docs/stub.md: an expectation's request may hold typed placeholders; `(string)` was read as the text "(string)" and never fired.
    test.each(['(string)', '(number)', '(int)'])(
      'a soap-fault expectation whose id is %s answers JAX-WS, zeep and suds for any id',
      async (id) => {
        try {
          for (const v of versions) await expectGetOrderFault(stubs[from]!.url, { path: `/orders${v}`, version: v === '11' ? '1.1' : '1.2', id });
          const typedClients = clients(from, 31, true).filter(([name]) => /^(JAX-WS|zeep|suds)/.test(name));
          expect(await clientFailures(typedClients)).toEqual([]);
        } finally {
          await resetStub(stubs[from]!.url);
        }
      },
      90_000,
    );
  });
});
