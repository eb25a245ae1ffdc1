import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContract, parseContract } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { generateBody } from '../../src/pattern/generate/index';
import { matchXml } from '../../src/pattern/match/index';
import { namedPlaces } from '../../src/pattern/generate/places';
import { resolve } from '../../src/pattern/resolve';
import { parseXml } from '../../src/xml/parse';
import { startStub } from '../../src/stub';
import { createRandom } from '../../src/pattern/random';
import { loadContracts } from '../../src/stub/contracts';
import { compileXmlTemplate } from '../../src/stub/answer/template';
import { CONTRACTS } from './helpers';

/**
 * The stub answers XML through compiled templates for speed; they must give
 * byte for byte what the core generator gives for the same random stream, or
 * the stub would drift from the runner. Checked on every contract, row and a
 * spread of seeds, plus shapes the example contracts do not have.
 */
const EXTRA = `Feature: Shapes
  Scenario: Everything XML can hold
    Given type Item <i:item xmlns:i="urn:i" code="(string)" note.opt="(string)">(number)</i:item>
    And type Maybe <m:maybe>(date)</m:maybe>
    And enum Colour (string) values red,green,blue
    And type Res
    """
    <r:Result xmlns:r="urn:r" version="2" kind="(Colour)">
      <r:empty/>
      <r:text>hello &amp; "bye" &lt;3</r:text>
      <r:items>(Item*)</r:items>
      <r:opt>(Maybe?)</r:opt>
      <r:many specmatic_occurs="multiple">(uuid)</r:many>
      <r:perhaps specmatic_occurs="optional">(boolean)</r:perhaps>
      <r:nil specmatic_nillable="true">(string)</r:nil>
      <r:blank>(empty)</r:blank>
      <r:colour>(Colour)</r:colour>
      <r:when>(datetime)</r:when>
      <r:typed specmatic_type="Item"/>
    </r:Result>
    """
    When POST /x
    Then status 200
    And response-body (Res)

  Scenario Outline: With rows
    Given type Res <r:Result xmlns:r="urn:r" code="(string)"><r:id>(number)</r:id><r:name>(string)</r:name><r:gone specmatic_occurs="optional">(string)</r:gone></r:Result>
    When POST /y
    Then status 200
    And response-body (Res)

    Examples:
      | id | name      | code | gone |
      | 7  | Rex & Co  | a<b  |      |
      | 8  |           | c    | here |
`;

function contracts(): Contract[] {
  return [...loadContracts([CONTRACTS]), parseContract(EXTRA, 'shapes.spec')];
}

describe('compiled XML response templates', () => {
  it('compile for every XML response in the example contracts', () => {
    for (const c of contracts()) {
      for (const s of c.scenarios) {
        if (!s.response.body || !generateBody(s.response.body, { scope: s.scope, rng: createRandom(1) }).text.startsWith('<')) continue;
        expect(compileXmlTemplate(s)).toBeDefined();
      }
    }
  });

  it('give exactly what generateBody gives for the same random stream', () => {
    let compared = 0;
    for (const c of contracts()) {
      for (const s of c.scenarios) {
        if (!s.response.body) continue;
        for (const row of [undefined, ...s.examples]) {
          const template = compileXmlTemplate(s, row);
          if (!template) continue;
          for (let seed = 0; seed < 200; seed++) {
            const expected = generateBody(s.response.body, { scope: s.scope, rng: createRandom(seed), examples: row?.values }).text;
            const rng = createRandom(seed);
            expect(`${s.name} seed ${seed}: ${template(rng)}`).toBe(`${s.name} seed ${seed}: ${expected}`);
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('leave recursive types to the core generator', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-template-'));
    try {
      const file = path.join(dir, 'tree.spec');
      writeFileSync(
        file,
        'Feature: Tree\n  Scenario: Tree\n    Given type Node <n:node xmlns:n="urn:n"><n:v>(number)</n:v>(Node?)</n:node>\n    When GET /tree\n    Then status 200\n    And response-body (Node)\n',
      );
      const s = loadContract(file).scenarios[0];
      expect(compileXmlTemplate(s)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('put an Examples value only where it fits, as the generator does (one column naming several places)', () => {
    // Every place name of every XML response, as a column, with values that fit some places and not others.
    const values = ['12', 'abc', '', 'true', '2020-01-02', '123e4567-e89b-42d3-a456-426614174000'];
    let compared = 0;
    for (const c of contracts()) {
      for (const s of c.scenarios) {
        const template = compileXmlTemplate(s);
        if (!template || !s.response.body) continue;
        const names = [...new Set(namedPlaces(s.response.body, s.scope).map((p) => p.key))];
        for (const v of values) {
          const row = { line: 1, values: new Map(names.map((n) => [n, v])) };
          const compiled = compileXmlTemplate(s, row)!;
          for (let seed = 0; seed < 5; seed++) {
            const body = compiled(createRandom(seed));
            expect(body).toBe(generateBody(s.response.body, { scope: s.scope, rng: createRandom(seed), examples: row.values }).text);
            const mismatches = matchXml(resolve(s.response.body, s.scope), parseXml(body), s.scope);
            expect(`${s.name} with every column = "${v}": ${mismatches.map((m) => `${m.path}: expected ${m.expected}, found ${m.actual}`).join('; ')}`).toBe(
              `${s.name} with every column = "${v}": `,
            );
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('a stub answers a column that names a number node and a uuid node with a body that fits its own contract', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-template-'));
    const file = path.join(dir, 'owner.spec');
    writeFileSync(
      file,
      `Feature: Owner
  Scenario Outline: Owner of a pet
    Given type Res <r:Result xmlns:r="urn:r"><r:id>(number)</r:id><r:owner><r:id>(uuid)</r:id></r:owner></r:Result>
    When GET /pets/(id:number)
    Then status 200
    And response-body (Res)

    Examples:
      | id |
      | 12 |
`,
    );
    const stub = await startStub({ contracts: [file], port: 0, log: () => {} });
    try {
      const answer = await fetch(`${stub.url}/pets/12`);
      const body = await answer.text();
      expect(answer.status).toBe(200);
      expect(body).toMatch(
        /^<\?xml version="1\.0" encoding="utf-8"\?><r:Result xmlns:r="urn:r"><r:id>12<\/r:id><r:owner><r:id>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}<\/r:id><\/r:owner><\/r:Result>$/,
      );
    } finally {
      await stub.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
