import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { childEnv } from '../helpers/child-env';
import { runPresetProject, writePresetProject, type JestRun } from '../helpers/jest-app';

/**
 * Real SOAP stacks from Debian packages (python3-zeep, python3-suds, python3-spyne, php-cli,
 * php-soap, libsoap-lite-perl, libjaxws-java, mono-devel, gsoap, libaxis-java): services and clients nobody on this project
 * wrote, run against accord. `.ci/run` installs them. Suites declare what needs them with
 * `withStacks`: with the stacks there they run; without them they become one skipped test
 * named `skipped: <stack> not installed: …` (corpus-reporter.js adds one line beside Jest's
 * summary); with ACCORD_REQUIRE_INTEROP=1 (CI) an absent stack is a failing test instead.
 *
 * This file is the one home of the interop suites' set-up: starting each stack's service
 * (startSpyne, startPhp, startJaxws), running clients (runClient, clientFailures, testClients),
 * the fault expectation they share, the contract run against a service, and tearDown.
 */
export type Stack = 'spyne' | 'zeep' | 'suds' | 'php-soap' | 'soap-lite' | 'jax-ws' | 'mono' | 'gsoap' | 'axis';

/** Debian's python3: `python3` on PATH may be another one, without Debian's modules. */
export const PYTHON = '/usr/bin/python3';
export const STACKS_DIR = path.join(__dirname, 'stacks');
export const SKIPPED_STACK = 'skipped: ';

const JAVA_JARS = [
  'jaxws-rt',
  'jaxws-api',
  'jaxb-api',
  'jaxb-runtime',
  'jaxb-core',
  'jaxb-impl',
  'javax.activation',
  'jws-api',
  'saaj-impl',
  'stax-ex',
  'streambuffer',
  'policy',
  'gmbal',
  'glassfish-management-api',
  'mimepull',
  'ha-api',
  'management-api',
  'istack-commons-runtime',
  'FastInfoset',
  'txw2',
  'woodstox-core',
  'stax2-api',
];

/** The classpath JAX-WS RI runs with, from libjaxws-java's jars (those present). */
export function jaxwsClasspath(): string {
  return JAVA_JARS.map((j) => `/usr/share/java/${j}.jar`)
    .filter((f) => existsSync(f))
    .join(':');
}

function runs(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

const probes: Record<Stack, () => boolean> = {
  spyne: () => runs(PYTHON, ['-c', 'import spyne, lxml']),
  zeep: () => runs(PYTHON, ['-c', 'import zeep']),
  suds: () => runs(PYTHON, ['-c', 'import suds.client']),
  'php-soap': () => runs('php', ['-r', 'exit(class_exists("SoapClient") ? 0 : 1);']),
  'soap-lite': () => runs('perl', ['-MSOAP::Lite', '-e1']),
  'jax-ws': () => runs('java', ['-version']) && existsSync('/usr/share/java/jaxws-rt.jar') && existsSync('/usr/share/java/jaxb-runtime.jar'),
  // mono-devel: the runtime, mcs, the `wsdl` proxy generator and System.Web.Services (ASMX).
  mono: () => runs('mono', ['--version']) && runs('mcs', ['--version']) && existsSync('/usr/bin/wsdl') && existsSync('/usr/lib/mono/4.5/System.Web.Services.dll'),
  // gsoap: soapcpp2, wsdl2h, stdsoap2.h and libgsoap++; g++ builds with them.
  gsoap: () => existsSync('/usr/bin/soapcpp2') && existsSync('/usr/bin/wsdl2h') && existsSync('/usr/include/stdsoap2.h') && runs('g++', ['--version']),
  // libaxis-java: Axis 1.4 and what it runs on (jaxrpc, saaj, wsdl4j, commons-discovery and -logging).
  axis: () => runs('java', ['-version']) && existsSync('/usr/share/java/axis.jar') && existsSync('/usr/share/java/wsdl4j.jar'),
};

const known = new Map<Stack, boolean>();
export function hasStack(s: Stack): boolean {
  if (!known.has(s)) known.set(s, probes[s]());
  return known.get(s)!;
}

export function interopRequired(): boolean {
  const v = process.env.ACCORD_REQUIRE_INTEROP;
  return v !== undefined && v !== '' && v !== '0';
}

/** Declares `define` under `title` when every stack is installed; one skipped (or, in CI, failing) test otherwise. */
export function withStacks(stacks: Stack[], title: string, define: () => void): void {
  const missing = stacks.filter((s) => !hasStack(s));
  if (missing.length === 0) {
    describe(title, define);
  } else if (interopRequired()) {
    test(`${title}: needs ${missing.join(', ')}`, () => {
      const error = new Error(
        `${missing.join(', ')} not installed, and ACCORD_REQUIRE_INTEROP is set: install the Debian packages .ci/run installs, or unset it to skip these tests`,
      );
      error.stack = error.message;
      throw error;
    });
  } else {
    test.skip(`${SKIPPED_STACK}${missing.join(', ')} not installed: ${title}`, () => undefined);
  }
}

/** A free port on 127.0.0.1, for a server that cannot be given port 0 (php -S). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** A SOAP service run by one of the stacks, on 127.0.0.1. */
export interface Service {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  stop: () => Promise<void>;
  output: () => string;
}

/**
 * A server child that prints its port on a line of its own (or, given `ready`, answers that URL
 * path on `port`); killed by `stop`.
 */
export async function startService(cmd: string, args: string[], ready?: { port: number; path: string }): Promise<Service> {
  const child: ChildProcess = spawn(cmd, args, { cwd: STACKS_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} did not start: ${err.slice(-2000)}`)), 45_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\s*$/m.exec(out);
      if (m && !ready) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    if (ready) {
      const poll = (): void => {
        fetch(`http://127.0.0.1:${ready.port}${ready.path}`)
          .then(async (r) => {
            await r.text();
            clearTimeout(timer);
            resolve(ready.port);
          })
          .catch(() => setTimeout(poll, 50));
      };
      poll();
    }
    child.on('exit', (code) => reject(new Error(`${cmd} exited (${code}): ${err.slice(-2000)}`)));
  });
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => out + err,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** spyne_server.py: the Orders service at /soap11 and /soap12. */
export function startSpyne(): Promise<Service> {
  return startService(PYTHON, ['spyne_server.py']);
}

/** PHP's built-in server on php_server.php: the Orders service at /orders (1.1 and 1.2), rpc/encoded at /rpc. */
export async function startPhp(): Promise<Service> {
  const port = await freePort();
  return startService('php', ['-S', `127.0.0.1:${port}`, 'php_server.php'], { port, path: '/orders?wsdl' });
}

/**
 * JAX-WS RI: compiles jaxws/Orders.java and OrdersClient.java into `dir`/classes and publishes Orders
 * (/orders11, /orders12); the classpath runs OrdersClient too.
 */
export async function startJaxws(dir: string): Promise<{ service: Service; classpath: string }> {
  mkdirSync(path.join(dir, 'classes'));
  const jars = jaxwsClasspath();
  const src = path.join(STACKS_DIR, 'jaxws');
  execFileSync('javac', ['-nowarn', '-d', path.join(dir, 'classes'), '-cp', jars, path.join(src, 'Orders.java'), path.join(src, 'OrdersClient.java')], { stdio: 'pipe' });
  const classpath = `${jars}:${path.join(dir, 'classes')}`;
  const port = await freePort();
  const service = await startService('java', ['-cp', classpath, 'Orders', String(port)], { port, path: '/orders12?wsdl' });
  return { service, classpath };
}

/** A suite's teardown: closes the stubs, then stops the service, then removes `dir` (each that was made). */
export async function tearDown(o: { stubs: ({ close: () => Promise<void> } | undefined)[]; service: Service | undefined; dir: string | undefined }): Promise<void> {
  for (const stub of o.stubs) await stub?.close();
  await o.service?.stop();
  if (o.dir) rmSync(o.dir, { recursive: true, force: true });
}

/** The body of a GET, as text. */
export async function fetchText(url: string): Promise<string> {
  return (await fetch(url)).text();
}

/** A client run: its name in a failure, the command and its arguments. */
export type Client = [name: string, cmd: string, args: string[]];

/** Runs the clients at once; `name: output` of each that did not exit 0. */
export async function clientFailures(list: Client[]): Promise<string[]> {
  const results = await Promise.all(list.map(async ([name, cmd, args]) => [name, await runClient(cmd, args)] as const));
  return results.filter(([, r]) => !r.ok).map(([name, r]) => `${name}: ${r.output}`);
}

const ENVELOPE = { '1.1': 'http://schemas.xmlsoap.org/soap/envelope/', '1.2': 'http://www.w3.org/2003/05/soap-envelope' } as const;

/**
 * Sets a `soap-fault` expectation on the stub at `stubUrl`: getOrder of id 404 (the Orders service
 * of every stack) over SOAP `version` at `path` answers the declared fault; the stub must take it.
 * `id`: another value for the id node, such as a typed placeholder `(string)` (then every id).
 */
export async function expectGetOrderFault(
  stubUrl: string,
  o: { path: string; version: '1.1' | '1.2'; headers?: Record<string, string>; faultName?: string; id?: string },
): Promise<void> {
  const res = await fetch(`${stubUrl}/_accord/expectations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      request: {
        method: 'POST',
        path: o.path,
        ...(o.headers ? { headers: o.headers } : {}),
        body: `<s:Envelope xmlns:s="${ENVELOPE[o.version]}" xmlns:o="urn:accord:interop:orders"><s:Body><o:getOrder><o:id>${o.id ?? '404'}</o:id></o:getOrder></s:Body></s:Envelope>`,
      },
      fault: 'soap-fault',
      ...(o.faultName ? { faultName: o.faultName } : {}),
    }),
  });
  const said = await res.text();
  expect([res.status, said]).toEqual([201, expect.stringContaining('"id"') as string]);
}

/** Removes the stub's expectations (and journal and states): `POST /_accord/reset`. */
export async function resetStub(stubUrl: string): Promise<void> {
  const res = await fetch(`${stubUrl}/_accord/reset`, { method: 'POST' });
  await res.text();
  expect(res.status).toBeLessThan(300);
}

/** One test a row: the client (its arguments read when the test runs) exits 0 and its output matches `ok`. */
export function testClients(title: string, rows: [name: string, cmd: string, args: () => string[]][], timeout: number, ok = /^ok/): void {
  test.each(rows)(
    title,
    async (_name, cmd, args) => {
      const r = await runClient(cmd, args());
      expect([r.ok, r.output]).toEqual([true, expect.stringMatching(ok) as string]);
    },
    timeout,
  );
}

/** Runs a client script; its output, and whether it exited 0. */
export function runClient(cmd: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: STACKS_DIR, env: childEnv() });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, output: output.trim() });
    });
  });
}

/** The contracts in `dir` pass `jest --preset accord-contracts` against `baseUrl` (and the output shows `shown`). */
export async function expectContractsPass(dir: string, baseUrl: string, shown?: RegExp): Promise<void> {
  const r = await runContractTests(dir, baseUrl);
  if (shown) expect(r.output).toMatch(shown);
  expect([r.status, r.output]).toEqual([0, expect.stringMatching(/Tests: .*passed/) as string]);
}

/** `jest --preset accord-contracts` in `dir` (its contracts) against `baseUrl`. */
export function runContractTests(dir: string, baseUrl: string): Promise<JestRun> {
  writePresetProject(dir);
  return runPresetProject(dir, baseUrl, ['--verbose']);
}
