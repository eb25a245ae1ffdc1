import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startStub, type RunningStub } from '../../src/stub';
import { runAccord } from '../helpers/cli-run';
import { runProxy, type ProxyRun } from '../proxy/proxy-helpers';
import { cachedBuild } from './build-cache';
import { expectContractsPass, expectGetOrderFault, resetStub, runClient, startService, STACKS_DIR, tearDown, withStacks, type Service } from './stacks';

const run = promisify(execFile);
const GSOAP = path.join(STACKS_DIR, 'gsoap');
const IMPORT = '-I/usr/share/gsoap/import';
const CXX = ['-O0', '-w', '-I.'];

/** soapcpp2 on orders.h (the service, its WSDL) and g++ on orders_server.cpp: the server, built once per change. */
function buildServer(): Promise<string> {
  return cachedBuild('gsoap-server', { files: ['gsoap/orders.h', 'gsoap/orders_server.cpp'] }, async (dir) => {
    await run('soapcpp2', ['-SL', '-x', IMPORT, path.join(GSOAP, 'orders.h')], { cwd: dir });
    await run('g++', [...CXX, '-o', 'orders_server', path.join(GSOAP, 'orders_server.cpp'), 'soapC.cpp', 'soapServer.cpp', '-lgsoap++'], { cwd: dir });
  });
}

/**
 * The client, WSDL first: wsdl2h of the WSDL soapcpp2 writes for orders.h (the one the server
 * serves at ?wsdl, but for its address), soapcpp2 -j -C of that header (OrdersProxy), g++.
 */
function buildClient(): Promise<string> {
  return cachedBuild('gsoap-client', { files: ['gsoap/orders.h', 'gsoap/typemap.dat', 'gsoap/orders_client.cpp'] }, async (dir) => {
    await run('soapcpp2', ['-SL', '-x', IMPORT, path.join(GSOAP, 'orders.h')], { cwd: dir });
    copyFileSync(path.join(GSOAP, 'typemap.dat'), path.join(dir, 'typemap.dat'));
    await run('wsdl2h', ['-t', 'typemap.dat', '-o', 'orders_client.h', 'Orders.wsdl'], { cwd: dir });
    await run('soapcpp2', ['-j', '-C', '-x', '-L', IMPORT, 'orders_client.h'], { cwd: dir });
    await run('g++', [...CXX, '-o', 'orders_client', path.join(GSOAP, 'orders_client.cpp'), 'soapC.cpp', 'soapOrdersProxy.cpp', '-lgsoap++'], { cwd: dir });
  });
}

let client = '';
/** The gSOAP client's calls (each an endpoint and its arguments), in one run: a line each, or what it said when it failed. */
async function calls(...list: string[][]): Promise<string[]> {
  const r = await runClient(
    client,
    list.flatMap((c, i) => (i === 0 ? c : ['--', ...c])),
  );
  return r.ok ? r.output.split('\n') : [`failed: ${r.output}`];
}

const ORDER_7 = 'ok 7 shipped 2024-05-17 12.50 lines=2';
const NOT_FOUND = 'ok fault SOAP-ENV:Client notFound 404';
const ANY_ORDER = /^ok -?\d+ (open|shipped) \d{4}-\d\d-\d\d -?\d+(\.\d+)? lines=\d+$/;

/**
 * gSOAP 2.8 (Debian's gsoap and libgsoap-dev, built with g++): a server written code first (soapcpp2
 * reads orders.h and writes the WSDL; document/literal, a declared fault notFound), strict
 * (SOAP_XML_STRICT: it refuses a request with an unknown, missing or ill-typed element), and a
 * client written WSDL first (wsdl2h, soapcpp2 -j), strict too, so a stub's answer must fit the
 * schema exactly. `accord import wsdl` of the server's ?wsdl URL; the contract passes against
 * the server; the client gets typed answers and its declared fault from stubs of the `.spec` and
 * the `.wsdl`; a recording of the client through `accord proxy` is typed by the WSDL, passes
 * against the server, and its stub answers the client.
 */
withStacks(['gsoap'], 'gSOAP: a strict server from a header and a client from its WSDL', () => {
  let service: Service;
  let dir: string;
  let imported = '';
  let endpoint: string;
  const stubs: Record<'spec' | 'wsdl', RunningStub | undefined> = { spec: undefined, wsdl: undefined };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-interop-gsoap-'));
    mkdirSync(path.join(dir, 'contracts'));
    // Both builds at once: g++ is most of the time of a first run.
    const [server, built] = await Promise.all([buildServer(), buildClient()]);
    client = path.join(built, 'orders_client');
    service = await startService(path.join(server, 'orders_server'), [path.join(server, 'Orders.wsdl')]);
    endpoint = `${service.url}/orders`;
    const r = await runAccord(['import', 'wsdl', `${endpoint}?wsdl`, '-o', path.join(dir, 'contracts', 'orders.spec')], dir);
    imported = `${r.code} ${r.out}${r.err}`;
    stubs.spec = await startStub({ contracts: [path.join(dir, 'contracts', 'orders.spec')], port: 0, log: () => undefined });
    stubs.wsdl = await startStub({ contracts: [path.join(dir, 'contracts', 'orders.wsdl')], port: 0, log: () => undefined });
  }, 240_000);

  afterAll(() => tearDown({ stubs: [stubs.spec, stubs.wsdl], service, dir }));

  test('accord import wsdl imports its ?wsdl URL: two operations and the declared fault', () => {
    expect(imported).toMatch(/^0 /);
    expect(imported).toContain('Orders: 2 operations, 1 fault');
  });

  test('the imported contract passes against the strict gSOAP server (it accepts every request accord sends)', async () => {
    await expectContractsPass(path.join(dir, 'contracts'), service.url, /✓ listOrders/);
  }, 120_000);

  test('the gSOAP client reads the server itself: an Order, an array of them for an enum and a date, its declared fault', async () => {
    expect(await calls([endpoint, 'get', '7'], [endpoint, 'list', 'open', '2024-01-02T03:04:05Z'], [endpoint, 'get', '404', 'fault'])).toEqual([
      ORDER_7,
      'ok 1 7 open 2024-01-02 12.50 lines=2',
      NOT_FOUND,
    ]);
  }, 60_000);

  describe.each(['spec', 'wsdl'] as const)('a stub from the .%s file', (from) => {
    test('the strict gSOAP client gets typed answers', async () => {
      const url = `${stubs[from]!.url}/orders`;
      const list = expect.stringMatching(/^ok \d+/) as string;
      const order = expect.stringMatching(ANY_ORDER) as string;
      expect(await calls([url, 'get', '7'], [url, 'get', '8'], [url, 'list', 'open', '2024-01-02T03:04:05Z'], [url, 'list', 'shipped', '2024-01-02T03:04:05Z'])).toEqual([
        order,
        order,
        list,
        list,
      ]);
    }, 60_000);

    test('the gSOAP client reads its declared fault, notFound, from a soap-fault expectation', async () => {
      try {
        await expectGetOrderFault(stubs[from]!.url, { path: '/orders', version: '1.1' });
        expect(await calls([`${stubs[from]!.url}/orders`, 'get', '404', 'fault'])).toEqual([expect.stringMatching(/^ok fault SOAP-ENV:(Client|Server) notFound -?\d+$/)]);
      } finally {
        await resetStub(stubs[from]!.url);
      }
    }, 60_000);
  });

  describe('a recording of the gSOAP client through accord proxy', () => {
    let proxy: ProxyRun;
    let said = '';
    let recorded: RunningStub | undefined;
    const rec = () => path.join(dir, 'recorded');

    beforeAll(async () => {
      mkdirSync(rec());
      proxy = await runProxy(rec(), ['--target', service.url, '--out', 'orders.spec']);
      const url = `${proxy.url}/orders`;
      expect(await calls([url, 'get', '7'], [url, 'get', '404', 'fault'], [url, 'list', 'open', '2024-01-02T03:04:05Z'])).toEqual([
        ORDER_7,
        NOT_FOUND,
        'ok 1 7 open 2024-01-02 12.50 lines=2',
      ]);
      proxy.stop();
      const e = await proxy.exited;
      said = e.stdout + e.stderr;
      recorded = await startStub({ contracts: [rec()], port: 0, log: () => undefined });
    }, 120_000);

    afterAll(async () => {
      await recorded?.close();
    });

    test('is typed by the WSDL the proxy fetched, and every recorded call fits it', () => {
      expect(said).toContain(`typed by ${endpoint}?wsdl`);
      expect(said).toContain('checked: all 3 logged calls match the contract');
      // The declared fault it caught is pinned by the recorded request, so the recording's tests run it.
      expect(said).toMatch(/fault "[^"]+": 1 recorded call pinned as its Examples rows/);
      expect(readdirSync(path.join(rec(), 'orders_examples'))).toHaveLength(3);
    });

    test('passes against the gSOAP server', async () => {
      await expectContractsPass(rec(), service.url, /^(?=[^]*✓ listOrders)[^]*✓ \S+ fault \S+ - example 1: /);
    }, 120_000);

    test('its stub answers the gSOAP client: recorded requests with their answers, the declared fault, another from the types', async () => {
      const url = `${recorded!.url}/orders`;
      expect(await calls([url, 'get', '7'], [url, 'get', '404', 'fault'], [url, 'get', '12'])).toEqual([ORDER_7, NOT_FOUND, expect.stringMatching(ANY_ORDER)]);
    }, 60_000);
  });
});
