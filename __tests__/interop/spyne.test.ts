import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { childEnv } from '../helpers/child-env';
import { runJest, writePresetProject } from '../helpers/jest-app';
import {
  clientFailures,
  expectContractsPass,
  expectGetOrderFault,
  fetchText,
  PYTHON,
  resetStub,
  runClient,
  startSpyne,
  tearDown,
  withStacks,
  type Client,
  type Service,
} from './stacks';

/**
 * spyne (document/literal, lxml validation on) serves an Orders service over SOAP 1.1 and 1.2.
 * Its WSDLs are imported; the imported contracts pass against spyne itself; a stub of them (from
 * the `.spec` files and from the `.wsdl` files) answers zeep, suds, PHP's SoapClient and
 * SOAP::Lite, whose scripts check the answer's types in their own language and parse a declared
 * fault (set with a `soap-fault` expectation).
 */
withStacks(['spyne', 'zeep', 'suds', 'php-soap', 'soap-lite'], 'spyne Orders service, SOAP 1.1 and 1.2', () => {
  let service: Service;
  let dir: string;
  const stubs: Record<'spec' | 'wsdl', RunningStub | undefined> = { spec: undefined, wsdl: undefined };
  const versions = ['11', '12'] as const;

  beforeAll(async () => {
    service = await startSpyne();
    const real = service.url;
    dir = mkdtempSync(path.join(tmpdir(), 'accord-interop-spyne-'));
    mkdirSync(path.join(dir, 'contracts'));
    for (const v of versions) {
      const wsdl = await fetchText(`${real}/soap${v}?wsdl`);
      writeFileSync(path.join(dir, `orders${v}.wsdl`), wsdl);
      writeFileSync(path.join(dir, 'contracts', `orders${v}.spec`), importWsdl(path.join(dir, `orders${v}.wsdl`), { soapVersion: v === '11' ? '1.1' : '1.2' }).text);
    }
    stubs.spec = await startStub({ contracts: versions.map((v) => path.join(dir, 'contracts', `orders${v}.spec`)), port: 0, log: () => undefined });
    stubs.wsdl = await startStub({ contracts: versions.map((v) => path.join(dir, `orders${v}.wsdl`)), port: 0, log: () => undefined });
    // The clients of the .spec stub read the WSDL with its addresses pointed at that stub.
    for (const v of versions) {
      const wsdl = (await fetchText(`${real}/soap${v}?wsdl`)).split(real).join(stubs.spec.url);
      writeFileSync(path.join(dir, `orders${v}-spec-stub.wsdl`), wsdl);
    }
  }, 90_000);

  afterAll(() => tearDown({ stubs: [stubs.spec, stubs.wsdl], service, dir }));

  test('the imported contracts pass against spyne itself', async () => {
    await expectContractsPass(path.join(dir, 'contracts'), service.url, /✓ getOrder/);
  }, 120_000);

  test('negative tests: a request spyne fails on (500, its error page, no Fault) is said to have failed, with what came back, not to have been accepted', async () => {
    writePresetProject(dir);
    const r = await runJest(process.execPath, [require.resolve('jest/bin/jest'), '--ci', '--verbose'], {
      cwd: dir,
      env: childEnv({ ACCORD_BASE_URL: service.url, ACCORD_NEGATIVE: '1' }),
    });
    expect(r.status).toBe(1);
    expect(r.output).toContain('The provider failed on an invalid request (mutation: missing Envelope/Body/getOrder) of scenario "getOrder"');
    expect(r.output).toContain('it answered 500 with no SOAP Fault (a server error, not a rejection), a body starting "A server error occurred.');
    expect(r.output).not.toContain('The provider accepted an invalid request (mutation: missing Envelope/Body/getOrder)');
  }, 120_000);

  const wsdlUrl = (from: 'spec' | 'wsdl', v: '11' | '12') => (from === 'wsdl' ? `${stubs.wsdl!.url}/soap${v}?wsdl` : `file://${path.join(dir, `orders${v}-spec-stub.wsdl`)}`);
  const clients = (from: 'spec' | 'wsdl', v: '11' | '12', id: number, fault: boolean): Client[] => {
    const extra = fault ? ['fault'] : [];
    const version = v === '11' ? '1.1' : '1.2';
    const list: Client[] = [
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
        expect(await clientFailures(clients(from, v, 7, false))).toEqual([]);
      },
      60_000,
    );

    test.each(versions)(
      'every client parses the declared fault over SOAP %s',
      async (v) => {
        const headers: Record<string, string> = v === '11' ? { soapaction: '"getOrder"' } : { 'content-type': 'application/soap+xml; charset=utf-8; action="getOrder"' };
        await expectGetOrderFault(stubs[from]!.url, { path: `/soap${v}`, version: v === '11' ? '1.1' : '1.2', headers, faultName: 'NotFound' });
        expect(await clientFailures(clients(from, v, 404, true))).toEqual([]);
      },
      60_000,
    );

    // docs/stub.md: typed placeholders in an expectation's request; `(string)` was read as the text "(string)" and never fired.
    test.each(versions)(
      'a soap-fault expectation whose id is (string) answers zeep and suds for any id over SOAP %s',
      async (v) => {
        try {
          await expectGetOrderFault(stubs[from]!.url, { path: `/soap${v}`, version: v === '11' ? '1.1' : '1.2', id: '(string)', faultName: 'NotFound' });
          expect(await clientFailures(clients(from, v, 31, true).filter(([name]) => name === 'zeep' || name === 'suds'))).toEqual([]);
        } finally {
          await resetStub(stubs[from]!.url);
        }
      },
      60_000,
    );

    test('an answer expectation whose id is (int) answers zeep and suds', async () => {
      const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
      try {
        const res = await fetch(`${stubs[from]!.url}/_accord/expectations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            request: {
              method: 'POST',
              path: '/soap11',
              body: `<s:Envelope xmlns:s="${SOAP11}"><s:Body><o:getOrder xmlns:o="urn:accord:interop:orders"><o:id>(int)</o:id></o:getOrder></s:Body></s:Envelope>`,
            },
          }),
        });
        expect([res.status, await res.text()]).toEqual([201, expect.stringContaining('"id"') as string]);
        for (const lib of ['zeep', 'suds']) {
          const r = await runClient(PYTHON, ['py_client.py', lib, wsdlUrl(from, '11'), '31']);
          expect([lib, r.ok, r.output]).toEqual([lib, true, expect.stringMatching(/^ok /) as string]);
        }
        // Both calls were answered by the expectation (a generated answer of the contract, as it has no response).
        const listed = (await (await fetch(`${stubs[from]!.url}/_accord/expectations`)).json()) as { used: number }[];
        expect(listed.map((e) => e.used)).toEqual([2]);
      } finally {
        await resetStub(stubs[from]!.url);
      }
    }, 60_000);
  });
});
