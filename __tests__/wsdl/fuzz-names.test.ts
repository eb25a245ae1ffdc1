import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { AccordError } from '../../src/errors';
import { importWsdl } from '../../src/wsdl';
import { seeded } from '../helpers/mutate';

/**
 * A seeded fuzz of the WSDL importer aimed where the corpus mutants rarely go:
 * the names of elements, attributes, types and groups (control characters,
 * bidi overrides, names accord itself uses, XML-reserved names, duplicates),
 * declarations repeated, and large counts. Every generated WSDL either imports
 * into a contract that parses, or fails with an AccordError that says where
 * (file and line). An internal error is a bug: the seed and case replay it.
 * Needs no corpus: the WSDLs are written here.
 */
// A longer run: ACCORD_FUZZ_CASES=20000 ACCORD_FUZZ_SEED=7 npx jest __tests__/wsdl/fuzz-names.test.ts
const CASES = Number(process.env.ACCORD_FUZZ_CASES ?? 250);
const SEED = Number(process.env.ACCORD_FUZZ_SEED ?? 20_251);

const NAMES = [
  'n',
  'name',
  'a\u0001b',
  'a&#1;b',
  'a&#x7f;b',
  'a\u202eb',
  'a\u200bb',
  'x&#xD;y',
  'specmatic_type',
  'specmatic_occurs',
  'specmatic_nillable',
  'xmlns',
  'xmlns:p',
  'xml:lang',
  'Request',
  'Response',
  'SoapAction',
  'number',
  'string',
  'a.opt',
  '1abc',
  '-a',
  '',
  ' n ',
  'a b',
  'p:q',
  'é',
  'a--b',
  '(number)',
  'x'.repeat(300),
];

/** Ordinary names, so that most cases get past the hostile ones and exercise the writer. */
const PLAIN = ['n', 'id', 'name', 'value', 'item', 'a.b', 'a-b', '_x', 'Amount'];

function someName(r: () => number): string {
  return r() < 0.6 ? pick(r, PLAIN) : pick(r, NAMES);
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

function attribute(r: () => number, names: string[]): string {
  const name = r() < 0.4 && names.length ? pick(r, names) : someName(r);
  names.push(name);
  const type = pick(r, ['xs:string', 'xs:int', 'tns:E', 'tns:nowhere', 'xs:anyType']);
  const use = pick(r, ['', ' use="required"', ' use="optional"', ' use="prohibited"']);
  const fixed = r() < 0.1 ? ` fixed="${pick(r, ['1', '(number)', 'a\u0002'])}"` : '';
  return r() < 0.15 ? `<xs:attribute ref="tns:${name}"/>` : `<xs:attribute name="${name}" type="${type}"${use}${fixed}/>`;
}

function element(r: () => number, names: string[]): string {
  const name = r() < 0.4 && names.length ? pick(r, names) : someName(r);
  names.push(name);
  const occurs = pick(r, ['', ' minOccurs="0"', ' maxOccurs="unbounded"', ' maxOccurs="99999999999999999999"', ' minOccurs="-1"']);
  const type = pick(r, ['xs:string', 'xs:int', 'tns:T', 'tns:E', 'tns:nowhere', '']);
  return `<xs:element name="${name}"${type ? ` type="${type}"` : ''}${occurs}${r() < 0.1 ? ' nillable="true"' : ''}/>`;
}

/** One generated schema body: types, groups and the ping/pong elements, with names and counts from the seed. */
function schema(r: () => number): string {
  const many = r() < 0.03 ? 1500 : 1 + Math.floor(r() * 6);
  const elNames: string[] = [];
  const atNames: string[] = [];
  const els = Array.from({ length: many }, () => element(r, elNames)).join('');
  const ats = Array.from({ length: 1 + Math.floor(r() * (r() < 0.03 ? 1000 : 4)) }, () => attribute(r, atNames)).join('');
  const typeName = pick(r, ['T', 'T', 'Request', 'E', 'specmatic_type', 'a\u0003', 'dictionary', 'number']);
  const parts = [
    `<xs:complexType name="${typeName}"><xs:sequence>${els}</xs:sequence>${ats}${r() < 0.3 ? '<xs:attributeGroup ref="tns:G"/>' : ''}</xs:complexType>`,
    r() < 0.3 ? `<xs:complexType name="${typeName}"><xs:sequence>${element(r, [])}</xs:sequence></xs:complexType>` : '',
    `<xs:attributeGroup name="G">${attribute(r, atNames)}${attribute(r, atNames)}</xs:attributeGroup>`,
    `<xs:attribute name="${pick(r, atNames.length ? atNames : NAMES)}" type="xs:string"/>`,
    `<xs:simpleType name="E"><xs:restriction base="xs:string">${Array.from({ length: 1 + Math.floor(r() * 3) }, () => `<xs:enumeration value="${pick(r, NAMES)}"/>`).join('')}</xs:restriction></xs:simpleType>`,
    r() < 0.3
      ? `<xs:complexType name="D"><xs:complexContent><xs:extension base="tns:T">${r() < 0.5 ? `<xs:sequence>${element(r, elNames)}</xs:sequence>` : ''}${attribute(r, atNames)}</xs:extension></xs:complexContent></xs:complexType>`
      : '',
    r() < 0.2
      ? `<xs:complexType name="S"><xs:simpleContent><xs:extension base="xs:string">${attribute(r, atNames)}${attribute(r, atNames)}</xs:extension></xs:simpleContent></xs:complexType>`
      : '',
  ];
  const pingType = pick(r, ['tns:T', 'tns:D', 'tns:S', 'tns:E']);
  return `${parts.join('\n')}
    <xs:element name="ping" type="${pingType}"/>
    <xs:element name="${r() < 0.1 ? pick(r, NAMES) : 'pong'}"><xs:complexType><xs:sequence>${element(r, [])}</xs:sequence>${attribute(r, [])}</xs:complexType></xs:element>`;
}

function wsdl(r: () => number): string {
  const op = r() < 0.1 ? pick(r, NAMES) : 'ping';
  return `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
  <types><xs:schema targetNamespace="urn:t" elementFormDefault="${pick(r, ['qualified', 'unqualified'])}" attributeFormDefault="${pick(r, ['qualified', 'unqualified'])}">
    ${schema(r)}
  </xs:schema></types>
  <message name="in"><part name="p" element="tns:ping"/></message>
  <message name="out"><part name="p" element="tns:pong"/></message>
  <portType name="PT"><operation name="${op}"><input message="tns:in"/><output message="tns:out"/></operation></portType>
  <binding name="B" type="tns:PT">
    <soap:binding style="${pick(r, ['document', 'rpc'])}" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="${op}"><soap:operation soapAction="urn:ping"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
  <service name="S"><port name="P" binding="tns:B"><soap:address location="http://127.0.0.1/ws"/></port></service>
</definitions>
`;
}

const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-fuzz-names-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test(`${CASES} generated WSDLs (seed ${SEED}) import into contracts that parse, or fail with a located input error`, () => {
  const r = seeded(SEED);
  const failures: string[] = [];
  let imported = 0;
  for (let i = 0; i < CASES; i++) {
    const file = path.join(dir, `case-${i}.wsdl`);
    writeFileSync(file, wsdl(r));
    let text: string;
    try {
      const result = importWsdl(file);
      text = result.text;
      const said = [...result.summary.notes, ...result.summary.skipped, ...result.summary.unresolved.map((u) => u.reason)].join('\n');
      if (RAW_CONTROL.test(said)) failures.push(`case ${i}: raw control character in the summary: ${JSON.stringify(said.slice(0, 300))}`);
    } catch (e) {
      if (!(e instanceof AccordError)) failures.push(`case ${i}: ${(e as Error).message.slice(0, 300)}`);
      // Located: a line in the file, or (for a whole-file problem) the file named.
      else if (e.location.line === undefined && !e.describe().includes(`case-${i}.wsdl`)) failures.push(`case ${i}: not located: ${e.describe().slice(0, 300)}`);
      else if (RAW_CONTROL.test(e.describe())) failures.push(`case ${i}: raw control character in: ${JSON.stringify(e.describe().slice(0, 300))}`);
      continue;
    }
    imported++;
    try {
      parseContract(text, `case-${i}.spec`);
    } catch (e) {
      failures.push(`case ${i}: the contract does not parse: ${(e as Error).message.slice(0, 300)}`);
    }
  }
  expect(failures).toEqual([]);
  // The fuzz is worth running only if most cases get through the importer.
  expect(imported).toBeGreaterThan(CASES / 3);
});
