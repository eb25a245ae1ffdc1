import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { generateBody } from '../../src/pattern/generate/index';
import { createRandom } from '../../src/pattern/random';
import { matchText } from '../../src/pattern/match/index';
import { parsePlaceholder } from '../../src/pattern/placeholder';
import { compileXmlTemplate } from '../../src/stub/answer/template';
import { importWsdl } from '../../src/wsdl';
import { parseXml } from '../../src/xml/parse';
import type { XmlElement } from '../../src/xml/tree';

/**
 * xs:ID and xs:IDREF (XSD 1.0 part 2, 3.3.8–3.3.9): a generated message holds each ID once, and
 * each IDREF names an ID of the same message. Before, both were plain names: a message repeated an
 * ID and its IDREFs named nothing (20 of 20 answers invalid in a minimal schema).
 */
const WSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
  <types><xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
    <xs:element name="getParts"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="parts"><xs:complexType><xs:sequence>
      <xs:element name="link" minOccurs="2" maxOccurs="2"><xs:complexType><xs:attribute name="to" type="xs:IDREF" use="required"/></xs:complexType></xs:element>
      <xs:element name="part" minOccurs="3" maxOccurs="5"><xs:complexType><xs:sequence><xs:element name="name" type="xs:string"/></xs:sequence><xs:attribute name="id" type="xs:ID" use="required"/></xs:complexType></xs:element>
      <xs:element name="main" type="xs:IDREF"/>
    </xs:sequence></xs:complexType></xs:element>
  </xs:schema></types>
  <message name="in"><part name="p" element="tns:getParts"/></message><message name="out"><part name="p" element="tns:parts"/></message>
  <portType name="P"><operation name="getParts"><input message="tns:in"/><output message="tns:out"/></operation></portType>
  <binding name="B" type="tns:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="getParts"><soap:operation soapAction="urn:getParts"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>
</definitions>`;

function all(el: XmlElement, local: string): XmlElement[] {
  const kids = el.children.filter((c): c is XmlElement => c.type === 'element');
  return [...kids.filter((k) => k.local === local), ...kids.flatMap((k) => all(k, local))];
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-xml-id-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the importer writes xs:ID and xs:IDREF as (xml-id) and (xml-idref); both take any NCName', () => {
  const file = path.join(dir, 'parts.wsdl');
  writeFileSync(file, WSDL);
  const { text } = importWsdl(file);
  expect(text).toContain('id="(xml-id)"');
  expect(text).toContain('to="(xml-idref)"');
  expect(matchText(parsePlaceholder('(xml-id)')!, 'p1', { types: new Map() })).toEqual([]);
  expect(matchText(parsePlaceholder('(xml-idref)')!, 'a:b', { types: new Map() })).not.toEqual([]);
});

test.each([
  ['the core generator', 'core'],
  ["the stub's compiled template", 'template'],
])('%s: every answer holds each ID once, and every IDREF names one of its IDs (100 seeds)', (_, how) => {
  const file = path.join(dir, 'parts.wsdl');
  writeFileSync(file, WSDL);
  const contract = parseContract(importWsdl(file).text, 'parts.spec');
  const s = contract.scenarios[0];
  const template = compileXmlTemplate(s);
  if (how === 'template') expect(template).toBeDefined();
  for (let seed = 1; seed <= 100; seed++) {
    const text = how === 'template' ? template!(createRandom(seed)) : generateBody(s.response.body!, { scope: s.scope, rng: createRandom(seed) }).text;
    const root = parseXml(text);
    const ids = all(root, 'part').map((p) => p.attributes.find((a) => a.local === 'id')!.value);
    const refs = [...all(root, 'link').map((l) => l.attributes.find((a) => a.local === 'to')!.value), ...all(root, 'main').map((m) => (m.children[0] as { value: string }).value)];
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of refs) expect([seed, r, ids.includes(r)]).toEqual([seed, r, true]);
  }
});

test('the core generator and the template still give the same bytes for the same seed', () => {
  const file = path.join(dir, 'parts.wsdl');
  writeFileSync(file, WSDL);
  const s = parseContract(importWsdl(file).text, 'parts.spec').scenarios[0];
  const template = compileXmlTemplate(s)!;
  for (let seed = 1; seed <= 20; seed++) expect(template(createRandom(seed))).toBe(generateBody(s.response.body!, { scope: s.scope, rng: createRandom(seed) }).text);
});
