import path from 'node:path';
import { loadContract } from '../../src/contract/load';
import { ParsedBody } from '../../src/http/body';
import { matchBody } from '../../src/http/match-body';
import { startStub } from '../../src/stub';

/**
 * SOAP 1.1 section 5.1: inside SOAP-encoding scope an accessor whose value is null may be left
 * out (suds leaves them out). A stub and the matcher accept it there, and only there.
 */
const SPEC = path.join(__dirname, '..', 'fixtures', 'wsdl', 'rpc-encoded', 'quotes.spec');
const ENV = 'xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:t="urn:accord:quotes"';
const ENC = 's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"';
const request = (encoded: boolean) => `<s:Envelope ${ENV}><s:Body><t:getQuotes${encoded ? ` ${ENC}` : ''}><currency>EUR</currency></t:getQuotes></s:Body></s:Envelope>`;

test('the matcher accepts an omitted accessor in encoding scope, and not outside it', () => {
  const s = loadContract(SPEC).scenarios.find((x) => x.name === 'getQuotes')!;
  expect(matchBody(s.request.body, new ParsedBody(request(true)), s.scope, 'REQUEST.BODY')).toEqual([]);
  expect(matchBody(s.request.body, new ParsedBody(request(false)), s.scope, 'REQUEST.BODY').length).toBeGreaterThan(0);
});

test('a stub answers a request that leaves an accessor out', async () => {
  const stub = await startStub({ contracts: [SPEC], port: 0, log: () => undefined });
  try {
    const res = await fetch(`${stub.url}/quotes`, { method: 'POST', headers: { 'content-type': 'text/xml', soapaction: '"urn:accord:quotes#getQuotes"' }, body: request(true) });
    expect([res.status, (await res.text()).slice(0, 300)]).toEqual([200, expect.stringContaining('getQuotesResponse') as string]);
  } finally {
    await stub.close();
  }
});
