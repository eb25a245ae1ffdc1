import { parseContract } from '../../src/contract/load';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { wsdlFixture } from './fixtures';

/**
 * A stub of an imported SOAP 1.2 contract serves real clients: the action in
 * Content-Type is compared as a media type parameter, not as a string; when it is left out, the body decides.
 */
let stub: RunningStub;
beforeAll(async () => {
  const contract = parseContract(importWsdl(wsdlFixture('services/multi.wsdl'), { soapVersion: '1.2' }).text, 'multi12.spec');
  stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
});
afterAll(() => stub.close());

const envelope = '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:t="urn:accord:multi"><s:Body><t:ping/></s:Body></s:Envelope>';

async function post(contentType: string): Promise<number> {
  const res = await fetch(`${stub.url}/multi/search.asmx`, { method: 'POST', headers: { 'content-type': contentType }, body: envelope });
  await res.text();
  return res.status;
}

test.each([
  'application/soap+xml; charset=utf-8; action="urn:accord:multi/ping"',
  'application/soap+xml;charset=UTF-8;action="urn:accord:multi/ping"',
  'Application/SOAP+XML; action=urn:accord:multi/ping; charset=utf-8',
  'application/soap+xml; action="urn:accord:multi/ping"',
  // The action parameter is optional (RFC 3902): the body names the operation, as spyne, PHP and JAX-WS read it.
  'application/soap+xml; charset=utf-8',
])('accepted: %s', async (ct) => {
  expect(await post(ct)).toBe(200);
});

test.each([
  'application/soap+xml; charset=utf-8; action="urn:accord:multi/search"',
  'text/xml; charset=utf-8',
  'application/soap+xml; charset=iso-8859-1; action="urn:accord:multi/ping"',
])('refused (400): %s', async (ct) => {
  expect(await post(ct)).toBe(400);
});
