import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';
import { runAccord } from '../helpers/cli-run';
import { runProxy, type ProxyRun } from '../proxy/proxy-helpers';
import { cachedBuild } from './build-cache';
import { expectContractsPass, expectGetOrderFault, fetchText, resetStub, runClient, startService, STACKS_DIR, tearDown, withStacks, type Service } from './stacks';

const SOURCES = ['mono/Orders.asmx', 'mono/AsmxHost.cs', 'mono/OrdersClient.cs'];

/** The app folder (Orders.asmx, and bin/AsmxHost.exe, the host), built once per change of its sources. */
function buildHost(): Promise<string> {
  return cachedBuild('mono-host', { files: SOURCES.slice(0, 2) }, (dir) => {
    mkdirSync(path.join(dir, 'bin'));
    copyFileSync(path.join(STACKS_DIR, 'mono', 'Orders.asmx'), path.join(dir, 'Orders.asmx'));
    execFileSync('mcs', ['-nologo', `-out:${path.join(dir, 'bin', 'AsmxHost.exe')}`, '-r:System.Web.dll', path.join(STACKS_DIR, 'mono', 'AsmxHost.cs')], { stdio: 'pipe' });
  });
}

/** OrdersClient.exe: the proxy `wsdl` generates from the service's WSDL, compiled with OrdersClient.cs (once per WSDL). */
async function buildClient(wsdlUrl: string, wsdlText: string): Promise<string> {
  const normalized = wsdlText.split(new URL(wsdlUrl).origin).join('SERVICE');
  const dir = await cachedBuild('mono-client', { files: [SOURCES[2]], texts: [normalized] }, (d) => {
    execFileSync('wsdl', ['-nologo', `-out:${path.join(d, 'OrdersProxy.cs')}`, wsdlUrl], { stdio: 'pipe', cwd: d });
    execFileSync(
      'mcs',
      ['-nologo', `-out:${path.join(d, 'OrdersClient.exe')}`, '-r:System.Web.Services.dll', path.join(d, 'OrdersProxy.cs'), path.join(STACKS_DIR, 'mono', 'OrdersClient.cs')],
      { stdio: 'pipe' },
    );
  });
  return path.join(dir, 'OrdersClient.exe');
}

/** The Mono client's calls (each `url`, its arguments), in one run: a line each, or what it said when it failed. */
async function client(...calls: string[][]): Promise<string[]> {
  const r = await runClient('mono', [exe, ...calls.flatMap((c, i) => (i === 0 ? c : ['--', ...c]))]);
  return r.ok ? r.output.split('\n') : [`failed: ${r.output}`];
}

let exe = '';

/**
 * Mono (mono-devel): an ASMX web service (ASP.NET's WebService, document/literal, SOAP 1.1 and 1.2
 * at one address) served by Mono's System.Web — through AsmxHost, a tiny HttpListener host, as
 * Debian 12's xsp4 does not start on its Mono — and a .NET client: the proxy Mono's `wsdl` tool
 * generates from the service's ?wsdl, compiled by mcs. `accord import wsdl` of the ?wsdl URL; the
 * contracts pass against ASMX; the client gets typed answers (an enum, a DateTime, an array of
 * structs) and a SoapException from stubs of the imported `.spec` and of the `.wsdl`; a recording
 * of the client through `accord proxy` is typed by the WSDL, passes against ASMX, and its stub
 * answers the client.
 */
withStacks(['mono'], 'Mono: an ASMX service and a wsdl-generated .NET client', () => {
  let service: Service;
  let dir: string;
  let wsdlUrl: string;
  const imported: string[] = [];
  const stubs: Record<'spec' | 'wsdl', RunningStub | undefined> = { spec: undefined, wsdl: undefined };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-interop-mono-'));
    mkdirSync(path.join(dir, 'contracts'));
    const app = await buildHost();
    service = await startService('mono', [path.join(app, 'bin', 'AsmxHost.exe'), app]);
    wsdlUrl = `${service.url}/Orders.asmx?wsdl`;
    // The first request compiles Orders.asmx.
    const wsdl = await fetchText(wsdlUrl);
    exe = await buildClient(wsdlUrl, wsdl);
    for (const v of ['1.1', '1.2']) {
      const r = await runAccord(['import', 'wsdl', wsdlUrl, '--soap-version', v, '-f', '-o', path.join(dir, 'contracts', `orders${v === '1.1' ? '11' : '12'}.spec`)], dir);
      imported.push(`${r.code} ${r.out}${r.err}`);
    }
    // The importer writes the WSDL it fetched beside the contracts.
    stubs.spec = await startStub({ contracts: ['orders11.spec', 'orders12.spec'].map((f) => path.join(dir, 'contracts', f)), port: 0, log: () => undefined });
    stubs.wsdl = await startStub({ contracts: [path.join(dir, 'contracts', 'Orders.wsdl')], port: 0, log: () => undefined });
  }, 120_000);

  afterAll(() => tearDown({ stubs: [stubs.spec, stubs.wsdl], service, dir }));

  test('accord import wsdl imports its ?wsdl URL, SOAP 1.1 and 1.2, leaving out the HTTP GET and POST bindings', () => {
    for (const said of imported) {
      expect(said).toMatch(/^0 /);
      expect(said).toContain('Orders: 2 operations');
      expect(said).toContain('skipped binding OrdersHttpGet');
    }
  });

  test('the imported contracts pass against ASMX itself', async () => {
    await expectContractsPass(path.join(dir, 'contracts'), service.url, /✓ listOrders/);
  }, 120_000);

  test('the .NET client reads the ASMX service itself: its answers and its SoapException', async () => {
    const url = `${service.url}/Orders.asmx`;
    expect(await client([url, 'get', '7'], [url, 'get', '404', 'fault'], [url, 'get', '404', 'fault', 'soap12'])).toEqual([
      'ok 7 shipped 2024-05-17 12.50 lines=2',
      'ok fault Client <notFound xmlns="urn:accord:interop:orders">404</notFound>',
      'ok fault Sender <notFound xmlns="urn:accord:interop:orders">404</notFound>',
    ]);
  }, 60_000);

  // One Mono run for both stubs: the typed answers over SOAP 1.1 and 1.2, then the fault.
  test('stubs of the .spec and of the .wsdl files answer the .NET client: typed answers over SOAP 1.1 and 1.2, and a SoapException', async () => {
    const order = expect.stringMatching(/^ok -?\d+ (open|shipped) \d{4}-\d\d-\d\d -?\d+(\.\d+)? lines=\d+$/) as string;
    const list = expect.stringMatching(/^ok \d+/) as string;
    const all: string[][] = [];
    try {
      for (const from of ['spec', 'wsdl'] as const) {
        await expectGetOrderFault(stubs[from]!.url, { path: '/Orders.asmx', version: '1.1' });
        const url = `${stubs[from]!.url}/Orders.asmx`;
        all.push(
          ...['soap11', 'soap12'].flatMap((v) => [
            [url, 'get', '7', v],
            [url, 'list', 'shipped', '2024-05-17T10:30:00Z', v],
          ]),
          [url, 'get', '404', 'fault'],
        );
      }
      // ASMX declares no wsdl:fault: the stub answers the standard fault of SOAP 1.1.
      const each = [order, list, order, list, 'ok fault Server'];
      expect(await client(...all)).toEqual([...each, ...each]);
    } finally {
      for (const from of ['spec', 'wsdl'] as const) await resetStub(stubs[from]!.url);
    }
  }, 90_000);

  describe('a recording of the .NET client through accord proxy', () => {
    let proxy: ProxyRun;
    let said = '';
    let recorded: RunningStub | undefined;
    const rec = () => path.join(dir, 'recorded');

    beforeAll(async () => {
      mkdirSync(rec());
      proxy = await runProxy(rec(), ['--target', service.url, '--out', 'orders.spec']);
      const url = `${proxy.url}/Orders.asmx`;
      const answers = await client([url, 'get', '7'], [url, 'get', '404', 'fault'], [url, 'list', 'open', '2024-01-02T03:04:05Z']);
      expect(answers).toEqual(['ok 7 shipped 2024-05-17 12.50 lines=2', expect.stringMatching(/^ok fault Client/), 'ok 1 7 open 2024-01-02 12.50 lines=2']);
      proxy.stop();
      const e = await proxy.exited;
      said = e.stdout + e.stderr;
      recorded = await startStub({ contracts: [rec()], port: 0, log: () => undefined });
    }, 120_000);

    afterAll(async () => {
      await recorded?.close();
    });

    test('is typed by the WSDL the proxy fetched, and every recorded call fits it', () => {
      expect(said).toContain(`typed by ${wsdlUrl}`);
      expect(said).toContain('checked: all 3 logged calls match the contract');
      expect(readdirSync(path.join(rec(), 'orders_examples'))).toHaveLength(3);
    });

    test('passes against ASMX itself', async () => {
      await expectContractsPass(rec(), service.url, /✓ getOrder \(fault, status 500\)/);
    }, 120_000);

    test('its stub answers the .NET client: recorded requests with their answers, another from the types', async () => {
      const url = `${recorded!.url}/Orders.asmx`;
      expect(await client([url, 'get', '7'], [url, 'get', '404', 'fault'], [url, 'get', '12'])).toEqual([
        'ok 7 shipped 2024-05-17 12.50 lines=2',
        'ok fault Client <notFound xmlns="urn:accord:interop:orders">404</notFound>',
        expect.stringMatching(/^ok -?\d+ (open|shipped) /),
      ]);
    }, 60_000);
  });
});
