import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { AccordError } from '../../src/errors';
import { importWsdl } from '../../src/wsdl';
import { run } from '../../src/cli/main';
import { accordErrorOf } from '../helpers/accord-error';

/** Every input is hostile: nothing is fetched, no entity is expanded, cycles end, and each refusal says where. */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-wsdl-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const thrown = (f: () => unknown): AccordError => accordErrorOf(f);

const wsdl = (types: string, extra = '', ns = 'urn:t') => `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="${ns}" xmlns:r="urn:remote" targetNamespace="${ns}">
  ${extra}
  <types>${types}</types>
  <message name="in"><part name="p" element="tns:ping"/></message>
  <message name="out"><part name="p" element="tns:pong"/></message>
  <portType name="PT"><operation name="ping"><input message="tns:in"/><output message="tns:out"/></operation></portType>
  <binding name="B" type="tns:PT">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="ping"><soap:operation soapAction="urn:ping"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
</definitions>
`;

const pingPong = (inner = '<xs:element name="n" type="xs:int"/>') => `<xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
    <xs:element name="ping"><xs:complexType><xs:sequence>${inner}</xs:sequence></xs:complexType></xs:element>
    <xs:element name="pong"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema>`;

test('a URL schemaLocation is never fetched: reported unresolved, its nodes marked (anything)', async () => {
  let hits = 0;
  const server = createServer((_q, s) => {
    hits++;
    s.end('<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:remote"><xs:complexType name="R"/></xs:schema>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/remote.xsd`;
    const file = write(
      'remote.wsdl',
      wsdl(`<xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
      <xs:import namespace="urn:remote" schemaLocation="${url}"/>
      <xs:element name="ping"><xs:complexType><xs:sequence><xs:element name="r" type="r:R"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="pong"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
    </xs:schema>`),
    );
    const { text, summary } = importWsdl(file);
    expect(hits).toBe(0);
    expect(summary.unresolved).toEqual([
      expect.objectContaining({ location: url, reason: expect.stringMatching(/^a URL, not fetched: `accord import wsdl <the WSDL's URL>` fetches it/) }),
    ]);
    expect(summary.anything).toBe(1);
    expect(text).toContain('<tns:r>(anything)</tns:r>');
    parseContract(text);
  } finally {
    server.close();
  }
});

test('a missing local import is reported, and the import goes on', () => {
  const file = write('missing.wsdl', wsdl(pingPong(), '<import namespace="urn:x" location="nowhere/x.wsdl"/>'));
  const { summary } = importWsdl(file);
  expect(summary.unresolved).toEqual([expect.objectContaining({ location: 'nowhere/x.wsdl', reason: 'no such file' })]);
  expect(summary.scenarios).toBe(1);
});

test('circular wsdl:import and xsd:import end (each file read once)', () => {
  write(
    'a.wsdl',
    wsdl(
      `<xs:schema targetNamespace="urn:t" elementFormDefault="qualified"><xs:import namespace="urn:u" schemaLocation="xsd/u.xsd"/>
    <xs:element name="ping"><xs:complexType><xs:sequence><xs:element name="u" type="u:U" xmlns:u="urn:u"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="pong"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
    </xs:schema>`,
      '<import namespace="urn:t" location="b.wsdl"/>',
    ),
  );
  write('b.wsdl', '<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:t"><import namespace="urn:t" location="a.wsdl"/></definitions>');
  write(
    'xsd/u.xsd',
    '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:u="urn:u" targetNamespace="urn:u"><xs:import namespace="urn:v" schemaLocation="v.xsd"/><xs:complexType name="U"><xs:sequence><xs:element name="v" type="v:V" xmlns:v="urn:v"/></xs:sequence></xs:complexType></xs:schema>',
  );
  write(
    'xsd/v.xsd',
    '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:v"><xs:import namespace="urn:u" schemaLocation="./u.xsd"/><xs:simpleType name="V"><xs:restriction base="xs:date"/></xs:simpleType></xs:schema>',
  );
  const { text, summary } = importWsdl(path.join(dir, 'a.wsdl'));
  expect(summary.files).toHaveLength(4);
  expect(summary.unresolved).toEqual([]);
  expect(text).toContain('<v>(date)</v>');
});

test('a DOCTYPE entity is never expanded (entity expansion, external entities): its use is refused, with the file and line', () => {
  const bomb = write(
    'bomb.wsdl',
    `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n<definitions xmlns="http://schemas.xmlsoap.org/wsdl/">&lol2;</definitions>`,
  );
  const e = thrown(() => importWsdl(bomb));
  expect(e.code).toBe('ACCORD_ERR_XML');
  expect(e.describe()).toBe(`${bomb}:3: the entity &lol2; declared in the DOCTYPE is used: accord never expands entities`);
  const xxe = write(
    'xxe.xsd',
    '<?xml version="1.0"?>\n<!DOCTYPE s [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">&x;</xs:schema>',
  );
  const file = write('uses-xxe.wsdl', wsdl(pingPong(), '', 'urn:t').replace('<types>', '<types><xs:schema><xs:import schemaLocation="xxe.xsd"/></xs:schema>'));
  const r = importWsdl(file);
  expect(r.summary.unresolved).toEqual([
    expect.objectContaining({ location: 'xxe.xsd', reason: `${xxe}:3: the entity &x; declared in the DOCTYPE is used: accord never expands entities` }),
  ]);
  expect(r.text).not.toContain('root:');
});

test.each([
  ['no such file', () => path.join(dir, 'nope.wsdl'), 'ACCORD_ERR_IO', /^no such file: .*nope\.wsdl$/],
  ['not XML', () => write('x.wsdl', 'hello, I am not XML'), 'ACCORD_ERR_XML', /x\.wsdl(:\d+(:\d+)?)?: not well-formed XML: /],
  [
    'broken XML',
    () => write('y.wsdl', '<definitions xmlns="http://schemas.xmlsoap.org/wsdl/">\n<types>\n</definitions>'),
    'ACCORD_ERR_XML',
    /y\.wsdl:\d+:\d+: not well-formed XML: Opening and ending tag mismatch/,
  ],
  [
    'not a WSDL',
    () => write('pom.xml', '<project><modelVersion>4.0.0</modelVersion></project>'),
    'ACCORD_ERR_WSDL',
    /pom\.xml:1: not a WSDL: the root element is <project>; expected <definitions> \(WSDL 1\.1\) or <description> \(WSDL 2\.0\)$/,
  ],
  ['an XSD, not a WSDL', () => write('t.xsd', '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>'), 'ACCORD_ERR_WSDL', /not a WSDL: this is an XML Schema/],
  [
    'a WSDL without operations',
    () => write('empty.wsdl', '<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" name="E"/>'),
    'ACCORD_ERR_WSDL',
    /the WSDL defines no portType and no binding/,
  ],
  [
    'a WSDL with only an HTTP binding',
    () => write('http.wsdl', wsdl(pingPong()).replace(/<soap:binding[^>]*\/>/, '<http:binding xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" verb="POST"/>')),
    'ACCORD_ERR_WSDL',
    /no SOAP operation to import: binding B: not a SOAP binding \(http:binding\)/,
  ],
])('%s: a clear error with the place', (_name, make, code, message) => {
  const e = thrown(() => importWsdl(make()));
  expect(e.code).toBe(code);
  expect(e.describe()).toMatch(message);
});

test('no service or address: importable, posted to /ws, and said so', () => {
  const { text, summary } = importWsdl(write('noservice.wsdl', wsdl(pingPong())));
  expect(summary.defaultPath).toBe('/ws');
  expect(text).toContain('When POST /ws');
});

test("prefixes: the author's when legal and free, else ns1, ns2 (never made from a URI)", () => {
  const file = write('prefix.wsdl', wsdl(pingPong()).replace('xmlns:tns="urn:t"', 'xmlns:tns="urn:t" xmlns:xml2="urn:other"'));
  const { text } = importWsdl(file);
  expect(text).toContain('xmlns:tns="urn:t"');
  const two = write(
    'two.wsdl',
    wsdl(`${pingPong('<xs:element ref="o:x" xmlns:o="2009-02-01"/>')}<xs:schema targetNamespace="2009-02-01"><xs:element name="x" type="xs:string"/></xs:schema>`),
  );
  const t2 = importWsdl(two).text;
  expect(t2).toMatch(/xmlns:(ns\d+|o)="2009-02-01"/);
  expect(t2).not.toContain('xmlns:2009');
});

test('encodings: UTF-16 with a byte order mark, ISO-8859-1 by its declaration, UTF-8 with a BOM', () => {
  const enumSchema = `<xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
    <xs:simpleType name="Ville"><xs:restriction base="xs:string"><xs:enumeration value="Besançon"/><xs:enumeration value="Orléans"/></xs:restriction></xs:simpleType>
    <xs:element name="ping"><xs:complexType><xs:sequence><xs:element name="v" type="tns:Ville"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="pong"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema>`;
  const text = wsdl(enumSchema);
  const utf16 = path.join(dir, 'utf16.wsdl');
  writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-16"?>'), 'utf16le')]));
  const latin1 = path.join(dir, 'latin1.wsdl');
  writeFileSync(latin1, Buffer.from(text.replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="ISO-8859-1"?>'), 'latin1'));
  const bom = path.join(dir, 'bom.wsdl');
  writeFileSync(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]));
  for (const f of [utf16, latin1, bom]) expect(importWsdl(f).text).toContain('enum Ville (string) values Besançon,Orléans');
});

test('a group that contains itself (not allowed in XSD) ends, with a note saying where', () => {
  const file = write(
    'group-cycle.wsdl',
    wsdl(`<xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
      <xs:group name="G"><xs:sequence><xs:element name="a" type="xs:string"/><xs:group ref="tns:G" minOccurs="0"/></xs:sequence></xs:group>
      <xs:element name="ping"><xs:complexType><xs:sequence><xs:group ref="tns:G"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="pong"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
    </xs:schema>`),
  );
  const { text, summary } = importWsdl(file);
  expect(summary.notes).toContain('group {urn:t}G contains itself (not allowed in XSD): the inner occurrence is marked (anything)');
  expect(text).toContain('<tns:ping>(anything)</tns:ping>');
  parseContract(text);
});

describe('input errors that were internal errors (exit 1, a stack trace): now located, exit 2', () => {
  async function cli(...argv: string[]): Promise<{ code: number; err: string }> {
    let err = '';
    const code = await run(argv, { stdout: () => undefined, stderr: (s) => (err += s), cwd: dir });
    return { code, err };
  }

  test.each([
    ['a raw control character', 'n\u0001x'],
    ['a control character by reference', 'n&#x1;x'],
    ['a decimal reference to a control character', 'n&#27;x'],
  ])('%s in an XSD name is not well-formed XML, with its line and column', async (_name, name) => {
    const file = write('ctl.wsdl', wsdl(pingPong(`<xs:element name="${name}" type="xs:int"/>`)));
    const e = thrown(() => importWsdl(file));
    expect(e.code).toBe('ACCORD_ERR_XML');
    expect(e.describe()).toMatch(/^.*ctl\.wsdl:\d+:\d+: not well-formed XML: character U\+00(01|1B) is not allowed in XML$/);
    for (const argv of [
      ['import', 'wsdl', 'ctl.wsdl', '-o', '-'],
      ['stub', path.join(dir, 'ctl.wsdl'), '--port', '0'],
    ]) {
      const r = await cli(...argv);
      expect(r.err).not.toContain('internal error');
      expect(r.err).not.toMatch(/[\u0001\u001b]/);
      expect(r.code).toBe(2);
    }
  });

  test('an attribute declared twice in one type names both places', async () => {
    const twice = '<xs:attribute name="a" type="xs:string"/><xs:attribute name="a" type="xs:int"/>';
    const file = write('dup.wsdl', wsdl(pingPong().replace('</xs:sequence></xs:complexType></xs:element>', `</xs:sequence>${twice}</xs:complexType></xs:element>`)));
    const e = thrown(() => importWsdl(file));
    expect(e.code).toBe('ACCORD_ERR_WSDL');
    expect(e.describe()).toBe(`${file}:${e.location.line}: attribute "a" is declared twice in the same type (first at line ${e.location.line}); a type has each attribute once`);
    const r = await cli('import', 'wsdl', 'dup.wsdl', '-o', '-');
    expect(r.err).not.toContain('internal error');
    expect(r.code).toBe(2);
  });

  test('an attribute group repeating an attribute of its type counts as twice', () => {
    const file = write(
      'group.wsdl',
      wsdl(`<xs:schema targetNamespace="urn:t" xmlns:tns="urn:t" elementFormDefault="qualified">
      <xs:attributeGroup name="G"><xs:attribute name="a" type="xs:string"/></xs:attributeGroup>
      <xs:element name="ping"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence>
        <xs:attribute name="a" type="xs:int"/><xs:attributeGroup ref="tns:G"/></xs:complexType></xs:element>
      <xs:element name="pong"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
    </xs:schema>`),
    );
    expect(thrown(() => importWsdl(file)).describe()).toMatch(/group\.wsdl:\d+: attribute "a" is declared twice in the same type \(first at line \d+\)/);
  });

  test('an extension restating an attribute of its base keeps the restated one (as a restriction does)', () => {
    const file = write(
      'ext.wsdl',
      wsdl(`<xs:schema targetNamespace="urn:t" xmlns:tns="urn:t" elementFormDefault="qualified">
      <xs:complexType name="B"><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence><xs:attribute name="a" type="xs:string"/></xs:complexType>
      <xs:complexType name="D"><xs:complexContent><xs:extension base="tns:B"><xs:attribute name="a" type="xs:int" use="required"/></xs:extension></xs:complexContent></xs:complexType>
      <xs:element name="ping" type="tns:D"/>
      <xs:element name="pong"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
    </xs:schema>`),
    );
    const { text } = importWsdl(file);
    expect(text).toContain('a="(int)"');
    expect(text).not.toContain('a.opt=');
    parseContract(text);
  });

  test('attributes named as the contract language names its own (specmatic_type, xmlns, x.opt) are left out with a note', () => {
    const own = ['specmatic_type', 'specmatic_occurs', 'qontract_type', 'xmlns', 'x.opt']
      .map((n) => `<xs:attribute name="${n}" type="xs:string" use="required" fixed="1"/>`)
      .join('');
    const file = write('own.wsdl', wsdl(pingPong().replace('</xs:sequence></xs:complexType></xs:element>', `</xs:sequence>${own}</xs:complexType></xs:element>`)));
    const { text, summary } = importWsdl(file);
    parseContract(text);
    expect(summary.notes).toContain('attribute "specmatic_type" has a name the contract language uses itself: left out');
    expect(summary.notes.filter((n) => n.includes('the contract language uses itself'))).toHaveLength(5);
  });
});

describe('XML_LIMITS apply to WSDL and XSD files as to every XML body', () => {
  test('a WSDL nested deeper than 256 levels is refused at the element, before a DOM is built', () => {
    const deep = `<xs:annotation><xs:documentation>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</xs:documentation></xs:annotation>`;
    const file = write('deep.wsdl', wsdl(pingPong(), deep));
    const started = Date.now();
    const e = thrown(() => importWsdl(file));
    expect(e.code).toBe('ACCORD_ERR_XML');
    expect(e.describe()).toMatch(/deep\.wsdl:4:\d+: elements nested deeper than 256 levels/);
    // xmldom alone takes seconds for this file; the refusal reads a few kilobytes of it.
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test('a WSDL with more than 200,000 elements is refused, and one at a depth of 256 is read', () => {
    const many = `<xs:annotation><xs:documentation>${'<a/>'.repeat(200_001)}</xs:documentation></xs:annotation>`;
    const e = thrown(() => importWsdl(write('many.wsdl', wsdl(pingPong(), many))));
    expect(e.describe()).toMatch(/many\.wsdl:4:\d+: more than 200000 elements/);
    // definitions, annotation and documentation are three levels: 253 more reach 256 exactly.
    const atLimit = `<xs:annotation><xs:documentation>${'<a>'.repeat(253)}${'</a>'.repeat(253)}</xs:documentation></xs:annotation>`;
    expect(importWsdl(write('at-limit.wsdl', wsdl(pingPong(), atLimit))).text).toContain('Feature:');
    const over = atLimit.replace('</a>', '<a/></a>');
    expect(thrown(() => importWsdl(write('over.wsdl', wsdl(pingPong(), over)))).message).toBe('elements nested deeper than 256 levels');
  });

  test('an element with more than 256 attributes is refused; quoted text, comments and CDATA are not read as tags', () => {
    const attrs = Array.from({ length: 257 }, (_, i) => ` a${i}="1"`).join('');
    expect(thrown(() => importWsdl(write('wide.wsdl', wsdl(pingPong(), `<xs:annotation${attrs}/>`)))).message).toBe('element <xs:annotation> has more than 256 attributes');
    const tricky = `<!-- <a><a><a> --><xs:annotation><xs:documentation a="b>=1 c='>'"><![CDATA[<c><c><c>]]></xs:documentation></xs:annotation>`;
    expect(importWsdl(write('tricky.wsdl', wsdl(pingPong(), tricky))).text).toContain('Feature:');
  });
});
