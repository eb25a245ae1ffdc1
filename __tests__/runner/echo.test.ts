import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../helpers/child-env';
import { runJestApp } from '../helpers/jest-app';
import { startStub } from '../../src/stub';
import { startServer, type Received, type Running } from '../helpers/servers';

/**
 * The provider's side of Examples rows that echo the request (docs/stub.md): a row whose response
 * cell is `{{request.body.getPetRequest/id}}` holds the provider to the value the runner sent, as
 * the stub answers it. Jest with the preset on a temp project, against a real provider on
 * 127.0.0.1 that echoes right, or answers another value.
 */
const PETS = path.join(__dirname, '..', 'fixtures', 'row-template', 'pets.spec');

/** JSON: a path parameter, a header, a query parameter and a body node echoed; `{{now}}` checked by type only. */
const ORDERS = `Feature: Orders

  Scenario: Get an order
    When GET /orders/(id:number)?page=(number)
    And request-header X-Trace (string)
    Then status 200
    And response-header X-Trace (string)
    And response-body {"id": "(number)", "note": "(string)", "page": "(number)", "at": "(datetime)"}

    Examples:
      | id                  | X-Trace                      | note                   | page                    | at      |
      | {{request.path.id}} | {{request.headers.x-trace}} | order {{request.path.id}} | {{request.query.page}} | {{now}} |

  Scenario: Place an order
    When POST /orders
    And request-body {"orderId": "(number)", "customer": "(string)"}
    Then status 200
    And response-body {"orderId": "(number)", "state": "(string)"}

    Examples:
      | orderId                  | state  |
      | {{request.body.orderId}} | placed |
`;

type Mode = 'echo' | 'wrong id' | 'wrong header' | 'wrong note';
let mode: Mode = 'echo';
let dir: string;
let provider: Running;

function answer(req: Received) {
  if (req.method === 'POST' && req.url === '/orders') {
    const id = (JSON.parse(req.body) as { orderId: number }).orderId;
    return { type: 'application/json', body: JSON.stringify({ orderId: mode === 'wrong id' ? id + 1 : id, state: 'placed' }) };
  }
  if (req.method === 'POST') {
    const id = /<[\w]*:?id>([^<]*)</.exec(req.body)?.[1] ?? '0';
    const given = mode === 'wrong id' ? String(Number(id) + 1) : id;
    // The plain row (id 7) promises Rex, a dog, sold (row-values.ts); the templated row a name made from the id.
    const plain = id === '7';
    const name = mode === 'wrong note' ? 'pet 1' : plain ? 'Rex' : `pet ${id}`;
    return {
      body:
        '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header/><s:Body>' +
        `<p:getPetResponse xmlns:p="http://example.com/petstore"><p:id>${given}</p:id><p:name>${name}</p:name><p:type>${plain ? 'dog' : 'cat'}</p:type><p:status>${plain ? 'sold' : 'any'}</p:status></p:getPetResponse>` +
        '</s:Body></s:Envelope>',
    };
  }
  const url = new URL(req.url, 'http://x');
  const id = Number(url.pathname.split('/').pop());
  const trace = String(req.headers['x-trace'] ?? '');
  return {
    type: 'application/json',
    headers: { 'x-trace': mode === 'wrong header' ? 'another' : trace },
    body: JSON.stringify({ id: mode === 'wrong id' ? id + 1 : id, note: `order ${id}`, page: Number(url.searchParams.get('page')), at: new Date().toISOString() }),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-echo-'));
  mkdirSync(path.join(dir, 'contracts'));
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "private": true }');
  copyFileSync(PETS, path.join(dir, 'contracts', 'pets.spec'));
  writeFileSync(path.join(dir, 'contracts', 'orders.spec'), ORDERS);
  provider = await startServer(answer);
});

afterAll(async () => {
  await provider?.close();
  rmSync(dir, { recursive: true, force: true });
});

function jest(m: Mode): Promise<{ status: number; output: string }> {
  mode = m;
  return runJestApp(dir, { baseUrl: provider.url }, childEnv());
}

test('a provider that echoes what it was sent passes every row, SOAP and JSON', async () => {
  const run = await jest('echo');
  expect(run.output).toMatch(/Tests:\s+4 passed, 4 total/);
  expect(run.status).toBe(0);
}, 120_000);

test('a provider that answers another id fails, naming the place, the value sent and the value found', async () => {
  const run = await jest('wrong id');
  expect(run.status).toBe(1);
  // The plain row (id 7) is held to its own id too (row-values.ts).
  expect(run.output).toMatch(/Tests:\s+4 failed, 4 total/);
  expect(run.output).toContain('RESPONSE.BODY Envelope/Body/getPetResponse/id: expected "7" (Examples row 1, column id), found "8"');
  // The templated row's request is the second one shown.
  const sent = [...run.output.matchAll(/<pet:id>(\d+)<\/pet:id>/g)].map((m) => m[1])[1];
  expect(sent).toBeDefined();
  expect(run.output).toContain(`RESPONSE.BODY Envelope/Body/getPetResponse/id: expected "${sent}" (the request's {{request.body.getPetRequest/id}}), found "${Number(sent) + 1}"`);
  const path = /GET \/orders\/(\d+)\?page=/.exec(run.output)?.[1];
  expect(run.output).toContain(`RESPONSE.BODY id: expected ${path} (the request's {{request.path.id}}), found ${Number(path) + 1}`);
  // A JSON number echoed from the body is compared as the number it is.
  const orderId = /\{"orderId":(\d+),"customer"/.exec(run.output)?.[1];
  expect(run.output).toContain(`RESPONSE.BODY orderId: expected ${orderId} (the request's {{request.body.orderId}}), found ${Number(orderId) + 1}`);
}, 120_000);

test('a header and text around a placeholder are held to the request too', async () => {
  const header = await jest('wrong header');
  expect(header.status).toBe(1);
  expect(header.output).toMatch(/RESPONSE\.HEADER X-Trace: expected "[^"]+" \(the request's \{\{request\.headers\.x-trace\}\}\), found "another"/);
  const note = await jest('wrong note');
  expect(note.status).toBe(1);
  expect(note.output).toMatch(/RESPONSE\.BODY Envelope\/Body\/getPetResponse\/name: expected "pet \d+" \(the request's pet \{\{request\.body\.id\}\}\), found "pet 1"/);
}, 120_000);

test("the stub's template code is loaded only when a row echoes the request (the preset's start-up does not pay for it)", async () => {
  mode = 'echo';
  const dist = path.join(__dirname, '..', '..', 'dist');
  const script = `
    const { loadContract, testCases } = require(${JSON.stringify(path.join(dist, 'contract', 'load.js'))});
    const { runCase } = require(${JSON.stringify(path.join(dist, 'runner', 'run-case.js'))});
    const stubLoaded = () => Object.keys(require.cache).some((k) => k.includes(${JSON.stringify(`${path.sep}stub${path.sep}`)}));
    (async () => {
      const seen = [];
      for (const tc of testCases(loadContract(${JSON.stringify(PETS)}))) {
        const r = await runCase(tc, { baseUrl: ${JSON.stringify(provider.url)}, timeoutMs: 10000 });
        seen.push([tc.row.line, r.passed, stubLoaded()]);
      }
      process.stdout.write(JSON.stringify(seen));
    })();`;
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { env: childEnv() });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  // pets.spec: line 36 is the plain row, line 37 the templated one.
  expect(JSON.parse(out)).toEqual([
    [36, true, false],
    [37, true, true],
  ]);
}, 60_000);

test("accord's own stub of the same contracts passes the provider's run; made to answer a fixed orderId, it fails it", async () => {
  const stub = await startStub({ contracts: [path.join(dir, 'contracts')], log: () => {} });
  try {
    // The stub echoes with the same code the runner checks with.
    const echoing = await runJestApp(dir, { baseUrl: stub.url }, childEnv());
    expect(echoing.output).toMatch(/Tests:\s+4 passed, 4 total/);
    expect(echoing.status).toBe(0);
    stub.expect({ request: { method: 'POST', path: '/orders' }, response: { body: { orderId: 999999999, state: 'placed' } } });
    const fixed = await runJestApp(dir, { baseUrl: stub.url }, childEnv());
    expect(fixed.status).toBe(1);
    expect(fixed.output).toMatch(/RESPONSE\.BODY orderId: expected \d+ \(the request's \{\{request\.body\.orderId\}\}\), found 999999999/);
  } finally {
    await stub.close();
  }
}, 120_000);
