import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { buildRequest } from '../../src/http/build-request';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { WSDL_FIXTURES } from './fixtures';

/**
 * rpc/encoded structs outside arrays (issue 38 point 1): PHP SoapServer and Axis 1.4 type every
 * accessor of an encoded message, the struct itself by its named type (`xsi:type="ns1:Booking"`)
 * and a value of a named simple type by that type (`ns1:Status`), and clients that read types from
 * the message (soap4r, SOAP::Lite) take an untyped value for a string, which breaks a date.
 * Both what a contract test sends and what the stub answers carry them; the stub accepts the
 * message with or without them.
 */
const WSDL = path.join(WSDL_FIXTURES, 'rpc-encoded', 'booking.wsdl');
const contract = parseContract(importWsdl(WSDL).text, 'booking.spec');
const ENC = 'http://schemas.xmlsoap.org/soap/encoding/';

/** Every accessor of the struct named `part` carries the xsi:type PHP and Axis write. */
function expectTyped(xml: string, part: string): void {
  const struct = new RegExp(`<${part} xsi:type="tns:Booking">(.*?)</${part}>`).exec(xml);
  expect(struct?.[1]).toBeDefined();
  const members = struct![1];
  expect(members).toMatch(/<day xsi:type="xsd:date">\d{4}-\d\d-\d\d<\/day>/);
  expect(members).toMatch(/<seats xsi:type="xsd:int">-?\d+<\/seats>/);
  expect(members).toMatch(/<guest xsi:type="xsd:string">[^<]*<\/guest>/);
  expect(members).toMatch(/<status xsi:type="tns:Status">(open|closed)<\/status>/);
}

const envelope = (booking: string) =>
  `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:b="urn:booking">` +
  `<s:Body><b:book s:encodingStyle="${ENC}">${booking}</b:book></s:Body></s:Envelope>`;
const PLAIN = '<booking><day>2026-12-24</day><seats>2</seats><guest>Ann</guest><status>open</status></booking>';
const PHP =
  '<booking xsi:type="b:Booking"><day xsi:type="xsd:date">2026-12-24</day><seats xsi:type="xsd:int">2</seats>' +
  '<guest xsi:type="xsd:string">Ann</guest><status xsi:type="b:Status">open</status></booking>';

describe('an rpc/encoded struct outside an array', () => {
  test('the contract names the struct and enumeration types for xsi:type', () => {
    const text = importWsdl(WSDL).text;
    expect(text).toMatch(/<booking specmatic_type="Booking" specmatic_xsi_type="tns:Booking"\/>/);
    expect(text).toMatch(/<status specmatic_xsi_type="tns:Status">\(Status\)<\/status>/);
    // Built-in members need no name: their type is the placeholder's.
    expect(text).toMatch(/<day>\(date\)<\/day>/);
  });

  test('a contract test sends the struct and each member typed', () => {
    for (const tc of testCases(contract)) expectTyped(buildRequest(tc).body!, 'booking');
  });

  test('the stub answers the struct and each member typed, and accepts a request with or without xsi:type', async () => {
    const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
    try {
      for (const booking of [PLAIN, PHP]) {
        const res = await fetch(`${stub.url}/booking`, { method: 'POST', headers: { 'content-type': 'text/xml', soapaction: '"urn:booking#book"' }, body: envelope(booking) });
        const text = await res.text();
        expect([res.status, res.status === 200 ? '' : text]).toEqual([200, '']);
        expectTyped(text, 'confirmed');
      }
      // Typing is bookkeeping, never a licence: a wrong value is still refused.
      const wrong = await fetch(`${stub.url}/booking`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml', soapaction: '"urn:booking#book"' },
        body: envelope(PHP.replace('>2026-12-24<', '>tomorrow<')),
      });
      expect(wrong.status).toBe(400);
    } finally {
      await stub.close();
    }
  });
});
