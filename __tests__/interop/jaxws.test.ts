import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { freePort, jaxwsClasspath, PYTHON, runClient, runContractTests, startService, STACKS_DIR, withStacks } from './stacks';

/**
 * JAX-WS RI (Debian's libjaxws-java on Java 17) publishes the Orders service with
 * Endpoint.publish over SOAP 1.1 and 1.2. Its WSDLs (and the schema each imports) are imported,
 * the contracts pass against JAX-WS, and stubs of them (from `.spec` and `.wsdl`) answer a JAX-WS
 * client built from the WSDL, zeep, suds, PHP's SoapClient and SOAP::Lite.
 */
withStacks(['jax-ws', 'zeep', 'suds', 'php-soap', 'soap-lite'], 'JAX-WS RI Endpoint.publish, SOAP 1.1 and 1.2', () => {
  let service: Awaited<ReturnType<typeof startService>>;
  let dir: string;
  let classpath: string;
  const stubs: Record<'spec' | 'wsdl', RunningStub | undefined> = { spec: undefined, wsdl: undefined };
  const versions = ['11', '12'] as const;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-interop-jaxws-'));
    mkdirSync(path.join(dir, 'contracts'));
    mkdirSync(path.join(dir, 'classes'));
    const jars = jaxwsClasspath();
    const src = path.join(STACKS_DIR, 'jaxws');
    execFileSync('javac', ['-nowarn', '-d', path.join(dir, 'classes'), '-cp', jars, path.join(src, 'Orders.java'), path.join(src, 'OrdersClient.java')], { stdio: 'pipe' });
    classpath = `${jars}:${path.join(dir, 'classes')}`;
    const port = await freePort();
    service = await startService('java', ['-cp', classpath, 'Orders', String(port)], { port, path: '/orders12?wsdl' });
    const real = `http://127.0.0.1:${port}`;
    for (const v of versions) {
      // The WSDL imports its schema from ?xsd=1: kept beside it, as the importer never reaches the network.
      const xsd = await (await fetch(`${real}/orders${v}?xsd=1`)).text();
      writeFileSync(path.join(dir, `orders${v}.xsd`), xsd);
      const wsdl = (await (await fetch(`${real}/orders${v}?wsdl`)).text()).split(`${real}/orders${v}?xsd=1`).join(`orders${v}.xsd`);
      writeFileSync(path.join(dir, `orders${v}.wsdl`), wsdl);
      writeFileSync(path.join(dir, 'contracts', `orders${v}.spec`), importWsdl(path.join(dir, `orders${v}.wsdl`), { soapVersion: v === '11' ? '1.1' : '1.2' }).text);
    }
    stubs.spec = await startStub({ contracts: [path.join(dir, 'contracts')], port: 0, log: () => undefined });
    stubs.wsdl = await startStub({ contracts: versions.map((v) => path.join(dir, `orders${v}.wsdl`)), port: 0, log: () => undefined });
    for (const v of versions) {
      const { readFileSync } = jest.requireActual<typeof import('node:fs')>('node:fs');
      writeFileSync(
        path.join(dir, `orders${v}-spec-stub.wsdl`),
        readFileSync(path.join(dir, `orders${v}.wsdl`), 'utf8')
          .split(real)
          .join(stubs.spec.url),
      );
    }
  }, 120_000);

  afterAll(async () => {
    await stubs.spec?.close();
    await stubs.wsdl?.close();
    await service?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the imported contracts pass against JAX-WS itself', async () => {
    const r = await runContractTests(path.join(dir, 'contracts'), `http://127.0.0.1:${service.port}`);
    expect(r.output).toMatch(/✓ getOrder/);
    expect([r.code, r.output]).toEqual([0, expect.stringMatching(/Tests: .*passed/) as string]);
  }, 120_000);

  const wsdlUrl = (from: 'spec' | 'wsdl', v: '11' | '12') => (from === 'wsdl' ? `${stubs.wsdl!.url}/orders${v}?wsdl` : `file://${path.join(dir, `orders${v}-spec-stub.wsdl`)}`);
  const clients = (from: 'spec' | 'wsdl', id: number, fault: boolean): [string, string, string[]][] => {
    const extra = fault ? ['fault'] : [];
    // One JVM for both versions: it is the slowest client to start.
    const java = versions.flatMap((v) => [wsdlUrl(from, v), `Orders${v}`, `Orders${v}Port`, String(id), ...extra, '--']);
    const list: [string, string, string[]][] = [['JAX-WS', 'java', ['-cp', classpath, 'OrdersClient', ...java]]];
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
  const failures = async (list: [string, string, string[]][]) =>
    (await Promise.all(list.map(async ([name, cmd, args]) => [name, await runClient(cmd, args)] as const))).filter(([, r]) => !r.ok).map(([name, r]) => `${name}: ${r.output}`);

  describe.each(['spec', 'wsdl'] as const)('a stub from the .%s files', (from) => {
    test('every client gets a typed answer over SOAP 1.1 and 1.2', async () => {
      expect(await failures(clients(from, 7, false))).toEqual([]);
    }, 90_000);

    test('every client parses the declared fault over SOAP 1.1 and 1.2', async () => {
      for (const v of versions) {
        const ns = v === '11' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
        const res = await fetch(`${stubs[from]!.url}/_accord/expectations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            request: {
              method: 'POST',
              path: `/orders${v}`,
              body: `<s:Envelope xmlns:s="${ns}" xmlns:o="urn:accord:interop:orders"><s:Body><o:getOrder><o:id>404</o:id></o:getOrder></s:Body></s:Envelope>`,
            },
            fault: 'soap-fault',
          }),
        });
        const said = await res.text();
        expect([res.status, said]).toEqual([201, expect.stringContaining('"id"') as string]);
      }
      expect(await failures(clients(from, 404, true))).toEqual([]);
    }, 90_000);
  });
});
