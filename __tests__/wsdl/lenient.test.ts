import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Element } from '@xmldom/xmldom';
import { parseContract, testCases } from '../../src/contract/load';
import { AccordError } from '../../src/errors';
import { runCase } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { validateMessage } from '../../src/validate';
import { importWsdl } from '../../src/wsdl';
import { XML_NAMESPACE_SCHEMA } from '../../src/wsdl/xml-namespace';
import { WSDL_CORPUS, withCorpus } from '../helpers/corpus';
import { children, parseXml, XS } from '../helpers/xsd/dom';
import { XML_NAMESPACE_SCHEMA as VALIDATOR_XML_NAMESPACE_SCHEMA } from '../helpers/xsd/schema-set';
import { WSDL_FIXTURES } from './fixtures';

/**
 * WSDLs real services publish that bend WSDL 1.1 the way every SOAP toolkit
 * forgives (found measuring real-world WSDLs accord had not seen).
 */
const NO_NAMESPACE = path.join(WSDL_FIXTURES, 'lenient', 'no-namespace.wsdl');
const MISSING_HEADER = path.join(WSDL_FIXTURES, 'lenient', 'missing-header.wsdl');
const XML_LANG = path.join(WSDL_FIXTURES, 'lenient', 'xml-lang.wsdl');

describe('a WSDL 1.1 document whose elements carry no namespace', () => {
  test('imports as WSDL 1.1, and the summary says it was read leniently', () => {
    const { text, summary } = importWsdl(NO_NAMESPACE);
    expect(summary.notes).toContainEqual(expect.stringMatching(/^no-namespace\.wsdl: its WSDL elements .* carry no namespace; read as WSDL 1\.1/));
    const contract = parseContract(text, 'points.spec');
    expect(testCases(contract).map((t) => t.name)).toEqual(['getPoints']);
    expect(text).toMatch(/<tns:getPoints soapenv:encodingStyle\.opt="http:\/\/schemas\.xmlsoap\.org\/soap\/encoding\/">\s*<owner>\(string\)<\/owner>/);
    expect(text).toContain('When POST /points/');
  });

  test('a root <definitions> in some other namespace is still not a WSDL, and the message names that namespace', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-lenient-'));
    const file = path.join(dir, 'other.wsdl');
    writeFileSync(file, readFileSync(NO_NAMESPACE, 'utf8').replace('<definitions name="points"', '<definitions xmlns="urn:not-wsdl" name="points"'));
    expect(() => importWsdl(file)).toThrow(AccordError);
    expect(() => importWsdl(file)).toThrow(/not a WSDL: the root element is <definitions> in namespace urn:not-wsdl/);
  });
});

describe('an element whose declaration is missing (a trimmed WSDL, a schema not exported)', () => {
  const { text, summary } = importWsdl(MISSING_HEADER);

  test('an optional header part stays optional: tests never send a made-up session header, the stub takes a request without it', async () => {
    expect(summary.notes).toContain('element {urn:accord:lenient:meta}SessionHeader not found: marked (anything)');
    expect(text).toContain('<soapenv:Header specmatic_occurs="optional">\n        <tns:SessionHeader specmatic_occurs="optional">(anything)</tns:SessionHeader>');
    const [tc] = testCases(parseContract(text, 'meta.spec'));
    const stub = await startStub({ contracts: parseContract(text, 'meta.spec'), port: 0, log: () => undefined });
    try {
      const r = await runCase(tc, { baseUrl: stub.url, seed: 0 });
      expect(r.request?.body).not.toContain('SessionHeader');
      expect(r.response?.status).toBe(200);
    } finally {
      await stub.close();
    }
  });

  test('an element ref with minOccurs="0" stays optional', () => {
    expect(text).toContain('<tns:Options specmatic_occurs="optional">(anything)</tns:Options>');
  });
});

describe('xml:lang and xml:space after an import of the XML namespace without a schemaLocation (.NET asmx)', () => {
  const { text } = importWsdl(XML_LANG);

  test('keep their types from the XML namespace schema every processor knows', () => {
    expect(text).toContain('<SPECMATIC_TYPE xml:lang="(language | empty)" xml:space.opt="(Space)">(string)</SPECMATIC_TYPE>');
    expect(text).toContain('enum Space (ncname) values default,preserve');
  });

  test('the stub answers with a language tag, which a validator accepts, never a made-up word', async () => {
    const contract = parseContract(text, 'notes.spec');
    const [tc] = testCases(contract);
    const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
    try {
      for (const seed of [0, 1, 2, 3]) {
        const r = await runCase(tc, { baseUrl: stub.url, seed });
        expect(r.response?.status).toBe(200);
        const lang = /xml:lang="([^"]*)"/.exec(r.response?.body ?? '')?.[1];
        expect(lang).toMatch(/^[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*$/);
      }
    } finally {
      await stub.close();
    }
  });
});

/** A schema's components as one line each: element, attributes sorted, children; documentation and layout left out. */
function components(text: string): string[] {
  const line = (e: Element): string => {
    const attrs = Array.from({ length: e.attributes.length }, (_, i) => e.attributes[i])
      .filter((a) => a.name !== 'xml:lang' && a.name !== 'xmlns' && !a.name.startsWith('xmlns:'))
      .map((a) => `${a.name}=${JSON.stringify(a.value)}`)
      .sort();
    const kids = children(e, XS).filter((c) => c.localName !== 'annotation');
    return `${e.localName}[${attrs.join(' ')}](${kids.map(line).join(', ')})`;
  };
  const root = parseXml(text, 'xml.xsd').documentElement!;
  return [
    `targetNamespace=${root.getAttribute('targetNamespace')}`,
    ...children(root, XS)
      .filter((c) => c.localName !== 'annotation')
      .map(line),
  ];
}

describe("the XML namespace's schema accord stands in with is the W3C's", () => {
  test("accord's copy and the validator's own copy have the same components", () => {
    expect(components(XML_NAMESPACE_SCHEMA)).toEqual(components(VALIDATOR_XML_NAMESPACE_SCHEMA));
    expect(components(XML_NAMESPACE_SCHEMA)[1]).toMatch(/^attribute\[name="lang"\]\(simpleType\[\]\(union\[memberTypes="xs:language"\]/);
  });

  withCorpus('wsdl-corpus', 'and the W3C file of 2009 (shipped with the IHE XDS.b WSDL)', () => {
    test('has the same components', () => {
      const w3c = readFileSync(path.join(WSDL_CORPUS, 'ihe-xds-iti41-ipf', 'schema', 'xml.xsd'), 'utf8');
      expect(components(XML_NAMESPACE_SCHEMA)).toEqual(components(w3c));
    });
  });
});

describe('a signed message: WS-Security puts wsu:Id on the SOAP Body (found in a real FACe response)', () => {
  const contract = parseContract(importWsdl(XML_LANG).text, 'notes.spec');
  const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
  const envelope = (bodyAttributes: string, payload: string) =>
    `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:wsu="${WSU}" wsu:Id="env-1">` +
    `<soapenv:Header wsu:Id="hdr-1"/><soapenv:Body ${bodyAttributes}>${payload}</soapenv:Body></soapenv:Envelope>`;
  const response = '<n:GetNoteResponse xmlns:n="urn:accord:lenient:notes"><n:Text xml:lang="eu">Zuzena</n:Text></n:GetNoteResponse>';
  const request = '<n:GetNote xmlns:n="urn:accord:lenient:notes"><n:Id>7</n:Id></n:GetNote>';

  test('a response and a request whose Envelope, Header and Body carry attributes of other namespaces fit', () => {
    expect(validateMessage(contract, envelope('wsu:Id="id-29749"', response), { response: true }).fits.map((s) => s.name)).toEqual(['GetNote']);
    expect(validateMessage(contract, envelope('wsu:Id="id-1"', request)).fits.map((s) => s.name)).toEqual(['GetNote']);
  });

  test('an unqualified attribute on the Body is still reported', () => {
    const v = validateMessage(contract, envelope('id="x"', response), { response: true });
    expect(v.fits).toEqual([]);
    expect(v.attempts[0].mismatches).toContainEqual(expect.objectContaining({ path: expect.stringMatching(/Body\/@id$/), actual: 'unexpected attribute id' }));
  });
});
