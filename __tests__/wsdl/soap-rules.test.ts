import path from 'node:path';
import { SaxesParser } from 'saxes';
import { parseContract, testCases } from '../../src/contract/load';
import { isFaultScenario, type Contract, type TestCase } from '../../src/contract/model';
import { buildRequest } from '../../src/http/build-request';
import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from '../../src/http/message';
import { generateBody } from '../../src/pattern/generate/index';
import { matchXml } from '../../src/pattern/match/index';
import { parseXml } from '../../src/xml/parse';
import { createRandom } from '../../src/pattern/random';
import { importWsdl, type ImportOptions } from '../../src/wsdl';
import { corpusWsdl, withCorpus, wsdlCorpus } from '../helpers/corpus';
import { wsdlFixture as fixture, wsdlFixtures } from './fixtures';

/**
 * A round trip only proves that the stub and the tests agree. These check the
 * generated messages against the rules of SOAP and of the WSDL itself, on the
 * repository's fixtures and, when ../shared is there, on the corpus's real WSDLs.
 */
function contractOf(file: string, options: ImportOptions = {}): Contract {
  return parseContract(importWsdl(file, options).text, `${path.basename(file)}.spec`);
}

interface Seen {
  root: { uri: string; local: string };
  /** The first element inside Body, with its namespace. */
  body: { uri: string; local: string }[];
  prefixes: string[];
}

/** Parses with namespaces on: an undeclared prefix or an illegal name fails here. */
function parseNs(xml: string): Seen {
  const parser = new SaxesParser({ xmlns: true });
  const seen: Seen = { root: { uri: '', local: '' }, body: [], prefixes: [] };
  let depth = 0;
  let inBody = -1;
  parser.on('opentag', (t) => {
    if (depth === 0) seen.root = { uri: t.uri ?? '', local: t.local ?? '' };
    if (t.local === 'Body' && depth === 1) inBody = depth;
    else if (inBody >= 0 && depth === inBody + 1) seen.body.push({ uri: t.uri ?? '', local: t.local ?? '' });
    if (t.prefix) seen.prefixes.push(t.prefix);
    depth++;
  });
  parser.on('closetag', () => {
    depth--;
    if (depth === inBody) inBody = -1;
  });
  parser.write(xml).close();
  return seen;
}

const NCNAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Every request and response body parses with namespaces, with legal prefixes and the right envelope. */
function wellFormed(file: string): void {
  const contract = contractOf(file);
  for (const tc of testCases(contract)) {
    const req = buildRequest(tc, 1);
    const seen = parseNs(req.body);
    expect(seen.root.local).toBe('Envelope');
    expect([SOAP11_ENVELOPE, SOAP12_ENVELOPE]).toContain(seen.root.uri);
    for (const p of seen.prefixes) expect(p).toMatch(NCNAME);
    if (seen.root.uri === SOAP12_ENVELOPE) {
      // SOAP 1.2: no SOAPAction header; the action travels in Content-Type.
      expect(req.headers.soapaction).toBeUndefined();
      expect(req.headers['content-type']).toMatch(/^application\/soap\+xml/);
    } else {
      expect(req.headers['content-type']).toMatch(/^text\/xml/);
    }
    const s = tc.scenario;
    if (s.response.body) {
      const res = generateBody(s.response.body, { scope: s.scope, rng: createRandom(7) });
      const r = parseNs(res.text);
      expect(r.root.uri).toBe(seen.root.uri);
    }
  }
}

const WELL_FORMED = 'generated messages are namespace-well-formed SOAP';
test.each(wsdlFixtures().map((f) => [f.name, f.file]))(`fixture %s: ${WELL_FORMED}`, (_name, file) => wellFormed(file));

/** The request of `operation` carries `action` in SOAPAction, quoted or not. */
function soapAction(file: string, operation: string, action: string): void {
  const req = buildRequest(
    testCases(contractOf(file)).find((t) => t.name === operation)!,
    3,
  );
  expect(req.headers.soapaction?.replace(/^"(.*)"$/, '$1')).toBe(action);
}

/** No soapAction (or an empty one): SOAPAction is sent empty ("") and may be absent. */
function emptySoapAction(file: string, operation: string): void {
  const c = contractOf(file);
  const s = c.scenarios.find((x) => x.name === operation)!;
  expect(s.request.headers.find((x) => x.name === 'SOAPAction')!.optional).toBe(true);
  expect(buildRequest(testCases(c).find((t) => t.name === operation)!).headers.soapaction).toBe('""');
}

/** Every scenario goes out in a SOAP 1.2 envelope, with the action in Content-Type. */
function soap12Only(file: string, operations: string[]): void {
  for (const tc of testCases(contractOf(file)).filter((t) => operations.includes(t.name))) {
    const req = buildRequest(tc);
    expect(parseNs(req.body).root.uri).toBe(SOAP12_ENVELOPE);
    expect(req.headers['content-type']).toMatch(/^application\/soap\+xml; charset=utf-8; action="[^"]+"$/);
    expect(req.headers.soapaction).toBeUndefined();
  }
}

/** 1.1 and 1.2 ports of one port type: one scenario per operation, 1.1 by default, 1.2 on request. */
function bothVersions(file: string, scenarios: number): void {
  const first = importWsdl(file);
  expect(first.summary.scenarios).toBe(scenarios);
  expect(first.summary.soapVersions).toEqual(['1.1']);
  expect(first.summary.choices.join('\n')).toMatch(/SOAP 1\.1 written \(use --soap-version 1\.2 for the other\)/);
  const second = importWsdl(file, { soapVersion: '1.2' });
  expect(second.summary.scenarios).toBe(scenarios);
  expect(second.summary.soapVersions).toEqual(['1.2']);
}

/** --port picks one port; an unknown port is a usage error naming the SOAP ports. */
function pickPort(file: string, port12: string, ports: string): void {
  expect(importWsdl(file, { port: port12 }).summary.soapVersions).toEqual(['1.2']);
  expect(() => importWsdl(file, { port: 'Nope' })).toThrow(`no SOAP port named "Nope"; the SOAP ports are: ${ports}`);
}

/** rpc style: the body element is named after the operation, the response after operation + "Response". */
function rpcWrappers(file: string, ops: string[]): void {
  const c = contractOf(file);
  // A fault scenario answers with a Fault, not a wrapper: the operations' own scenarios are checked here.
  const own = { ...c, scenarios: c.scenarios.filter((s) => !isFaultScenario(s)) };
  expect(own.scenarios.map((s) => s.name)).toEqual(ops);
  for (const tc of testCases(own)) {
    const seen = parseNs(buildRequest(tc).body);
    expect(seen.body.map((b) => b.local)).toEqual([tc.scenario.name]);
    if (!tc.scenario.response.body) continue; // one-way
    const res = generateBody(tc.scenario.response.body, { scope: tc.scenario.scope, rng: createRandom(1) });
    expect(parseNs(res.text).body.map((b) => b.local)).toEqual([`${tc.scenario.name}Response`]);
  }
}

/** The first element in the Body of `operation`'s request. */
function bodyElement(file: string, operation: string): { uri: string; local: string }[] {
  return parseNs(buildRequest(testCases(contractOf(file)).find((t) => t.name === operation)!).body).body;
}

function oneWay(file: string, operation: string): void {
  const s = contractOf(file).scenarios.find((x) => x.name === operation)!;
  expect(s.response.body).toBeUndefined();
  expect(s.response.status).toBe(202);
}

/** A request body with every optional node the contract allows. */
const fullRequest = (tc: TestCase) => generateBody(tc.scenario.request.body!, { scope: tc.scenario.scope, rng: createRandom(2) }).text;

const withHeader = (xml: string) => /<soapenv:Header><[^/>]+/.test(xml);

/**
 * Each operation declares a header on its input, its output, or both; the Body keeps the other parts.
 * The request as the contract allows it (a test leaves optional header parts out, see soap-headers.test.ts).
 */
function headersEverywhere(file: string): void {
  for (const tc of testCases(contractOf(file))) {
    const req = fullRequest(tc);
    const res = generateBody(tc.scenario.response.body!, { scope: tc.scenario.scope, rng: createRandom(2) }).text;
    expect([tc.name, withHeader(req) || withHeader(res)]).toEqual([tc.name, true]);
  }
}

/** Enumerations are generated from their values, never as random strings. */
function enumValues(texts: string[], node: RegExp, values: string[]): void {
  const found = texts.flatMap((t) => [...t.matchAll(node)].map((m) => m[1]));
  expect(found.length).toBeGreaterThan(0);
  for (const v of found) expect(values).toContain(v);
}

describe('SOAP rules per WSDL (repository fixtures)', () => {
  test("SOAP 1.1: SOAPAction header carries the binding's soapAction (quoted or not)", () => {
    soapAction(fixture('rpc-literal/greeter.wsdl'), 'greetMe', 'urn:accord:rpclit:greetMe');
    soapAction(fixture('rpc-encoded/hello.wsdl'), 'sayHello', 'sayHello');
  });

  test('SOAP 1.1 without soapAction: SOAPAction is sent empty ("") and may be absent', () => {
    emptySoapAction(fixture('rpc-literal/greeter.wsdl'), 'sayHi'); // soapAction=""
    emptySoapAction(fixture('features/features.wsdl'), 'notify'); // no soap:operation
    emptySoapAction(fixture('wsdl20/orders.wsdl'), 'audit'); // WSDL 2.0, no wsoap:action
  });

  test('SOAP 1.2 port only: 1.2 envelope and the action parameter in Content-Type; none without an action', () => {
    soap12Only(fixture('services/multi.wsdl'), ['Admin ping', 'check']);
    soap12Only(fixture('rpc-encoded/arrays-soap12.wsdl'), ['listItems', 'restock']);
    const count = buildRequest(testCases(contractOf(fixture('rpc-encoded/arrays-soap12.wsdl'))).find((t) => t.name === 'count')!);
    expect(count.headers['content-type']).toBe('application/soap+xml; charset=utf-8');
    expect(count.headers.soapaction).toBeUndefined();
  });

  test('1.1 and 1.2 ports of one service: one scenario per operation, 1.1 by default, 1.2 on request', () => {
    // Scenarios: one per operation and one per fault.
    bothVersions(fixture('features/features.wsdl'), 4);
    bothVersions(fixture('wsdl20/orders.wsdl'), 6);
  });

  test('a port type over 1.1 and 1.2 beside one over 1.2 only: each written once, in its version', () => {
    const { summary } = importWsdl(fixture('services/multi.wsdl'));
    expect(summary.soapVersions).toEqual(['1.1', '1.2']);
    expect(summary.choices).toContain('ports written: SearchSoap, AdminSoap12; ports offering the same operations left out: SearchSoap12, SearchMirrorSoap');
    expect(summary.skipped).toEqual([
      'binding SearchHttpGet (port SearchHttpGet): not a SOAP binding (http:binding)',
      'operation statusChanged: no input (a notification or solicit-response operation, which a request/response contract cannot express)',
    ]);
    // Two port types with an operation of the same name: the scenario names say which.
    expect(contractOf(fixture('services/multi.wsdl')).scenarios.map((s) => s.name)).toEqual(['search', 'Search ping', 'Admin ping', 'check']);
  });

  test('--port picks one port (or WSDL 2.0 endpoint); an unknown port is a usage error naming the SOAP ports', () => {
    pickPort(fixture('features/features.wsdl'), 'FeaturesSoap12', 'FeaturesSoap, FeaturesSoap12');
    pickPort(fixture('wsdl20/orders.wsdl'), 'OrdersSoap12Endpoint', 'OrdersSoap11Endpoint, OrdersSoap12Endpoint');
  });

  test.each([
    ['rpc-literal/greeter.wsdl', ['sayHi', 'greetMe', 'sendData', 'traced']],
    ['rpc-encoded/hello.wsdl', ['sayHello']],
    ['rpc-encoded/arrays-soap12.wsdl', ['listItems', 'restock', 'count']],
  ])('rpc style (%s): the body element is named after the operation, the response after operation + "Response"', (name, ops) => {
    rpcWrappers(fixture(name), ops);
  });

  test('rpc operation whose input has no part still sends its wrapper element, never an empty Body', () => {
    expect(bodyElement(fixture('rpc-literal/greeter.wsdl'), 'sayHi')).toEqual([{ uri: 'urn:accord:rpclit', local: 'sayHi' }]);
  });

  test("document/literal: the body element is the part's element, in its schema's namespace", () => {
    expect(bodyElement(fixture('features/features.wsdl'), 'getPerson')).toEqual([{ uri: 'urn:accord:features:types', local: 'getPerson' }]);
    expect(bodyElement(fixture('imports/main.wsdl'), 'findProducts')).toEqual([{ uri: 'urn:accord:imports:types', local: 'findProducts' }]);
  });

  test('WSDL 2.0: an #none input is an empty Body', () => {
    expect(bodyElement(fixture('wsdl20/orders.wsdl'), 'stats')).toEqual([]);
  });

  test('one-way operations (WSDL 1.1, rpc/encoded, WSDL 2.0 in-only and robust-in-only) have no response body', () => {
    oneWay(fixture('features/features.wsdl'), 'notify');
    oneWay(fixture('rpc-encoded/arrays-soap12.wsdl'), 'restock');
    oneWay(fixture('wsdl20/orders.wsdl'), 'audit');
    oneWay(fixture('wsdl20/orders.wsdl'), 'cancel');
  });

  test('soap:header parts go into the envelope Header, the body keeps the other parts', () => {
    headersEverywhere(fixture('imports/main.wsdl'));
    const tracedCase = testCases(contractOf(fixture('rpc-literal/greeter.wsdl'))).find((t) => t.name === 'traced')!;
    const traced = fullRequest(tracedCase);
    expect(traced).toMatch(/<soapenv:Header><h:trace( origin="[^"]*")?><h:id>/);
    // A request's header part without wsdl:required is required (WS-I BP 1.1 R2738): a test sends it, as the body.
    expect(buildRequest(tracedCase).body).toMatch(/<soapenv:Header><h:trace( origin="[^"]*")?><h:id>/);
    expect(parseNs(traced).body.map((b) => b.local)).toEqual(['traced']);
  });

  test('enumerations are generated from their values, never as random strings', () => {
    const c = contractOf(fixture('imports/main.wsdl'));
    const find = testCases(c).find((t) => t.name === 'findProducts')!;
    const bodies = [0, 1, 2, 3, 4, 5, 6, 7].map((seed) => buildRequest(find, seed).body);
    enumValues(bodies, /<c:category>([^<]*)</g, ['BOOKS', 'MUSIC', 'GAMES']);
  });

  test('namespace prefixes made up for URIs are ns1, ns2, ... (never parts of the URI)', () => {
    // orders.wsdl declares its types namespace on the interface only, so no author's prefix is at hand.
    const text = importWsdl(fixture('wsdl20/orders.wsdl')).text;
    expect(text).toContain('xmlns:ns1="urn:accord:orders:types"');
    for (const [, p] of text.matchAll(/xmlns:([^=]+)="/g)) expect(p).toMatch(NCNAME);
  });
});

withCorpus('wsdl-corpus', "SOAP rules on the shared corpus's real WSDLs", () => {
  describe.each(wsdlCorpus().map((e) => [e.folder, e.file]))(`%s: ${WELL_FORMED}`, (_folder, file) => {
    test('every request and response body parses with namespaces, with legal prefixes and the right envelope', () => wellFormed(file));
  });

  test("SOAP 1.1: SOAPAction header carries the binding's soapAction (quoted or not)", () => {
    soapAction(corpusWsdl('asmx-calculator'), 'Divide', 'http://tempuri.org/Divide');
  });

  test('SOAP 1.1 without soapAction: SOAPAction is sent empty ("") and may be absent', () => {
    const c = contractOf(corpusWsdl('cxf-customerservice'));
    emptySoapAction(corpusWsdl('cxf-customerservice'), c.scenarios[0].name);
  });

  test('SOAP 1.2 port only (WCF): 1.2 envelope and the action parameter in Content-Type', () => {
    const file = corpusWsdl('wcf-servicefinder');
    soap12Only(
      file,
      contractOf(file).scenarios.map((s) => s.name),
    );
  });

  test('1.1 and 1.2 ports of one service: one scenario per operation, 1.1 by default, 1.2 on request', () => {
    bothVersions(corpusWsdl('savon-taxcloud'), 13);
  });

  test('--port picks one port; an unknown port is a usage error naming the SOAP ports', () => {
    pickPort(corpusWsdl('asmx-calculator'), 'CalculatorSoap12', 'CalculatorSoap, CalculatorSoap12');
  });

  test.each([
    ['cxf-rpclit', ['sayHi', 'greetMe', 'sendReceiveData']],
    ['node-soap-hello-rpc', ['sayHello']],
    ['reficio-stockquote-rpc-encoded', ['GetLastTradePrice']],
  ])('rpc style (%s): the body element is named after the operation, the response after operation + "Response"', (folder, ops) => {
    rpcWrappers(corpusWsdl(folder), ops);
  });

  test('rpc operation whose input has no part still sends its wrapper element, never an empty Body', () => {
    expect(bodyElement(corpusWsdl('cxf-rpclit'), 'sayHi')).toEqual([{ uri: 'http://apache.org/hello_world_rpclit', local: 'sayHi' }]);
  });

  test("document/literal: the body element is the part's element, in its schema's namespace", () => {
    expect(bodyElement(corpusWsdl('savon-vies'), 'checkVat')).toEqual([{ uri: 'urn:ec.europa.eu:taxud:vies:services:checkVat:types', local: 'checkVat' }]);
  });

  test('one-way operations have no response body', () => {
    oneWay(corpusWsdl('cxf-customerservice'), 'updateCustomer');
  });

  test('soap:header parts go into the envelope Header, the body keeps the other parts', () => {
    headersEverywhere(corpusWsdl('cxf-soap-header'));
    const inHeader = fullRequest(testCases(contractOf(corpusWsdl('cxf-soap-header'))).find((t) => t.name === 'inHeader')!);
    expect(inHeader).toMatch(/<soapenv:Header><tns:SOAPHeaderInfo><originator>/);
    expect(parseNs(inHeader).body.map((b) => b.local)).toEqual(['inHeader']);
  });

  test('enumerations are generated from their values, never as random strings', () => {
    expect(importWsdl(corpusWsdl('savon-vies')).text).toMatch(/ enum matchCode \(string\) values 1,2\n/);
    const s = contractOf(corpusWsdl('savon-vies')).scenarios.find((x) => x.name === 'checkVatApprox')!;
    const texts = [0, 1, 2, 3, 4].map((seed) => generateBody(s.response.body!, { scope: s.scope, rng: createRandom(seed) }).text);
    enumValues(texts, /<tns1:\w+Match>([^<]*)</g, ['1', '2']);
  });

  test('namespace prefixes made up for URIs are ns1, ns2, ... (never parts of the URI)', () => {
    const text = importWsdl(corpusWsdl('savon-edialog')).text;
    const declared = [...text.matchAll(/xmlns:([^=]+)="/g)].map((m) => m[1]);
    expect(declared.length).toBeGreaterThan(5);
    for (const p of declared) expect(p).toMatch(NCNAME);
  });
});

describe('headers the WSDL does not declare (docs/wsdl-import.md)', () => {
  const text = importWsdl(fixture('rpc-encoded/hello.wsdl')).text;
  const withWsa =
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:a="http://www.w3.org/2005/08/addressing" xmlns:t="urn:accord:hello"><s:Header><a:Action>sayHello</a:Action><a:To>http://x/</a:To></s:Header><s:Body><t:sayHello><firstName>Ada</firstName></t:sayHello></s:Body></s:Envelope>';
  const match = (contractText: string) => {
    const s = parseContract(contractText, 'hello.spec').scenarios[0];
    return matchXml(s.request.body!, parseXml(withWsa), s.scope);
  };

  test('are accepted by the contract as written (WS-Addressing that a WCF or CXF client adds to every request)', () => {
    expect(match(text)).toEqual([]);
  });

  test('are accepted once the Header is written (anything)', () => {
    const open = text.replace(/<soapenv:Header specmatic_occurs="optional"\/>/g, '<soapenv:Header specmatic_occurs="optional">(anything)</soapenv:Header>');
    expect(match(open)).toEqual([]);
  });
});
