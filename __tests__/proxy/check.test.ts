import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClientAsync, listen } from 'soap';
import { parseXml } from '../../src/xml/parse';
import { PET_SPEC, REPO, runCli } from '../stub/helpers';
import { runProxy, type ProxyRun } from './proxy-helpers';

/**
 * `accord proxy --check` in front of a real SOAP service (the `soap` package), called by a `soap` client through the
 * proxy, as a child process (npm run build first): every exchange passes unchanged, each one that breaks the
 * contract is told on stderr as it happens, and on SIGTERM the report is written in the format asked for.
 */
const WSDL = path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl');
const CARD = '4111 1111 1111 1111';
const dir = mkdtempSync(path.join(tmpdir(), 'accord-proxy-check-'));
let service: Server;
let serviceUrl: string;
const authSeen: string[] = [];

beforeAll(async () => {
  mkdirSync(path.join(dir, 'contracts'));
  copyFileSync(PET_SPEC, path.join(dir, 'contracts', 'pets.spec'));
  service = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  // Pet 13 drifts: no <status>, and a card number where the name goes.
  const getPet = ({ id }: { id: number }, _cb: unknown, _headers: unknown, req: IncomingMessage) => {
    authSeen.push(String(req.headers.authorization));
    return Number(id) === 13 ? { id, name: CARD, type: 'dog' } : { id, name: 'Rex', type: 'dog', status: 'available' };
  };
  listen(service, '/ws', { PetService: { PetPort: { getPet } } }, readFileSync(WSDL, 'utf8'));
});
afterAll(async () => {
  await new Promise((resolve) => service.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function check(args: string[]): Promise<ProxyRun> {
  return runProxy(dir, ['--target', serviceUrl, '--check', 'contracts/pets.spec', ...args]);
}

async function until(f: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Calls getPet for each id through the proxy with a soap client (and a credential) and returns the names it got. */
async function traffic(proxyUrl: string, ids: number[]): Promise<string[]> {
  const client = await createClientAsync(WSDL, { endpoint: `${proxyUrl}/ws` });
  client.addHttpHeader('Authorization', 'Bearer staging-Secret-9');
  const names: string[] = [];
  for (const id of ids) names.push(((await client.getPetAsync({ id })) as [{ name: string }])[0].name);
  return names;
}

it('passes every exchange unchanged, tells each drift as it happens, writes JUnit on SIGTERM and exits 1', async () => {
  const run = await check(['--format', 'junit', '--report', 'drift.xml']);
  const names = await traffic(run.url, [1, 13, 2]);
  // The drifting answer reaches the client as the service sent it.
  expect(names).toEqual(['Rex', CARD, 'Rex']);
  expect(authSeen.slice(-3)).toEqual(['Bearer staging-Secret-9', 'Bearer staging-Secret-9', 'Bearer staging-Secret-9']);
  // Told while the proxy still runs, one line.
  await until(() => run.stderr().includes('drift: '));
  const told = run
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('drift: '));
  expect(told).toHaveLength(1);
  expect(told[0]).toMatch(/^drift: POST \/ws "Get a pet by id": RESPONSE\.BODY \S+: expected .+, found .+/);
  run.stop();
  const done = await run.exited;
  expect(done.code).toBe(1);
  expect(done.stderr).toContain('SIGTERM received; checked 3 exchanges of 3: 1 broke the contract; report in drift.xml');
  const xml = readFileSync(path.join(dir, 'drift.xml'), 'utf8');
  const root = parseXml(xml);
  expect(root.local).toBe('testsuites');
  expect(root.attributes.find((a) => a.name === 'failures')?.value).toBe('1');
  expect(xml).toContain('<testcase classname="contracts/pets.spec" name="Get a pet by id" file="contracts/pets.spec" line="3">');
  // The exchange is attached, with its credential and card number hidden.
  expect(xml).toContain('&gt; POST /ws');
  expect(xml).toContain('authorization: ***');
  expect(xml).not.toContain('staging-Secret-9');
  expect(xml).not.toContain(CARD);
  expect(xml).toContain('9999 9999 9999 9999');
}, 60_000);

it('writes SARIF 2.1.0 with a result at the scenario, the exchange in its properties', async () => {
  const run = await check(['--format', 'sarif', '--report', 'drift.sarif']);
  await traffic(run.url, [13]);
  run.stop();
  expect((await run.exited).code).toBe(1);
  const text = readFileSync(path.join(dir, 'drift.sarif'), 'utf8');
  const sarif = JSON.parse(text) as {
    version: string;
    runs: {
      tool: { driver: { name: string; rules: { id: string }[] } };
      results: {
        ruleId: string;
        level: string;
        message: { text: string };
        locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
        properties: { request: { headers: Record<string, string> }; response: { status: number; body: string } };
      }[];
    }[];
  };
  expect(sarif.version).toBe('2.1.0');
  expect(sarif.runs[0].tool.driver.name).toBe('accord');
  expect(sarif.runs[0].tool.driver.rules.map((r) => r.id)).toContain('response-drift');
  const [result] = sarif.runs[0].results;
  expect(result.ruleId).toBe('response-drift');
  expect(result.level).toBe('error');
  expect(result.message.text).toMatch(/^drift: POST \/ws "Get a pet by id"/);
  expect(result.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'contracts/pets.spec' }, region: { startLine: 3 } });
  expect(result.properties.request.headers.authorization).toBe('***');
  expect(result.properties.response.status).toBe(200);
  expect(result.properties.response.body).toContain('getPetResponse');
  expect(text).not.toContain('staging-Secret-9');
  expect(text).not.toContain(CARD);
}, 60_000);

it('prints JSON or GitHub annotations on standard output; a run without drift exits 0', async () => {
  const json = await check(['--format', 'json']);
  await traffic(json.url, [13, 1]);
  json.stop();
  const j = await json.exited;
  expect(j.code).toBe(1);
  const doc = JSON.parse(j.stdout.slice(j.stdout.indexOf('{'))) as {
    checked: number;
    fitted: number;
    broken: number;
    findings: { kind: string; scenario: { file: string; line: number } }[];
  };
  expect([doc.checked, doc.fitted, doc.broken]).toEqual([2, 1, 1]);
  expect(doc.findings.map((f) => [f.kind, f.scenario.file, f.scenario.line])).toEqual([['drift', 'contracts/pets.spec', 3]]);

  const gh = await check(['--format', 'github']);
  await traffic(gh.url, [13]);
  gh.stop();
  const g = await gh.exited;
  expect(g.code).toBe(1);
  expect(g.stdout).toMatch(/^::error file=contracts\/pets\.spec,line=3,title=accord proxy --check%3A drift::drift: POST \/ws "Get a pet by id"/m);

  const clean = await check(['--format', 'json', '--report', 'clean.json']);
  await traffic(clean.url, [1, 2]);
  clean.stop();
  const c = await clean.exited;
  expect(c.stderr).toContain('checked 2 exchanges of 2: 0 broke the contract');
  expect(c.code).toBe(0);
  expect(JSON.parse(readFileSync(path.join(dir, 'clean.json'), 'utf8'))).toMatchObject({ checked: 2, fitted: 2, broken: 0, findings: [] });
}, 90_000);

it('refuses --format without --check, an unknown format, and a proxy with neither --out nor --check (exit 2)', async () => {
  const a = await runCli(['proxy', '--target', serviceUrl, '--out', path.join(dir, 'x.spec'), '--format', 'json', '--port', '0']);
  expect([a.code, a.stderr.trim()]).toEqual([2, 'accord proxy: --format and --report go with --check']);
  const b = await runCli(['proxy', '--target', serviceUrl, '--check', path.join(dir, 'contracts'), '--format', 'html', '--port', '0']);
  expect([b.code, b.stderr.trim()]).toEqual([2, 'accord proxy: --format must be one of json, junit, sarif, github, found "html"']);
  const c = await runCli(['proxy', '--target', serviceUrl, '--port', '0']);
  expect([c.code, c.stderr.trim()]).toEqual([2, 'accord proxy: give --out (record a contract), --check (check the traffic against contracts), or both']);
});
