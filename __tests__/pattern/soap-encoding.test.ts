import { parseContract } from '../../src/contract/load';
import { generateBody } from '../../src/pattern/generate/index';
import { matchXml } from '../../src/pattern/match/index';
import { createRandom } from '../../src/pattern/random';
import { compileXmlTemplate } from '../../src/stub/answer/template';
import { parseXml } from '../../src/xml/parse';
import type { XmlElement } from '../../src/xml/tree';

/**
 * Inside SOAP-encoding scope (an `encodingStyle` naming SOAP encoding, as `accord import wsdl` writes
 * for an encoded binding or a person writes by hand), generated messages type their accessors the way
 * clients that type by the message read them (suds, SOAP::Lite): `xsi:type` on built-in values and on
 * the members the contract names a type for, `SOAP-ENC:arrayType="T[n]"` on arrays, n the members made.
 */
const contract = (body: string) =>
  parseContract(
    `Feature: Encoded
  Scenario: list
    Given type Order
    """
    <SPECMATIC_TYPE specmatic_order="any">
      <id>(int)</id>
      <total>(decimal)</total>
      <code>(string maxLength=4)</code>
      <status>(Status)</status>
    </SPECMATIC_TYPE>
    """
    And enum Status (string) values open,shipped
    And type Res
    """
${body}
    """
    When POST /rpc
    Then status 200
    And response-body (Res)
`,
    'encoded.spec',
  ).scenarios[0];

const SOAP11 = `<tns:listResponse xmlns:tns="urn:o" xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
  <orders>
    <item specmatic_type="Order" specmatic_occurs="multiple" specmatic_name="any" specmatic_xsi_type="tns:Order"/>
  </orders>
  <names><n specmatic_occurs="0..4" specmatic_name="any">(string)</n></names>
  <when>(datetime)</when>
  <plain soapenv:encodingStyle=""><count>(int)</count></plain>
</tns:listResponse>`;

function generated(body: string, seed: number): { text: string; root: XmlElement } {
  const s = contract(body);
  const text = generateBody(s.response.body!, { scope: s.scope, rng: createRandom(seed) }).text;
  return { text, root: parseXml(text) };
}

const child = (el: XmlElement, local: string) => el.children.find((c): c is XmlElement => c.type === 'element' && c.local === local)!;
const elements = (el: XmlElement) => el.children.filter((c): c is XmlElement => c.type === 'element');
const attr = (el: XmlElement, name: string) => el.attributes.find((a) => a.name === name)?.value;

describe('generation inside SOAP-encoding scope', () => {
  test('built-in values carry xsi:type, the scope root declares the prefixes', () => {
    const { root } = generated(SOAP11, 1);
    expect(attr(root, 'xmlns:xsi')).toBe('http://www.w3.org/2001/XMLSchema-instance');
    expect(attr(root, 'xmlns:xsd')).toBe('http://www.w3.org/2001/XMLSchema');
    expect(attr(root, 'xmlns:SOAP-ENC')).toBe('http://schemas.xmlsoap.org/soap/encoding/');
    const item = elements(child(root, 'orders'))[0];
    expect(attr(item, 'xsi:type')).toBe('tns:Order');
    expect(attr(child(item, 'id'), 'xsi:type')).toBe('xsd:int');
    expect(attr(child(item, 'total'), 'xsi:type')).toBe('xsd:decimal');
    expect(attr(child(root, 'when'), 'xsi:type')).toBe('xsd:dateTime');
    // A narrowed type and an enumeration are of a named simple type: naming their base would be invalid.
    expect(attr(child(item, 'code'), 'xsi:type')).toBeUndefined();
    expect(attr(child(item, 'status'), 'xsi:type')).toBeUndefined();
  });

  test('an array says its members type and count, whatever the count', () => {
    for (let seed = 0; seed < 30; seed++) {
      const { root } = generated(SOAP11, seed);
      const orders = child(root, 'orders');
      expect(attr(orders, 'SOAP-ENC:arrayType')).toBe(`tns:Order[${elements(orders).length}]`);
      const names = child(root, 'names');
      expect(attr(names, 'SOAP-ENC:arrayType')).toBe(`xsd:string[${elements(names).length}]`);
    }
  });

  test('an encodingStyle naming another encoding ends the scope; a literal body is left as it was', () => {
    const { root } = generated(SOAP11, 2);
    expect(attr(child(child(root, 'plain'), 'count'), 'xsi:type')).toBeUndefined();
    const literal = generated(SOAP11.replace(/ soapenv:encodingStyle="[^"]*"/g, ''), 2).text;
    expect(literal).not.toMatch(/xsi:type|arrayType|xmlns:xsd/);
  });

  test('SOAP 1.2 encoding: enc:itemType and enc:arraySize', () => {
    const body = SOAP11.replace('http://schemas.xmlsoap.org/soap/encoding/', 'http://www.w3.org/2003/05/soap-encoding');
    const { root } = generated(body, 3);
    expect(attr(root, 'xmlns:SOAP-ENC')).toBe('http://www.w3.org/2003/05/soap-encoding');
    const orders = child(root, 'orders');
    expect([attr(orders, 'SOAP-ENC:itemType'), attr(orders, 'SOAP-ENC:arraySize')]).toEqual(['tns:Order', String(elements(orders).length)]);
    expect(attr(orders, 'SOAP-ENC:arrayType')).toBeUndefined();
  });

  test('prefixes the contract declares are reused, and a prefix taken by another namespace is not', () => {
    const body = SOAP11.replace('xmlns:tns="urn:o"', 'xmlns:tns="urn:o" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:xsi="urn:not-xsi"');
    const { root, text } = generated(body, 4);
    expect(attr(root, 'xmlns:xsd')).toBeUndefined();
    expect(attr(root, 'xmlns:xsi1')).toBe('http://www.w3.org/2001/XMLSchema-instance');
    expect(text).toContain('<when xsi1:type="s:dateTime">');
  });

  test('what the contract declares itself is written as declared, once', () => {
    const body = SOAP11.replace('<when>(datetime)</when>', '<when xsi:type="xsd:string">(datetime)</when>').replace('<orders>', '<orders SOAP-ENC:arrayType="tns:Order[]">');
    const { text } = generated(body, 5);
    expect(text).toContain('<when xsi:type="xsd:string">');
    expect(text.match(/<orders[^>]*>/)![0]).toBe('<orders SOAP-ENC:arrayType="tns:Order[]">');
  });

  test('the contract matches what it generates, and the same message without the encoding attributes', () => {
    const s = contract(SOAP11);
    for (let seed = 0; seed < 20; seed++) {
      const { text } = generated(SOAP11, seed);
      expect(matchXml(s.response.body!, parseXml(text), s.scope)).toEqual([]);
      const bare = text.replace(/ (xsi|SOAP-ENC):\w+="[^"]*"/g, '');
      expect(matchXml(s.response.body!, parseXml(bare), s.scope)).toEqual([]);
    }
  });

  test("the stub's compiled template writes the same bytes", () => {
    for (const body of [SOAP11, SOAP11.replace('http://schemas.xmlsoap.org/soap/encoding/', 'http://www.w3.org/2003/05/soap-encoding')]) {
      const s = contract(body);
      const template = compileXmlTemplate(s)!;
      expect(template).toBeDefined();
      for (let seed = 0; seed < 50; seed++) expect(template(createRandom(seed))).toBe(generateBody(s.response.body!, { scope: s.scope, rng: createRandom(seed) }).text);
    }
  });
});
