import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { placeholderText } from '../../src/contract/print/pattern';
import { encompasses } from '../../src/pattern/compare/index';
import { generateScalar, violatedFacet } from '../../src/pattern/scalars/facets';
import { generateText } from '../../src/pattern/generate/index';
import { matchText } from '../../src/pattern/match/index';
import { parsePlaceholder } from '../../src/pattern/placeholder';
import { createRandom } from '../../src/pattern/random';
import type { Facets, Pattern, Scope } from '../../src/pattern/types';
import { xsdRegex } from '../../src/pattern/scalars/xsd-regex';
import { importWsdl } from '../../src/wsdl';

const scope: Scope = { types: new Map<string, Pattern>([['Flag', { kind: 'enum', name: 'Flag', base: 'string', values: ['A', 'B', 'C'] }]]) };
const p = (text: string) => parsePlaceholder(text)!;

describe('facets in placeholders', () => {
  test.each([
    '(string minLength=1 maxLength=18 pattern="[A-Z0-9]{18}")',
    '(decimal min=0 totalDigits=10 fractionDigits=2)',
    '(string pattern="(\\d{3}) \\d+" pattern="say ""hi""")',
    '(list Flag maxLength=3)',
    '(language | empty)',
    '(unsignedByte)',
  ])('%s prints back as written', (text) => {
    expect(placeholderText(p(text))).toBe(text);
  });

  test('a facet that does not apply, an unknown facet and a bad pattern are contract errors', () => {
    expect(() => p('(boolean maxLength=3)')).toThrow(/maxLength does not apply/);
    expect(() => p('(string colour=red)')).toThrow(/not a facet/);
    expect(() => p('(string pattern="[a-")')).toThrow(/cannot be used/);
  });

  test('a mismatch names the facet broken', () => {
    const id = p('(string maxLength=18 pattern="[A-Z0-9]{18}")');
    expect(matchText(id, 'ABCDEFGHIJKLMNOPQRS', scope)).toEqual([
      { path: '', expected: 'a string of at most 18 characters matching [A-Z0-9]{18}', actual: '"ABCDEFGHIJKLMNOPQRS" (breaks maxLength=18)' },
    ]);
    expect(matchText(id, 'abc', scope)[0].actual).toBe('"abc" (breaks pattern="[A-Z0-9]{18}")');
    expect(matchText(p('(decimal fractionDigits=1)'), '3.55', scope)[0].actual).toContain('breaks fractionDigits=1');
    expect(matchText(p('(int min=0)'), '-1', scope)[0].actual).toContain('breaks min=0');
    expect(matchText(p('(byte)'), '128', scope)[0].expected).toBe('an integer from -128 to 127');
    expect(matchText(p('(byte)'), ' 127 ', scope)).toEqual([]);
  });

  test('generation satisfies every facet', () => {
    for (let seed = 0; seed < 30; seed++) {
      for (const text of [
        '(string pattern="[A-Z0-9]{18}")',
        '(string minLength=5 maxLength=6)',
        '(decimal min=10 max=12 fractionDigits=1)',
        '(hexBinary length=4)',
        '(base64Binary maxLength=10)',
        '(string pattern="[a-z-[aeiou]]+\\d{2}")',
        '(list Flag length=2)',
        '(gYearMonth | duration)',
        '(negativeInteger)',
      ]) {
        const value = generateText(p(text), { scope, rng: createRandom(seed) });
        expect([text, matchText(p(text), value, scope)]).toEqual([text, []]);
      }
    }
    expect(generateText(p('(string pattern="[A-Z0-9]{18}")'), { scope, rng: createRandom(1) })).toHaveLength(18);
  });

  test('lists and unions', () => {
    expect(matchText(p('(list Flag)'), 'A  B C', scope)).toEqual([]);
    expect(matchText(p('(list Flag)'), 'A D', scope)[0].expected).toMatch(/^item 2 of the list/);
    expect(matchText(p('(language | empty)'), '', scope)).toEqual([]);
    expect(matchText(p('(language | empty)'), 'not a language', scope)).toHaveLength(1);
  });

  test('comparison: a tighter facet on the accepting side breaks, an equal or looser one does not', () => {
    const c = (a: string, b: string) => encompasses(p(a), scope, p(b), scope, 'text');
    expect(c('(string maxLength=18)', '(string maxLength=10)')).toEqual([]);
    expect(c('(string maxLength=10)', '(string maxLength=18)')).toHaveLength(1);
    expect(c('(string pattern="[A-Z]+")', '(string pattern="[A-Z]+" maxLength=3)')).toEqual([]);
    expect(c('(string pattern="[A-Z]+")', '(string)')).toHaveLength(1);
    expect(c('(decimal min=0)', '(unsignedInt)')).toEqual([]);
    expect(c('(int)', '(byte)')).toEqual([]);
    expect(c('(byte)', '(int)')).toHaveLength(1);
    expect(c('(date | duration)', '(duration)')).toEqual([]);
    expect(c('(duration)', '(date | duration)')).toHaveLength(1);
  });

  test('XSD patterns run in linear time on hostile text', () => {
    const re = xsdRegex('(a|aa)*(a*)*b');
    const started = Date.now();
    expect(re.test('a'.repeat(200_000))).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(() => xsdRegex('((a{1000}){1000}){1000}')).toThrow(/expand too far/);
  });

  test('an enum carries the empty value and commas as a JSON array, and reads back', () => {
    const spec = `Feature: f\n  Scenario: s\n    Given enum Code (string) values ["", "a,b", " c"]\n    When GET /x\n    Then status 200\n    And response-body (Code)\n`;
    const contract = parseContract(spec, 'x.spec');
    expect(contract.scenarios[0].scope.types.get('Code')).toEqual({ kind: 'enum', name: 'Code', base: 'string', values: ['', 'a,b', ' c'] });
  });
});

describe('facets.wsdl: facets and lexical types imported', () => {
  const { text } = importWsdl(path.join(__dirname, '..', 'fixtures', 'wsdl', 'facets', 'facets.wsdl'));

  test('restrictions combine, named simple types stay named, lists, unions, fixed and prohibited', () => {
    expect(text).toContain('type ShortId (string minLength=1 maxLength=18 pattern="[A-Z0-9]{18}")');
    expect(text).toContain('type Amount (decimal min=0 totalDigits=10 fractionDigits=2)');
    expect(text).toContain('type Flags (list Flag)');
    expect(text).toContain('enum Flag (string) values A,B,C');
    // An inline member that is an enumeration of "" alone is (empty).
    expect(text).toContain('type MaybeLang (language | empty)');
    expect(text).toContain('<t:small>(unsignedByte)</t:small>');
    expect(text).toContain('<t:data>(base64Binary)</t:data>');
    expect(text).toContain('<t:version>2.1</t:version>');
    expect(text).not.toContain('secret');
  });
});

describe('a pattern together with length facets (found in the Equifax eID WSDL: transactionKey is 25 digits)', () => {
  const cases: [string, Facets][] = [
    ['exactly 25 digits', { length: 25, pattern: ['[0-9]+'] }],
    ['a Canadian postal code of 5 or 6 characters', { minLength: 5, maxLength: 6, pattern: ['[a-zA-Z][0-9][a-zA-Z]*[0-9][a-zA-Z][0-9]'] }],
    ['an id of 18 characters from two alternatives', { length: 18, pattern: ['(AB|C)[0-9A-F]+'] }],
    ['a bounded repeat inside a longer text', { minLength: 12, maxLength: 12, pattern: ['[A-Z]{2}-\\d{1,4}-[a-z]*'] }],
  ];
  test.each(cases)('%s: every seed gives a value that satisfies every facet', (_name, facets) => {
    for (let seed = 0; seed < 300; seed++) {
      const value = generateScalar('string', facets, createRandom(seed));
      expect({ seed, value, violated: violatedFacet('string', facets, value) }).toEqual({ seed, value, violated: undefined });
    }
  });

  test('a length the pattern cannot reach still gives a value of the pattern (the facets contradict each other)', () => {
    const value = generateScalar('string', { length: 4, pattern: ['[0-9]{2}'] }, createRandom(1));
    expect(value).toMatch(/^[0-9]{2}$/);
  });
});
