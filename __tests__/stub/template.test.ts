import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContract, parseContract } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { generateBody } from '../../src/pattern/generate';
import { createRandom } from '../../src/pattern/random';
import { loadContracts } from '../../src/stub/contracts';
import { compileXmlTemplate } from '../../src/stub/template';
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
      writeFileSync(file, 'Feature: Tree\n  Scenario: Tree\n    Given type Node <n:node xmlns:n="urn:n"><n:v>(number)</n:v>(Node?)</n:node>\n    When GET /tree\n    Then status 200\n    And response-body (Node)\n');
      const s = loadContract(file).scenarios[0];
      expect(compileXmlTemplate(s)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
