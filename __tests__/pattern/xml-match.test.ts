import { parseContract } from '../../src/contract/load';
import { matchXml } from '../../src/pattern/match/index';
import { formatMismatch } from '../../src/pattern/match/mismatch';
import { parseXml } from '../../src/xml/parse';
import { xmlPatternFromText } from '../../src/pattern/xml-pattern';
import type { Pattern, Scope } from '../../src/pattern/types';

const PET_RESPONSE = `
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
  <soapenv:Header/>
  <soapenv:Body>
    <pet:getPetResponse xmlns:pet="http://example.com/petstore">
      <pet:id>(number)</pet:id>
      <pet:name>(string)</pet:name>
      <pet:type>(string)</pet:type>
      <pet:status>(string)</pet:status>
    </pet:getPetResponse>
  </soapenv:Body>
</soapenv:Envelope>`;

const scope = (types: Record<string, Pattern> = {}): Scope => ({ types: new Map(Object.entries(types)) });

function check(contract: string, actual: string, types: Record<string, Pattern> = {}): string[] {
  return matchXml(xmlPatternFromText(contract), parseXml(actual), scope(types)).map(formatMismatch);
}

const envelope = (body: string, prefix = 'S') =>
  `<${prefix}:Envelope xmlns:${prefix}="http://schemas.xmlsoap.org/soap/envelope/"><${prefix}:Header/><${prefix}:Body>${body}</${prefix}:Body></${prefix}:Envelope>`;

describe('XML matching (seed 2.4)', () => {
  it('ignores namespace prefixes and URIs', () => {
    const actual = envelope('<x:getPetResponse xmlns:x="urn:other"><x:id>1</x:id><x:name>Rex</x:name><x:type>dog</x:type><x:status>ok</x:status></x:getPetResponse>');
    expect(check(PET_RESPONSE, actual)).toEqual([]);
    const unprefixed = envelope('<getPetResponse><id>1</id><name>Rex</name><type>dog</type><status>ok</status></getPetResponse>', 'soap');
    expect(check(PET_RESPONSE, unprefixed)).toEqual([]);
  });

  it('takes a Header, empty or with blocks, in an Envelope whose contract has none, as it does where the contract has an empty one', () => {
    const headerless = PET_RESPONSE.replace('<soapenv:Header/>', '');
    const pet = '<p:getPetResponse xmlns:p="http://example.com/petstore"><p:id>1</p:id><p:name>Rex</p:name><p:type>dog</p:type><p:status>ok</p:status></p:getPetResponse>';
    // suds and SOAP::Lite write an empty Header; WCF adds WS-Addressing blocks.
    expect(check(headerless, envelope(pet))).toEqual([]);
    const addressed = envelope(pet).replace('<S:Header/>', '<S:Header><a:Action xmlns:a="http://www.w3.org/2005/08/addressing">urn:x</a:Action></S:Header>');
    expect(check(headerless, addressed)).toEqual([]);
    expect(check(PET_RESPONSE, addressed)).toEqual([]);
    // Only the SOAP Header, once: another element, or a second Header, is still unexpected.
    expect(check(headerless, envelope(pet).replace('<S:Header/>', '<S:Header/><S:Header/>'))).not.toEqual([]);
    expect(check(headerless, envelope(pet).replace('<S:Header/>', '<x:Header xmlns:x="urn:not-soap"/>'))).not.toEqual([]);
  });

  it('aligns 150,000 children against a type of many nodes (the large-alignment path) and still names what is wrong', () => {
    const optional = Array.from({ length: 9 }, (_, i) => `<o${i} specmatic_occurs="optional">(string)</o${i}>`).join('');
    const contract = `<list>${optional}<item specmatic_occurs="multiple">(number)</item><end>(string)</end></list>`;
    const items = '<item>1</item>'.repeat(150_000);
    expect(check(contract, `<list><o3>x</o3>${items}<end>e</end></list>`)).toEqual([]);
    const misplaced = check(contract, `<list>${items}<o3>x</o3><end>e</end></list>`);
    expect(misplaced[0]).toMatch(/^list: expected child nodes \(o0\?, .*item\*, end\) in this order, found \(item, item, .*… 149982 more\)$/);
    expect(misplaced.slice(1)).toEqual(['list/o3: expected node <o3> before <item>, found <o3> after <item>']);
  });

  it('ignores comments and whitespace-only text', () => {
    const actual = envelope(`<!-- a comment -->
      <p:getPetResponse xmlns:p="urn:p">
        <p:id> 1 </p:id><!-- another --><p:name>Rex</p:name>
        <p:type>dog</p:type>
        <p:status>ok</p:status>
      </p:getPetResponse>`);
    expect(check(PET_RESPONSE, actual)).toEqual([]);
  });

  it('reports wrong node order with the path', () => {
    const actual = envelope('<p:getPetResponse xmlns:p="urn:p"><p:name>Rex</p:name><p:id>1</p:id><p:type>dog</p:type><p:status>ok</p:status></p:getPetResponse>');
    const report = check(PET_RESPONSE, actual);
    expect(report[0]).toBe('Envelope/Body/getPetResponse: expected child nodes (id, name, type, status) in this order, found (name, id, type, status)');
    expect(report.slice(1)).toEqual(['Envelope/Body/getPetResponse/id: expected node <id> before <name>, found <id> after <name>']);
  });

  it('requires the header before the body', () => {
    const actual =
      '<S:Envelope xmlns:S="urn:s"><S:Body><p:getPetResponse xmlns:p="urn:p"><p:id>1</p:id><p:name>a</p:name><p:type>b</p:type><p:status>c</p:status></p:getPetResponse></S:Body><S:Header/></S:Envelope>';
    expect(check(PET_RESPONSE, actual)).toEqual([
      'Envelope: expected child nodes (Header?, Body) in this order, found (Body, Header)',
      'Envelope/Header: expected node <Header> before <Body>, found <Header> after <Body>',
    ]);
  });

  it('lets an empty SOAP Header of the contract be absent (SOAP makes it optional), but not carry entries', () => {
    const body = '<p:getPetResponse xmlns:p="urn:p"><p:id>1</p:id><p:name>a</p:name><p:type>b</p:type><p:status>c</p:status></p:getPetResponse>';
    expect(check(PET_RESPONSE, `<S:Envelope xmlns:S="urn:s"><S:Body>${body}</S:Body></S:Envelope>`)).toEqual([]);
    expect(check(PET_RESPONSE, `<S:Envelope xmlns:S="urn:s"><S:Header><t:Trace xmlns:t="urn:t">1</t:Trace></S:Header><S:Body>${body}</S:Body></S:Envelope>`)).toEqual([
      'Envelope/Header/Trace: expected no such node here, found unexpected node <Trace>',
    ]);
  });

  it('reports a missing node', () => {
    const actual = envelope('<p:getPetResponse xmlns:p="urn:p"><p:id>1</p:id><p:type>dog</p:type><p:status>ok</p:status></p:getPetResponse>');
    expect(check(PET_RESPONSE, actual)).toContain('Envelope/Body/getPetResponse/name: expected node <name>, found <type> in its place');
  });

  it('reports a missing last node', () => {
    const actual = envelope('<p:getPetResponse xmlns:p="urn:p"><p:id>1</p:id><p:name>a</p:name><p:type>dog</p:type></p:getPetResponse>');
    expect(check(PET_RESPONSE, actual)).toContain('Envelope/Body/getPetResponse/status: expected node <status>, found nothing (missing node)');
  });

  it('reports a non-number in a (number) node, and every mismatch, not only the first', () => {
    const actual = envelope('<p:getPetResponse xmlns:p="urn:p"><p:id>abc</p:id><p:name>Rex</p:name><p:type>dog</p:type><p:status>ok</p:status><p:extra/></p:getPetResponse>');
    const report = check(PET_RESPONSE, actual);
    expect(report).toContain('Envelope/Body/getPetResponse/id: expected a number, found "abc"');
    expect(report).toContain('Envelope/Body/getPetResponse/extra: expected no such node here, found unexpected node <extra>');
  });

  it('takes any number of (Type*) nodes at its place', () => {
    const types = { Id: xmlPatternFromText('<inv:id>(number)</inv:id>') };
    const contract = '<inv:getInvoiceIdsResponse xmlns:inv="urn:inv">(Id*)</inv:getInvoiceIdsResponse>';
    expect(check(contract, '<r><id>1</id><id>2</id><id>3</id></r>'.replace(/r>/g, 'getInvoiceIdsResponse>'), types)).toEqual([]);
    expect(check(contract, '<getInvoiceIdsResponse/>', types)).toEqual([]);
    expect(check(contract, '<getInvoiceIdsResponse><id>1</id><id>x</id></getInvoiceIdsResponse>', types)).toEqual(['getInvoiceIdsResponse/id[1]: expected a number, found "x"']);
  });

  it('backtracks so a repeated node may be followed by one of the same name', () => {
    const types = { A: xmlPatternFromText('<a>(number)</a>') };
    expect(check('<r>(A*)<a>(string)</a></r>', '<r><a>1</a><a>2</a><a>last</a></r>', types)).toEqual([]);
    expect(check('<r>(A*)<a>(string)</a></r>', '<r></r>', types)).toContain('r/a: expected node <a>, found nothing (missing node)');
  });

  it('honours specmatic_occurs, specmatic_nillable and specmatic_type', () => {
    const contract = parseContract(`Feature: f
  Scenario: s
    Given type Payload
    """
    <SPECMATIC_TYPE>
      <symbol specmatic_nillable="true">(string)</symbol>
      <note specmatic_occurs="optional">(string)</note>
      <price specmatic_occurs="multiple">(number)</price>
    </SPECMATIC_TYPE>
    """
    When POST /q
    And request-body <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header specmatic_occurs="optional"/><soapenv:Body><Quote specmatic_type="Payload"/></soapenv:Body></soapenv:Envelope>
    Then status 200`);
    const s = contract.scenarios[0];
    const m = (xml: string) => matchXml(s.request.body!, parseXml(xml), s.scope).map(formatMismatch);
    expect(m('<e:Envelope xmlns:e="u"><e:Body><Quote><symbol>X</symbol><price>1</price><price>2</price></Quote></e:Body></e:Envelope>')).toEqual([]);
    expect(
      m(
        '<e:Envelope xmlns:e="u" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><e:Header/><e:Body><Quote><symbol xsi:nil="true"/><note>n</note></Quote></e:Body></e:Envelope>',
      ),
    ).toEqual([]);
    expect(m('<e:Envelope xmlns:e="u"><e:Body><Quote><price>1</price></Quote></e:Body></e:Envelope>')).toContain(
      'Envelope/Body/Quote/symbol: expected node <symbol>, found <price> in its place',
    );
  });

  it('checks attributes, with .opt for optional ones, and ignores xmlns and xsi attributes', () => {
    const contract = '<pet id="(number)" kind.opt="(string)">(string)</pet>';
    expect(check(contract, '<pet xmlns="urn:x" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Pet" id="4">Rex</pet>')).toEqual([]);
    expect(check(contract, '<pet id="four">Rex</pet>')).toEqual(['pet/@id: expected a number, found "four"']);
    expect(check(contract, '<pet>Rex</pet>')).toEqual(['pet/@id: expected attribute id ((number)), found no such attribute']);
    expect(check(contract, '<pet id="1" colour="red">Rex</pet>')).toEqual(['pet/@colour: expected no such attribute, found unexpected attribute colour']);
  });

  it('names the root when it differs', () => {
    expect(check('<a>(string)</a>', '<b>x</b>')).toEqual(['b: expected node <a>, found <b>']);
  });
});

describe('several node placeholders in a row', () => {
  const types = { Id: xmlPatternFromText('<id>(number)</id>') };
  it('reads (Id)(Id*) as one id then any number more', () => {
    expect(check('<r>(Id)(Id*)</r>', '<r><id>1</id><id>2</id></r>', types)).toEqual([]);
    expect(check('<r>(Id)(Id*)</r>', '<r></r>', types)).toEqual([
      'r: expected child nodes (id, id*) in this order, found (none)',
      'r/id: expected node <id>, found nothing (missing node)',
    ]);
  });
  it('refuses text values written one after another', () => {
    expect(() => xmlPatternFromText('<r>(number)(string)</r>')).toThrow(/mixes several values in one text/);
  });
});

describe('nodes out of place: one finding each, never a contradiction', () => {
  const BOOK = '<book><title>(string)</title><author>(string)</author><year>(number)</year><isbn>(string)</isbn></book>';
  const types = { Id: xmlPatternFromText('<id>(number)</id>') };
  /** Findings after the order line, which every one of these starts with. */
  const findings = (contract: string, actual: string) => {
    const report = check(contract, actual, types);
    expect(report[0]).toMatch(/ in this order, found /);
    return report.slice(1);
  };

  it('a swapped pair is one misplaced node, not a cascade of expected/unexpected lines', () => {
    expect(findings(BOOK, '<book><title>T</title><year>1999</year><author>A</author><isbn>x</isbn></book>')).toEqual([
      'book/author: expected node <author> before <year>, found <author> after <year>',
    ]);
  });

  it('each node moved is named once, with what it should have been on the other side of', () => {
    expect(findings(BOOK, '<book><year>1</year><title>T</title><author>A</author><isbn>x</isbn><extra/></book>')).toEqual([
      'book/year: expected node <year> after <title>, found <year> before <title>',
      'book/extra: expected no such node here, found unexpected node <extra>',
    ]);
    expect(findings(BOOK, '<book><isbn>x</isbn><year>1</year><author>A</author><title>T</title></book>')).toHaveLength(3);
  });

  it('a misplaced node is still checked against its own type; a missing one is not confused with it', () => {
    expect(findings(BOOK, '<book><title>T</title><year>abc</year><author>A</author></book>')).toEqual([
      'book/year: expected a number, found "abc"',
      'book/author: expected node <author> before <year>, found <author> after <year>',
      'book/isbn: expected node <isbn>, found nothing (missing node)',
    ]);
  });

  it('a node repeated where one is allowed is one finding with the count, wherever the copies are', () => {
    expect(findings(BOOK, '<book><title>T</title><author>A</author><author>B</author><year>1</year><isbn>x</isbn></book>')).toEqual([
      'book/author: expected one node <author>, found 2',
    ]);
    expect(findings(BOOK, '<book><title>T</title><author>A</author><year>1</year><isbn>x</isbn><author>B</author><author>C</author></book>')).toEqual([
      'book/author: expected one node <author>, found 3',
    ]);
  });

  it('(Id*) nodes out of place are named with their index and still checked', () => {
    expect(findings('<r>(Id*)<end>(string)</end></r>', '<r><id>1</id><end>e</end><id>x</id></r>')).toEqual([
      'r/id[1]: expected node <id> before <end>, found <id> after <end>',
      'r/id[1]: expected a number, found "x"',
    ]);
    expect(findings('<r>(Id*)<end>(string)</end></r>', '<r><end>e</end><id>1</id><id>2</id></r>')).toEqual([
      'r/id[0]: expected node <id> before <end>, found <id> after <end>',
      'r/id[1]: expected node <id> before <end>, found <id> after <end>',
    ]);
  });

  it('no report names one node both as expected and as unexpected', () => {
    const shuffles = [
      '<book><author>A</author><title>T</title><isbn>x</isbn><year>1</year></book>',
      '<book><isbn>x</isbn><title>T</title><author>A</author><year>1</year><year>2</year></book>',
    ];
    for (const actual of shuffles) {
      const lines = findings(BOOK, actual);
      const unexpected = lines.filter((l) => l.includes('unexpected node')).map((l) => l.split(':')[0]);
      const placed = lines.filter((l) => !l.includes('unexpected node')).map((l) => l.split(':')[0]);
      expect(unexpected.filter((p) => placed.includes(p))).toEqual([]);
      expect(new Set(lines).size).toBe(lines.length);
    }
  });
});
