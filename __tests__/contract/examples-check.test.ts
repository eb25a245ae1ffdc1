import { parseContract, testCases } from '../../src/contract/load';
import { buildRequest } from '../../src/http/build-request';
import { AccordError, CompositeAccordError } from '../../src/errors';

/** Examples cells that fit no place their column names are contract errors at the row. */
function errorsOf(text: string): string[] {
  try {
    parseContract(text, 'ex.spec');
  } catch (e) {
    if (e instanceof CompositeAccordError) return e.errors.map((x) => x.describe());
    if (e instanceof AccordError) return [e.describe()];
    throw e;
  }
  return [];
}

const soap = (rows: string) => `Feature: Pets
  Scenario Outline: Get a pet
    Given type Req
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>
      <pet:getPetRequest xmlns:pet="urn:p" kind="(string)"><pet:id>(number)</pet:id></pet:getPetRequest>
    </soapenv:Body></soapenv:Envelope>
    """
    And type Res
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>
      <pet:getPetResponse xmlns:pet="urn:p"><pet:id>(uuid)</pet:id><pet:name>(string)</pet:name></pet:getPetResponse>
    </soapenv:Body></soapenv:Envelope>
    """
    When POST /ws
    And request-body (Req)
    Then status 200
    And response-body (Res)

    Examples:
${rows}
`;

const json = (rows: string) => `Feature: Pets
  Scenario Outline: Find pets
    When GET /pets/(petid:number)?limit=(number)
    And request-header X-Tenant (number)
    Then status 200
    And response-body {"petid": "(number)", "tags": ["(string)"], "owner?": {"age": "(number)"}}

    Examples:
${rows}
`;

describe('Examples values are checked against the places their columns name', () => {
  it('accepts values that fit, empty cells (absent) and columns that name nothing', () => {
    expect(errorsOf(soap('      | id | kind | name | note |\n      | 7  | cat  | Rex  | x    |\n      | 8  |      | Tom  |      |'))).toEqual([]);
    expect(errorsOf(json('      | petid | limit | X-Tenant | age |\n      | 10    | 5     | 3        | 4   |'))).toEqual([]);
  });

  it('a value that fits one of several same-named places is fine (id is a number in the request, a uuid in the response)', () => {
    expect(errorsOf(soap('      | id |\n      | 7  |'))).toEqual([]);
    expect(errorsOf(soap('      | id |\n      | 0b6c2ec4-6c3a-4a51-a0bb-2a4c45e4e1d2 |'))).toEqual([]);
  });

  it('names the row, the column, the value and every place for a value that fits none', () => {
    const errors = errorsOf(soap('      | id  |\n      | 7   |\n      | abc |'));
    expect(errors).toEqual([
      'ex.spec:23: Examples value "abc" in column "id" fits no place the column names ((number) at REQUEST.BODY Envelope/Body/getPetRequest/id; (uuid) at RESPONSE.BODY Envelope/Body/getPetResponse/id) in scenario "Get a pet"',
    ]);
  });

  it('checks path and query parameters, headers (whatever their case) and JSON keys', () => {
    const errors = errorsOf(json('      | petid | limit | x-tenant | age |\n      | ten   | many  | acme     | old |'));
    expect(errors.map((e) => e.replace(/ in scenario.*/, ''))).toEqual([
      'ex.spec:10: Examples value "ten" in column "petid" fits no place the column names ((number) at REQUEST.PATH petid; (number) at RESPONSE.BODY petid)',
      'ex.spec:10: Examples value "many" in column "limit" fits no place the column names ((number) at REQUEST.QUERY limit)',
      'ex.spec:10: Examples value "acme" in column "x-tenant" fits no place the column names ((number) at REQUEST.HEADER X-Tenant)',
      'ex.spec:10: Examples value "old" in column "age" fits no place the column names ((number) at RESPONSE.BODY owner.age)',
    ]);
  });

  it('checks XML written straight into request-body and response-body, on one line or in a """ block (it did only through a type)', () => {
    const inline = (rows: string) => `Feature: Pets
  Scenario Outline: Get a pet
    When POST /ws
    And request-body <getPet kind="(string)"><id>(number)</id></getPet>
    Then status 200
    And response-body <pet><age>(number)</age></pet>

    Examples:
${rows}
`;
    const block = (rows: string) => `Feature: Pets
  Scenario Outline: Get a pet
    When POST /ws
    And request-body
    """
    <getPet><id>(number)</id></getPet>
    """
    Then status 200

    Examples:
${rows}
`;
    expect(errorsOf(inline('      | id  | age |\n      | abc | old |'))).toEqual([
      'ex.spec:10: Examples value "abc" in column "id" fits no place the column names ((number) at REQUEST.BODY getPet/id) in scenario "Get a pet"',
      'ex.spec:10: Examples value "old" in column "age" fits no place the column names ((number) at RESPONSE.BODY pet/age) in scenario "Get a pet"',
    ]);
    expect(errorsOf(block('      | id  |\n      | abc |'))).toEqual([
      'ex.spec:12: Examples value "abc" in column "id" fits no place the column names ((number) at REQUEST.BODY getPet/id) in scenario "Get a pet"',
    ]);
    // A value that fits is the one sent.
    const [tc] = testCases(parseContract(inline('      | id | kind |\n      | 7  | cat  |'), 'ok.spec'));
    expect(buildRequest(tc).body).toBe('<getPet kind="cat"><id>7</id></getPet>');
  });

  it('a checked contract still gives one test per row', () => {
    const c = parseContract(json('      | petid |\n      | 10    |\n      | 42    |'), 'ok.spec');
    expect(testCases(c).map((t) => t.name)).toEqual(['Find pets - example 1: petid=10', 'Find pets - example 2: petid=42']);
  });

  it('a long cell is quoted cut short with its length, in the error and in the test name (a 30 KB cell was echoed whole)', () => {
    const cell = `${'ab'.repeat(15_000)}`;
    const [error] = errorsOf(json(`      | petid |\n      | ${cell} |`));
    expect(error).toBe(
      `ex.spec:10: Examples value "${cell.slice(0, 80)}… (29920 more characters)" in column "petid" fits no place the column names ((number) at REQUEST.PATH petid; (number) at RESPONSE.BODY petid) in scenario "Find pets"`,
    );
    const c = parseContract(json(`      | note |\n      | ${cell} |`), 'ok.spec');
    expect(testCases(c).map((t) => t.name)).toEqual([`Find pets - example 1: note=${cell.slice(0, 40)}… (29960 more characters)`]);
  });

  it('control characters in a cell are shown escaped, in the error and in the test name', () => {
    const [error] = errorsOf(json('      | petid |\n      | \u001b[2J\u0007ten |'));
    expect(error).toContain('Examples value "\\x1b[2J\\x07ten" in column "petid"');
    const c = parseContract(json('      | note |\n      | \u001b]0;owned\u0007 |'), 'ok.spec');
    expect(testCases(c).map((t) => t.name)).toEqual(['Find pets - example 1: note=\\x1b]0;owned\\x07']);
  });
});
