import { matchText, matchXml } from '../../src/pattern/match/index';
import { formatMismatch } from '../../src/pattern/match/mismatch';
import type { Pattern, Scope } from '../../src/pattern/types';
import { xmlPatternFromText } from '../../src/pattern/xml-pattern';
import { parseXml } from '../../src/xml/parse';

/**
 * What real SOAP toolkits send that accord's own generator never writes, found by
 * __tests__/wsdl/accept-variants.test.ts (xmllint judging validity): each is valid
 * XSD, so a contract imported from the WSDL must accept it.
 */
const scope: Scope = { types: new Map() };
const text = (p: Pattern, t: string) => matchText(p, t, scope).map(formatMismatch);

describe('XSD lexical forms of the built-in rows', () => {
  test('xs:boolean: 1 and 0 (.NET, PHP, Axis) as well as true and false, white space collapsed', () => {
    const b: Pattern = { kind: 'scalar', type: 'boolean' };
    for (const t of ['true', 'false', '1', '0', ' 1 ', '\ttrue\n']) expect(text(b, t)).toEqual([]);
    for (const t of ['yes', 'TRUE', '2', '']) expect(text(b, t)).not.toEqual([]);
  });

  test('xs:date with a time zone (Java services write 2024-03-07Z and 2024-03-07+01:00)', () => {
    const d: Pattern = { kind: 'scalar', type: 'date' };
    for (const t of ['2024-03-07', '2024-03-07Z', '2024-03-07+01:00', '2024-03-07-05:30', ' 2024-03-07 ']) expect(text(d, t)).toEqual([]);
    for (const t of ['2024-03-07T00:00:00', '2024-02-30', '2024-03-07+1']) expect(text(d, t)).not.toEqual([]);
  });

  test('xs:dateTime and xs:time collapse white space', () => {
    expect(text({ kind: 'scalar', type: 'datetime' }, '\n  2024-03-07T10:00:00Z ')).toEqual([]);
    expect(text({ kind: 'scalar', type: 'time' }, ' 10:00:00+02:00 ')).toEqual([]);
  });
});

describe('enumerations compare values as their base reads them', () => {
  test('white space collapses for a collapsing base (token, int), not for string', () => {
    const token: Pattern = { kind: 'enum', name: 'Colour', base: 'token', values: ['Red', 'Dark Blue'] };
    expect(text(token, ' Red ')).toEqual([]);
    expect(text(token, 'Dark \n Blue')).toEqual([]);
    expect(text(token, 'Green')).not.toEqual([]);
    const string: Pattern = { kind: 'enum', name: 'Colour', base: 'string', values: ['Red'] };
    expect(text(string, ' Red ')).not.toEqual([]);
  });

  test('numbers by value: +5 and 05 are 5; 64-bit integers exactly', () => {
    const int: Pattern = { kind: 'enum', name: 'Level', base: 'int', values: ['5', '10'] };
    for (const t of ['+5', '05', ' 10 ']) expect(text(int, t)).toEqual([]);
    expect(text(int, '6')).not.toEqual([]);
    const long: Pattern = { kind: 'enum', name: 'Id', base: 'long', values: ['9007199254740993'] };
    expect(text(long, '9007199254740992')).not.toEqual([]);
    expect(text(long, '+9007199254740993')).toEqual([]);
  });
});

describe('SOAP Header blocks the contract does not name', () => {
  const contract = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
    <soapenv:Header><h:Session xmlns:h="urn:h" specmatic_occurs="optional"><h:id>(int)</h:id></h:Session></soapenv:Header>
    <soapenv:Body><r:done xmlns:r="urn:r">(boolean)</r:done></soapenv:Body>
  </soapenv:Envelope>`;
  const check = (c: string, actual: string) => matchXml(xmlPatternFromText(c), parseXml(actual), scope).map(formatMismatch);
  const wsa = (mu: string) =>
    `<a:Action s:mustUnderstand="${mu}" xmlns:a="http://www.w3.org/2005/08/addressing">urn:doneResponse</a:Action><a:RelatesTo xmlns:a="http://www.w3.org/2005/08/addressing">urn:uuid:1</a:RelatesTo>`;
  const message = (header: string, ns = 'http://schemas.xmlsoap.org/soap/envelope/') =>
    `<s:Envelope xmlns:s="${ns}"><s:Header>${header}</s:Header><s:Body><r:done xmlns:r="urn:r">1</r:done></s:Body></s:Envelope>`;

  test('WS-Addressing blocks a WCF or CXF service adds are accepted, mustUnderstand or not, before or after the declared ones', () => {
    expect(check(contract, message(wsa('1')))).toEqual([]);
    expect(check(contract, message(`${wsa('0')}<h:Session xmlns:h="urn:h"><h:id>7</h:id></h:Session>`))).toEqual([]);
    expect(check(contract, message(`<h:Session xmlns:h="urn:h"><h:id>7</h:id></h:Session>${wsa('1')}`))).toEqual([]);
    const empty = contract.replace(/<soapenv:Header>.*<\/soapenv:Header>/, '<soapenv:Header/>');
    expect(check(empty, message(wsa('1')))).toEqual([]);
  });

  test('a block the contract names is still checked in full', () => {
    expect(check(contract, message(`${wsa('1')}<h:Session xmlns:h="urn:h"><h:id>seven</h:id></h:Session>`))).toEqual([
      'Envelope/Header/Session/id: expected an integer from -2147483648 to 2147483647, found "seven"',
    ]);
  });

  test('only a SOAP Header is open: an element called Header elsewhere keeps its declared content', () => {
    const other = message(wsa('1'), 'urn:not-soap');
    expect(check(contract.replace('http://schemas.xmlsoap.org/soap/envelope/', 'urn:not-soap'), other).join('\n')).toMatch(/unexpected node <Action>/);
  });
});
