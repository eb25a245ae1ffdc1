import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { plain, registryEnv } from '../helpers/child-env';
import { pack } from '../helpers/packed-app';
import { startServer, type Running } from '../helpers/servers';

/**
 * The one line a provider team with no Node project runs (issue 36, point 5): a folder with
 * nothing but contracts and accord.config.json, no package.json, no node_modules, and
 * `npx accord-contracts test` (here npm exec of the packed tarball, from the npm cache) writes
 * junit.xml, the HTML report and the coverage summary against a real service that asks for
 * HTTP Basic credentials, which come from the settings file (the password through an
 * environment variable). A wrong password makes it red, and a jest.config.js it does not read
 * is named.
 */
const SPEC = `Feature: OrderService

  Scenario: getOrder
    When POST /orders
    And request-header SOAPAction "urn:getOrder"
    And request-body
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Body><getOrder><orderId>(number)</orderId></getOrder></soapenv:Body>
    </soapenv:Envelope>
    """
    Then status 200
    And response-body
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Body><getOrderResponse><total>(number)</total></getOrderResponse></soapenv:Body>
    </soapenv:Envelope>
    """
`;
const CREDENTIALS = `Basic ${Buffer.from('ci-bot:s3cret-pass').toString('base64')}`;

let service: Running;
let dir: string;
let packDir: string;
let tarball: string;

beforeAll(async () => {
  service = await startServer((req) => {
    if (req.headers.authorization !== CREDENTIALS) return { status: 401, type: 'text/plain', body: 'who are you?' };
    const id = /<orderId>(\d+)<\/orderId>/.exec(req.body)?.[1] ?? '0';
    return {
      body: `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><getOrderResponse><total>${Number(id) * 10}</total></getOrderResponse></soapenv:Body></soapenv:Envelope>`,
    };
  });
  dir = mkdtempSync(path.join(tmpdir(), 'accord-java-provider-'));
  mkdirSync(path.join(dir, 'contracts'));
  writeFileSync(path.join(dir, 'contracts', 'orders.spec'), SPEC);
  writeFileSync(
    path.join(dir, 'accord.config.json'),
    JSON.stringify({
      test: {
        baseUrl: service.url,
        auth: { type: 'basic', username: 'ci-bot', password: { env: 'ORDERS_PASSWORD' } },
        coverageThreshold: { scenarios: 100 },
        report: 'reports/accord.html',
      },
    }),
  );
  packDir = mkdtempSync(path.join(tmpdir(), 'accord-pack-'));
  tarball = await pack(packDir);
}, 180_000);

afterAll(async () => {
  await service?.close();
  for (const d of [dir, packDir]) if (d) rmSync(d, { recursive: true, force: true });
});

/** `npx accord-contracts test …` with the tarball standing in for the registry's package. */
function npxTest(args: string[], env: Record<string, string>, command = 'test', cwd = dir): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const e = registryEnv({ npm_config_update_notifier: 'false', npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', ...env });
    delete e.ACCORD_BASE_URL;
    const child = spawn('npm', ['exec', '--yes', `--package=${tarball}`, '--', 'accord', command, ...args], { cwd, env: e });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('close', (code) => resolve({ code, out: plain(out) }));
  });
}

test('nothing installed: JUnit, the HTML report and the coverage summary, with the credentials of accord.config.json', async () => {
  const r = await npxTest(['contracts', '--reporter', 'junit', '--reporter', 'html'], { ORDERS_PASSWORD: 's3cret-pass' });
  if (r.code !== 0) throw new Error(r.out);
  expect(r.out).toContain('PASS contracts/orders.spec');
  expect(r.out).toContain('accord contract coverage');
  const junit = readFileSync(path.join(dir, 'junit.xml'), 'utf8');
  expect(junit).toMatch(/<testcase classname="OrderService" name="getOrder" time="[\d.]+" file="contracts\/orders\.spec">/);
  expect(readFileSync(path.join(dir, 'reports', 'accord.html'), 'utf8')).toContain('<!DOCTYPE html>');
  expect(JSON.parse(readFileSync(path.join(dir, 'accord-coverage.json'), 'utf8'))).toBeDefined();
  // Nothing of Node's was put into the provider's folder.
  expect(existsSync(path.join(dir, 'node_modules'))).toBe(false);
  expect(existsSync(path.join(dir, 'package.json'))).toBe(false);
  expect(readdirSync(dir).sort()).toEqual(['accord-coverage.json', 'accord.config.json', 'contracts', 'junit.xml', 'reports']);
}, 300_000);

test('a wrong password is red; a jest.config.js is named as not read; reporters after -- join accord’s', async () => {
  rmSync(path.join(dir, 'junit.xml'));
  writeFileSync(path.join(dir, 'jest.config.js'), 'module.exports = { testEnvironmentOptions: { accord: { baseUrl: "http://127.0.0.1:1" } } };\n');
  try {
    const r = await npxTest(['contracts', '--reporter', 'junit', '--', '--reporters=default'], { ORDERS_PASSWORD: 'wrong' });
    expect(r.code).toBe(1);
    expect(r.out).toContain('FAIL contracts/orders.spec');
    expect(r.out).toContain('401');
    expect(r.out).toContain('accord test: jest.config.js is not read');
    expect(r.out).toContain('accord contract coverage');
    expect(readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toContain('failures="1"');
    // The password sent is never printed.
    expect(r.out).not.toContain('wrong');
  } finally {
    rmSync(path.join(dir, 'jest.config.js'));
  }
}, 300_000);

test("a Specmatic repository, nothing installed: the package's YAML reader comes with it, and accord config migrate writes accord.config.json", async () => {
  const repo = mkdtempSync(path.join(tmpdir(), 'accord-specmatic-repo-'));
  try {
    writeFileSync(
      path.join(repo, 'specmatic.yaml'),
      'version: 2\ncontracts:\n  - git:\n      url: https://github.com/acme/contracts.git\n    provides: [orders/orders.spec, orders/openapi.yaml]\nhooks:\n  stub_load_contract: ./load.sh\n',
    );
    const r = await npxTest(['migrate'], {}, 'config', repo);
    if (r.code !== 0) throw new Error(r.out);
    expect(r.out).toContain('wrote accord.config.json from specmatic.yaml (1 source)');
    expect(r.out).toContain('is an OpenAPI contract');
    expect(r.out).toContain('specmatic.yaml: hooks:');
    expect(JSON.parse(readFileSync(path.join(repo, 'accord.config.json'), 'utf8'))).toEqual({
      sources: [{ git: 'https://github.com/acme/contracts.git', provides: ['orders/orders.spec'], consumes: [] }],
    });
    expect(existsSync(path.join(repo, 'node_modules'))).toBe(false);
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}, 300_000);
