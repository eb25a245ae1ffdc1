import { SaxesParser } from 'saxes';
import { parseContract, testCases } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { buildRequest } from '../../src/http/build-request';
import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from '../../src/http/message';
import { generateBody } from '../../src/pattern/generate';
import { matchXml } from '../../src/pattern/match';
import { parseXml } from '../../src/xml/parse';
import { createRandom } from '../../src/pattern/random';
import { importWsdl, type ImportOptions } from '../../src/wsdl';
import { corpusEntries, corpusFile } from './corpus';

/**
 * A round trip only proves that the stub and the tests agree. These check the
 * generated messages against the rules of SOAP and of the WSDL itself.
 */
function contractOf(folder: string, options: ImportOptions = {}): Contract {
  return parseContract(importWsdl(corpusFile(folder), options).text, `${folder}.spec`);
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

describe.each(corpusEntries().map((e) => [e.folder] as const))('%s: generated messages are namespace-well-formed SOAP', (folder) => {
  test('every request and response body parses with namespaces, with legal prefixes and the right envelope', () => {
    const contract = contractOf(folder);
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
  });
});

describe('SOAP rules per WSDL', () => {
  test('SOAP 1.1: SOAPAction header carries the binding\'s soapAction (quoted or not)', () => {
    const c = contractOf('asmx-calculator');
    const req = buildRequest(testCases(c).find((t) => t.name === 'Divide')!, 3);
    expect(req.headers.soapaction).toMatch(/^"?http:\/\/tempuri\.org\/Divide"?$/);
  });

  test('SOAP 1.1 without soapAction: SOAPAction is sent empty ("") and may be absent', () => {
    const c = contractOf('cxf-customerservice');
    const s = c.scenarios[0];
    const h = s.request.headers.find((x) => x.name === 'SOAPAction')!;
    expect(h.optional).toBe(true);
    expect(buildRequest(testCases(c)[0]).headers.soapaction).toBe('""');
  });

  test('SOAP 1.2 port only (WCF): 1.2 envelope and the action parameter in Content-Type', () => {
    const c = contractOf('wcf-servicefinder');
    for (const tc of testCases(c)) {
      const req = buildRequest(tc);
      expect(parseNs(req.body).root.uri).toBe(SOAP12_ENVELOPE);
      expect(req.headers['content-type']).toMatch(/^application\/soap\+xml; charset=utf-8; action="http:\/\/[^"]+"$/);
      expect(req.headers.soapaction).toBeUndefined();
    }
  });

  test('1.1 and 1.2 ports of one service: one scenario per operation, 1.1 by default, 1.2 on request', () => {
    const first = importWsdl(corpusFile('savon-taxcloud'));
    expect(first.summary.scenarios).toBe(13);
    expect(first.summary.soapVersions).toEqual(['1.1']);
    expect(first.summary.choices.join('\n')).toMatch(/SOAP 1\.1 written \(use --soap-version 1\.2 for the other\)/);
    const second = importWsdl(corpusFile('savon-taxcloud'), { soapVersion: '1.2' });
    expect(second.summary.scenarios).toBe(13);
    expect(second.summary.soapVersions).toEqual(['1.2']);
  });

  test('--port picks one port; an unknown port is a usage error naming the SOAP ports', () => {
    const r = importWsdl(corpusFile('asmx-calculator'), { port: 'CalculatorSoap12' });
    expect(r.summary.soapVersions).toEqual(['1.2']);
    expect(() => importWsdl(corpusFile('asmx-calculator'), { port: 'Nope' })).toThrow(/no SOAP port named "Nope"; the SOAP ports are: CalculatorSoap, CalculatorSoap12/);
  });

  test.each([
    ['cxf-rpclit', ['sayHi', 'greetMe', 'sendReceiveData']],
    ['node-soap-hello-rpc', ['sayHello']],
    ['reficio-stockquote-rpc-encoded', ['GetLastTradePrice']],
  ])('rpc style (%s): the body element is named after the operation, the response after operation + "Response"', (folder, ops) => {
    const c = contractOf(folder);
    expect(c.scenarios.map((s) => s.name)).toEqual(ops);
    for (const tc of testCases(c)) {
      const seen = parseNs(buildRequest(tc).body);
      expect(seen.body.map((b) => b.local)).toEqual([tc.scenario.name]);
      const res = generateBody(tc.scenario.response.body!, { scope: tc.scenario.scope, rng: createRandom(1) });
      expect(parseNs(res.text).body.map((b) => b.local)).toEqual([`${tc.scenario.name}Response`]);
    }
  });

  test('rpc operation whose input has no part still sends its wrapper element, never an empty Body', () => {
    const c = contractOf('cxf-rpclit');
    const sayHi = testCases(c).find((t) => t.name === 'sayHi')!;
    expect(parseNs(buildRequest(sayHi).body).body).toEqual([{ uri: 'http://apache.org/hello_world_rpclit', local: 'sayHi' }]);
  });

  test('document/literal: the body element is the part\'s element, in its schema\'s namespace', () => {
    const c = contractOf('savon-vies');
    const seen = parseNs(buildRequest(testCases(c).find((t) => t.name === 'checkVat')!).body);
    expect(seen.body).toEqual([{ uri: 'urn:ec.europa.eu:taxud:vies:services:checkVat:types', local: 'checkVat' }]);
  });

  test('one-way operations have no response body', () => {
    const c = contractOf('cxf-customerservice');
    const oneWay = c.scenarios.find((s) => s.name === 'updateCustomer')!;
    expect(oneWay.response.body).toBeUndefined();
    expect(oneWay.response.status).toBe(202);
  });

  test('soap:header parts go into the envelope Header, the body keeps the other parts', () => {
    const c = contractOf('cxf-soap-header');
    const withHeader = (xml: string) => /<soapenv:Header><[^/>]+/.test(xml);
    for (const tc of testCases(c)) {
      const req = buildRequest(tc).body;
      const res = generateBody(tc.scenario.response.body!, { scope: tc.scenario.scope, rng: createRandom(2) }).text;
      // Each operation of this WSDL declares a header on its input, its output, or both.
      expect([tc.name, withHeader(req) || withHeader(res)]).toEqual([tc.name, true]);
    }
    const inHeader = buildRequest(testCases(c).find((t) => t.name === 'inHeader')!).body;
    expect(inHeader).toMatch(/<soapenv:Header><tns:SOAPHeaderInfo><originator>/);
    expect(parseNs(inHeader).body.map((b) => b.local)).toEqual(['inHeader']);
  });

  test('enumerations are generated from their values, never as random strings', () => {
    const c = contractOf('savon-vies');
    expect(importWsdl(corpusFile('savon-vies')).text).toMatch(/ enum matchCode \(string\) values 1,2\n/);
    const s = c.scenarios.find((x) => x.name === 'checkVatApprox')!;
    for (let seed = 0; seed < 5; seed++) {
      const res = generateBody(s.response.body!, { scope: s.scope, rng: createRandom(seed) }).text;
      for (const m of res.matchAll(/<tns1:\w+Match>([^<]*)</g)) expect(['1', '2']).toContain(m[1]);
    }
  });

  test('namespace prefixes made up for URIs are ns1, ns2, ... (never parts of the URI)', () => {
    const text = importWsdl(corpusFile('savon-edialog')).text;
    const declared = [...text.matchAll(/xmlns:([^=]+)="/g)].map((m) => m[1]);
    expect(declared.length).toBeGreaterThan(5);
    for (const p of declared) expect(p).toMatch(NCNAME);
  });
});

describe('headers the WSDL does not declare (docs/wsdl-import.md)', () => {
  const text = importWsdl(corpusFile('asmx-calculator')).text;
  const withWsa = '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:a="http://www.w3.org/2005/08/addressing" xmlns:t="http://tempuri.org/"><s:Header><a:Action>http://tempuri.org/Add</a:Action><a:To>http://x/</a:To></s:Header><s:Body><t:Add><intA>1</intA><intB>2</intB></t:Add></s:Body></s:Envelope>';
  const match = (contractText: string) => {
    const s = parseContract(contractText, 'calc.spec').scenarios[0];
    return matchXml(s.request.body!, parseXml(withWsa), s.scope);
  };

  test('are reported as unexpected by the contract as written', () => {
    expect(match(text).map((m) => m.path)).toEqual(['Envelope/Header/Action', 'Envelope/Header/To']);
  });

  test('are accepted once the Header is written (anything)', () => {
    const open = text.replace(/<soapenv:Header specmatic_occurs="optional"\/>/g, '<soapenv:Header specmatic_occurs="optional">(anything)</soapenv:Header>');
    expect(match(open)).toEqual([]);
  });
});
