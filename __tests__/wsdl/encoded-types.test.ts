import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { generateBody } from '../../src/pattern/generate/index';
import { createRandom } from '../../src/pattern/random';
import { importWsdl } from '../../src/wsdl';

/**
 * An encoded binding's arrays of structs: the importer names the members' type
 * (`specmatic_xsi_type`), whether the array restriction declares its member with a particle
 * or only with `wsdl:arrayType`, so that generated messages say `SOAP-ENC:arrayType="tns:Quote[n]"`.
 */
const wsdl = (array: string) => `<?xml version="1.0"?>
<definitions name="Quotes" targetNamespace="urn:q" xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:tns="urn:q"
  xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
  <types>
    <xsd:schema targetNamespace="urn:q">
      <xsd:import namespace="http://schemas.xmlsoap.org/soap/encoding/"/>
      <xsd:complexType name="Quote"><xsd:all><xsd:element name="price" type="xsd:double"/></xsd:all></xsd:complexType>
      <xsd:complexType name="ArrayOfQuote">
        <xsd:complexContent>
          <xsd:restriction base="soapenc:Array">
            ${array}
            <xsd:attribute ref="soapenc:arrayType" wsdl:arrayType="tns:Quote[]"/>
          </xsd:restriction>
        </xsd:complexContent>
      </xsd:complexType>
    </xsd:schema>
  </types>
  <message name="in"><part name="n" type="xsd:int"/></message>
  <message name="out"><part name="quotes" type="tns:ArrayOfQuote"/></message>
  <portType name="P"><operation name="quotes"><input message="tns:in"/><output message="tns:out"/></operation></portType>
  <binding name="B" type="tns:P">
    <soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="quotes">
      <soap:operation soapAction="quotes"/>
      <input><soap:body use="encoded" namespace="urn:q" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></input>
      <output><soap:body use="encoded" namespace="urn:q" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></output>
    </operation>
  </binding>
  <service name="S"><port name="P" binding="tns:B"><soap:address location="http://localhost/q"/></port></service>
</definitions>`;

describe.each([
  ['wsdl:arrayType only', ''],
  ['a member particle', '<xsd:sequence><xsd:element name="quote" type="tns:Quote" minOccurs="0" maxOccurs="unbounded"/></xsd:sequence>'],
])('an encoded array of structs declared by %s', (_name, array) => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-encoded-types-'));
    writeFileSync(path.join(dir, 'q.wsdl'), wsdl(array));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the contract names the members type, and its answers say it with the count made', () => {
    const { text } = importWsdl(path.join(dir, 'q.wsdl'));
    expect(text).toContain('specmatic_xsi_type="tns:Quote"');
    const s = parseContract(text, 'q.spec').scenarios[0];
    for (let seed = 0; seed < 10; seed++) {
      const body = generateBody(s.response.body!, { scope: s.scope, rng: createRandom(seed) }).text;
      const members = body.match(/<(item|quote) xsi:type="tns:Quote">/g) ?? [];
      expect(body).toContain(`<quotes SOAP-ENC:arrayType="tns:Quote[${members.length}]"`);
      expect(body).toMatch(/<price xsi:type="xsd:double">/);
    }
  });
});
