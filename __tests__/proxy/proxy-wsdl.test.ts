import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClientAsync, listen } from 'soap';
import { request } from 'undici';
import { REPO } from '../stub/helpers';
import { runProxy } from './proxy-helpers';

/**
 * A client built from the WSDL it fetched through `accord proxy` calls through the proxy, so
 * its calls are recorded: the proxy points the WSDL's service address (and the imports that
 * point at the target) at itself. A real service made with the `soap` package, which
 * advertises its own address, and a real `soap` client built from the proxy's `?wsdl`.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'accord-proxy-wsdl-'));
let service: Server;
let serviceUrl: string;

beforeAll(async () => {
  service = createServer((req, res) => {
    if (req.url === '/doc.wsdl') {
      // A WSDL whose schema and service address are absolute URLs on the service itself.
      const text =
        `<?xml version="1.0" encoding="UTF-8"?><definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:x">` +
        `<types><xsd:schema><xsd:import namespace="urn:c" schemaLocation="${serviceUrl}/schemas/common.xsd"/><xsd:import namespace="urn:o" schemaLocation="http://other.example/o.xsd"/></xsd:schema></types>` +
        `<service name="S"><port name="P" binding="b"><soap:address location="${serviceUrl}/ws"/></port><port name="P12" binding="b12"><soap12:address location="http://localhost:8080/ws12"/></port></service></definitions>`;
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
      res.end(text);
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  const pets: Record<number, string> = { 1: 'Rex', 2: 'Tom' };
  // The service advertises its own address, as real services do: a client that follows it unchanged bypasses the proxy.
  const wsdl = readFileSync(path.join(REPO, '__tests__', 'fixtures', 'soap', 'petstore.wsdl'), 'utf8').replace('http://localhost/ws', `${serviceUrl}/ws`);
  listen(service, '/ws', { PetService: { PetPort: { getPet: ({ id }: { id: number }) => ({ id, name: pets[id] ?? 'Nobody', type: 'dog', status: 'available' }) } } }, wsdl);
});
afterAll(async () => {
  await new Promise((resolve) => service.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

it("a soap client built from the proxy's ?wsdl calls through the proxy, and the contract records its calls and cites no deleted file", async () => {
  const proxy = await runProxy(dir, ['--target', serviceUrl, '--out', 'pets.spec']);
  try {
    const client = await createClientAsync(`${proxy.url}/ws?wsdl`);
    for (const id of [1, 2]) {
      const [result] = (await client.getPetAsync({ id })) as [{ name: string }];
      expect(result.name).toBe({ 1: 'Rex', 2: 'Tom' }[id]);
    }
    // The imports on the target point at the proxy too; an import elsewhere, and every service address, as the proxy stands for the service.
    const doc = await (await request(`${proxy.url}/doc.wsdl`)).body.text();
    expect(doc).toContain(`schemaLocation="${proxy.url}/schemas/common.xsd"`);
    expect(doc).toContain('schemaLocation="http://other.example/o.xsd"');
    expect(doc).toContain(`location="${proxy.url}/ws"`);
    expect(doc).toContain(`location="${proxy.url}/ws12"`);
    expect(doc).not.toContain(serviceUrl);
  } finally {
    proxy.stop();
  }
  const done = await proxy.exited;
  expect(done.stdout).toContain('checked: all 2 logged calls match the contract');
  expect(done.code).toBe(0);
  const contract = readFileSync(path.join(dir, 'pets.spec'), 'utf8');
  // Typed by the service's WSDL, fetched through the proxy into a temporary copy: the contract names the service's address.
  expect(contract).toContain(`${serviceUrl}/ws?wsdl`);
  expect(contract).not.toContain(proxy.url);
  // The temporary recording and WSDL copy are gone: the contract does not send its reader there.
  expect(contract).not.toContain(tmpdir());
  expect(contract).not.toContain('recording.har');
  expect(contract).not.toContain('service.wsdl');
}, 60_000);

it('a service without a WSDL: the recorded values type the contract, and one line says so', async () => {
  const envelope = (body: string) => `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;
  const bare = createServer((req, res) => {
    req.resume();
    if (req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(envelope('<p:pingResponse xmlns:p="urn:p"><p:n>1</p:n></p:pingResponse>'));
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  try {
    const proxy = await runProxy(dir, ['--target', target, '--out', 'bare.spec']);
    try {
      const r = await request(`${proxy.url}/svc`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: envelope('<p:ping xmlns:p="urn:p"/>') });
      await r.body.text();
    } finally {
      proxy.stop();
    }
    const done = await proxy.exited;
    expect(done.code).toBe(0);
    expect(done.stderr).toContain(`accord proxy: no WSDL (${target}/svc?wsdl answered 404); the recorded values type the contract`.replace(target, proxy.url));
    expect(readFileSync(path.join(dir, 'bare.spec'), 'utf8')).toContain('<p:n>(number)</p:n>');
  } finally {
    await new Promise((resolve) => bare.close(resolve));
  }
}, 60_000);
