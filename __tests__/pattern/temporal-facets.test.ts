import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { looserFacet, generateScalar, violatedFacet } from '../../src/pattern/scalars/facets';
import { SCALARS } from '../../src/pattern/scalars/index';
import { parsePlaceholder } from '../../src/pattern/placeholder';
import { createRandom } from '../../src/pattern/random';
import type { Facets, ScalarType } from '../../src/pattern/types';
import { importWsdl } from '../../src/wsdl';

/**
 * Range facets on XSD's dates, times and durations (minInclusive P1D, a 09:00–17:00 time, min 2100 on a gYear): a
 * value out of range is refused, and generation keeps inside. Seen in fresh real-world WSDLs: they were dropped
 * (time, duration) or compared as texts of one length (a date with a time zone was never checked).
 */
type Case = [ScalarType, Facets, string[], string[]];
const cases: Case[] = [
  ['duration', { min: 'P1D' }, ['P1D', 'P2D', 'PT24H', 'P1M', 'P1Y'], ['PT22M', 'PT23H59M59S', 'P0D', '-P2D']],
  ['duration', { min: 'PT1H', max: 'PT8H' }, ['PT1H', 'PT90M', 'PT8H', 'PT7H59M'], ['PT59M', 'PT8H1S', 'P1D']],
  ['duration', { minExclusive: 'P30D' }, ['P31D', 'P2M'], ['P30D', 'P1M' /* 28–31 days: indeterminate against P30D, so not "more than" */]],
  ['time', { min: '09:00:00', max: '17:00:00' }, ['09:00:00', '12:30:00', '17:00:00', '10:00:00Z', '18:00:00+02:00'], ['08:23:38', '17:00:01', '10:00:00+02:00']],
  ['gYear', { min: '2100' }, ['2100', '2150', '12000'], ['2002', '2099', '0999']],
  ['gYearMonth', { max: '2024-06' }, ['2024-06', '1999-12'], ['2024-07', '2025-01']],
  ['date', { max: '2024-03-06' }, ['2024-03-06', '2024-03-06Z', '2023-12-31'], ['2024-03-07', '2024-03-07Z', '2024-03-07+01:00', '2025-01-01']],
  [
    'datetime',
    { minExclusive: '2024-01-01T00:00:00Z' },
    ['2024-01-01T00:00:01Z', '2024-01-01T01:30:00+01:00'],
    ['2024-01-01T00:00:00Z', '2024-01-01T00:30:00+01:00', '2023-12-31T23:59:59'],
  ],
  ['gMonth', { min: '--03', max: '--05' }, ['--03', '--04', '--05'], ['--02', '--06']],
  ['gDay', { max: '---15' }, ['---01', '---15'], ['---16', '---31']],
];

test.each(cases)('%s %j: values inside pass, values outside break the facet', (type, facets, inside, outside) => {
  for (const v of inside) expect([v, violatedFacet(type, facets, v)]).toEqual([v, undefined]);
  for (const v of outside) expect([v, violatedFacet(type, facets, v)]).toEqual([v, expect.stringMatching(/^(min|max)(Exclusive)?=/)]);
});

test.each(cases)('%s %j: every generated value is of the type and inside the range (200 seeds)', (type, facets) => {
  for (let seed = 1; seed <= 200; seed++) {
    const v = generateScalar(type, facets, createRandom(seed));
    expect([v, SCALARS[type].test(v), violatedFacet(type, facets, v)]).toEqual([v, true, undefined]);
  }
});

test('a placeholder keeps range facets on time and duration (they were refused as not applying)', () => {
  expect(parsePlaceholder('(time min=09:00:00 max=17:00:00)')).toMatchObject({ facets: { min: '09:00:00', max: '17:00:00' } });
  expect(parsePlaceholder('(duration min=P1D)')).toMatchObject({ facets: { min: 'P1D' } });
});

test('comparing contracts: a narrower duration or time range is a facet the wider side does not imply', () => {
  expect(looserFacet('duration', { min: 'P2D' }, 'duration', { min: 'P1D' })).toEqual({ facet: 'min=P2D' });
  expect(looserFacet('duration', { min: 'P1D' }, 'duration', { min: 'P2D' })).toBeUndefined();
  // P1M against P30D cannot be ordered: reported, never assumed implied.
  expect(looserFacet('duration', { min: 'P30D' }, 'duration', { min: 'P1M' })).toEqual({ facet: 'min=P30D' });
  expect(looserFacet('time', { max: '17:00:00' }, 'time', { max: '18:00:00' })).toEqual({ facet: 'max=17:00:00' });
  expect(looserFacet('time', { max: '18:00:00' }, 'time', { max: '17:00:00' })).toBeUndefined();
});

test('the WSDL importer keeps the facets, so the contract refuses what the schema refuses', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-temporal-'));
  try {
    const file = path.join(dir, 's.wsdl');
    writeFileSync(
      file,
      `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
  <types><xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
    <xs:simpleType name="Office"><xs:restriction base="xs:time"><xs:minInclusive value="09:00:00"/><xs:maxInclusive value="17:00:00"/></xs:restriction></xs:simpleType>
    <xs:element name="book"><xs:complexType><xs:sequence>
      <xs:element name="length"><xs:simpleType><xs:restriction base="xs:duration"><xs:minInclusive value="P1D"/></xs:restriction></xs:simpleType></xs:element>
      <xs:element name="at" type="tns:Office"/>
      <xs:element name="year"><xs:simpleType><xs:restriction base="xs:gYear"><xs:minInclusive value="2100"/></xs:restriction></xs:simpleType></xs:element>
    </xs:sequence></xs:complexType></xs:element>
    <xs:element name="booked" type="xs:boolean"/>
  </xs:schema></types>
  <message name="in"><part name="p" element="tns:book"/></message><message name="out"><part name="p" element="tns:booked"/></message>
  <portType name="P"><operation name="book"><input message="tns:in"/><output message="tns:out"/></operation></portType>
  <binding name="B" type="tns:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="book"><soap:operation soapAction="urn:book"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>
</definitions>`,
    );
    const { text } = importWsdl(file);
    expect(text).toContain('(duration min=P1D)');
    expect(text).toContain('(time min=09:00:00 max=17:00:00)');
    expect(text).toContain('(gYear min=2100)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
