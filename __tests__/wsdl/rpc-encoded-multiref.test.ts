import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AccordError } from '../../src/errors';
import { parseContract, testCases } from '../../src/contract/load';
import { printXml } from '../../src/contract/print/pattern';
import { matchResponse } from '../../src/http/match-response';
import { matchXml } from '../../src/pattern/match/index';
import { formatMismatches } from '../../src/pattern/match/mismatch';
import type { XmlElementPattern } from '../../src/pattern/types';
import { runCase } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { parseXml } from '../../src/xml/parse';
import { startServer } from '../helpers/servers';
import { WSDL_FIXTURES } from './fixtures';

/**
 * rpc/encoded multi-reference values (SOAP 1.1 section 5.4.1), as Axis 1 writes every struct and array
 * by default (`<getPortfolioReturn href="#id0"/>` and Body-level `<multiRef id="id0" soapenc:root="0">`)
 * and .NET writes them (independent elements named after their type, array members named after theirs).
 * The recorded-style responses beside the WSDL are hand-written in exactly those shapes.
 */
const DIR = path.join(WSDL_FIXTURES, 'rpc-encoded');
const WSDL = path.join(DIR, 'portfolio.wsdl');
const AXIS = readFileSync(path.join(DIR, 'portfolio-axis-response.xml'), 'utf8');
const DOTNET = readFileSync(path.join(DIR, 'portfolio-dotnet-response.xml'), 'utf8');
const ENC = 'http://schemas.xmlsoap.org/soap/encoding/';
const contract = parseContract(importWsdl(WSDL).text, 'portfolio.spec');
const getPortfolio = testCases(contract).find((c) => c.name === 'getPortfolio')!;
const XML = { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' } };
const report = (body: string) => formatMismatches(matchResponse(getPortfolio.scenario, { ...XML, body }));

/** A getPortfolio response whose Body (after the Envelope's namespaces) is `body`. */
const axisBody = (body: string) =>
  `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:soapenc="${ENC}">` +
  `<soapenv:Body><ns1:getPortfolioResponse soapenv:encodingStyle="${ENC}" xmlns:ns1="urn:accord:portfolio">${body}</soapenv:Body></soapenv:Envelope>`;
const multiRef = (id: string, inner: string) => `<multiRef id="${id}" soapenc:root="0" soapenv:encodingStyle="${ENC}">${inner}</multiRef>`;

describe('multi-reference values in rpc/encoded responses', () => {
  test.each([
    ['Axis 1 (multiRef elements, soapenc:root="0", a Quote shared by two positions)', AXIS],
    ['.NET (independent elements named after their type, encodingStyle on the Body, members <Position> and <string>)', DOTNET],
  ])('the runner accepts a recorded-style %s response from a live server', async (_name, body) => {
    const server = await startServer(() => ({ body }));
    try {
      const r = await runCase(getPortfolio, { baseUrl: server.url, seed: 0 });
      expect({ passed: r.passed, report: formatMismatches(r.mismatches) }).toEqual({ passed: true, report: [] });
    } finally {
      await server.close();
    }
  });

  test("a value that breaks the contract is named by the accessor's path, through the references", () => {
    const wrong = AXIS.replace('<price xsi:type="xsd:double">101.5</price>', '<price xsi:type="xsd:double">cheap</price>');
    expect(report(wrong)).toEqual([
      '  RESPONSE.BODY Envelope/Body/getPortfolioResponse/getPortfolioReturn/positions/item[0]/quote/price: expected a double, found "cheap"',
      '  RESPONSE.BODY Envelope/Body/getPortfolioResponse/getPortfolioReturn/positions/item[1]/quote/price: expected a double, found "cheap"',
    ]);
    // SOAP 1.1 (5.1): in SOAP-encoding scope an accessor whose value is null may be left out.
    const missing = AXIS.replace('<owner xsi:type="xsd:string">ann</owner>', '');
    expect(report(missing)).toEqual([]);
    const extra = AXIS.replace('<owner xsi:type="xsd:string">ann</owner>', '<owner xsi:type="xsd:string">ann</owner><owner xsi:type="xsd:string">bob</owner>');
    expect(report(extra).join('\n')).toContain('owner');
  });

  test('a Body child that nothing refers to and that is not marked soapenc:root="0" is still an unexpected node', () => {
    const extra = AXIS.replace('</soapenv:Body>', `<stray soapenv:encodingStyle="${ENC}">x</stray></soapenv:Body>`);
    expect(report(extra)).toEqual([
      '  RESPONSE.BODY Envelope/Body: expected child nodes (getPortfolioResponse) in this order, found (getPortfolioResponse, stray)',
      '  RESPONSE.BODY Envelope/Body/stray: expected no such node here, found unexpected node <stray>',
    ]);
  });

  test('SOAP 1.2 encoding: enc:ref names an element with enc:id, wherever it stands', () => {
    const contract12 = parseContract(importWsdl(path.join(DIR, 'arrays-soap12.wsdl')).text, 'arrays.spec');
    const listItems = contract12.scenarios.find((s) => s.name === 'listItems')!;
    const E12 = 'http://www.w3.org/2003/05/soap-encoding';
    const body =
      `<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:enc="${E12}"><env:Body>` +
      `<m:listItemsResponse env:encodingStyle="${E12}" xmlns:m="urn:accord:inventory"><items enc:itemType="m:PricedItem" enc:arraySize="2">` +
      '<item enc:id="it1" enc:nodeType="struct"><sku>A-1</sku><quantity>2</quantity><price>9.5</price></item>' +
      '<item enc:ref="it1"/></items></m:listItemsResponse></env:Body></env:Envelope>';
    expect(formatMismatches(matchXml(listItems.response.body!, parseXml(body), listItems.scope))).toEqual([]);
    // Before reading enc:ref, the second item had no sku, quantity or price.
    expect(formatMismatches(matchXml(listItems.response.body!, parseXml(body.replace('enc:ref="it1"', 'enc:ref="it2"')), listItems.scope))).toEqual([
      '  Envelope/Body/listItemsResponse/items/item[1]: expected the element enc:ref="it2" refers to (a SOAP-encoded multi-reference value), found no element of the message has that id',
    ]);
  });

  test('the stub accepts a request whose parameters are multi-reference values (an Axis 1 client)', async () => {
    const request =
      `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
      `<soapenv:Body><ns1:savePortfolio soapenv:encodingStyle="${ENC}" xmlns:ns1="urn:accord:portfolio"><portfolio href="#id0"/></ns1:savePortfolio>` +
      AXIS.slice(AXIS.indexOf('<multiRef id="id0"'), AXIS.indexOf('</soapenv:Body>')) +
      '</soapenv:Body></soapenv:Envelope>';
    const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
    try {
      const res = await fetch(`${stub.url}/axis/services/Portfolio`, { method: 'POST', headers: { 'content-type': 'text/xml', soapaction: '""' }, body: request });
      const text = await res.text();
      expect([res.status, res.status === 200 ? '' : text]).toEqual([200, '']);
      expect(text).toContain('<savePortfolioReturn xsi:type="xsd:boolean">');
    } finally {
      await stub.close();
    }
  });
});

describe('references are read only in SOAP encoding scope', () => {
  const literal = parseContract(
    [
      'Feature: links',
      '  Scenario: a literal document with its own href and id attributes',
      '    Given type Doc',
      '    """',
      '    <doc><link href="(string)"/><target id="(string)">(string)</target></doc>',
      '    """',
      '    When POST /doc',
      '    And request-body (Doc)',
      '    Then status 200',
    ].join('\n'),
    'links.spec',
  ).scenarios[0];

  test("a literal message's href is data: matched as written, never followed", () => {
    const doc = '<doc><link href="#t"/><target id="t">text</target></doc>';
    expect(matchXml(literal.request.body!, parseXml(doc), literal.scope)).toEqual([]);
    // The same, with a SOAP encodingStyle somewhere else in the document that does not cover it.
    const beside = `<doc xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><link href="#t"/><target id="t" e:encodingStyle="">text</target></doc>`;
    expect(matchXml(literal.request.body!, parseXml(beside), literal.scope)).toEqual([]);
  });

  test('encodingStyle="" on an accessor: its reference is still read when the element it names is encoded itself', () => {
    const off = AXIS.replace('<positions href="#id1"/>', `<positions href="#id1" soapenv:encodingStyle=""/>`);
    // The multiRef it names is encoded itself ("or on the referenced element"), so the reference is still read.
    expect(report(off)).toEqual([]);
  });
});

describe('hostile references: a mismatch naming the path, never a hang', () => {
  test('a reference cycle', () => {
    const body = axisBody(`<getPortfolioReturn href="#a"/></ns1:getPortfolioResponse>` + multiRef('a', '<owner>x</owner><positions href="#a"/><tags/>'));
    expect(report(body)).toEqual([
      '  RESPONSE.BODY Envelope/Body/getPortfolioResponse/getPortfolioReturn/positions: expected a value that does not contain itself, found href="#a", which refers to an element this accessor is inside (a reference cycle)',
    ]);
  });

  test('a dangling reference', () => {
    const body = axisBody(`<getPortfolioReturn href="#nowhere"/></ns1:getPortfolioResponse>`);
    expect(report(body)).toEqual([
      '  RESPONSE.BODY Envelope/Body/getPortfolioResponse/getPortfolioReturn: expected the element href="#nowhere" refers to (a SOAP-encoded multi-reference value), found no element of the message has that id',
    ]);
  });

  test('two elements with the id a reference names', () => {
    const body = axisBody(`<getPortfolioReturn href="#a"/></ns1:getPortfolioResponse>` + multiRef('a', '<owner>x</owner>') + multiRef('a', '<owner>y</owner>'));
    expect(report(body)[0]).toMatch(/getPortfolioReturn: expected one element with the id href="#a" refers to, found several elements with that id$/);
  });

  test('a DAG of shared references doubling at each of 60 levels (2^60 elements) is refused at once', () => {
    const levels = 60;
    let refs = '';
    for (let i = 0; i < levels; i++) refs += multiRef(`l${i}`, `<tags><item href="#l${i + 1}"/><item href="#l${i + 1}"/></tags>`);
    refs += multiRef(`l${levels}`, '<owner>lol</owner>');
    const body = axisBody(`<getPortfolioReturn href="#l0"/></ns1:getPortfolioResponse>` + refs);
    const started = process.hrtime.bigint();
    const lines = report(body);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2000);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^ {2}RESPONSE\.BODY Envelope\/Body\/getPortfolioResponse\/getPortfolioReturn(\/tags\/item\[[01]\])+(\/tags)?: expected a value of at most 200000 elements once its references are read, found more/,
    );
  });

  test('a chain of references nested deeper than the XML depth limit', () => {
    let refs = '';
    for (let i = 0; i < 300; i++) refs += multiRef(`d${i}`, `<owner href="#d${i + 1}"/>`);
    refs += multiRef('d300', 'end');
    const lines = report(axisBody(`<getPortfolioReturn href="#d0"/></ns1:getPortfolioResponse>` + refs));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/expected at most 256 levels once references are read, found (href="#d\d+", )?nested deeper through references: refused$/);
  });
});

describe('specmatic_name="any" in the contract language', () => {
  const spec = (attr: string) =>
    [
      'Feature: names',
      '  Scenario: list',
      '    When POST /list',
      `    And request-body <list><item specmatic_occurs="multiple"${attr}>(string)</item></list>`,
      '    Then status 200',
    ].join('\n');

  test('is printed back as written, and matches a member of any name; without it the name counts', () => {
    const any = parseContract(spec(' specmatic_name="any"'), 'names.spec').scenarios[0];
    expect(printXml(any.request.body as XmlElementPattern)).toContain('<item specmatic_occurs="multiple" specmatic_name="any">(string)</item>');
    const members = parseXml('<list><string>a</string><item>b</item></list>');
    expect(matchXml(any.request.body!, members, any.scope)).toEqual([]);
    const named = parseContract(spec(''), 'names.spec').scenarios[0];
    expect(matchXml(named.request.body!, members, named.scope).map((m) => m.path)).toContain('list/string');
  });

  test('any other value is a contract error with its line', () => {
    let error: unknown;
    try {
      parseContract(spec(' specmatic_name="item"'), 'names.spec');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AccordError);
    expect({ message: (error as AccordError).message, line: (error as AccordError).location.line }).toEqual({
      message: expect.stringContaining('specmatic_name="item" on <item>: expected "any"'),
      line: 4,
    });
  });
});
