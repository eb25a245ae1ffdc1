import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, type RunningStub } from '../../src/stub';
import { runProxy, type ProxyRun } from '../proxy/proxy-helpers';
import { expectContractsPass, fetchText, PYTHON, runClient, startJaxws, startPhp, startSpyne, testClients, tearDown, withStacks, type Service } from './stacks';

/** `accord proxy` (the built command) stopped, and its exit: its code and all it said. */
async function stopped(p: ProxyRun): Promise<{ code: number | null; out: string }> {
  p.stop();
  const e = await p.exited;
  return { code: e.code, out: e.stdout + e.stderr };
}

/**
 * Each list of client runs through its own `accord proxy --target real --out <name>.spec` in `dir`
 * ({proxy} in an argument is its URL): every client says ok; every proxy exits 0 saying the recording
 * is typed by `real`/<name>?wsdl. What the proxies said.
 */
async function record(dir: string, real: string, calls: Record<string, [string, string[]][]>): Promise<string[]> {
  const said: string[] = [];
  for (const [name, list] of Object.entries(calls)) {
    const p = await runProxy(dir, ['--target', real, '--out', `${name}.spec`]);
    for (const [cmd, args] of list) {
      const r = await runClient(
        cmd,
        args.map((a) => a.replace('{proxy}', p.url)),
      );
      expect([name, r.ok, r.output]).toEqual([name, true, expect.stringMatching(/^ok/)]);
    }
    const done = await stopped(p);
    said.push(done.out);
    expect([done.code, done.out]).toEqual([0, expect.stringContaining(`typed by ${real}/${name}?wsdl`)]);
  }
  return said;
}

/** A stub's WSDL for the clients: the service's `real`/<name>?wsdl (`edit`ed) with its addresses pointed at `stub`, written to `file`. */
async function stubWsdl(real: string, name: string, stub: string, file: string, edit = (w: string) => w): Promise<void> {
  writeFileSync(
    file,
    edit(await fetchText(`${real}/${name}?wsdl`))
      .split(real)
      .join(stub),
  );
}

/**
 * Recording real stacks (issue 24 point 7, issue 27 point 4): PHP's clients call PHP's SoapServer
 * through `accord proxy` (document/literal, and rpc/encoded with a SOAP-encoded array of structs).
 * The recordings, typed by the WSDL the proxy fetches through itself, pass as Jest tests against the
 * service, and a stub of them answers the real clients: a recorded request with its recorded answer
 * (encodingStyle, arrayType and xsi:type as PHP sent them, so suds decodes the encoded array too),
 * another from the WSDL's types.
 */
withStacks(['php-soap', 'zeep', 'suds'], 'recordings of PHP SoapServer through accord proxy', () => {
  let service: Service;
  let dir: string;
  let stub: RunningStub | undefined;
  let real: string;
  const said: string[] = [];

  beforeAll(async () => {
    service = await startPhp();
    real = service.url;
    dir = mkdtempSync(path.join(tmpdir(), 'accord-interop-rec-'));
    mkdirSync(path.join(dir, 'recorded'));
    // One proxy per service: each recording is typed by its own WSDL.
    const calls: Record<string, [string, string[]][]> = {
      orders: [
        ['php', ['php_client.php', '{proxy}/orders?wsdl', '1.1', '7']],
        ['php', ['php_client.php', '{proxy}/orders?wsdl', '1.1', '8']],
        [PYTHON, ['py_client.py', 'zeep', '{proxy}/orders?wsdl', '9', 'port=OrdersSoap']],
      ],
      rpc: [['php', ['php_rpc_client.php', '{proxy}/rpc?wsdl', '3']]],
    };
    said.push(...(await record(path.join(dir, 'recorded'), real, calls)));
    stub = await startStub({ contracts: [path.join(dir, 'recorded')], port: 0, log: () => undefined });
    for (const name of ['orders', 'rpc']) await stubWsdl(real, name, stub.url, path.join(dir, `${name}-stub.wsdl`));
  }, 180_000);

  afterAll(() => tearDown({ stubs: [stub], service, dir }));

  test('the recordings keep every call as an example and keep the encoded answer literal', () => {
    expect(readdirSync(path.join(dir, 'recorded', 'orders_examples'))).toHaveLength(3);
    const rpc = readdirSync(path.join(dir, 'recorded', 'rpc_examples')).map((f) => readFileSync(path.join(dir, 'recorded', 'rpc_examples', f), 'utf8'));
    expect(rpc.join('')).toContain('encodingStyle=\\"http://schemas.xmlsoap.org/soap/encoding/\\"');
  });

  test('the recorded contracts pass as Jest tests against PHP itself', async () => {
    await expectContractsPass(path.join(dir, 'recorded'), real);
  }, 120_000);

  const wsdl = (name: string) => `file://${path.join(dir, `${name}-stub.wsdl`)}`;
  testClients(
    'a stub of the recordings answers %s',
    [
      ['PHP SoapClient, a recorded request', 'php', () => ['php_client.php', wsdl('orders'), '1.1', '7']],
      ['PHP SoapClient, a request never recorded', 'php', () => ['php_client.php', wsdl('orders'), '1.1', '42']],
      ['zeep, a recorded request', PYTHON, () => ['py_client.py', 'zeep', wsdl('orders'), '9', 'port=OrdersSoap']],
      ['suds, a request never recorded', PYTHON, () => ['py_client.py', 'suds', wsdl('orders'), '43', 'port=OrdersSoap']],
      ['PHP SoapClient, the recorded rpc/encoded array', 'php', () => ['php_rpc_client.php', wsdl('rpc'), '3']],
      ['suds, the recorded rpc/encoded array (typed by arrayType and xsi:type)', PYTHON, () => ['rpc_client.py', 'suds', wsdl('rpc'), '3']],
    ],
    60_000,
  );
});

/**
 * spyne (lxml validation on) recorded through `accord proxy`, SOAP 1.1 and 1.2 each through its own
 * proxy: zeep and suds call it; the recordings pass against spyne, and a stub of them answers zeep,
 * suds and PHP's SoapClient over both versions, recorded requests with the recorded answers.
 */
withStacks(['spyne', 'zeep', 'suds', 'php-soap'], 'recordings of spyne through accord proxy', () => {
  let service: Service;
  let dir: string;
  let stub: RunningStub | undefined;
  let real: string;

  beforeAll(async () => {
    service = await startSpyne();
    real = service.url;
    dir = mkdtempSync(path.join(tmpdir(), 'accord-interop-rec-spyne-'));
    mkdirSync(path.join(dir, 'recorded'));
    const calls: Record<string, [string, string[]][]> = {
      soap11: [
        [PYTHON, ['py_client.py', 'zeep', '{proxy}/soap11?wsdl', '7']],
        [PYTHON, ['py_client.py', 'suds', '{proxy}/soap11?wsdl', '8']],
      ],
      soap12: [[PYTHON, ['py_client.py', 'zeep', '{proxy}/soap12?wsdl', '7']]],
    };
    await record(path.join(dir, 'recorded'), real, calls);
    stub = await startStub({ contracts: [path.join(dir, 'recorded')], port: 0, log: () => undefined });
    for (const name of ['soap11', 'soap12']) await stubWsdl(real, name, stub.url, path.join(dir, `${name}-stub.wsdl`));
  }, 180_000);

  afterAll(() => tearDown({ stubs: [stub], service, dir }));

  test('the recorded contracts pass as Jest tests against spyne itself', async () => {
    await expectContractsPass(path.join(dir, 'recorded'), real);
  }, 120_000);

  const wsdl = (name: string) => `file://${path.join(dir, `${name}-stub.wsdl`)}`;
  testClients(
    'a stub of the recordings answers %s',
    [
      ['zeep over SOAP 1.1, a recorded request', PYTHON, () => ['py_client.py', 'zeep', wsdl('soap11'), '7']],
      ['suds over SOAP 1.1, a recorded request', PYTHON, () => ['py_client.py', 'suds', wsdl('soap11'), '8']],
      ['zeep over SOAP 1.2, a recorded request', PYTHON, () => ['py_client.py', 'zeep', wsdl('soap12'), '7']],
      ['PHP SoapClient over SOAP 1.2, a request never recorded', 'php', () => ['php_client.php', wsdl('soap12'), '1.2', '41']],
    ],
    60_000,
  );
});

/**
 * JAX-WS RI (Endpoint.publish) recorded through `accord proxy`, SOAP 1.1 and 1.2 each through its own
 * proxy: the JAX-WS client (one JVM, both versions) and zeep call it from the proxies' `?wsdl`. JAX-WS
 * publishes its WSDL with a `?xsd=1` schema import: each recording is typed by the WSDL and that schema,
 * fetched through the proxy. The recordings pass against JAX-WS, and a stub of them answers the JAX-WS
 * client, zeep and suds.
 */
withStacks(['jax-ws', 'zeep', 'suds'], 'recordings of JAX-WS RI through accord proxy', () => {
  let service: Service;
  let dir: string;
  let classpath: string;
  let stub: RunningStub | undefined;
  let real: string;
  const said: Record<string, string> = {};
  const versions = ['11', '12'] as const;
  let proxies: ProxyRun[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-interop-rec-jaxws-'));
    mkdirSync(path.join(dir, 'recorded'));
    ({ service, classpath } = await startJaxws(dir));
    real = service.url;
    proxies = await Promise.all(versions.map((v) => runProxy(path.join(dir, 'recorded'), ['--target', real, '--out', `orders${v}.spec`])));
    // One JVM for both versions (the slowest client to start), each from its proxy's ?wsdl; then zeep on each.
    const java = versions.flatMap((v, i) => [`${proxies[i].url}/orders${v}?wsdl`, `Orders${v}`, `Orders${v}Port`, '7', '--']);
    const calls: [string, string[]][] = [
      ['java', ['-cp', classpath, 'OrdersClient', ...java]],
      ...versions.map((v, i): [string, string[]] => [PYTHON, ['py_client.py', 'zeep', `${proxies[i].url}/orders${v}?wsdl`, '8']]),
    ];
    for (const [cmd, args] of calls) {
      const r = await runClient(cmd, args);
      expect([r.ok, r.output]).toEqual([true, expect.stringMatching(/^ok/m)]);
    }
    for (const [i, v] of versions.entries()) {
      const done = await stopped(proxies[i]);
      said[v] = done.out;
      expect([done.code, done.out]).toEqual([0, expect.stringContaining(`typed by ${real}/orders${v}?wsdl`)]);
    }
    stub = await startStub({ contracts: [path.join(dir, 'recorded')], port: 0, log: () => undefined });
    for (const v of versions) {
      // The clients read the stub's WSDL from a file, its schema beside it (a stub of a .spec serves no ?xsd=).
      writeFileSync(path.join(dir, `orders${v}.xsd`), await fetchText(`${real}/orders${v}?xsd=1`));
      await stubWsdl(real, `orders${v}`, stub.url, path.join(dir, `orders${v}-stub.wsdl`), (w) => w.split(`${real}/orders${v}?xsd=1`).join(`orders${v}.xsd`));
    }
  }, 240_000);

  afterAll(async () => {
    await Promise.all(proxies.map((p) => stopped(p)));
    await tearDown({ stubs: [stub], service, dir });
  });

  test('each recording is typed by the WSDL and the ?xsd=1 schema it imports, fetched through the proxy', () => {
    for (const v of versions) {
      expect(said[v]).not.toMatch(/no WSDL|cannot be used/);
      const spec = readFileSync(path.join(dir, 'recorded', `orders${v}.spec`), 'utf8');
      // The schema's types, not the `(anything)` of an import left unresolved.
      expect([v, spec]).toEqual([v, expect.not.stringContaining('(anything)')]);
      expect(spec).toContain('<total>(decimal)</total>');
      expect(readdirSync(path.join(dir, 'recorded', `orders${v}_examples`))).toHaveLength(2);
    }
  });

  test('the recorded contracts pass as Jest tests against JAX-WS itself', async () => {
    await expectContractsPass(path.join(dir, 'recorded'), real);
  }, 120_000);

  const wsdl = (v: string) => `file://${path.join(dir, `orders${v}-stub.wsdl`)}`;
  testClients(
    'a stub of the recordings answers %s',
    [
      [
        'the JAX-WS client over SOAP 1.1 and 1.2, recorded and never recorded requests',
        'java',
        () => [
          '-cp',
          classpath,
          'OrdersClient',
          ...versions.flatMap((v) => [wsdl(v), `Orders${v}`, `Orders${v}Port`, '7', '--', wsdl(v), `Orders${v}`, `Orders${v}Port`, '44', '--']),
        ],
      ],
      ['zeep over SOAP 1.2, a recorded request', PYTHON, () => ['py_client.py', 'zeep', wsdl('12'), '8']],
      ['suds over SOAP 1.1, a request never recorded', PYTHON, () => ['py_client.py', 'suds', wsdl('11'), '45']],
    ],
    90_000,
    /^ok/m,
  );
});
