import { parseContract } from '../../src/contract/load';
import { startStub, type RunningStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { corpusFile } from './corpus';

/**
 * A stub of an imported SOAP 1.2 contract serves real clients: the action in
 * Content-Type is compared as a media type parameter, not as a string.
 */
let stub: RunningStub;
beforeAll(async () => {
  const contract = parseContract(importWsdl(corpusFile('asmx-calculator'), { soapVersion: '1.2' }).text, 'calc12.spec');
  stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
});
afterAll(() => stub.close());

const envelope = '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:t="http://tempuri.org/"><s:Body><t:Add><intA>1</intA><intB>2</intB></t:Add></s:Body></s:Envelope>';

async function post(contentType: string): Promise<number> {
  const res = await fetch(`${stub.url}/calculator.asmx`, { method: 'POST', headers: { 'content-type': contentType }, body: envelope });
  await res.text();
  return res.status;
}

test.each([
  'application/soap+xml; charset=utf-8; action="http://tempuri.org/Add"',
  'application/soap+xml;charset=UTF-8;action="http://tempuri.org/Add"',
  'Application/SOAP+XML; action=http://tempuri.org/Add; charset=utf-8',
  'application/soap+xml; action="http://tempuri.org/Add"',
])('accepted: %s', async (ct) => {
  expect(await post(ct)).toBe(200);
});

test.each([
  'application/soap+xml; charset=utf-8',
  'application/soap+xml; charset=utf-8; action="http://tempuri.org/Subtract"',
  'text/xml; charset=utf-8',
  'application/soap+xml; charset=iso-8859-1; action="http://tempuri.org/Add"',
])('refused (400): %s', async (ct) => {
  expect(await post(ct)).toBe(400);
});
