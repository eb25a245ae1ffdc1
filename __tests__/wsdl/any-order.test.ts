import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { printXml } from '../../src/contract/print/pattern';
import { AccordError } from '../../src/errors';
import { matchXml } from '../../src/pattern/match/index';
import { xmlPatternFromText } from '../../src/pattern/xml-pattern';
import { formatMismatch } from '../../src/pattern/match/mismatch';
import { startStub } from '../../src/stub';
import { parseXml } from '../../src/xml/parse';
import { importWsdl } from '../../src/wsdl';
import { WSDL_FIXTURES as FIXTURES } from './fixtures';

/*
 * login-any-order.wsdl: an rpc/encoded service whose server sends the return value before the other
 * output parameter (as Delphi's do: SOAP 1.1 section 7.1 puts the return value first, and a
 * SOAP-encoded struct's accessors are told apart by name, section 5.4.1), and a type with xs:all.
 * Before, the wrapper and the xs:all type were ordered sequences and such real answers were refused.
 */
const { text } = importWsdl(path.join(FIXTURES, 'rpc-encoded', 'login-any-order.wsdl'));
const contract = parseContract(text, 'login.spec');
const login = contract.scenarios.find((s) => s.name === 'Login')!;

const envelope = (body: string) =>
  `<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ` +
  `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" SOAP-ENV:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><SOAP-ENV:Body>${body}</SOAP-ENV:Body></SOAP-ENV:Envelope>`;
const answer = (inner: string) => envelope(`<NS1:LoginResponse xmlns:NS1="urn:accord:login">${inner}</NS1:LoginResponse>`);
const response = (inner: string) => matchXml(login.response.body!, parseXml(answer(inner)), login.scope).map(formatMismatch);

const settings = (inner = '<timeout xsi:type="xsd:int">30</timeout><language xsi:type="xsd:string">en</language>') => `<settings>${inner}</settings>`;
const sessionId = '<SessionID xsi:type="xsd:string">{B26106C6-2F6C-4C7E-9E1A-3B2D4F5A6C7D}</SessionID>';
const ret = '<return xsi:type="NS1:LoginResult">lrSuccess</return>';

describe('login-any-order.wsdl: child nodes in any order', () => {
  it('marks the rpc/encoded wrappers and the xs:all type specmatic_order="any", and prints it back as read', () => {
    expect(text).toContain('<tns:Login specmatic_order="any"');
    expect(text).toContain('<tns:LoginResponse specmatic_order="any"');
    expect(text).toContain('<SPECMATIC_TYPE specmatic_order="any">');
    const written = '<tns:LoginResponse specmatic_order="any" xmlns:tns="urn:accord:login">\n  <SessionID>(string)</SessionID>\n  <return>(string)</return>\n</tns:LoginResponse>';
    const read = xmlPatternFromText(written);
    expect(read.anyOrder).toBe(true);
    expect(printXml(read)).toBe(written.replace(' xmlns:tns="urn:accord:login"', '').replace('specmatic_order="any"', 'xmlns:tns="urn:accord:login" specmatic_order="any"'));
  });

  it('accepts the return value first, as the server sends it, and every other order', () => {
    expect(response(`${ret}${settings()}${sessionId}`)).toEqual([]);
    expect(response(`${sessionId}${settings()}${ret}`)).toEqual([]);
    expect(response(`${settings('<language>en</language><region>eu</region><timeout>5</timeout>')}${ret}${sessionId}`)).toEqual([]);
  });

  it('still checks each node by its name: an extra one, a second one and a wrong value are refused with their paths; a missing one is a null (encoded)', () => {
    // SOAP 1.1 (5.1): in SOAP-encoding scope an accessor whose value is null may be left out.
    expect(response(`${ret}${settings()}`)).toEqual([]);
    expect(response(`${ret}${sessionId}${settings()}<extra/>`).join('\n')).toContain('extra');
    expect(response(`${ret}${ret}${sessionId}${settings()}`)).not.toEqual([]);
    expect(response(`${sessionId}${settings('<timeout>soon</timeout><language>en</language>')}${ret}`).join('\n')).toContain('LoginResponse/settings/timeout: expected');
  });

  it('the stub answers in the order written and takes a request in any order', async () => {
    const stub = await startStub({ contracts: contract, log: () => undefined });
    try {
      const post = (body: string) => fetch(`${stub.url}/soap/ILogin`, { method: 'POST', headers: { 'content-type': 'text/xml', soapaction: 'urn:accord:login#Login' }, body });
      const ok = await post(envelope('<ns:Login xmlns:ns="urn:accord:login"><password>p</password><user>u</user></ns:Login>'));
      expect(ok.status).toBe(200);
      expect(await ok.text()).toMatch(/<SessionID xsi:type="xsd:string">.*<settings xsi:type="tns:Settings">.*<\/settings>\s*<return xsi:type="tns:LoginResult">/s);
      const refused = await post(envelope('<ns:Login xmlns:ns="urn:accord:login"><password>p</password><user>u</user><bogus/></ns:Login>'));
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('bogus');
    } finally {
      await stub.close();
    }
  });

  it('refuses another value of specmatic_order in a hand-written contract, naming the line', () => {
    const spec = 'Feature: F\n  Scenario: S\n    When POST /x\n    And request-body <a specmatic_order="sorted"><b>(string)</b></a>\n    Then status 200\n';
    expect(() => parseContract(spec, 'f.spec')).toThrow(AccordError);
    expect(() => parseContract(spec, 'f.spec')).toThrow(/specmatic_order="sorted" on <a>: expected "any"/);
  });
});
