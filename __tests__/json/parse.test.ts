import { parseContract } from '../../src/contract/load';
import { JsonTooDeep, parseJson, readJson } from '../../src/json/parse';
import { MAX_JSON_DEPTH } from '../../src/limits';
import { startStub } from '../../src/stub';
import { post } from '../stub/helpers';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('JSON with a nesting limit', () => {
  it('parses up to 256 levels and refuses the 257th before parsing', () => {
    expect(MAX_JSON_DEPTH).toBe(256);
    expect(() => parseJson(nested(256))).not.toThrow();
    expect(() => parseJson(nested(257))).toThrow(JsonTooDeep);
    expect(() => parseJson(nested(257))).toThrow('JSON nested deeper than 256 levels');
    expect(() => parseJson(`{"a":${'{"a":'.repeat(300)}1${'}'.repeat(301)}`)).toThrow(JsonTooDeep);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(parseJson(`["${'['.repeat(300)}"]`)).toEqual(['['.repeat(300)]);
    expect(parseJson(`["\\"${'{'.repeat(300)}", 1]`)).toEqual([`"${'{'.repeat(300)}`, 1]);
    expect(parseJson(`{"k\\\\": "${'['.repeat(300)}"}`)).toEqual({ 'k\\': '['.repeat(300) });
  });

  it('leaves bad JSON to JSON.parse and its message', () => {
    expect(() => parseJson('{"a": }')).toThrow(SyntaxError);
  });

  it('the stub answers a body nested 100,000 deep against a recursive type with 400, not a stack overflow', async () => {
    const contract = parseContract(
      'Feature: Lists\n  Scenario: Store a list\n    Given type Node {"v": "(number)", "next": "(Node?)"}\n    When POST /nodes\n    And request-body (Node)\n    Then status 201\n',
      'nodes.spec',
    );
    const stub = await startStub({ contracts: [contract] });
    try {
      const json = { 'content-type': 'application/json' };
      expect((await post(`${stub.url}/nodes`, '{"v": 1, "next": {"v": 2, "next": null}}', json)).status).toBe(201);
      const deep = await post(`${stub.url}/nodes`, `${'{"v": 1, "next": '.repeat(100_000)}null${'}'.repeat(100_000)}`, json);
      expect(deep.status).toBe(400);
      expect(deep.body).toContain('JSON nested deeper than 256 levels');
    } finally {
      await stub.close();
    }
  });
});

describe('readJson: what is wrong as a value, worded to follow "… is"', () => {
  test('a value, bad JSON, too deep', () => {
    expect(readJson('{"a": 1}')).toEqual({ value: { a: 1 } });
    expect(readJson('{"a": }')).toEqual({ problem: expect.stringMatching(/^not valid JSON: /), syntax: true });
    expect(readJson(nested(257))).toEqual({ problem: 'JSON nested deeper than 256 levels', syntax: false });
  });
});
