import path from 'node:path';
import { parseContract, testCases } from '../../src/contract/load';
import { buildRequest } from '../../src/http/build-request';
import { matchXml } from '../../src/pattern/match/index';
import { formatMismatch } from '../../src/pattern/match/mismatch';
import { parseXml } from '../../src/xml/parse';
import { importWsdl } from '../../src/wsdl';
import { WSDL_FIXTURES as FIXTURES } from './fixtures';

/*
 * structure.wsdl: XSD structure kept by the importer (issue 13 classes 2, 3, 4). Before, its
 * bounds were optional/multiple, its choice every alternative optional, its wildcards dropped:
 * each expectation below failed. The xsd-validity ratchet validates what it generates.
 */
const { text } = importWsdl(path.join(FIXTURES, 'structure', 'structure.wsdl'));
const contract = parseContract(text, 'structure.spec');
const place = contract.scenarios.find((s) => s.name === 'place')!;

const envelope = (body: string) => parseXml(`<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>${body}</S:Body></S:Envelope>`);
const request = (inner: string, attrs = '') =>
  matchXml(place.request.body!, envelope(`<order xmlns="urn:accord:structure"${attrs}>${inner}</order>`), place.scope).map(formatMismatch);
const response = (inner: string) => matchXml(place.response.body!, envelope(`<receipt xmlns="urn:accord:structure">${inner}</receipt>`), place.scope).map(formatMismatch);

const base = '<line>a</line><udf>1</udf><udf>2</udf><code>x</code><code>y</code>';

describe('structure.wsdl: bounds, choice, substitution group and wildcards as the XSD says', () => {
  it('writes them in the contract', () => {
    expect(text).toContain('<tns:line specmatic_occurs="1..*">(string)</tns:line>');
    expect(text).toContain('<tns:udf specmatic_occurs="2..3">(string)</tns:udf>');
    expect(text).toContain('<tns:code specmatic_occurs="2">(string)</tns:code>');
    expect(text).toContain('<specmatic_choice specmatic_occurs="0..2">');
    expect(text).toContain('<specmatic_any specmatic_occurs="multiple" namespace="##other" targetNamespace="urn:accord:structure" processContents="lax"/>');
    expect(text).toContain('<tns:order specmatic_any_attribute="##other">');
  });

  it('accepts what the XSD accepts: one alternative, pairs, members, extension elements and attributes', () => {
    expect(request(`${base}<card>c</card><circle>1</circle>`)).toEqual([]);
    expect(
      request(
        `${base}<iban>i</iban><key>k</key><value>v</value><key>k</key><value>v</value><square>1</square><circle>2</circle><x:ext xmlns:x="urn:x"><x:any/></x:ext>`,
        ' x:a="1" xmlns:x="urn:x"',
      ),
    ).toEqual([]);
    expect(response('<id>1</id><x:ext xmlns:x="urn:x"/>')).toEqual([]);
  });

  it('refuses what the XSD refuses', () => {
    expect(request('<line>a</line><udf>1</udf><code>x</code><code>y</code><card>c</card><circle>1</circle>')).not.toEqual([]);
    expect(request('<line>a</line><udf>1</udf><udf>2</udf><udf>3</udf><udf>4</udf><code>x</code><code>y</code><card>c</card><circle>1</circle>')).not.toEqual([]);
    expect(request(`${base}<card>c</card><iban>i</iban><circle>1</circle>`)).not.toEqual([]);
    expect(request(`${base}<card>c</card>`)).not.toEqual([]);
    expect(request(`${base}<card>c</card><key>k</key><circle>1</circle>`)).not.toEqual([]);
    expect(request(`${base}<card>c</card><circle>1</circle><ext/>`)).not.toEqual([]);
    expect(response('<id>1</id>')).not.toEqual([]);
  });

  it('generates requests within the bounds, with one alternative', () => {
    const [tc] = testCases(contract).filter((t) => t.name === 'place');
    const body = buildRequest(tc).body;
    const count = (local: string) => body.split(`<tns:${local}>`).length - 1;
    expect(count('line')).toBeGreaterThanOrEqual(1);
    expect(count('udf')).toBeGreaterThanOrEqual(2);
    expect(count('udf')).toBeLessThanOrEqual(3);
    expect(count('code')).toBe(2);
    expect(count('card') + count('iban')).toBe(1);
    expect(count('circle') + count('square')).toBeGreaterThanOrEqual(1);
    expect(matchXml(place.request.body!, parseXml(body), place.scope)).toEqual([]);
  });
});

/*
 * strict.wsdl: a required xs:any processContents="strict" was generated as <any xmlns="urn:accord:any"/>, which
 * a strict validator refuses (no declaration); now as an element the schemas declare, checked when found.
 */
describe('strict.wsdl: a required strict wildcard is filled with a declared element', () => {
  const strict = importWsdl(path.join(FIXTURES, 'structure', 'strict.wsdl')).text;
  const c = parseContract(strict, 'strict.spec');
  const note = c.scenarios.find((s) => s.name === 'note')!;
  const req = (inner: string) =>
    matchXml(note.request.body!, envelope(`<note xmlns="urn:accord:strict" xmlns:e="urn:accord:strict:ext"><id>1</id>${inner}</note>`), note.scope).map(formatMismatch);

  it('writes the declared element inside the required strict wildcard only, preferring simple content', () => {
    expect(strict).toContain('<specmatic_any namespace="##other" targetNamespace="urn:accord:strict">\n        <ext:flag>(boolean)</ext:flag>\n      </specmatic_any>');
    expect(strict).toContain('<specmatic_any specmatic_occurs="multiple" namespace="##other" targetNamespace="urn:accord:strict"/>');
  });

  it('generates the declared element, and checks an element of its name against the declaration', () => {
    const [tc] = testCases(c).filter((t) => t.name === 'note');
    const body = buildRequest(tc).body;
    expect(body).toMatch(/<tns:id>-?\d+<\/tns:id><ext:flag>(true|false|1|0)<\/ext:flag><\/tns:note>/);
    expect(body).not.toContain('urn:accord:any');
    expect(req('<e:flag>true</e:flag>')).toEqual([]);
    expect(req('<e:flag>maybe</e:flag>').join('\n')).toContain('Envelope/Body/note/flag: expected a boolean, found "maybe"');
    // An element the contract knows no declaration for is accepted as before (its schema may declare it).
    expect(req('<o:other xmlns:o="urn:o"><deep/></o:other><e:meta><e:key>k</e:key></e:meta>')).toEqual([]);
    expect(req('')).not.toEqual([]);
  });
});
