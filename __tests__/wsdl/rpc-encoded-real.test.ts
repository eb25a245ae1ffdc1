import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { matchXml } from '../../src/pattern/match/index';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { parseXml } from '../../src/xml/parse';
import { WSDL_FIXTURES } from './fixtures';
import { failures, host, runAll } from '../helpers/soap-host';

/**
 * rpc/encoded as real servers and clients send it (issue 13, class 6): SOAP::Lite puts
 * soap:encodingStyle on the Envelope, Axis 1 on the operation wrapper, and both type every
 * element with xsi:type and every array with soapenc:arrayType. The contract imported from
 * the WSDL accepts them.
 */
const WSDL = path.join(WSDL_FIXTURES, 'rpc-encoded', 'quotes.wsdl');
const ENC = 'http://schemas.xmlsoap.org/soap/encoding/';

/** SOAP::Lite style: encodingStyle on the Envelope, xsi:type on every element, the array's arrayType. */
const soapLiteRequest =
  `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:soapenc="${ENC}" xmlns:xsd="http://www.w3.org/2001/XMLSchema"` +
  ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" soap:encodingStyle="${ENC}"><soap:Body>` +
  '<getQuotes xmlns="urn:accord:quotes"><symbols xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[2]">' +
  '<item xsi:type="xsd:string">IBM</item><item xsi:type="xsd:string">SAP</item></symbols>' +
  '<currency xsi:type="xsd:string">EUR</currency></getQuotes></soap:Body></soap:Envelope>';

/** Axis 1 style: encodingStyle on the wrapper, a typed array of structs with soapenc:arrayType and an offset. */
const axisResponse =
  `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
  `<soapenv:Body><ns1:getQuotesResponse soapenv:encodingStyle="${ENC}" xmlns:ns1="urn:accord:quotes">` +
  `<quotes xsi:type="soapenc:Array" soapenc:arrayType="ns1:Quote[1]" soapenc:offset="[0]" xmlns:soapenc="${ENC}">` +
  '<item xsi:type="ns1:Quote"><symbol xsi:type="xsd:string">IBM</symbol><price xsi:type="xsd:double">101.5</price></item>' +
  '</quotes></ns1:getQuotesResponse></soapenv:Body></soapenv:Envelope>';

describe('rpc/encoded messages as real services send them', () => {
  const contract = parseContract(importWsdl(WSDL).text, 'quotes.spec');
  const scenario = contract.scenarios[0];

  test('the stub accepts a SOAP::Lite request (encodingStyle on the Envelope, xsi:type, soapenc:arrayType)', async () => {
    const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
    try {
      const res = await fetch(`${stub.url}/quotes`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml', soapaction: '"urn:accord:quotes#getQuotes"' },
        body: soapLiteRequest,
      });
      expect([res.status, res.status === 200 ? '' : await res.text()]).toEqual([200, '']);
    } finally {
      await stub.close();
    }
  });

  test('the response contract accepts an Axis 1 response (encodingStyle on the wrapper, typed array of structs)', () => {
    expect(matchXml(scenario.response.body!, parseXml(axisResponse), scenario.scope)).toEqual([]);
  });

  test('encodingStyle on any element, and SOAP-encoded attributes, are not data: a real one on the Body is accepted', () => {
    const onBody = axisResponse.replace('<soapenv:Body>', `<soapenv:Body soapenv:encodingStyle="${ENC}">`);
    expect(matchXml(scenario.response.body!, parseXml(onBody), scenario.scope)).toEqual([]);
  });

  test('array members may be null (xsi:nil, as Axis 1 and .NET send a null in an array), in requests and responses', async () => {
    const withNulls = axisResponse
      .replace('soapenc:arrayType="ns1:Quote[1]"', 'soapenc:arrayType="ns1:Quote[3]"')
      .replace('<item xsi:type="ns1:Quote">', '<item xsi:nil="true"/><item xsi:type="ns1:Quote" xsi:nil="false">')
      .replace('</quotes>', '<item xsi:type="ns1:Quote" xsi:nil="1"/></quotes>');
    expect(matchXml(scenario.response.body!, parseXml(withNulls), scenario.scope)).toEqual([]);
    const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
    try {
      const res = await fetch(`${stub.url}/quotes`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml', soapaction: '"urn:accord:quotes#getQuotes"' },
        body: soapLiteRequest.replace('soapenc:arrayType="xsd:string[2]">', 'soapenc:arrayType="xsd:string[3]"><item xsi:type="xsd:string" xsi:nil="true"/>'),
      });
      expect([res.status, res.status === 200 ? '' : await res.text()]).toEqual([200, '']);
    } finally {
      await stub.close();
    }
  });

  test('sparse and partially transmitted arrays (SOAP-ENC:offset, SOAP-ENC:position) leave members out: accepted', () => {
    const partial = axisResponse.replace('ns1:Quote[1]" soapenc:offset="[0]"', 'ns1:Quote[5]" soapenc:offset="[3]"');
    expect(matchXml(scenario.response.body!, parseXml(partial), scenario.scope)).toEqual([]);
    const sparse = axisResponse
      .replace('soapenc:offset="[0]"', '')
      .replace('<item xsi:type="ns1:Quote">', '<item soapenc:position="[7]" xsi:type="ns1:Quote">')
      .replace('Quote[1]', 'Quote[10]');
    expect(matchXml(scenario.response.body!, parseXml(sparse), scenario.scope)).toEqual([]);
    const empty = axisResponse.replace(/<item [\s\S]*<\/item>/, '').replace('Quote[1]', 'Quote[0]');
    expect(matchXml(scenario.response.body!, parseXml(empty), scenario.scope)).toEqual([]);
  });

  test('any accessor may be null in SOAP encoding scope (SOAP 1.1 section 5.1), a struct member too; without that scope the schema decides', () => {
    const nullField = axisResponse.replace('<symbol xsi:type="xsd:string">IBM</symbol>', '<symbol xsi:type="xsd:string" xsi:nil="true"/>');
    expect(matchXml(scenario.response.body!, parseXml(nullField), scenario.scope)).toEqual([]);
    const wholeArray = axisResponse.replace(/<quotes [\s\S]*<\/quotes>/, '<quotes xsi:type="soapenc:Array" xsi:nil="true"/>');
    expect(matchXml(scenario.response.body!, parseXml(wholeArray), scenario.scope)).toEqual([]);
    // The same messages with no SOAP encodingStyle anywhere: a literal reading, where the schema says the node is not nillable.
    const literal = (xml: string) => xml.replace(` soapenv:encodingStyle="${ENC}"`, '');
    expect(matchXml(scenario.response.body!, parseXml(literal(nullField)), scenario.scope).map((m) => m.path)).toEqual(['Envelope/Body/getQuotesResponse/quotes/item[0]/symbol']);
    expect(matchXml(scenario.response.body!, parseXml(literal(wholeArray)), scenario.scope).map((m) => m.path)).toEqual(['Envelope/Body/getQuotesResponse/quotes']);
  });

  test('xsi:null="1" of the 1999 XSI namespace (old SOAP::Lite, Apache SOAP) is a null in an encoded message, an unknown attribute elsewhere', () => {
    const XSI99 = 'http://www.w3.org/1999/XMLSchema-instance';
    const old = axisResponse
      .replace('xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"', `xmlns:xsi="${XSI99}"`)
      .replace('<price xsi:type="xsd:double">101.5</price>', '<price xsi:type="xsd:double" xsi:null="1"/>');
    expect(matchXml(scenario.response.body!, parseXml(old), scenario.scope)).toEqual([]);
    const literal = old.replace(` soapenv:encodingStyle="${ENC}"`, '');
    expect(matchXml(scenario.response.body!, parseXml(literal), scenario.scope).map((m) => `${m.path}: ${m.actual}`)).toEqual([
      'Envelope/Body/getQuotesResponse/quotes/item[0]/price/@null: unexpected attribute null',
      'Envelope/Body/getQuotesResponse/quotes/item[0]/price: ""',
    ]);
  });

  test('the stub accepts a whole array sent as null, and array members named after their type (.NET), in a request', async () => {
    const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
    try {
      for (const body of [
        soapLiteRequest.replace(/<symbols [\s\S]*<\/symbols>/, '<symbols xsi:type="soapenc:Array" xsi:nil="true"/>'),
        soapLiteRequest.replace(/<item (xsi:type="xsd:string">\w+)<\/item>/g, '<string $1</string>'),
      ]) {
        const res = await fetch(`${stub.url}/quotes`, { method: 'POST', headers: { 'content-type': 'text/xml', soapaction: '"urn:accord:quotes#getQuotes"' }, body });
        expect([res.status, res.status === 200 ? '' : await res.text()]).toEqual([200, '']);
      }
    } finally {
      await stub.close();
    }
  });

  test('a real service (the soap package) answering with xsi:type and soapenc:arrayType passes the contract tests', async () => {
    const typed = (type: string, value: unknown) => ({ attributes: { 'xsi:type': type }, $value: value });
    const hosted = await host(WSDL, '/quotes', {
      QuoteService: {
        QuotePort: {
          getQuotes: () => ({
            quotes: {
              attributes: { 'xsi:type': 'soapenc:Array', 'soapenc:arrayType': 'tns:Quote[1]', 'xmlns:soapenc': ENC, 'soapenc:offset': '[0]' },
              item: [{ attributes: { 'xsi:type': 'tns:Quote' }, symbol: typed('xsd:string', 'IBM'), price: typed('xsd:double', 101.5) }],
            },
          }),
        },
      },
    });
    try {
      const results = await runAll(WSDL, hosted);
      expect(failures(results, hosted.url)).toEqual([]);
    } finally {
      await hosted.close();
    }
  });
});
