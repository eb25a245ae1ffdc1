import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClientAsync } from 'soap';
import { parseContract, testCases } from '../../src/contract/load';
import { unpackXop } from '../../src/http/xop';
import { runCase } from '../../src/runner/run-case';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Running {
  url: string;
  close(): Promise<void>;
}

/** A server that keeps each request's bytes as they came (the shared test server reads them as UTF-8 text). */
function startRawServer(onRequest: (contentType: string, raw: Buffer) => { body: string }): Promise<Running> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const r = onRequest(String(req.headers['content-type']), Buffer.concat(chunks));
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
      res.end(r.body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

/**
 * MTOM out: a WSDL whose policy asks for wsoma:OptimizedMimeSerialization imports as a contract
 * tagged @mtom; the runner then sends each base64Binary value as a binary XOP part of a
 * multipart/related message, and the stub answers an MTOM request with MTOM. The `soap`
 * package, told to send MTOM, reads the stub's MTOM answer.
 */
const REPO = path.join(__dirname, '..', '..');
let dir: string;
let wsdl: string;
let stub: RunningStub;
let recorder: Running;
const seen: { contentType: string; raw: Buffer }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-mtom-'));
  wsdl = path.join(dir, 'photos.wsdl');
  const text = readFileSync(path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl'), 'utf8')
    .replace(
      'xmlns:xsd=',
      'xmlns:wsp="http://schemas.xmlsoap.org/ws/2004/09/policy" xmlns:wsoma="http://schemas.xmlsoap.org/ws/2004/09/policy/optimizedmimeserialization" xmlns:xsd=',
    )
    .replace('<xsd:element name="id" type="xsd:int"/></xsd:sequence>', '<xsd:element name="id" type="xsd:int"/><xsd:element name="photo" type="xsd:base64Binary"/></xsd:sequence>')
    .replace('<xsd:element name="status" type="xsd:string"/>', '<xsd:element name="status" type="xsd:string"/><xsd:element name="photo" type="xsd:base64Binary"/>')
    .replace(
      '<binding name="PetBinding" type="tns:PetPortType">',
      '<wsp:Policy wsu:Id="mtom" xmlns:wsu="urn:u"><wsoma:OptimizedMimeSerialization/></wsp:Policy><binding name="PetBinding" type="tns:PetPortType">',
    );
  writeFileSync(wsdl, text);
  stub = await startStub({ contracts: [wsdl], log: () => {} });
  recorder = await startRawServer((contentType, raw) => {
    seen.push({ contentType, raw });
    return { body: '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>' };
  });
});
afterAll(async () => {
  await Promise.all([stub?.close(), recorder?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

it('a contract of an MTOM WSDL is tagged; the runner sends XOP parts and reads the stub MTOM answer', async () => {
  const c = parseContract(importWsdl(wsdl).text, 'photos.spec');
  expect(c.scenarios[0].tags).toContain('@mtom');
  const [tc] = testCases(c);
  const r = await runCase(tc, { baseUrl: stub.url });
  expect(r.mismatches).toEqual([]);
  expect(r.passed).toBe(true);
  expect(r.request!.headers['content-type']).toMatch(/^multipart\/related; type="application\/xop\+xml"; boundary="[^"]+"; start="<[^>]+>"; start-info="text\/xml"$/);
  // What the stub received was MTOM: it answered in kind, and the client read the envelope back.
  expect(r.response!.body).toMatch(/<tns:photo>[A-Za-z0-9+/=]*<\/tns:photo>/);
  expect(stub.calls()[0]).toEqual(expect.objectContaining({ answeredBy: 'scenario' }));
});

it('the wire: the envelope in the root part, each base64Binary value as raw bytes in a part of its own', async () => {
  const [tc] = testCases(parseContract(importWsdl(wsdl).text, 'photos.spec'));
  await runCase(tc, { baseUrl: recorder.url });
  const { contentType, raw } = seen.at(-1)!;
  expect(contentType).toMatch(/^multipart\/related; type="application\/xop\+xml"/);
  const text = raw.toString('latin1');
  expect(text).toMatch(/<tns:photo><xop:Include xmlns:xop="http:\/\/www.w3.org\/2004\/08\/xop\/include" href="cid:1\.[0-9a-f]+@accord"\/><\/tns:photo>/);
  expect(text).toContain('Content-Type: application/octet-stream');
  const unpacked = unpackXop(raw, contentType);
  if (!unpacked || 'problem' in unpacked) throw new Error(`not unpacked: ${JSON.stringify(unpacked)}`);
  expect(unpacked.text).toMatch(/<tns:photo>[A-Za-z0-9+/=]+<\/tns:photo>/);
  expect(unpacked.text).not.toContain('xop:Include');
});

it('the soap package sending MTOM gets an MTOM answer from the stub, and reads it', async () => {
  const client = await createClientAsync(`${stub.url}/ws?wsdl`);
  const photo = Buffer.from([0, 1, 2, 250, 255]).toString('base64');
  const [result] = (await client.getPetAsync({ id: 7, photo }, { forceMTOM: true })) as [{ id: number; photo: string }];
  expect(typeof result.id).toBe('number');
  expect(String(client.lastResponseHeaders?.['content-type'])).toMatch(/^multipart\/related; type="application\/xop\+xml"/);
  expect(stub.calls().at(-1)).toEqual(expect.objectContaining({ answeredBy: 'scenario', body: expect.stringContaining(`>${photo}</`) }));
});
