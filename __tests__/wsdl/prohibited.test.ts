import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';

/**
 * An attribute a restriction marks use="prohibited" is gone from the restricted type and from
 * every type derived from it in turn (restriction, then extension: large real WSDLs chain them),
 * in the contract and in a stub's answers.
 */
const WSDL = `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:p" targetNamespace="urn:p">
  <types>
    <xsd:schema targetNamespace="urn:p" elementFormDefault="qualified">
      <xsd:complexType name="Base">
        <xsd:sequence><xsd:element name="v" type="xsd:string"/></xsd:sequence>
        <xsd:attribute name="keep" type="xsd:int"/>
        <xsd:attribute name="legacy" type="xsd:string"/>
      </xsd:complexType>
      <xsd:complexType name="Restricted">
        <xsd:complexContent>
          <xsd:restriction base="tns:Base">
            <xsd:sequence><xsd:element name="v" type="xsd:string"/></xsd:sequence>
            <xsd:attribute name="legacy" use="prohibited"/>
          </xsd:restriction>
        </xsd:complexContent>
      </xsd:complexType>
      <xsd:complexType name="Extended">
        <xsd:complexContent>
          <xsd:extension base="tns:Restricted">
            <xsd:sequence><xsd:element name="w" type="xsd:string"/></xsd:sequence>
            <xsd:attribute name="added" type="xsd:boolean" use="required"/>
          </xsd:extension>
        </xsd:complexContent>
      </xsd:complexType>
      <xsd:element name="get"><xsd:complexType><xsd:sequence><xsd:element name="id" type="xsd:int"/></xsd:sequence></xsd:complexType></xsd:element>
      <xsd:element name="getResponse"><xsd:complexType><xsd:sequence>
        <xsd:element name="r" type="tns:Restricted"/><xsd:element name="x" type="tns:Extended"/>
      </xsd:sequence></xsd:complexType></xsd:element>
    </xsd:schema>
  </types>
  <message name="in"><part name="p" element="tns:get"/></message>
  <message name="out"><part name="p" element="tns:getResponse"/></message>
  <portType name="P"><operation name="get"><input message="tns:in"/><output message="tns:out"/></operation></portType>
  <binding name="B" type="tns:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="get"><soap:operation soapAction="urn:p#get"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
  <service name="S"><port name="SP" binding="tns:B"><soap:address location="http://localhost/p"/></port></service>
</definitions>`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-prohibited-'));
  writeFileSync(path.join(dir, 'p.wsdl'), WSDL);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the contract has no prohibited attribute on the restriction nor on the extension of it', () => {
  const { text } = importWsdl(path.join(dir, 'p.wsdl'));
  expect(text).toMatch(/keep\.opt="\(int\)"/);
  expect(text).toMatch(/added="\(boolean\)"/);
  expect(text).not.toMatch(/legacy/);
});

test("a stub's answers never carry it", async () => {
  const stub = await startStub({ contracts: parseContract(importWsdl(path.join(dir, 'p.wsdl')).text, 'p.spec'), port: 0, log: () => undefined });
  try {
    for (let id = 0; id < 20; id++) {
      const res = await fetch(`${stub.url}/p`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml', soapaction: '"urn:p#get"' },
        body: `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:t="urn:p"><s:Body><t:get><t:id>${id}</t:id></t:get></s:Body></s:Envelope>`,
      });
      const text = await res.text();
      expect([res.status, text]).toEqual([200, expect.not.stringContaining('legacy') as string]);
    }
  } finally {
    await stub.close();
  }
});
