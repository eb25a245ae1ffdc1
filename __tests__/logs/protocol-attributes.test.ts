import { startStub } from '../../src/stub';
import { importAndParse, scratch, soapHar, unmatched } from './helpers';

/**
 * Attributes that say how to read a SOAP message (SOAP 1.1 encodingStyle, xsi:type, SOAP-ENC:arrayType,
 * a header entry's mustUnderstand) are kept as recorded, not typed as (string): a stub of the recording
 * must answer encodingStyle="http://schemas.xmlsoap.org/soap/encoding/", or rpc/encoded clients stop decoding.
 */
const ENC = 'http://schemas.xmlsoap.org/soap/encoding/';

function envelope(body: string, header = ''): string {
  return (
    `<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" xmlns:SOAP-ENC="${ENC}" ` +
    `xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:ns1="urn:Orders" ` +
    `SOAP-ENV:encodingStyle="${ENC}">${header}<SOAP-ENV:Body>${body}</SOAP-ENV:Body></SOAP-ENV:Envelope>`
  );
}

function har(calls: { request: string; response: string }[]): string {
  return soapHar(
    'http://orders.example/rpc',
    '"urn:Orders#getOrders"',
    calls.map((c) => ({ ...c, size: c.response.length })),
  );
}

const order = (id: number) => `<item xsi:type="ns1:Order"><id xsi:type="xsd:int">${id}</id><status xsi:type="xsd:string">open</status></item>`;

const calls = [2, 3].map((n) => ({
  request: envelope(
    `<ns1:getOrders><customer xsi:type="xsd:string">c${n}</customer></ns1:getOrders>`,
    '<SOAP-ENV:Header><ns1:Trace SOAP-ENV:mustUnderstand="0">t</ns1:Trace></SOAP-ENV:Header>',
  ),
  response: envelope(
    `<ns1:getOrdersResponse><return xsi:type="SOAP-ENC:Array" SOAP-ENC:arrayType="ns1:Order[${n}]">${Array.from({ length: n }, (_, i) => order(i + 1)).join('')}</return></ns1:getOrdersResponse>`,
  ),
}));

describe('a recording keeps protocol attributes literal', () => {
  const dir = scratch();
  afterAll(() => dir.cleanup());

  it('writes encodingStyle, xsi:type and mustUnderstand as sent, and no arrayType whose [n] varied', async () => {
    const r = await importAndParse([dir.write('encoded.har', har(calls))]);
    const text = r.contract!;
    expect(text).toContain(`SOAP-ENV:encodingStyle="${ENC}"`);
    expect(text).toContain('xsi:type="xsd:int"');
    expect(text).toContain('xsi:type="SOAP-ENC:Array"');
    expect(text).toContain('SOAP-ENV:mustUnderstand="0"');
    expect(text).not.toMatch(/encodingStyle="\(string\)"|xsi:type="\(string\)"|mustUnderstand="\(/);
    // Its [n] is the count of items: two recordings differ, so the contract does not pin one.
    expect(text).not.toContain('arrayType');
    expect(unmatched(r)).toEqual([]);
  });

  it('keeps an arrayType every call sent alike', async () => {
    const r = await importAndParse([dir.write('same.har', har([calls[0], calls[0]]))]);
    expect(r.contract).toContain('SOAP-ENC:arrayType="ns1:Order[2]"');
  });

  it('a stub of the recording answers with the recorded encodingStyle and xsi:types', async () => {
    const r = await importAndParse([dir.write('stubbed.har', har(calls))]);
    const stub = await startStub({ contracts: r.parsed, log: () => undefined });
    try {
      const res = await fetch(`${stub.url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"urn:Orders#getOrders"' },
        body: calls[1].request,
      });
      const body = await res.text();
      expect(res.status).toBe(200);
      expect(body).toMatch(new RegExp(`encodingStyle="${ENC.replace(/[./]/g, '\\$&')}"`));
      expect(body).toContain('xsi:type="xsd:int"');
    } finally {
      await stub.close();
    }
  });
});
