import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { buildRequest } from '../../src/http/build-request';
import { matchXml } from '../../src/pattern/match/index';
import { formatMismatch } from '../../src/pattern/match/mismatch';
import { startStub } from '../../src/stub';
import { parseXml } from '../../src/xml/parse';
import { importWsdl } from '../../src/wsdl';
import { WSDL_FIXTURES as FIXTURES } from './fixtures';

/*
 * Constructs found in very large enterprise WSDLs (NetSuite SuiteTalk, 2.4 MB in 47 files), each
 * written small in fixtures/wsdl/big. The xsd-validity ratchet validates what accord generates for them.
 */
describe('record-ref.wsdl: an attribute named "type" beside xsi:type', () => {
  // NetSuite's RecordRef: <baseRef xsi:type="core:RecordRef" type="customer"/>. Before, the attribute
  // pattern `type` was matched against the first attribute of that local name, xsi:type, so the stub
  // refused every request accord generated for it (NetSuite: 178 of 1326 answers were 400).
  const { text } = importWsdl(path.join(FIXTURES, 'big', 'record-ref.wsdl'));
  const contract = parseContract(text, 'record-ref.spec');
  const del = contract.scenarios.find((s) => s.name === 'delete')!;
  const envelope = (ref: string) =>
    `<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><delete xmlns="urn:accord:records" xmlns:r="urn:accord:records" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${ref}</delete></S:Body></S:Envelope>`;
  const request = (ref: string) => matchXml(del.request.body!, parseXml(envelope(ref)), del.scope).map(formatMismatch);

  it('matches the unqualified attribute, whichever order the two come in', () => {
    expect(request('<baseRef xsi:type="r:RecordRef" type="customer"/>')).toEqual([]);
    expect(request('<baseRef type="invoice" xsi:type="r:RecordRef"><name>n</name></baseRef>')).toEqual([]);
  });

  it('still checks it, and never takes xsi:type for it', () => {
    expect(request('<baseRef xsi:type="r:RecordRef" type="vendor"/>').join('\n')).toContain('baseRef/@type');
    const missing = request('<baseRef xsi:type="r:RecordRef"/>').join('\n');
    expect(missing).toContain('baseRef/@type');
    expect(missing).toContain('no such attribute');
  });

  it('the stub answers the requests accord generates', async () => {
    const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
    try {
      const [tc] = testCases(contract).filter((t) => t.name === 'delete');
      for (let seed = 0; seed < 4; seed++) {
        const body = buildRequest(tc, seed).body;
        expect(body).toMatch(/xsi:type="tns:RecordRef"[^>]* type="(customer|invoice)"/);
        const res = await fetch(`${stub.url}/records`, { method: 'POST', headers: { 'content-type': 'text/xml', soapaction: '"delete"' }, body });
        expect({ status: res.status, text: res.status === 200 ? '' : await res.text() }).toEqual({ status: 200, text: '' });
        await res.arrayBuffer().catch(() => undefined);
      }
    } finally {
      await stub.close();
    }
  });
});

describe('record-ref.wsdl: a base type with more derived types than fit a line', () => {
  // NetSuite's Record has 200 derived types: one specmatic_derived line of 8,000 characters before.
  const { text } = importWsdl(path.join(FIXTURES, 'big', 'record-ref.wsdl'));
  const contract = parseContract(text, 'record-ref.spec');

  it('wraps the names over indented lines of at most 100 characters', () => {
    const start = text.indexOf('specmatic_derived="\n');
    expect(start).toBeGreaterThan(0);
    const value = text.slice(start, text.indexOf('"', start + 'specmatic_derived="'.length) + 1);
    const lines = value.split('\n').slice(1, -1);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.trim().length).toBeLessThanOrEqual(100);
    expect(lines.join(' ').trim().split(/\s+/)).toHaveLength(8);
    expect(text).toContain('<SPECMATIC_TYPE specmatic_abstract="true" specmatic_derived="tns:RecordRef">');
  });

  it('reads every wrapped name back: each derived record is accepted and generated', () => {
    const del = contract.scenarios.find((s) => s.name === 'delete')!;
    const answer = (record: string) =>
      `<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><deleteResponse xmlns="urn:accord:records" xmlns:r="urn:accord:records" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><baseRef xsi:type="r:RecordRef" type="customer"/>${record}</deleteResponse></S:Body></S:Envelope>`;
    expect(matchXml(del.response.body!, parseXml(answer('<record xsi:type="r:CreditMemoRecord"><creditMemoNumber>1</creditMemoNumber></record>')), del.scope)).toEqual([]);
    expect(matchXml(del.response.body!, parseXml(answer('<record xsi:type="r:CustomerRecord"><customerNumber>1</customerNumber></record>')), del.scope)).toEqual([]);
    expect(
      matchXml(del.response.body!, parseXml(answer('<record xsi:type="r:OtherRecord"/>')), del.scope)
        .map(formatMismatch)
        .join('\n'),
    ).toContain('tns:CreditMemoRecord');
  });
});
