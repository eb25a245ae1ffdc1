import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importWsdl } from '../../src/wsdl';
import { parseDom } from '../../src/wsdl/dom';
import { DOCTYPE_MAX_CHARS } from '../../src/limits';
import { accordErrorOf } from '../helpers/accord-error';
import { parseXml } from '../../src/xml/parse';
import { run } from '../../src/cli/main';

/**
 * A WSDL or XSD file may start with a DOCTYPE that only declares (the W3C's xmldsig-core-schema.xsd
 * and xenc-schema.xsd do, and signed-XML, SAML and WS-Security schemas import them): read, never
 * processed. Everything else a DOCTYPE can do stays refused, by name and line.
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'wsdl', 'doctype');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-doctype-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const DSIG = readFileSync(path.join(FIXTURES, 'dsig.xsd'), 'utf8');
const schemaWith = (doctype: string, body = '<element name="x" type="string"/>') =>
  `<?xml version="1.0"?>\n${doctype}\n<schema xmlns="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:x">\n${body}\n</schema>`;
const failure = (text: string) => accordErrorOf(() => parseDom(text, 'x.xsd'));

test('a WSDL importing a schema whose DOCTYPE only declares is imported whole, typed from that schema', () => {
  const { text, summary } = importWsdl(path.join(FIXTURES, 'signed.wsdl'));
  expect(summary.unresolved).toEqual([]);
  expect(text).toMatch(/<ds:SignatureValue>\(base64Binary\)<\/ds:SignatureValue>|<SignatureValue>\(base64Binary\)<\/SignatureValue>/);
  expect(text).not.toContain('(anything)');
});

test('the DOCTYPE is skipped, not processed: the document reads as it would without it, lines kept', () => {
  const doc = parseDom(DSIG, 'dsig.xsd');
  expect(doc.doctype).toBeNull();
  expect(doc.documentElement?.getAttribute('targetNamespace')).toBe('urn:example:dsig');
  // A later error still names its own line: the blanked DOCTYPE kept its line ends.
  const broken = DSIG.replace('<element name="KeyName"', '<element name="KeyName" name="again"');
  const line = DSIG.split('\n').findIndex((l) => l.includes('name="KeyName"')) + 1;
  expect(failure(broken).location.line).toBe(line);
});

test.each([
  ['an internal entity', `<!DOCTYPE schema [<!ENTITY dsig 'urn:d'>]>`, '<element name="&dsig;"/>', 'dsig'],
  ['an external entity (XXE)', `<!DOCTYPE schema [<!ENTITY x SYSTEM "file:///etc/passwd">]>`, '<annotation><documentation>&x;</documentation></annotation>', 'x'],
  [
    'nested entities (a billion laughs)',
    `<!DOCTYPE schema [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>`,
    '<annotation><documentation>&lol2;</documentation></annotation>',
    'lol2',
  ],
])('using %s the DOCTYPE declares is refused by name and line, never expanded', (_, doctype, body, name) => {
  const e = failure(schemaWith(doctype, body));
  expect(e.code).toBe('ACCORD_ERR_XML');
  expect(e.message).toBe(`the entity &${name}; declared in the DOCTYPE is used: accord never expands entities`);
  expect(e.location.line).toBe(4);
});

test.each([
  [
    'a parameter-entity reference (pulls in more DTD)',
    `<!DOCTYPE schema [<!ENTITY % ext SYSTEM "http://127.0.0.1:9/x.dtd"> %ext;]>`,
    'a parameter-entity reference would read more DTD',
  ],
  ['an unknown markup', `<!DOCTYPE schema [<!FOO bar>]>`, 'only entity, attribute, element and notation declarations'],
  ['a comment that does not end', `<!DOCTYPE schema [<!-- x`, 'a comment does not end'],
  ['no root name', `<!DOCTYPE [<!ENTITY a "x">]>`, 'the root element is not named'],
  ['one that is too long', `<!DOCTYPE schema [<!-- ${'x'.repeat(DOCTYPE_MAX_CHARS)} -->]>`, 'does not end'],
])('a DOCTYPE with %s is refused, with its line', (_, doctype, why) => {
  const e = failure(schemaWith(doctype));
  expect(e.code).toBe('ACCORD_ERR_XML');
  expect(e.message).toContain('a DOCTYPE is read only when it only declares: ');
  expect(e.message).toContain(why);
  expect(e.location.line).toBe(2);
});

test('a quoted > inside a declaration does not end it; an entity declared but unused is harmless', () => {
  const doc = parseDom(schemaWith(`<!DOCTYPE schema [<!ENTITY gt2 "a > b"><!ATTLIST schema v CDATA "1 > 0">]>`), 'x.xsd');
  expect(doc.documentElement?.localName).toBe('schema');
});

test('a message or contract body still refuses any DOCTYPE (SOAP allows none): only schema files are read past one', () => {
  // parseXml is the one reader of bodies; its refusal is unchanged (see __tests__/xml/parse.test.ts).
  expect(() => parseXml(schemaWith('<!DOCTYPE schema []>'))).toThrow(/DOCTYPE is not allowed/);
});

test('the CLI imports a WSDL whose schema starts with such a DOCTYPE (exit 0)', async () => {
  const out = path.join(dir, 'filing.spec');
  const err: string[] = [];
  const code = await run(['import', 'wsdl', path.join(FIXTURES, 'signed.wsdl'), '-o', out], { cwd: dir, stdout: () => undefined, stderr: (s) => err.push(s) });
  expect({ code, err }).toEqual({ code: 0, err: expect.any(Array) });
  expect(readFileSync(out, 'utf8')).toContain('base64Binary');
});
