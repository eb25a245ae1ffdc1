import { parseContract } from '../../src/contract/load';

/** A scenario sees the Background's types through a layered map: no copy per scenario. */
describe('contracts with many shared types', () => {
  function contract(n: number): string {
    let t = 'Feature: many\n  Background:\n    When POST /ws\n    Then status 200\n';
    for (let i = 0; i < n; i++) t += `    And type T${i} <t${i}><a>(string)</a></t${i}>\n`;
    for (let i = 0; i < n; i++) t += `  Scenario: s${i}\n    And request-body <e>(T${i})</e>\n`;
    return t;
  }

  it('share one type table instead of copying it into every scenario', () => {
    const c = parseContract(contract(200));
    expect(c.scenarios[0].scope.types).toBe(c.scenarios[199].scope.types);
    expect(c.scenarios[5].scope.types.get('T150')).toBeDefined();
  });

  it('layer a scenario type over the Background without changing what other scenarios see', () => {
    const c = parseContract(`${contract(3)}  Scenario: own\n    Given type T1 (number)\n    And request-body (T1)\n`);
    const own = c.scenarios[3].scope.types;
    expect(own.get('T1')).toEqual({ kind: 'scalar', type: 'number' });
    expect(own.get('T2')?.kind).toBe('xml');
    expect(own.size).toBe(3);
    expect([...own.keys()].sort()).toEqual(['T0', 'T1', 'T2']);
    expect(c.scenarios[0].scope.types.get('T1')?.kind).toBe('xml');
  });
});
