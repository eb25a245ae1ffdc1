import { parseContract } from '../../src/contract/load';
import { accordErrorOf } from '../helpers/accord-error';

/** The commonest typos in a contract, each said in one line at its place with what was meant (issue 23, point 4). */
const errorOf = (text: string): string => accordErrorOf(() => parseContract(text, 'pets.spec'), 'expected the contract to be rejected').describe();

const GET_PET = `    When POST /ws
    And request-body <getPet><id>(number)</id></getPet>
    Then status 200
`;

describe('a misspelt Gherkin keyword gets one line with the keyword it meant', () => {
  it('Scenario after another scenario (Gherkin listed every token it expected)', () => {
    const error = errorOf(`Feature: Pets\n  Scenario: one\n${GET_PET}\n  Scenaro: two\n${GET_PET}`);
    expect(error).toBe('pets.spec:7:3: "Scenaro:" is not a Gherkin keyword: did you mean "Scenario:"?');
  });

  it('Scenario first, Background, Scenario Outline, Rule: Gherkin read them as description, and the scenario vanished', () => {
    expect(errorOf(`Feature: Pets\n\n  Scenaro: one\n${GET_PET}\n  Scenario: two\n${GET_PET}`)).toBe(
      'pets.spec:3: "Scenaro:" is not a Gherkin keyword: did you mean "Scenario:"? (Gherkin read this line and the ones after it as description text)',
    );
    expect(errorOf(`Feature: Pets\n  Backgrund:\n    Given type Id (number)\n  Scenario: two\n${GET_PET}`)).toMatch(
      /^pets\.spec:2: "Backgrund:" is not a Gherkin keyword: did you mean "Background:"\?/,
    );
    expect(errorOf(`Feature: Pets\n  Scenario Outlin: one\n${GET_PET}`)).toMatch(/^pets\.spec:2: "Scenario Outlin:" is not a Gherkin keyword: did you mean "Scenario Outline:"\?/);
    expect(errorOf(`Feature: Pets\n  Secnario: one\n${GET_PET}`)).toMatch(/did you mean "Scenario:"\?/);
  });

  it('Examples and Feature', () => {
    expect(errorOf(`Feature: Pets\n  Scenario: one\n${GET_PET}\n    Exmples:\n      | id |\n      | 1  |\n`)).toBe(
      'pets.spec:7:5: "Exmples:" is not a Gherkin keyword: did you mean "Examples:"?',
    );
    expect(errorOf(`Featur: Pets\n  Scenario: one\n${GET_PET}`)).toBe('pets.spec:1: pets.spec has no Feature: line: "Featur:" is not a Gherkin keyword: did you mean "Feature:"?');
  });

  it('Given/When/Then/And/But, after a step and as the first step (read as description, its """ block with it)', () => {
    expect(errorOf(`Feature: Pets\n  Scenario: one\n    When POST /ws\n    Thn status 200\n`)).toBe('pets.spec:4:5: "Thn" is not a step keyword: did you mean "Then"?');
    expect(errorOf(`Feature: Pets\n  Scenario: one\n    Gven type Req\n    """\n    <getPet/>\n    """\n${GET_PET}`)).toBe(
      'pets.spec:3: "Gven" is not a step keyword: did you mean "Given"? (Gherkin read this line and the ones after it as description text)',
    );
    // Prose in a description is left alone, even when a word is near a keyword.
    expect(() => parseContract(`Feature: Pets\n  Then again, pets.\n  Scenarios of the store: all of them\n  Scenario: one\n${GET_PET}`, 'ok.spec')).not.toThrow();
  });

  it('in the language the file declares', () => {
    expect(errorOf(`# language: fr\nFonctionnalité: f\n  Scénaro: s\n    Quand GET /x\n    Alors status 200\n`)).toMatch(/did you mean "Scénario:"\?/);
  });
});

describe('a """ block that is never closed is reported where it opened', () => {
  it('at the end of the file (Gherkin said "unexpected end of file")', () => {
    const error = errorOf(`Feature: Pets\n  Scenario: one\n${GET_PET}    And response-body\n    """\n    <pet>(string)</pet>\n`);
    expect(error).toBe('pets.spec:7: this """ block is never closed: add a line with """ after its content');
  });

  it('before another block: one error at the block, not one per line after it', () => {
    const text = `Feature: Pets\n  Scenario: one\n    Given type Req\n    """\n    <getPet>\n      <id>(number)</id>\n    </getPet>\n    And type Res\n    """\n    <pet>\n      <name>(string)</name>\n    </pet>\n    """\n    When POST /ws\n    Then status 200\n`;
    const error = errorOf(text);
    expect(error).toBe('pets.spec:4: the """ block opened here closes at line 9, and line 10 after it is not a step: is the """ that closes this block missing?');
  });
});

describe('a misspelt method or type', () => {
  it('PSOT /library: did you mean POST, and not again as a missing request line', () => {
    expect(errorOf(`Feature: Pets\n  Scenario: one\n    When PSOT /library\n    Then status 200\n`)).toBe(
      'pets.spec:3: keyword "PSOT" not recognised (did you mean "POST"?); a step starts with one of: <METHOD> <path>, request-header, response-header, status, request-body, response-body, type, json, pattern, enum, form-field, request-part',
    );
  });

  it('(strng) inside a Background type: at its own line, once, with (string)', () => {
    const text = `Feature: Pets
  Background:
    Given type Res
    """
    <pet>
      <id>(number)</id>
      <name>(strng)</name>
    </pet>
    """
    And response-body (Res)
    Then status 200
  Scenario: one
    When GET /pets/1
  Scenario: two
    When GET /pets/2
`;
    expect(errorOf(text)).toBe('pets.spec:7: unknown type (strng) in type Res (did you mean (string)?): declare it with "type strng ..." in the scenario or the Background');
  });
});

describe('an Examples column that names nothing', () => {
  it('is a warning at the header with the name it meant, once per column (the test then failed on a status)', () => {
    const c = parseContract(
      `Feature: Books
  Scenario: get a book
    When POST /library
    And request-body <getBook><isbn>(string)</isbn></getBook>
    Then status 200

    Examples:
      | isbm | note |
      | 9    | a    |
      | 8    | b    |
`,
      'books.spec',
    );
    expect(c.warnings).toEqual([
      { line: 8, message: 'Examples column "isbm" names no parameter, header, field, node or key of scenario "get a book", so its values are not used (did you mean "isbn"?)' },
      { line: 8, message: 'Examples column "note" names no parameter, header, field, node or key of scenario "get a book", so its values are not used' },
    ]);
  });

  it('no warning when every column names a place', () => {
    const c = parseContract(
      `Feature: Books\n  Scenario: b\n    When GET /books/(isbn:string)\n    Then status 200\n\n    Examples:\n      | isbn |\n      | 9    |\n`,
      'books.spec',
    );
    expect(c.warnings).toBeUndefined();
  });
});
