import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { childEnv, plain } from '../helpers/child-env';
import { buildSchemaSet } from '../helpers/xsd/schema-set';
import { payloadsOf, validateAll } from '../helpers/xsd/validate';
import { WSDL_FIXTURES } from './fixtures';

/**
 * Issue 38 point 3: a `soap:header` part as ASMX, gSOAP, Axis and CXF declare it (no
 * `wsdl:required`) is part of the request: WS-I Basic Profile 1.1 R2738 has an envelope carry every
 * header its binding names. `accord test` sends it, generated from its type as the body is, to a
 * real server; the stub expects it. `wsdl:required="false"` keeps a part optional, and an answer's
 * header part stays optional (services answer without it) though the stub answers with it.
 */
const WSDL = path.join(WSDL_FIXTURES, 'soap-headers', 'ticket.wsdl');
const BIN = path.join(__dirname, '..', '..', 'bin', 'accord.js');
const text = importWsdl(WSDL).text;
const AUTH = /<tns:AuthHeader><tns:ApiKey>[A-Z]{4}-[0-9]{4}<\/tns:ApiKey><tns:Tenant>-?\d+<\/tns:Tenant><\/tns:AuthHeader>/;

let dir: string;
let server: Server;
const received: string[] = [];
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-headers-required-'));
  writeFileSync(path.join(dir, 'ticket.spec'), text);
  // A service that answers every call, and records what it was sent; it sends no response header, as ASMX does unless set.
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
      res.end(
        '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
          '<GetTicketResponse xmlns="http://tempuri.org/"><title>Printer on fire</title></GetTicketResponse></soap:Body></soap:Envelope>',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function accordTest(baseUrl: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'test', 'ticket.spec', '--base-url', baseUrl], { cwd: dir, env: childEnv() });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: plain(out) }));
  });
}

test('the contract holds the request header part as required, the optional one and the answer one as optional', () => {
  expect(text).toMatch(/<soapenv:Header>\s*<tns:AuthHeader>/);
  expect(text).toMatch(/<tns:Trace specmatic_occurs="optional">/);
  expect(text).toMatch(/<tns:ServerInfo specmatic_occurs="optional">/);
});

test('accord test sends the header part to a real server, with a value valid against its schema', async () => {
  const { port } = server.address() as AddressInfo;
  const r = await accordTest(`http://127.0.0.1:${port}`);
  expect([r.code, r.code === 0 ? '' : r.out]).toEqual([0, '']);
  expect(received).toHaveLength(1);
  const [request] = received;
  expect(request).toMatch(AUTH);
  expect(request).not.toMatch(/Trace/);
  const payloads = payloadsOf(request);
  expect(payloads.map((p) => `${p.part} ${p.element}`)).toEqual(['header {http://tempuri.org/}AuthHeader', 'body {http://tempuri.org/}GetTicket']);
  const { verdicts } = await validateAll(
    buildSchemaSet(WSDL),
    payloads.map((p) => p.xml),
  );
  expect(verdicts).toEqual([
    { valid: true, errors: [] },
    { valid: true, errors: [] },
  ]);
}, 60_000);

test('the stub expects the header part and answers with the answer header', async () => {
  const stub = await startStub({ contracts: parseContract(text, 'ticket.spec'), port: 0, log: () => undefined });
  const envelope = (header: string) =>
    `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:t="http://tempuri.org/"><s:Header>${header}</s:Header>` +
    '<s:Body><t:GetTicket><t:id>7</t:id></t:GetTicket></s:Body></s:Envelope>';
  const post = (body: string) => fetch(`${stub.url}/Ticket.asmx`, { method: 'POST', headers: { 'content-type': 'text/xml', soapaction: '"http://tempuri.org/GetTicket"' }, body });
  try {
    const without = await post(envelope('<t:Trace>x</t:Trace>'));
    expect(without.status).toBe(400);
    expect(await without.text()).toMatch(/AuthHeader/);
    const ok = await post(envelope('<t:AuthHeader><t:ApiKey>ABCD-1234</t:ApiKey><t:Tenant>3</t:Tenant></t:AuthHeader>'));
    const answer = await ok.text();
    expect([ok.status, ok.status === 200 ? '' : answer]).toEqual([200, '']);
    expect(answer).toMatch(/<soapenv:Header><tns:ServerInfo>[^<]*<\/tns:ServerInfo><\/soapenv:Header>/);
  } finally {
    await stub.close();
  }
});
