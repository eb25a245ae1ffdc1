import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { accord, TempRepo } from '../compat/git-repo';
import { childEnv, plain } from '../helpers/child-env';
import { startServer, type Running } from '../helpers/servers';
import { PYTHON } from '../interop/stacks';

/**
 * The whole consumer loop as the three teams of issue 36 ran it, through a real bare git
 * repository: a Node consumer (the `soap` package, in Jest, through connectStub), a Python
 * consumer (zeep, setting its expectations over the stub's HTTP API on `accord stub` with
 * ACCORD_EXPORT_EXAMPLES=1), each exporting and publishing (`accord contracts publish --yes`);
 * the provider pulls and `accord test` replays every consumer's examples against a real provider:
 * green when it keeps the contract, red when it breaks it, naming the consumers.
 */
const REPO = path.join(__dirname, '..', '..');
const BIN = path.join(REPO, 'bin', 'accord.js');
const JEST = require.resolve('jest/bin/jest');
const DIST = path.join(REPO, 'dist', 'index.js');
const FIXTURES = path.join(REPO, '__tests__', 'fixtures', 'loop');
const WSDL = path.join(FIXTURES, 'orders.wsdl');
const CONTRACT = 'contracts/orders/api_orders_v1.spec';
const haveZeep = spawnSync(PYTHON, ['-c', 'import zeep, requests'], { encoding: 'utf8' }).status === 0;
const zeepTest = haveZeep || process.env.ACCORD_REQUIRE_INTEROP === '1' ? test : test.skip;

const envelope = (inner: string) => `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`;
const getOrder = (id: number) => envelope(`<o:getOrder xmlns:o="urn:orders"><o:orderId>${id}</o:orderId></o:getOrder>`);
const total = (t: number | string) => envelope(`<o:getOrderResponse xmlns:o="urn:orders"><o:total>${t}</o:total></o:getOrderResponse>`);
const notFound = (id: number) =>
  envelope(
    `<soapenv:Fault><faultcode>soapenv:Client</faultcode><faultstring>no order ${id}</faultstring><detail><o:OrderNotFound xmlns:o="urn:orders"><o:orderId>${id}</o:orderId></o:OrderNotFound></detail></soapenv:Fault>`,
  );

/**
 * The kinds of expectation each consumer sets, and what the answer is: the consumer's own (plain), the
 * contract's (typed: response left out, a generated total), the request's orderId echoed
 * (templated: `{{request.body.getOrder/orderId}}`), or the operation's declared SOAP fault (fault:
 * `fault: 'soap-fault'`, exported as an example of the @fault scenario). A state kind needs the
 * stub's machine in its state (the consumer moves it) and the provider put in it (its states module).
 */
type Kind = 'plain' | 'typed' | 'templated' | 'fault' | 'fault-named' | 'fault-response' | 'delay' | 'state' | 'reset';
const KINDS: { kind: Kind; orderId: number; total?: number }[] = [
  { kind: 'plain', orderId: 7, total: 70 },
  { kind: 'typed', orderId: 9 },
  { kind: 'templated', orderId: 1001 },
  { kind: 'fault', orderId: 404 },
  { kind: 'fault-named', orderId: 405 },
  { kind: 'fault-response', orderId: 406 },
  { kind: 'delay', orderId: 11, total: 110 },
  { kind: 'state', orderId: 12, total: 120 },
  { kind: 'reset', orderId: 13 },
];
/** The kinds exported as examples: a connection reset promises nothing a provider can keep, and is left out with a line saying so. */
const EXPORTED = KINDS.filter((k) => k.kind !== 'reset');
const FAULTS = new Set<Kind>(['fault', 'fault-named', 'fault-response']);

/** The expectation a Node consumer sets for a kind, as the text of a JavaScript object. */
function nodeExpectation(k: (typeof KINDS)[number]): string {
  const q = JSON.stringify;
  const request = `request: { method: 'POST', path: '/orders', body: ${q(getOrder(k.orderId))} }`;
  switch (k.kind) {
    case 'fault':
      return `{ ${request}, fault: 'soap-fault' }`;
    case 'fault-named':
      return `{ ${request}, fault: 'soap-fault', faultName: 'OrderNotFound' }`;
    case 'fault-response':
      return `{ ${request}, response: { status: 500, body: ${q(notFound(k.orderId))} } }`;
    case 'reset':
      return `{ ${request}, fault: 'connection-reset' }`;
    case 'templated':
      return `{ ${request}, response: { status: 200, body: ${q(total('{{request.body.getOrder/orderId}}'))} } }`;
    case 'delay':
      return `{ ${request}, response: { status: 200, body: ${q(total(k.total!))} }, delayMs: 20 }`;
    case 'state':
      return `{ ${request}, response: { status: 200, body: ${q(total(k.total!))} }, state: { name: 'order', requires: 'Paid' } }`;
    default:
      return k.total === undefined ? `{ ${request} }` : `{ ${request}, response: { status: 200, body: ${q(total(k.total))} } }`;
  }
}

/** What the Node consumer's test then checks of the soap client's answer. */
function nodeCheck(k: (typeof KINDS)[number]): string {
  const call = `client.getOrderAsync({ orderId: ${k.orderId} })`;
  if (FAULTS.has(k.kind)) return `await expect(${call}).rejects.toMatchObject({ root: { Envelope: { Body: { Fault: expect.anything() } } } });`;
  if (k.kind === 'reset') return `await expect(${call}).rejects.toThrow();`;
  const answer = `const [answer] = await ${call};`;
  if (k.kind === 'templated') return `${answer} expect(Number(answer.total)).toBe(${k.orderId});`;
  return k.total === undefined ? `${answer} expect(Number.isFinite(Number(answer.total))).toBe(true);` : `${answer} expect(Number(answer.total)).toBe(${k.total});`;
}

/** The Node consumer's Jest test: the `soap` package's client pointed at a scope of an in-process stub. */
function nodeConsumerTest(): string {
  const q = JSON.stringify;
  return `const soap = require(${q(path.join(REPO, 'node_modules', 'soap'))});
const { startStub, connectStub } = require(${q(DIST)});
let stub;
beforeAll(async () => { stub = await startStub({ contracts: '.accord/consumes' }); });
afterAll(() => stub.close());
${KINDS.map(
  (k) => `test(${q(`shows order ${k.orderId} (${k.kind})`)}, async () => {
  const stubbed = connectStub(stub.url).scope();
  await stubbed.expect(${nodeExpectation(k)});${k.kind === 'state' ? "\n  await stubbed.setState('order', 'Paid');" : ''}
  const client = await soap.createClientAsync(${q(WSDL)}, { endpoint: stubbed.url + '/orders' });
  ${nodeCheck(k)}
});`,
).join('\n')}
`;
}

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const e = childEnv(env);
    delete e.ACCORD_BASE_URL;
    const child = spawn(cmd, args, { cwd, env: e });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out: plain(out) }));
  });
}

/** `accord stub` as a background command in a consumer's folder; resolves once it listens. */
function stubCommand(cwd: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess; out: () => string }> {
  const child = spawn(process.execPath, [BIN, 'stub', '--port', '0'], { cwd, env: childEnv(env) });
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the stub did not start: ${out}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m && out.includes('Press Ctrl+C')) {
        clearTimeout(timer);
        resolve({ url: m[1], child, out: () => out });
      }
    });
  });
}

let shared: TempRepo;
let bareDir: string;
let bare: string;
const dirs: string[] = [];
let provider: Running;
let broken: Running;

function project(settings: Record<string, unknown>, test?: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-e2e-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'accord.config.json'), JSON.stringify({ sources: [{ git: bare, branch: 'main', ...settings }], ...(test ? { test } : {}) }));
  return dir;
}

beforeAll(async () => {
  shared = new TempRepo();
  shared.write(CONTRACT, readFileSync(path.join(FIXTURES, 'api_orders_v1.spec'), 'utf8'));
  shared.commit('orders v1');
  bareDir = mkdtempSync(path.join(tmpdir(), 'accord-e2e-bare-'));
  bare = path.join(bareDir, 'contracts.git');
  spawnSync('git', ['clone', '-q', '--bare', shared.dir, bare]);
  const id = (body: string) => Number(/orderId>(\d+)</.exec(body)?.[1] ?? '0');
  // The real service's logic: orders 404-406 do not exist (its declared fault), orders from 1000 on cost their number, others ten
  // times it; order 12 costs that only once paid (its state, set over HTTP by the provider's states module).
  let paid = false;
  provider = await startServer((req) => {
    if (req.url.startsWith('/_state/')) {
      paid = req.url === '/_state/Paid';
      return { body: 'ok', type: 'text/plain' };
    }
    const n = id(req.body);
    if (n === 12 && !paid) return { body: total(0) };
    if (n >= 404 && n <= 406) return { status: 500, body: notFound(n) };
    return { body: total(n >= 1000 ? n : n * 10) };
  });
  // After a change that broke the contract: the total is no longer a number.
  broken = await startServer(() => ({ body: total('n/a') }));
});

afterAll(async () => {
  await provider?.close();
  await broken?.close();
  shared?.remove();
  if (bareDir) rmSync(bareDir, { recursive: true, force: true });
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

zeepTest(
  'a Node (soap) and a Python (zeep) consumer export and publish; the provider replays both: green when kept, red naming the consumers when broken',
  async () => {
    // 1. The Node consumer: Jest, the soap package, connectStub, exporting on.
    const node = project({ consumes: ['contracts/orders'] });
    expect(accord(node, 'contracts', 'pull').code).toBe(0);
    writeFileSync(path.join(node, 'orders.test.js'), nodeConsumerTest());
    writeFileSync(path.join(node, 'jest.config.js'), `module.exports = ${JSON.stringify({ rootDir: node, testEnvironment: 'node', testMatch: ['**/*.test.js'] })};\n`);
    const jest = await run(process.execPath, [JEST, '--ci', '--no-cache'], node, { ACCORD_EXPORT_EXAMPLES: '1', ACCORD_CONSUMER: 'shop-node' });
    if (jest.code !== 0) throw new Error(jest.out);

    // 2. The Python consumer: accord stub as a command with exporting on, zeep over its HTTP API.
    const py = project({ consumes: ['contracts/orders'] });
    expect(accord(py, 'contracts', 'pull').code).toBe(0);
    const stub = await stubCommand(py, { ACCORD_EXPORT_EXAMPLES: '1' });
    try {
      const cases = KINDS.map((k) => ({ test: `test_order_${k.orderId}_${k.kind}`, kind: k.kind, orderId: k.orderId, total: k.total ?? null }));
      const zeep = await run(PYTHON, [path.join(FIXTURES, 'consumer_zeep.py'), stub.url, WSDL, JSON.stringify(cases)], py);
      if (zeep.code !== 0) throw new Error(`${zeep.out}\n${stub.out()}`);
      expect(zeep.out).toContain('ok test_order_7_plain: 70');
    } finally {
      stub.child.kill('SIGTERM');
    }
    const exported = path.join(py, '.accord/consumer-examples/contracts/contracts/orders/api_orders_v1_examples');
    const examples = readdirSync(exported).map((f) => JSON.parse(readFileSync(path.join(exported, f), 'utf8')) as Record<string, unknown>);
    expect(examples).toHaveLength(EXPORTED.length);
    // The connection reset is left out, in one line saying why (the stub's stderr).
    expect(stub.out()).toMatch(/expectation of test "test_order_13_reset" on scenario "getOrder" not exported as a consumer example: its fault "connection-reset"/);
    expect(examples).toContainEqual(expect.objectContaining({ name: 'test_order_7_plain', consumer: 'shop-python', scenario: 'getOrder' }));
    // Set over the HTTP API too, the fault is an example of the fault scenario with its status: never a promise of an ordinary answer.
    expect(examples).toContainEqual(
      expect.objectContaining({ name: 'test_order_404_fault', scenario: 'getOrder fault OrderNotFound', 'http-response': expect.objectContaining({ status: 500 }) }),
    );

    // 3. Both publish into their part of the shared (bare) repository.
    for (const [dir, consumer] of [
      [node, 'shop-node'],
      [py, 'shop-python'],
    ]) {
      const published = accord(dir, 'contracts', 'publish', '--consumer', consumer, '--yes');
      expect(published.code).toBe(0);
    }
    const tree = spawnSync('git', ['--git-dir', bare, 'ls-tree', '-r', '--name-only', 'main'], { encoding: 'utf8' }).stdout;
    expect(tree).toContain('consumers/shop-node/contracts/orders/api_orders_v1_examples/');
    expect(tree).toContain('consumers/shop-python/contracts/orders/api_orders_v1_examples/');

    // 4. The provider pulls and replays every consumer's examples with accord test: green against a provider that keeps the contract.
    const prov = project({ provides: ['contracts/orders'] }, { baseUrl: provider.url, states: './states.js' });
    writeFileSync(
      path.join(prov, 'states.js'),
      `module.exports = { order: async (value, { baseUrl }) => { await fetch(baseUrl + '/_state/' + encodeURIComponent(value)); return () => fetch(baseUrl + '/_state/Started'); } };\n`,
    );
    expect(accord(prov, 'contracts', 'pull').code).toBe(0);
    const green = await run(process.execPath, [BIN, 'test', '.accord/provides', '--reporter', 'junit', '--', '--verbose'], prov);
    if (green.code !== 0) throw new Error(green.out);
    for (const k of EXPORTED) {
      expect(green.out).toContain(`✓ consumer shop-node › shows order ${k.orderId} (${k.kind})`);
      expect(green.out).toContain(`✓ consumer shop-python › test_order_${k.orderId}_${k.kind}`);
    }
    expect(existsSync(path.join(prov, 'junit.xml'))).toBe(true);

    // 5. Red against one that broke it, naming each consumer whose example it broke.
    const red = await run(process.execPath, [BIN, 'test', '.accord/provides', '--base-url', broken.url, '--', '--verbose'], prov);
    expect(red.code).toBe(1);
    expect(red.out).toContain('✕ consumer shop-node › shows order 7 (plain)');
    expect(red.out).toContain('✕ consumer shop-python › test_order_7_plain');
    // The fault examples too: a provider that no longer answers the declared fault breaks both consumers' fault handling.
    expect(red.out).toContain('✕ consumer shop-node › shows order 404 (fault)');
    expect(red.out).toContain('✕ consumer shop-python › test_order_404_fault');
    expect(red.out).toContain('✕ consumer shop-python › test_order_1001_templated');
    for (const k of ['fault-named', 'fault-response']) expect(red.out).toMatch(new RegExp(`✕ consumer shop-python › test_order_\\d+_${k}`));
    expect(red.out).not.toContain('reset');
    expect(red.out).toContain('expected a number, found "n/a"');
    // Files named from the project folder, not as absolute paths of the build machine (issue 36, point 6).
    expect(red.out).toMatch(
      /consumer shop-python's example \.accord\/provides\/contracts\/contracts\/orders\/api_orders_v1_consumers\/shop-python\/\S+\.json \(scenario "getOrder"\)/,
    );
    expect(red.out).not.toContain(prov);
  },
  240_000,
);
