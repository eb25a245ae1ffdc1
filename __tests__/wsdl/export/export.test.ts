import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseContract } from '../../../src/contract/load';
import { exportWsdl } from '../../../src/wsdl/export';
import { equalBothWays, findings, FIXTURES, roundTrip } from './round-trip';

/**
 * `accord export wsdl` is `accord import wsdl`'s inverse: the contract imported from the exported
 * WSDL is, for `accord compatible`, equal to the original both ways. Checked on a hand-written
 * contract and on the importer's own golden contracts (every construct it writes), and shown to
 * fail where the WSDL cannot say what the contract says.
 */
const QUOTES = path.join(FIXTURES, 'export', 'quotes.spec');

test('the hand-written quotes contract exports as the golden WSDL', () => {
  const c = parseContract(readFileSync(QUOTES, 'utf8'), QUOTES);
  const r = exportWsdl(c.scenarios, { name: c.name });
  expect(r.text).toBe(readFileSync(path.join(FIXTURES, 'export', 'quotes.wsdl'), 'utf8'));
  expect(r.operations).toEqual(['getQuote', 'listSymbols']);
  expect(r.dropped).toEqual([]);
});

// The seed's SOAP examples (contracts/soap) and the importer's golden contracts (fixtures/wsdl): each exported and imported back is the same contract.
const EQUAL = [
  'export/quotes.spec',
  'export/placeholders.spec',
  '../../contracts/soap/api_pet_v1.spec',
  '../../contracts/soap/api_petstore_v1.spec',
  'wsdl/corpus/Axis2WSD20.spec',
  'wsdl/corpus/CustomerService.spec',
  'wsdl/corpus/calculator-soap11and12.spec',
  'wsdl/corpus/hello_world_RPCLit.spec',
  'wsdl/corpus/hello_world_soap12.spec',
  'wsdl/features/features.spec',
  'wsdl/features/features.soap12.spec',
  'wsdl/imports/main.spec',
  'wsdl/rpc-literal/greeter.spec',
  'wsdl/soap-headers/login.spec',
  'wsdl/soap-headers/login20.spec',
  'wsdl/wsdl20/orders.spec',
];

test.each(EQUAL)('%s: exported, imported back, equal both ways', (file) => {
  const r = roundTrip(path.join(FIXTURES, file));
  expect(findings(r)).toEqual([]);
  expect(equalBothWays(r)).toBe(true);
});

test('without the placeholder annotation a (number) comes back a (decimal): the round trip says not equal', () => {
  const r = roundTrip(QUOTES, (w) => w.split(' accord:placeholder="number"').join(''));
  expect(equalBothWays(r)).toBe(false);
  expect(findings(r).join('\n')).toMatch(/price was \(decimal\), now \(number\)/);
});

test('what the WSDL cannot say is named, and the round trip is then not equal', () => {
  // rpc/encoded: the encodingStyle attribute is the contract's, a document/literal WSDL cannot carry it.
  const r = roundTrip(path.join(FIXTURES, 'wsdl', 'corpus', 'hello.spec'));
  expect(r.exported.dropped).toEqual([
    expect.stringContaining('<ns1:sayHello> carries soapenv:encodingStyle (rpc/encoded): written as document/literal'),
    expect.stringContaining('<ns1:sayHelloResponse> carries soapenv:encodingStyle (rpc/encoded): written as document/literal'),
  ]);
  expect(equalBothWays(r)).toBe(false);
});

function contract(text: string) {
  return parseContract(text, 'mixed.spec');
}

const SOAP = `
  Scenario: ping
    When POST /ws
    And request-body <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body><p:ping xmlns:p="urn:p">(string)</p:ping></soapenv:Body></soapenv:Envelope>
    Then status 200
    And response-body <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body><p:pong xmlns:p="urn:p">(number)</p:pong></soapenv:Body></soapenv:Envelope>
`;

test('a JSON scenario beside a SOAP one: the WSDL is written, and the JSON scenario is named in one line', () => {
  const c = contract(`Feature: Mixed\n${SOAP}\n  Scenario: pets\n    When POST /pets\n    And request-body {"name": "(string)"}\n    Then status 200\n`);
  const r = exportWsdl(c.scenarios, { name: c.name });
  expect(r.operations).toEqual(['ping']);
  expect(r.dropped).toEqual(['scenario "pets" (mixed.spec:9): the request body is JSON: not written (a WSDL describes SOAP messages)']);
  expect(r.text).toContain('<xs:element name="pong" type="xs:decimal" accord:placeholder="number"/>');
});

test('a GET, a path parameter, a literal Body: each named, nothing exported', () => {
  const c = contract(`Feature: None
  Scenario: get
    When GET /pets
    Then status 200
  Scenario: by id
    When POST /pets/(id:number)
    And request-body <a/>
    Then status 200
  Scenario: literal
    When POST /ws
    And request-body <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>hello</soapenv:Body></soapenv:Envelope>
    Then status 200
`);
  const r = exportWsdl(c.scenarios, { name: c.name });
  expect(r.operations).toEqual([]);
  expect(r.text).toBe('');
  expect(r.dropped).toEqual([
    'scenario "get" (mixed.spec:2): not a SOAP scenario (GET /pets -> 200: SOAP is POSTed): not written',
    'scenario "by id" (mixed.spec:5): a path with parameters (/pets/(id:number)) cannot be a WSDL address: not written',
    'scenario "literal" (mixed.spec:9): request Body content that is a value, not an element: the scenario is not written',
  ]);
});

test('a literal text is a fixed value; (T*) is maxOccurs="unbounded"; an attribute literal is fixed too', () => {
  const c = contract(`Feature: Fixed
  Scenario: version
    When POST /ws
    And request-body <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><p:v xmlns:p="urn:p" schema="2.0"><p:n>(Item*)</p:n><p:kind>fixed</p:kind></p:v></soapenv:Body></soapenv:Envelope>
    And type Item <p:item>(string)</p:item>
    Then status 202
`);
  const r = exportWsdl(c.scenarios, { name: c.name });
  expect(r.text).toContain('<xs:element name="kind" type="xs:string" fixed="fixed"/>');
  expect(r.text).toContain('<xs:attribute name="schema" use="required" fixed="2.0" type="xs:string"/>');
  expect(r.text).toContain('<xs:element name="item" minOccurs="0" maxOccurs="unbounded" type="xs:string"/>');
  // 202 without a body: one-way, an input and no output.
  expect(r.text).toMatch(/<wsdl:operation name="v">\s*<wsdl:input message="tns:vRequest"\/>\s*<\/wsdl:operation>/);
});

test('a type that holds itself through (Name) is written once, its inner occurrence named as xs:anyType', () => {
  const c = contract(`Feature: Tree
  Scenario: tree
    Given type Node <p:node xmlns:p="urn:p"><p:label>(string)</p:label><p:kids>(Node*)</p:kids></p:node>
    When POST /ws
    And request-body <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><p:tree xmlns:p="urn:p">(Node)</p:tree></soapenv:Body></soapenv:Envelope>
    Then status 202
`);
  const r = exportWsdl(c.scenarios, { name: c.name });
  expect(r.operations).toEqual(['tree']);
  expect(r.text).toContain('<xs:element name="node" minOccurs="0" maxOccurs="unbounded" type="xs:anyType"/>');
  expect(r.dropped).toContain(
    'scenario "tree" (mixed.spec:2): (Node) holds itself: its inner <p:node> is typed xs:anyType (name the type with specmatic_type to write the recursion)',
  );
});

test('SOAP 1.2: the action from the Content-Type, a required header entry as a required soap12:header', () => {
  const c = parseContract(readFileSync(path.join(FIXTURES, 'export', 'placeholders.spec'), 'utf8'), 'placeholders.spec');
  const r = exportWsdl(c.scenarios, { name: c.name });
  expect(r.versions).toEqual(['1.2']);
  expect(r.text).toContain('<soap12:operation soapAction="urn:accord:accounts:open" style="document"/>');
  expect(r.text).toContain('<soap12:header message="tns:openAccountRequest" part="header" use="literal" wsdl:required="true"/>');
  expect(r.text).toContain('<xs:element name="email" accord:placeholder="email">');
});
