import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadContract, parseContract, testCases } from '../../src/contract/load';
import { AccordError, CompositeAccordError } from '../../src/errors';
import { bodyKind } from '../../src/pattern/generate/index';
import { resolve } from '../../src/pattern/resolve';
import { accordErrorOf } from '../helpers/accord-error';

const CONTRACTS = path.join(__dirname, '..', '..', 'contracts');

const errorOf = (text: string, file = 'bad.spec'): string => accordErrorOf(() => parseContract(text, file), 'expected the contract to be rejected').describe();

describe('contract parser', () => {
  it('reads the seed samples shipped in contracts/', () => {
    const pet = loadContract(path.join(CONTRACTS, 'soap', 'api_pet_v1.spec'));
    expect(pet.scenarios.map((s) => s.name)).toEqual(['Get a pet by id', 'Get the ids of all invoices', 'Adopt a pet (in progress)']);
    expect(pet.scenarios.map((s) => s.wip)).toEqual([false, false, true]);
    expect(pet.scenarios[0].request).toMatchObject({ method: 'POST', path: '/ws' });
    expect(pet.scenarios[0].response.status).toBe(200);

    const math = loadContract(path.join(CONTRACTS, 'math', 'api_math_v1.spec'));
    expect(math.scenarios.map((s) => `${s.request.method} ${s.request.path}`)).toEqual(['POST /square', 'POST /cube']);
    expect(bodyKind(math.scenarios[0].request.body!, math.scenarios[0].scope)).toBe('text');

    const pets = loadContract(path.join(CONTRACTS, 'pets', 'api_pets_v1.spec'));
    expect(pets.scenarios[0].request.segments).toEqual([{ name: 'pets' }, { name: 'petid', pattern: { kind: 'scalar', type: 'number' } }]);
    expect(testCases(pets).map((t) => t.name)).toEqual(['Fetch a pet by id - example 1: petid=10', 'Fetch a pet by id - example 2: petid=42']);
  });

  it('lets a Background envelope refer to types each scenario defines (seed 2.5)', () => {
    const c = loadContract(path.join(CONTRACTS, 'soap', 'api_petstore_v1.spec'));
    expect(c.scenarios).toHaveLength(2);
    for (const s of c.scenarios) {
      expect(s.request.method).toBe('POST');
      expect(s.response.status).toBe(200);
      const body = resolve(s.response.body!, s.scope);
      expect(body.kind).toBe('xml');
    }
    expect(c.scenarios[0].scope.types.has('ResponseBody')).toBe(true);
  });

  it('accepts Given/When/Then/And/But/* alike, inline and block types, query strings and headers', () => {
    const c = parseContract(`Feature: Words
  Scenario: every leading word
    * type Pet {"id": "(number)", "tag?": "(string)"}
    But type Name
    """
    (string)
    """
    Given GET /pets?limit=(number)&kind=dog
    When request-header X-Trace (uuid)
    And request-header X-Opt? (string)
    Then status 200
    But response-header Content-Type application/json
    And response-body (Pet*)`);
    const s = c.scenarios[0];
    expect(s.request.query.map((q) => q.name)).toEqual(['limit', 'kind']);
    expect(s.request.headers.map((h) => [h.name, h.optional])).toEqual([
      ['X-Trace', false],
      ['X-Opt', true],
    ]);
    expect(s.response.headers[0]).toMatchObject({ name: 'Content-Type', pattern: { kind: 'literal', value: 'application/json' } });
    expect(s.response.body).toEqual({ kind: 'list', inner: { kind: 'ref', name: 'Pet' } });
  });

  it('gives a scenario type precedence over a Background type of the same name', () => {
    const c = parseContract(`Feature: f
  Background:
    Given type Id (string)
    When GET /x/(id:Id)
    Then status 200
  Scenario: overrides
    Given type Id (number)
  Scenario: inherits`);
    expect(c.scenarios[0].scope.types.get('Id')).toEqual({ kind: 'scalar', type: 'number' });
    expect(c.scenarios[1].scope.types.get('Id')).toEqual({ kind: 'scalar', type: 'string' });
  });

  it('names file and line for an unknown type', () => {
    expect(
      errorOf(`Feature: f
  Scenario: s
    When POST /ws
    And request-body (Missing)
    Then status 200`),
    ).toBe('bad.spec:4: unknown type (Missing) in scenario "s": declare it with "type Missing ..." in the scenario or the Background');
  });

  it('names file and line for a scenario with no request line', () => {
    expect(
      errorOf(`Feature: f

  Scenario: nothing to send
    Then status 200`),
    ).toBe('bad.spec:3: scenario "nothing to send" has no request line: add e.g. "When POST /ws" here or in the Background');
  });

  it('points into the docstring for a malformed XML fragment', () => {
    const message = errorOf(`Feature: f
  Scenario: s
    Given type Req
    """
    <a>
      <b>(number)</c>
    </a>
    """
    When POST /ws
    And request-body (Req)
    Then status 200`);
    expect(message).toMatch(/^bad\.spec:6:\d+: type Req: /);
  });

  it('refuses unknown keywords and gathers every error of the file', () => {
    let err: unknown;
    try {
      parseContract(
        `Feature: f
  Scenario: a
    When FETCH /x
    Then status 200
  Scenario: b
    When GET /x
    Then status 2000`,
        'two.spec',
      );
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CompositeAccordError);
    const text = (err as CompositeAccordError).describe();
    expect(text).toContain('two.spec:3: keyword "FETCH" not recognised');
    expect(text).toContain('two.spec:7: status must be an HTTP status code from 100 to 599, found "2000"');
    // A wrong status or request line is reported where it is, not again as missing.
    expect(text).not.toContain('scenario "b" has no status');
    expect(errorOf('Feature: f\n  Scenario: s\n    When GET\n    Then status 200\n')).toBe('bad.spec:3: GET needs a path, e.g. "When GET /pets/(id:number)"');
  });

  it('checks types named in query parameters and specmatic_type (found by fuzzing: they failed only when a test or the stub got there)', () => {
    expect(errorOf('Feature: f\n  Scenario: s\n    When GET /x?a=(Id)\n    Then status 200\n')).toContain('bad.spec:3: unknown type (Id) in scenario "s"');
    expect(
      errorOf('Feature: f\n  Scenario: s\n    Given type T {"a": "(number)"}\n    When POST /x\n    And request-body <r><t specmatic_type="T"/></r>\n    Then status 200\n'),
    ).toContain('bad.spec:5: specmatic_type="T" names a type that is not an XML node in scenario "s"');
    // (T) as element content may name a scalar or enum type: it then stands for the text.
    expect(() =>
      parseContract('Feature: f\n  Scenario: s\n    Given enum S (string) values a,b\n    When POST /x\n    And request-body <r><s>(S)</s></r>\n    Then status 200\n', 'ok.spec'),
    ).not.toThrow();
  });

  it('suggests the keyword a misspelt step meant', () => {
    expect(errorOf('Feature: f\n  Scenario: a\n    When GET /x\n    Then status 200\n    And respose-body (number)\n')).toContain(
      'bad.spec:5: keyword "respose-body" not recognised (did you mean "response-body"?)',
    );
  });

  it('reports Gherkin syntax errors with their place', () => {
    // Gherkin's token list ("expected: #EOF, #TableRow, #DocStringSeparator, …, got 'stray words'") in words.
    expect(errorOf('Feature: f\n  Scenario: s\n    When GET /x\n    Then status 200\n  stray words\n')).toBe(
      'bad.spec:5:3: "stray words" cannot stand here: expected a table row (| … |), a """ block, a step (Given, When, Then, And, But …), a tag (@…), Examples:, Scenario:, Rule: or a comment (# …)',
    );
    // A stray line before the Feature is a syntax error in a contract, not "not a contract".
    expect(errorOf('oops\nFeature: f\n  Scenario: s\n    When GET /x\n    Then status 200\n')).toBe(
      'bad.spec:1:1: "oops" cannot stand here: expected a # language: line, a tag (@…), Feature: or a comment (# …)',
    );
    expect(errorOf('Feature: a\n  Scenario: s\n    When GET /x\n    Then status 200\nFeature: b\n')).toBe(
      'bad.spec:5:1: "Feature: b" starts a second Feature: a contract file holds one Feature (put the other in a file of its own)',
    );
  });

  it('says in one line that a file with no Feature line is not a contract (it got one Gherkin token list per line)', () => {
    const packageJson = readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8');
    expect(errorOf(packageJson, 'package.json')).toBe('package.json is not a contract: no Feature: line');
    expect(errorOf('Scenario: no feature\n  When GET /x\n')).toBe('bad.spec is not a contract: no Feature: line');
    expect(errorOf('')).toBe('bad.spec is not a contract: no Feature: line');
    expect(errorOf('# only a comment\n')).toBe('bad.spec is not a contract: no Feature: line');
    // The Feature keyword of the language the file declares is a Feature line.
    expect(errorOf('# language: fr\nFonctionnalité: f\n  oops: x\n  Scénario: s\n    Quand GET /x\n    Alors status 200\n    Given\n')).toMatch(
      /^bad\.spec:7:\d+: "Given" cannot stand here: expected .*a step \(Soit, Quand, Alors, Et que, Mais que …\), .*Scénario:/,
    );
  });

  it('says a Feature with no scenarios has none, pointing at the Feature (Jest failed with its own stack trace)', () => {
    expect(errorOf('Feature: Pets\n')).toBe('bad.spec:1: Feature "Pets" has no scenarios: add one, e.g. "Scenario: <name>" with a request and a status');
    expect(errorOf('@api\nFeature: Pets\n  Background:\n    Given type Id (number)\n')).toMatch(/^bad\.spec:2: Feature "Pets" has no scenarios/);
    // A misspelt "Scenario:" makes the scenario part of the Feature's description: said at the line, with the keyword (did-you-mean.test.ts).
    expect(errorOf('Feature: Pets\n  Senario: get one\n    When GET /pets/1\n    Then status 200\n')).toBe(
      'bad.spec:2: "Senario:" is not a Gherkin keyword: did you mean "Scenario:"? (Gherkin read this line and the ones after it as description text)',
    );
    // A description that is prose, not a misspelt keyword, still gets the general hint.
    expect(errorOf('Feature: Pets\n  The pets of the store.\n')).toMatch(/^bad\.spec:1: Feature "Pets" has no scenarios; the lines under it/);
  });

  it('reads step keywords whatever their case, as Specmatic does (Type, Request-body, RESPONSE-BODY, Status, get)', () => {
    const c = parseContract(`Feature: Legacy
  Scenario: mixed case
    Given Type Pet {"id": "(number)"}
    And ENUM Kind (string) values cat,dog
    When get /pets/(id:number)?kind=(Kind)
    And Request-Header X-Trace (uuid)
    And Request-body (Pet)
    Then Status 200
    And Response-Header X-Count (number)
    And RESPONSE-BODY (Pet)
  Scenario: capitalised method
    When Post /pets
    Then STATUS 201
    And Response-body {"id": "(number)"}
`);
    expect(c.scenarios.map((s) => `${s.request.method} ${s.request.path} -> ${s.response.status}`)).toEqual(['GET /pets/(id:number)?kind=(Kind) -> 200', 'POST /pets -> 201']);
    const [s] = c.scenarios;
    expect(s.request.headers.map((h) => h.name)).toEqual(['X-Trace']);
    expect(s.response.headers.map((h) => h.name)).toEqual(['X-Count']);
    expect(s.request.body).toEqual({ kind: 'ref', name: 'Pet' });
    expect(s.response.body).toEqual({ kind: 'ref', name: 'Pet' });
    expect(resolve(s.request.body!, s.scope).kind).toBe('object');
    // An unknown word is still reported as written.
    expect(errorOf('Feature: f\n  Scenario: s\n    When GET /x\n    Then Status 200\n    And Respose-Body (number)\n')).toContain(
      'bad.spec:5: keyword "Respose-Body" not recognised (did you mean "response-body"?)',
    );
  });

  it('reads "type Name" with no value and no table as an empty JSON object (legacy {} bodies)', () => {
    const c = parseContract(`Feature: Legacy
  Scenario: not found
    Given type ResponseBody
    When GET /pets/(id:number)
    Then status 404
    And response-body (ResponseBody)
`);
    const s = c.scenarios[0];
    expect(resolve(s.response.body!, s.scope)).toEqual({ kind: 'object', fields: [], open: false });
    expect(bodyKind(s.response.body!, s.scope)).toBe('json');
    // A body still needs a value: "response-body" alone says nothing.
    expect(errorOf('Feature: f\n  Scenario: s\n    When GET /x\n    Then status 200\n    And response-body\n')).toContain('bad.spec:5: response-body needs a value');
  });

  it("gives the Feature's tags (and a Rule's) to each scenario under it: @WIP on the Feature puts every scenario in progress", () => {
    const c = parseContract(`@WIP @api
Feature: In progress
  Scenario: one
    When GET /a
    Then status 200
  @slow
  Scenario: two
    When GET /b
    Then status 200
`);
    expect(c.scenarios.map((s) => s.wip)).toEqual([true, true]);
    expect(c.scenarios.map((s) => s.tags)).toEqual([
      ['@WIP', '@api'],
      ['@WIP', '@api', '@slow'],
    ]);
    const ruled = parseContract(`@api
Feature: Rules
  @wip
  Rule: drafts
    Scenario: one
      When GET /a
      Then status 200
  Rule: done
    Scenario: two
      When GET /b
      Then status 200
`);
    expect(ruled.scenarios.map((s) => [s.wip, s.tags])).toEqual([
      [true, ['@api', '@wip']],
      [false, ['@api']],
    ]);
  });

  it('refuses a DOCTYPE in a contract fragment (no entities, ever)', () => {
    expect(
      errorOf(`Feature: f
  Scenario: s
    When POST /ws
    And request-body <!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>
    Then status 200`),
    ).toMatch(/DOCTYPE is not allowed/);
  });

  it('reads a Kafka message scenario but marks it as not runnable', () => {
    const c = parseContract('Feature: k\n  Scenario: m\n    * kafka-message customers (string)\n');
    expect(c.scenarios[0].unsupported).toMatch(/Kafka/);
  });

  it('keeps wrapper and legacy steps as notes', () => {
    const c = parseContract('Feature: w\n  Background:\n    Given openapi ./api.yaml\n  Scenario: s\n    Given fact id (number)\n    When GET /x\n    Then status 200\n');
    expect(c.notes.map((n) => `${n.keyword} ${n.text}`)).toEqual(['openapi ./api.yaml', 'fact id (number)']);
  });

  it('reads a file from disk and reports a missing one without a stack trace', () => {
    expect(() => loadContract('/nonexistent/contract.spec')).toThrow(AccordError);
    try {
      loadContract('/nonexistent/contract.spec');
    } catch (e) {
      expect((e as AccordError).describe()).toBe('no such file: /nonexistent/contract.spec');
    }
    expect(readFileSync(path.join(CONTRACTS, 'math', 'api_math_v1.spec'), 'utf8')).toContain('Feature');
  });
});
