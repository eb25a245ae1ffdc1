import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importWsdl } from '../../src/wsdl';

/**
 * An xsd:import right inside wsdl:types, outside any xs:schema (seen in a real WSDL): it was ignored
 * without a word, and every element it declared became (anything). It is read as a schema import
 * now; one without a schemaLocation is said in one line.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-types-import-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const wsdl = (types: string) => `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:o="urn:orders" targetNamespace="urn:svc">
  <types>
    ${types}
  </types>
  <message name="in"><part name="p" element="o:getOrder"/></message>
  <message name="out"><part name="p" element="o:getOrderResponse"/></message>
  <portType name="P"><operation name="getOrder"><input message="tns:in" xmlns:tns="urn:svc"/><output message="tns:out" xmlns:tns="urn:svc"/></operation></portType>
  <binding name="B" type="tns:P" xmlns:tns="urn:svc"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="getOrder"><soap:operation soapAction="urn:getOrder"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>
</definitions>`;

const ORDERS = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:orders" elementFormDefault="qualified">
  <xs:element name="getOrder"><xs:complexType><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="getOrderResponse"><xs:complexType><xs:sequence><xs:element name="total" type="xs:decimal"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>`;

test('an xsd:import directly in wsdl:types is read: the operation is typed from the schema it names', () => {
  writeFileSync(path.join(dir, 'orders.xsd'), ORDERS);
  const file = path.join(dir, 'svc.wsdl');
  writeFileSync(file, wsdl('<xs:import namespace="urn:orders" schemaLocation="orders.xsd"/>'));
  const { text, summary } = importWsdl(file);
  expect(summary.unresolved).toEqual([]);
  expect(text).toContain('(int)');
  expect(text).toContain('(decimal)');
  expect(text).not.toContain('(anything)');
});

test('one that names a missing file is an unresolved import, named, as any other', () => {
  const file = path.join(dir, 'svc.wsdl');
  writeFileSync(file, wsdl('<xs:import namespace="urn:orders" schemaLocation="nowhere.xsd"/>'));
  const { summary } = importWsdl(file);
  expect(summary.unresolved).toEqual([expect.objectContaining({ location: 'nowhere.xsd' })]);
});

test('one without a schemaLocation is said in one line naming it', () => {
  const file = path.join(dir, 'svc.wsdl');
  writeFileSync(file, wsdl(`<xs:import namespace="urn:orders"/>\n    ${ORDERS}`));
  const { text, summary } = importWsdl(file);
  expect(text).toContain('(int)');
  expect(JSON.stringify(summary)).toMatch(/svc\.wsdl:4: an xsd:import directly in wsdl:types names no schemaLocation/);
});
