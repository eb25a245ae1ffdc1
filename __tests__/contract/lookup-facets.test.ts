import { parseContract, testCases } from '../../src/contract/load';
import { printableContract, printContract } from '../../src/contract/print';
import { placeholderText } from '../../src/contract/print/pattern';
import { AccordError, CompositeAccordError } from '../../src/errors';
import { buildRequest } from '../../src/http/build-request';
import { matchText } from '../../src/pattern/match/index';
import { parsePlaceholder } from '../../src/pattern/placeholder';
import type { Scope } from '../../src/pattern/types';

/** `(id:string maxLength=3)`: a lookup whose type carries facets (it was a contract error). */
const scope: Scope = { types: new Map() };
const p = (text: string) => parsePlaceholder(text)!;

const contract = (rows: string, title = 'Scenario Outline') => `Feature: Codes
  ${title}: Get a code
    When POST /codes/(region:string length=2)
    And request-body
    """
    <c:getCode xmlns:c="urn:c"><c:id>(id:string maxLength=3 pattern="[A-Z]+")</c:id><c:n>(n: int min=1 max=9)</c:n></c:getCode>
    """
    Then status 200
    And response-body {"id": "(id:string maxLength=3)"}
${rows}
`;

/** The model as plain JSON, lines left out (as print-roundtrip.test.ts compares). */
const plainModel = (c: unknown): unknown => JSON.parse(JSON.stringify(c, (key, v: unknown) => (key === 'line' ? undefined : v instanceof Map ? [...v.entries()] : v)));

function errorsOf(text: string): string[] {
  try {
    parseContract(text, 'codes.spec');
  } catch (e) {
    if (e instanceof CompositeAccordError) return e.errors.map((x) => x.describe());
    if (e instanceof AccordError) return [e.describe()];
    throw e;
  }
  return [];
}

describe('a lookup placeholder with facets', () => {
  test('reads as the named value of the faceted type, and prints back as written', () => {
    expect(p('(id:string maxLength=3)')).toEqual({ kind: 'lookup', key: 'id', inner: { kind: 'scalar', type: 'string', facets: { maxLength: 3 } } });
    expect(p('(id: string maxLength=3)')).toEqual(p('(id:string maxLength=3)'));
    for (const text of ['(id:string maxLength=3)', '(id:string minLength=1 pattern="a:(b|c)")', '(n:decimal min=0 fractionDigits=2)', '(id:number)']) {
      expect(placeholderText(p(text))).toBe(text);
    }
  });

  test('facets that do not apply are still contract errors, and a lookup of a lookup is no placeholder', () => {
    expect(() => p('(id:boolean maxLength=3)')).toThrow(/maxLength does not apply/);
    expect(() => p('(id:Pet maxLength=3)')).toThrow(/facets apply to a built-in type/);
    expect(() => p('(a:b:c)')).toThrow(/is not a placeholder/);
  });

  test('matching applies the facets', () => {
    expect(matchText(p('(id:string maxLength=3)'), 'ABC', scope)).toEqual([]);
    expect(matchText(p('(id:string maxLength=3)'), 'ABCD', scope)[0].actual).toBe('"ABCD" (breaks maxLength=3)');
  });

  test('an Examples value that breaks a facet is refused at its row; one that keeps them is used', () => {
    expect(errorsOf(contract('    Examples:\n      | id | n | region |\n      | AB | 2 | EU     |'))).toEqual([]);
    const errors = errorsOf(contract('    Examples:\n      | id   | n  |\n      | ABCD | 10 |'));
    expect(errors.map((e) => e.replace(/ in scenario.*/, ''))).toEqual([
      'codes.spec:12: Examples value "ABCD" in column "id" fits no place the column names ((string maxLength=3 pattern="[A-Z]+") at REQUEST.BODY getCode/id; (string maxLength=3) at RESPONSE.BODY id)',
      'codes.spec:12: Examples value "10" in column "n" fits no place the column names ((int min=1 max=9) at REQUEST.BODY getCode/n)',
    ]);
    const [tc] = testCases(parseContract(contract('    Examples:\n      | id | n | region |\n      | AB | 2 | EU     |')));
    const req = buildRequest(tc);
    expect(req.path).toBe('/codes/EU');
    expect(req.body).toContain('<c:id>AB</c:id><c:n>2</c:n>');
  });

  test('without an Examples value, generation keeps the facets', () => {
    const [tc] = testCases(parseContract(contract('', 'Scenario')));
    for (let seed = 0; seed < 20; seed++) {
      const req = buildRequest(tc, seed);
      expect(req.path).toMatch(/^\/codes\/[^/]{2}$/);
      const id = /<c:id>([^<]*)<\/c:id>/.exec(req.body)![1];
      expect(id).toMatch(/^[A-Z]{1,3}$/);
      expect(Number(/<c:n>([^<]*)<\/c:n>/.exec(req.body)![1])).toBeGreaterThanOrEqual(1);
    }
  });

  test('a contract with such lookups prints through the one printer and reads back the same', () => {
    const first = parseContract(contract('    Examples:\n      | id | n |\n      | AB | 2 |'));
    const printed = printContract(printableContract(first));
    expect(printed).toContain('(id:string maxLength=3 pattern="[A-Z]+")');
    expect(printed).toContain('/codes/(region:string length=2)');
    expect(plainModel(parseContract(printed))).toEqual(plainModel(first));
  });
});
