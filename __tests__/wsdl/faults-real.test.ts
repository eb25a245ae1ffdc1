import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClientAsync, listen } from 'soap';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { runPresetProject, writePresetProject } from '../helpers/jest-app';
import { buildSchemaSet } from '../helpers/xsd/schema-set';
import { payloadsOf, validateAll } from '../helpers/xsd/validate';
import { WSDL_FIXTURES, withFaultRows } from './fixtures';

/**
 * Fault scenarios against an independent SOAP implementation (the `soap` package): a service that
 * throws SOAP faults passes `jest --preset` with the imported contract and its Examples rows; the
 * stub's fault answer is a fault to a `soap` client; its detail is valid for the WSDL's schema (xmllint).
 */
const PETS = path.join(WSDL_FIXTURES, 'faults', 'pets.wsdl');

const withRows = (text: string, rows: Record<string, string>) => withFaultRows(text, 'getPet', rows);

const ROWS11 = { notFound: '      | id  |\n      | 404 |', invalidId: '      | id |\n      | -1 |' };
// Over SOAP 1.2 only invalidId has a row: notFound is declared and not run.
const ROWS12 = { invalidId: '      | id |\n      | -1 |' };

/** getPet over SOAP 1.1 (/pets) and 1.2 (/pets12): 404 is not found, a negative id is invalid, any other id is a pet. */
function getPet(version: '1.1' | '1.2') {
  return (a: { id: string }) => {
    const id = Number(a.id);
    if (id === 404 || id < 0) {
      const detail = id < 0 ? { 'tns:invalidId': { 'tns:value': a.id } } : { 'tns:petNotFound': { 'tns:id': a.id, 'tns:reason': 'deleted' } };
      const text = id < 0 ? 'invalid id' : 'no such pet';
      const Fault =
        version === '1.1'
          ? { faultcode: 'soap:Client', faultstring: text, detail, statusCode: 500 }
          : { Code: { Value: 'soap:Sender' }, Reason: { Text: text }, Detail: detail, statusCode: 500 };
      throw { Fault };
    }
    return { id: a.id, name: 'Rex' };
  };
}

let server: Server;
let url: string;
let dir: string;
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const xml = readFileSync(PETS, 'utf8');
  const services = { PetFaults: { PetPort: { getPet: getPet('1.1') }, PetPort12: { getPet: getPet('1.2') } } };
  listen(server, { path: '/pets12', services: { PetFaults: { PetPort12: { getPet: getPet('1.2') } } }, xml, uri: PETS });
  listen(server, { path: '/pets', services, xml, uri: PETS });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The package answers nothing until it has read the WSDL; its ?wsdl page appears when it is ready.
  for (let i = 0; i < 200 && (await fetch(`${url}/pets?wsdl`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 10));
  dir = mkdtempSync(path.join(tmpdir(), 'accord-faults-real-'));
  writePresetProject(dir);
  writeFileSync(path.join(dir, 'pets11.spec'), withRows(importWsdl(PETS).text, ROWS11));
  writeFileSync(path.join(dir, 'pets12.spec'), withRows(importWsdl(PETS, { soapVersion: '1.2' }).text, ROWS12));
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function jest(baseUrl: string): ReturnType<typeof runPresetProject> {
  return runPresetProject(dir, baseUrl, ['--verbose']);
}

describe('a service that throws SOAP faults (the soap package)', () => {
  test('jest --preset passes the imported contract with its fault examples; a fault without an example is listed as not run; a SOAP 1.2 fault that breaks SOAP 1.2 fails', async () => {
    const r = await jest(url);
    expect(r.output).toMatch(/✓ getPet fault notFound - example 1: id=404/);
    expect(r.output).toMatch(/✓ getPet fault invalidId - example 1: id=-1/);
    expect(r.output).toMatch(/○ skipped getPet fault notFound \(not run: fault scenario without an example that triggers it\)/);
    // The soap package answers a SOAP 1.2 fault in a SOAP 1.1 envelope (docs/wsdl-import.md).
    expect(r.output).toMatch(/✕ getPet fault invalidId - example 1: id=-1/);
    expect(r.output).toContain(
      'RESPONSE.BODY Envelope/Body/Fault/Code/Value: expected a SOAP 1.2 fault code (part 1, 5.4.6): Sender, Receiver, MustUnderstand, VersionMismatch or DataEncodingUnknown, qualified with the SOAP 1.2 envelope namespace, found "soap:Sender" (in the namespace http://schemas.xmlsoap.org/soap/envelope/)',
    );
    expect(r.output).toMatch(/Tests: {7}1 failed, 1 skipped, 4 passed, 6 total/);
    expect(r.status).toBe(1);
  }, 120_000);

  test('the same contract fails against a stub-like service that never faults: the fault example expects 500 and the Fault', async () => {
    const never = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(
        '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><getPetResponse xmlns="http://example.com/faults"><id>1</id><name>Rex</name></getPetResponse></soap:Body></soap:Envelope>',
      );
    });
    await new Promise<void>((r) => never.listen(0, '127.0.0.1', r));
    try {
      const r = await jest(`http://127.0.0.1:${(never.address() as AddressInfo).port}`);
      expect(r.output).toMatch(/✕ getPet fault notFound - example 1: id=404/);
      expect(r.output).toMatch(/RESPONSE\.STATUS: expected 500, found 200/);
      expect(r.status).toBe(1);
    } finally {
      never.closeAllConnections();
      await new Promise<void>((r) => never.close(() => r()));
    }
  }, 120_000);
});

describe("the stub's fault answer", () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ contracts: [path.join(dir, 'pets11.spec'), path.join(dir, 'pets12.spec')], port: 0, log: () => undefined });
  });
  afterAll(() => stub?.close());

  test('a soap client gets it as a SOAP fault, with the detail; an ordinary call gets the pet', async () => {
    const client = await createClientAsync(PETS, { endpoint: `${stub.url}/pets` });
    const [ok] = await client.getPetAsync({ id: 7 });
    expect(ok).toMatchObject({ name: expect.any(String) });
    const err = await client.getPetAsync({ id: 404 }).then(
      () => undefined,
      (e: { root?: { Envelope?: { Body?: { Fault?: Record<string, unknown> } } }; response?: { status: number } }) => e,
    );
    expect(err?.response?.status).toBe(500);
    const fault = err?.root?.Envelope?.Body?.Fault;
    // faultstring is an object when the stub sends xml:lang on it (the package keeps attributes).
    expect(fault).toMatchObject({ faultcode: expect.any(String), faultstring: expect.anything(), detail: { petNotFound: { id: '404' } } });
  });

  test('its detail is valid for the WSDL schema (xmllint), over SOAP 1.1 and 1.2; a wrong detail is not', async () => {
    const post = async (p: string, ns: string, contentType: string, id: string) => {
      const body = `<s:Envelope xmlns:s="${ns}"><s:Body><p:getPet xmlns:p="http://example.com/faults"><p:id>${id}</p:id></p:getPet></s:Body></s:Envelope>`;
      const r = await fetch(`${stub.url}${p}`, { method: 'POST', headers: { 'content-type': contentType, soapaction: '"urn:getPet"' }, body });
      expect(r.status).toBe(500);
      return r.text();
    };
    const answers = [
      await post('/pets', 'http://schemas.xmlsoap.org/soap/envelope/', 'text/xml', '404'),
      await post('/pets', 'http://schemas.xmlsoap.org/soap/envelope/', 'text/xml', '-1'),
      await post('/pets12', 'http://www.w3.org/2003/05/soap-envelope', 'application/soap+xml; charset=utf-8; action="urn:getPet"', '-1'),
    ];
    const payloads = answers.map((a) => payloadsOf(a));
    expect(payloads.map((p) => p.map((x) => x.element))).toEqual([
      ['{http://example.com/faults}petNotFound'],
      ['{http://example.com/faults}invalidId'],
      ['{http://example.com/faults}invalidId'],
    ]);
    const wrong = payloads[0][0].xml.replace(/<tns:reason>[^<]*<\/tns:reason>/, '<tns:reason>lost</tns:reason>');
    const { verdicts } = await validateAll(buildSchemaSet(PETS), [...payloads.map((p) => p[0].xml), wrong]);
    expect(verdicts.map((v) => v.valid)).toEqual([true, true, true, false]);
  });
});
