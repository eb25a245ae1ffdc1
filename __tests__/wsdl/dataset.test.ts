import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { matchResponse } from '../../src/http/match-response';
import { formatMismatches } from '../../src/pattern/match/mismatch';
import { runCase } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { corpusWsdl, withCorpus } from '../helpers/corpus';
import { startServer } from '../helpers/servers';
import { buildSchemaSet } from '../helpers/xsd/schema-set';
import { payloadsOf, validateAll } from '../helpers/xsd/validate';
import { WSDL_FIXTURES } from './fixtures';

/**
 * .NET DataSets (asmx): the WSDL says `<s:element ref="s:schema"/><s:any/>`, an inline schema, then the
 * data, which .NET sends as a `diffgr:diffgram`. The stub must answer with what a strict validator takes
 * there (a schema, then a declared element), and what .NET really sends must still be accepted.
 */
const WSDL = path.join(WSDL_FIXTURES, 'dataset', 'properties.wsdl');
/** Hand-written after what .NET 2.0-4.x asmx services send: two rows, one modified (a diffgr:before block). */
const REAL = readFileSync(path.join(WSDL_FIXTURES, 'dataset', 'get-properties-response.xml'), 'utf8');
const { text } = importWsdl(WSDL);
const contract = parseContract(text, 'properties.spec');
const cases = testCases(contract);
const getProperties = cases.find((c) => c.name === 'GetProperties')!;
const getValuation = cases.find((c) => c.name === 'GetValuation')!;
const XML = { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' } };

/** A DataSet with no rows, as .NET sends it: the table's schema and an empty diffgram. */
const EMPTY_TABLE =
  '<xs:schema id="NewDataSet" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata">' +
  '<xs:element name="NewDataSet" msdata:IsDataSet="true" msdata:UseCurrentLocale="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded"/></xs:complexType></xs:element>' +
  '</xs:schema><diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1" />';
const resultHolding = (inner: string) => REAL.replace(/<GetPropertiesResult>.*<\/GetPropertiesResult>/s, `<GetPropertiesResult>${inner}</GetPropertiesResult>`);

test('the imported contract reads as an inline schema (not checked) followed by one element', () => {
  expect(text).toContain(
    [
      '      <tns:GetPropertiesResult specmatic_occurs="optional">',
      '        <!-- an inline XML Schema, not checked (in a .NET DataSet it describes the data that follows, a diffgr:diffgram) -->',
      '        <specmatic_any namespace="http://www.w3.org/2001/XMLSchema" processContents="skip">',
      '          <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>',
      '        </specmatic_any>',
      '        <specmatic_any>',
      '          <tns:string specmatic_nillable="true">(string)</tns:string>',
      '        </specmatic_any>',
      '      </tns:GetPropertiesResult>',
    ].join('\n'),
  );
  // The XSD namespace is declared where it is used, as .NET does, not on every envelope of the contract.
  expect(text).not.toContain('xmlns:s=');
});

test("the stub's answers hold an empty inline schema and a declared element, which xmllint finds valid", async () => {
  const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
  const bodies: string[] = [];
  try {
    for (const seed of [0, 1, 2]) {
      const r = await runCase(getValuation, { baseUrl: stub.url, seed });
      expect(r.passed).toBe(true);
      expect(r.response!.body).toMatch(
        /<tns:History><xs:schema xmlns:xs="http:\/\/www.w3.org\/2001\/XMLSchema"\/><tns:string( xsi:nil="true")?[^>]*(\/>|>[^<]*<\/tns:string>)<\/tns:History>/,
      );
      bodies.push(r.response!.body);
    }
  } finally {
    await stub.close();
  }
  const { verdicts } = await validateAll(
    buildSchemaSet(WSDL),
    bodies.flatMap((b) => payloadsOf(b).map((p) => p.xml)),
  );
  expect(verdicts.map((v) => v.errors)).toEqual(bodies.map(() => []));
});

test('the runner accepts a real .NET DataSet response (schema of the table, diffgram with rows), and one with no rows', async () => {
  const answers = [REAL, resultHolding(EMPTY_TABLE)];
  for (const body of answers) {
    const server = await startServer(() => ({ body }));
    try {
      const r = await runCase(getProperties, { baseUrl: server.url, seed: 0 });
      expect({ passed: r.passed, report: formatMismatches(r.mismatches) }).toEqual({ passed: true, report: [] });
    } finally {
      await server.close();
    }
  }
});

test('the stub takes a real .NET DataSet response as an expectation and answers with it', async () => {
  const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
  try {
    const request = {
      method: 'POST',
      path: '/Properties.asmx',
      headers: { SOAPAction: '"http://example.com/properties/GetProperties"', 'Content-Type': 'text/xml; charset=utf-8' },
      body: '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetProperties xmlns="http://example.com/properties/"><town>Bristol</town></GetProperties></soap:Body></soap:Envelope>',
    };
    const set = await fetch(`${stub.url}/_specmatic/expectations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ 'http-request': request, 'http-response': { status: 200, body: REAL } }),
    });
    expect({ status: set.status, body: set.status === 200 ? '' : await set.text() }).toEqual({ status: 200, body: '' });
    const hit = await fetch(`${stub.url}${request.path}`, { method: 'POST', headers: request.headers, body: request.body });
    expect(hit.status).toBe(200);
    expect(await hit.text()).toContain('<diffgr:diffgram');
  } finally {
    await stub.close();
  }
});

test('a DataSet without its schema, without its data, or empty is refused, as XSD refuses it', () => {
  const diffgram = '<diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"/>';
  const schema = '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>';
  for (const inner of [diffgram, schema, '', `${diffgram}${schema}`]) {
    const mismatches = matchResponse(getProperties.scenario, { ...XML, body: resultHolding(inner) });
    expect(formatMismatches(mismatches).join('\n')).toMatch(/GetPropertiesResponse\/GetPropertiesResult/);
  }
  expect(formatMismatches(matchResponse(getProperties.scenario, { ...XML, body: resultHolding(diffgram) }))[0]).toBe(
    '  RESPONSE.BODY Envelope/Body/GetPropertiesResponse/GetPropertiesResult: expected child nodes (any http://www.w3.org/2001/XMLSchema, any) in this order, found (diffgram)',
  );
  expect(matchResponse(getProperties.scenario, { ...XML, body: resultHolding(`${schema}${diffgram}`) })).toEqual([]);
});

withCorpus('wsdl-corpus', 'the .NET DataSets of a real asmx WSDL', () => {
  test('a real DataSet response is accepted by the contract imported from asmx-property-multiple-schemas', () => {
    const corpus = parseContract(importWsdl(corpusWsdl('asmx-property-multiple-schemas')).text, 'properties.spec');
    const returnProperties = testCases(corpus).find((c) => c.name === 'ReturnProperties')!;
    const body = REAL.replace(
      '<GetPropertiesResponse xmlns="http://example.com/properties/"><GetPropertiesResult>',
      '<ReturnPropertiesResponse xmlns="http://tempuri.org/"><ReturnPropertiesResult>',
    ).replace('</GetPropertiesResult></GetPropertiesResponse>', '</ReturnPropertiesResult></ReturnPropertiesResponse>');
    expect(body).toContain('<ReturnPropertiesResult><xs:schema');
    expect(formatMismatches(matchResponse(returnProperties.scenario, { ...XML, body }))).toEqual([]);
  });
});
