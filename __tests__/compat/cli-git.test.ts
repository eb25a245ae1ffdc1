import { accord, contract, TempRepo, type CliResult } from './git-repo';

/**
 * `accord compatible git file|commits` on real repositories with real
 * commits, through the built CLI. The samples are the seed's (section 9).
 */
const MATH_V1 = `Feature: Math API

  Scenario: Square of a number
    When POST /square
    And request-body (number)
    Then status 200
    And response-body (number)
`;

const CUBE = `
  Scenario: Cube of a number
    When POST /cube
    And request-body (number)
    Then status 200
    And response-body (number)
`;

const MATH = 'contracts/api_math_v1.spec';
const PET = 'contracts/api_pet_v1.spec';

function expectCompatible(r: CliResult): void {
  expect(r.stderr).toBe('');
  expect(r.stdout).toContain('The newer contract is backward compatible');
  expect(r.stdout).not.toContain('NOT');
  expect(r.code).toBe(0);
}

function expectBreak(r: CliResult, rule: string, ...texts: string[]): void {
  expect(r.stderr).toBe('');
  expect(r.stdout).toContain('The newer contract is NOT backward compatible');
  expect(r.stdout).toContain(`[${rule}]`);
  for (const t of texts) expect(r.stdout).toContain(t);
  expect(r.code).toBe(1);
}

let repos: TempRepo[] = [];
function repo(): TempRepo {
  const r = new TempRepo();
  repos.push(r);
  return r;
}
afterEach(() => {
  for (const r of repos) r.remove();
  repos = [];
});

describe('the seed math samples', () => {
  test('v1 → adding /cube is compatible; /square answering a JSON object is not', () => {
    const r = repo().write(MATH, MATH_V1);
    const v1 = r.commit('math v1');
    r.write(MATH, MATH_V1 + CUBE);
    let out = accord(r.dir, 'compatible', 'git', 'file', MATH);
    expectCompatible(out);
    expect(out.stdout).toContain('Tests run: 1, Passed: 1, Failed: 0');
    const v2 = r.commit('add cube');

    r.edit(MATH, (t) => t.replace('And response-body (number)', 'And response-body {"result": "(number)"}'));
    out = accord(r.dir, 'compatible', 'git', 'file', MATH);
    expectBreak(
      out,
      'response-type-changed',
      'Tests run: 2, Passed: 1, Failed: 1',
      'In scenario "Square of a number"',
      'API: POST /square -> 200',
      '>> RESPONSE.BODY',
      'POST /square -> 200: RESPONSE.BODY was (number), now a JSON object',
      'api_math_v1.spec cannot change this way: keep it as it is and write the new version in api_math_v2.spec beside it',
    );
    expect(out.stdout.indexOf('Tests run')).toBeLessThan(out.stdout.indexOf('In scenario'));
    const v3 = r.commit('square answers an object');

    // commits: newer first, symbolic refs and hashes.
    expectBreak(accord(r.dir, 'compatible', 'git', 'commits', MATH, 'HEAD', 'HEAD^1'), 'response-type-changed');
    expectCompatible(accord(r.dir, 'compatible', 'git', 'commits', MATH, v2, v1));
    expectCompatible(accord(r.dir, 'compatible', 'git', 'commits', MATH, 'HEAD~1', 'HEAD~2'));
    expectBreak(accord(r.dir, 'compatible', 'git', 'commits', MATH, v3.slice(0, 10), v1), 'response-type-changed');
    // The working tree now equals HEAD.
    expectCompatible(accord(r.dir, 'compatible', 'git', 'file', MATH));
  });

  test('git file works from a subfolder and with an absolute path', () => {
    const r = repo().write(MATH, MATH_V1);
    r.commit('v1');
    r.write(MATH, MATH_V1 + CUBE);
    expectCompatible(accord(`${r.dir}/contracts`, 'compatible', 'git', 'file', 'api_math_v1.spec'));
    expectCompatible(accord('/', 'compatible', 'git', 'file', `${r.dir}/${MATH}`));
  });

  test('--json prints the same verdict for machines', () => {
    const r = repo().write(MATH, MATH_V1);
    r.commit('v1');
    r.edit(MATH, (t) => t.replace('And response-body (number)', 'And response-body {"result": "(number)"}'));
    const out = accord(r.dir, 'compatible', 'git', 'file', MATH, '--json');
    expect(out.code).toBe(1);
    const doc = JSON.parse(out.stdout);
    expect(doc).toMatchObject({ compatible: false, testsRun: 1, passed: 0, failed: 1 });
    expect(doc.files[0]).toMatchObject({ file: MATH, status: 'compared', older: `HEAD:${MATH}`, hint: expect.stringContaining('api_math_v2.spec') });
    expect(doc.files[0].results[0].findings[0]).toMatchObject({
      rule: 'response-type-changed',
      side: 'response',
      path: 'RESPONSE.BODY',
      older: '(number)',
      newer: 'a JSON object',
      message: 'POST /square -> 200: RESPONSE.BODY was (number), now a JSON object',
    });
    const before = accord(r.dir, 'compatible', '--json', 'git', 'commits', MATH, 'HEAD', 'HEAD');
    expect(JSON.parse(before.stdout).compatible).toBe(true);
  });
});

describe('the seed pets sample: a path parameter', () => {
  const PETS = `Feature: Pets API

  Scenario Outline: Fetch a pet by id
    When GET /pets/(petid:number)
    Then status 200
    And response-body {"petid": "(number)"}

    Examples:
      | petid |
      | 10    |
`;
  test.each([
    ['parameter renamed', (t: string) => t.replace('(petid:number)', '(id:number)').replace('| petid |', '| id    |'), undefined],
    ['parameter widened to string', (t: string) => t.replace('(petid:number)', '(petid:string)'), undefined],
    ['parameter narrowed to one literal', (t: string) => t.replace('(petid:number)', '10'), 'request-type-narrowed'],
    ['response key changed to a JSON string', (t: string) => t.replace('{"petid": "(number)"}', '{"petid": "(string)"}'), 'response-type-changed'],
    ['response key added', (t: string) => t.replace('{"petid": "(number)"}', '{"petid": "(number)", "name": "(string)"}'), 'response-node-added'],
    ['another path', (t: string) => t.replace('/pets/(petid:number)', '/animals/(petid:number)'), 'scenario-removed'],
  ])('%s', (_, change, rule) => {
    const r = repo().write('api_pets_v1.spec', PETS);
    r.commit('pets v1');
    r.edit('api_pets_v1.spec', change);
    const out = accord(r.dir, 'compatible', 'git', 'file', 'api_pets_v1.spec');
    if (rule) expectBreak(out, rule, 'GET /pets/(petid:number) -> 200');
    else expectCompatible(out);
  });
});

describe('SOAP changes on the pet and invoice contracts', () => {
  const I = '          ';
  const cases: [string, (t: string) => string, string | undefined, string[]][] = [
    [
      'removing a response node breaks',
      (t) => t.replace(`${I}<pet:status>(string)</pet:status>\n`, ''),
      'response-node-removed',
      ['RESPONSE.BODY Envelope/Body/getPetResponse/status is no longer in the response', 'clients of the older contract expect it'],
    ],
    [
      'adding a response node breaks',
      (t) => t.replace('<pet:status>(string)</pet:status>', '<pet:status>(string)</pet:status><pet:age>(number)</pet:age>'),
      'response-node-added',
      ['getPetResponse/age is new in the response', 'a strict reader of the older contract rejects a node it does not know'],
    ],
    [
      'adding a required request node breaks',
      (t) => t.replace('<pet:id>(number)</pet:id>\n        </pet:getPetRequest>', '<pet:id>(number)</pet:id><pet:owner>(string)</pet:owner>\n        </pet:getPetRequest>'),
      'request-node-required-added',
      ['getPetRequest/owner is a new required part of the request', 'requests written for the older contract do not have it'],
    ],
    [
      'adding an optional request node is compatible',
      (t) =>
        t.replace(
          '<pet:id>(number)</pet:id>\n        </pet:getPetRequest>',
          '<pet:id>(number)</pet:id><pet:owner specmatic_occurs="optional">(string)</pet:owner>\n        </pet:getPetRequest>',
        ),
      undefined,
      [],
    ],
    [
      'a request node made optional is compatible',
      (t) => t.replace('<pet:id>(number)</pet:id>\n        </pet:getPetRequest>', '<pet:id specmatic_occurs="optional">(number)</pet:id>\n        </pet:getPetRequest>'),
      undefined,
      [],
    ],
    [
      'a response node made optional breaks',
      (t) => t.replace('<pet:status>(string)</pet:status>', '<pet:status specmatic_occurs="optional">(string)</pet:status>'),
      'response-node-made-optional',
      ['getPetResponse/status was required, now optional', 'clients of the older contract expect it in every response'],
    ],
    [
      'widening request text from number to string is compatible',
      (t) => t.replace('<pet:id>(number)</pet:id>\n        </pet:getPetRequest>', '<pet:id>(string)</pet:id>\n        </pet:getPetRequest>'),
      undefined,
      [],
    ],
    [
      'namespace prefix changes alone are compatible',
      (t) =>
        t
          .replace(/pet:/g, 'ps:')
          .replace(/xmlns:pet=/g, 'xmlns:ps=')
          .replace(/soapenv:/g, 'soap:')
          .replace(/xmlns:soapenv=/g, 'xmlns:soap='),
      undefined,
      [],
    ],
    ['the invoice ids repeated → exactly one breaks', (t) => t.replace('>(Id*)</inv:getInvoiceIdsResponse>', '>(Id)</inv:getInvoiceIdsResponse>'), undefined, []],
    [
      'the invoice response id made a string breaks',
      (t) => t.replace('Given type Id <inv:id>(number)</inv:id>', 'Given type Id <inv:id>(string)</inv:id>'),
      'response-type-widened',
      ['getInvoiceIdsResponse/id[*] was (number), now (string)', 'clients of the older contract cannot read every value the newer one allows'],
    ],
    [
      'the invoice response id list made a single node that may repeat more',
      (t) => t.replace('>(Id*)</inv:getInvoiceIdsResponse>', '><inv:total>(number)</inv:total>(Id*)</inv:getInvoiceIdsResponse>'),
      'response-node-added',
      ['getInvoiceIdsResponse/total is new in the response'],
    ],
  ];
  // Repeated → exactly one is a narrowing of what clients already read: compatible (the test name above says what it is).
  cases[8][0] = 'the invoice ids: repeated → exactly one id is compatible';

  test.each(cases)('%s', (_, change, rule, texts) => {
    const r = repo().write(PET, contract('soap/api_pet_v1.spec'));
    r.commit('pet v1');
    r.edit(PET, change);
    const out = accord(r.dir, 'compatible', 'git', 'file', PET);
    if (rule) expectBreak(out, rule, ...texts, 'api_pet_v2.spec');
    else expectCompatible(out);
    expect(out.stdout).toContain(`Tests run: 2, Passed: ${rule ? 1 : 2}, Failed: ${rule ? 1 : 0}`);
  });

  test('the reverse of a widened request text (string → number) breaks', () => {
    const r = repo().write(
      PET,
      contract('soap/api_pet_v1.spec').replace('<pet:id>(number)</pet:id>\n        </pet:getPetRequest>', '<pet:id>(string)</pet:id>\n        </pet:getPetRequest>'),
    );
    r.commit('id as string');
    r.write(PET, contract('soap/api_pet_v1.spec'));
    expectBreak(
      accord(r.dir, 'compatible', 'git', 'file', PET),
      'request-type-narrowed',
      'getPetRequest/id was (string), now (number)',
      'the newer contract rejects some requests the older one accepted',
    );
  });

  test('the Background-factored petstore contract against itself, and with an operation renamed', () => {
    const r = repo().write('api_petstore_v1.spec', contract('soap/api_petstore_v1.spec'));
    r.commit('petstore v1');
    expectCompatible(accord(r.dir, 'compatible', 'git', 'file', 'api_petstore_v1.spec'));
    r.edit('api_petstore_v1.spec', (t) => t.replace(/getPetResponse/g, 'fetchPetResponse'));
    const out = accord(r.dir, 'compatible', 'git', 'file', 'api_petstore_v1.spec');
    expectBreak(out, 'response-node-added', 'In scenario "Get pet info"', 'Body/fetchPetResponse is new in the response');
    expect(out.stdout).toContain('[response-node-removed]');
  });
});

describe('@WIP', () => {
  const ADOPT_CHANGE = (t: string) => t.replace('<pet:adopted>(boolean)</pet:adopted>', '<pet:adopted>(string)</pet:adopted><pet:when>(datetime)</pet:when>');

  test('a scenario tagged @WIP in the older version is left out of the check and the count', () => {
    const r = repo().write(PET, contract('soap/api_pet_v1.spec'));
    r.commit('pet v1 with adopt in progress');
    r.edit(PET, ADOPT_CHANGE);
    const out = accord(r.dir, 'compatible', 'git', 'file', PET);
    expectCompatible(out);
    expect(out.stdout).toContain('Tests run: 2, Passed: 2, Failed: 0');
    expect(out.stdout).toContain('Not checked: "Adopt a pet (in progress)" (tagged @WIP in the older contract)');
  });

  test('a complete scenario marked @WIP in the newer version is still held to its old promise', () => {
    const r = repo().write(PET, contract('soap/api_pet_v1.spec').replace('  @WIP\n', ''));
    r.commit('adopt complete');
    r.edit(PET, (t) => ADOPT_CHANGE(t.replace('  Scenario: Adopt a pet', '  @WIP\n  Scenario: Adopt a pet')));
    const out = accord(r.dir, 'compatible', 'git', 'file', PET);
    expectBreak(out, 'response-type-widened', 'Tests run: 3, Passed: 2, Failed: 1', 'In scenario "Adopt a pet (in progress)"');
    expect(out.stdout).toContain('[response-node-added]');
  });

  test('removing the @WIP tag (finishing the scenario) is compatible, and it is checked from then on', () => {
    const r = repo().write(PET, contract('soap/api_pet_v1.spec'));
    r.commit('wip');
    r.edit(PET, (t) => t.replace('  @WIP\n', ''));
    expectCompatible(accord(r.dir, 'compatible', 'git', 'file', PET));
    r.commit('done');
    r.edit(PET, ADOPT_CHANGE);
    expectBreak(accord(r.dir, 'compatible', 'git', 'file', PET), 'response-node-added', 'Tests run: 3');
  });
});

describe('a file with a single version', () => {
  test('a new file (not at HEAD, or not in the older commit) is reported and passes', () => {
    const r = repo().write('README.md', 'contracts\n');
    r.commit('start');
    r.write(MATH, MATH_V1);
    let out = accord(r.dir, 'compatible', 'git', 'file', MATH);
    expectCompatible(out);
    expect(out.stdout).toContain(`${MATH} is a new contract: it has no version in HEAD`);
    expect(out.stdout).toContain('Tests run: 0, Passed: 0, Failed: 0');
    r.commit('add math');
    out = accord(r.dir, 'compatible', 'git', 'commits', MATH, 'HEAD', 'HEAD^1');
    expectCompatible(out);
    expect(out.stdout).toContain('is a new contract: it has no version in HEAD^1');
    expect(JSON.parse(accord(r.dir, 'compatible', 'git', 'commits', MATH, 'HEAD', 'HEAD^1', '--json').stdout).files[0]).toMatchObject({
      status: 'new',
      older: null,
      absentIn: 'HEAD^1',
      compatible: true,
    });
  });

  test('a repository with no commit yet: every contract is new', () => {
    const r = repo().write(MATH, MATH_V1);
    expectCompatible(accord(r.dir, 'compatible', 'git', 'file', MATH));
  });
});

describe('a folder argument checks every contract under it', () => {
  test('git file and git commits on a folder', () => {
    const r = repo().write(MATH, MATH_V1).write(PET, contract('soap/api_pet_v1.spec'));
    r.commit('two contracts');
    r.write(MATH, MATH_V1 + CUBE).write('contracts/new/api_new_v1.spec', MATH_V1);
    let out = accord(r.dir, 'compatible', 'git', 'file', 'contracts');
    expectCompatible(out);
    expect(out.stdout).toContain('Contract: contracts/api_math_v1.spec');
    expect(out.stdout).toContain('contracts/new/api_new_v1.spec is a new contract');
    expect(out.stdout).toContain('All contracts: Tests run: 3, Passed: 3, Failed: 0');
    r.commit('cube');
    r.edit(PET, (t) => t.replace('<pet:status>(string)</pet:status>', ''));
    out = accord(r.dir, 'compatible', 'git', 'file', '.');
    expectBreak(out, 'response-node-removed', 'Contract: contracts/api_pet_v1.spec', 'api_pet_v2.spec');
    r.commit('break pet');
    expectBreak(accord(r.dir, 'compatible', 'git', 'commits', 'contracts', 'HEAD', 'HEAD~1'), 'response-node-removed');
    expectCompatible(accord(r.dir, 'compatible', 'git', 'commits', 'contracts', 'HEAD~1', 'HEAD~2'));
  });

  test('a contract deleted from the working tree of a folder breaks every scenario it had', () => {
    const r = repo().write(MATH, MATH_V1).write(PET, contract('soap/api_pet_v1.spec'));
    r.commit('two');
    r.git('rm', '-q', MATH);
    expectBreak(accord(r.dir, 'compatible', 'git', 'file', 'contracts'), 'scenario-removed', `${MATH} is not in the working tree`);
  });
});

describe('mistakes exit 2 with one line on stderr', () => {
  function expectMistake(r: CliResult, text: RegExp): void {
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd()).toMatch(text);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  }

  test('not a git work tree', () => {
    const r = new TempRepo(false);
    repos.push(r);
    r.write(MATH, MATH_V1);
    expectMistake(accord(r.dir, 'compatible', 'git', 'file', MATH), /^accord compatible git file: not a git work tree: /);
    expectMistake(accord(r.dir, 'compatible', 'git', 'commits', MATH, 'HEAD', 'HEAD^1'), /^accord compatible git commits: not a git work tree: /);
  });

  test('file missing in the working tree, or in the newer commit', () => {
    const r = repo().write(MATH, MATH_V1);
    r.commit('v1');
    expectMistake(accord(r.dir, 'compatible', 'git', 'file', 'contracts/nope_v1.spec'), /^accord compatible git file: contracts\/nope_v1\.spec is not in the working tree/);
    r.git('rm', '-q', MATH);
    expectMistake(accord(r.dir, 'compatible', 'git', 'file', MATH), /is not in the working tree/);
    r.commit('removed');
    expectMistake(accord(r.dir, 'compatible', 'git', 'commits', MATH, 'HEAD', 'HEAD^1'), /^accord compatible git commits: contracts\/api_math_v1\.spec does not exist in HEAD$/);
  });

  test('unknown refs', () => {
    const r = repo().write(MATH, MATH_V1);
    r.commit('v1');
    expectMistake(accord(r.dir, 'compatible', 'git', 'commits', MATH, 'HEAD', 'HEAD^1'), /^accord compatible git commits: unknown git ref: HEAD\^1$/);
    expectMistake(accord(r.dir, 'compatible', 'git', 'commits', MATH, 'no-such-branch', 'HEAD'), /^accord compatible git commits: unknown git ref: no-such-branch$/);
    expectMistake(accord(r.dir, 'compatible', 'git', 'commits', MATH, 'HEAD', '--output=/tmp/x'), /unknown (git ref|option)/);
  });

  test('a contract that does not parse, in the working tree or in a commit', () => {
    const r = repo().write(MATH, MATH_V1);
    r.commit('v1');
    r.write(MATH, MATH_V1.replace('Then status 200', 'Then status two hundred'));
    expectMistake(accord(r.dir, 'compatible', 'git', 'file', MATH), /^accord compatible git file: contracts\/api_math_v1\.spec:6: status must be an HTTP status code/);
    r.commit('broken');
    r.write(MATH, MATH_V1);
    r.commit('fixed');
    expectMistake(accord(r.dir, 'compatible', 'git', 'commits', MATH, 'HEAD', 'HEAD^1'), /^accord compatible git commits: HEAD\^1:contracts\/api_math_v1\.spec:6: status must be/);
  });

  test('usage: missing arguments', () => {
    const r = repo();
    expectMistake(accord(r.dir, 'compatible', 'git', 'commits', MATH, 'HEAD'), /missing required argument/);
    expectMistake(accord(r.dir, 'compatible', 'git', 'file'), /missing required argument/);
    expectMistake(accord(r.dir, 'compatible'), /give two contracts/);
    expectMistake(accord(r.dir, 'compatible', 'git'), /^accord compatible git: a subcommand is needed/);
    expectMistake(accord(r.dir, 'compatible', 'git', 'show', MATH), /unknown subcommand "show"/);
  });
});
