import { jsonErrorOffset } from '../../src/json/locate';

/** Where a refused JSON text first goes wrong: the place `accord config migrate` and the settings readers say as line:column. */
describe('jsonErrorOffset', () => {
  it.each(['{}', '[]', ' {"a": [1, -2.5e+3, true, false, null, "x\\u00e9\\n"], "b": {"c": {}}} ', '"text"', '0', '\ufeff{"a": 1}'])('finds nothing wrong in %j', (text) => {
    expect(() => JSON.parse(text.startsWith('\ufeff') ? text.slice(1) : text)).not.toThrow();
    expect(jsonErrorOffset(text)).toBeUndefined();
  });

  it.each([
    ['{"a": 1,\n "b": }', 15],
    ['{"a" 1}', 5],
    ['{"a": 1,}', 8],
    ['{"a": tru}', 6],
    ['[1, 2', 5],
    ['{"a": "x\ny"}', 8],
    ['{"a":1}}', 7],
    ['{"a": 01}', 7],
    ['{"a": "\\q"}', 8],
    ['{"a": "\\u12g4"}', 11],
    ['', 0],
    ['{"a": [1 2]}', 9],
  ])('%j goes wrong at %d', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonErrorOffset(text)).toBe(offset);
  });

  it('is linear: a deep or long text is scanned in one pass', () => {
    const deep = `${'['.repeat(200)}1${']'.repeat(199)}`;
    expect(jsonErrorOffset(deep)).toBe(deep.length);
    const long = `[${'1,'.repeat(200_000)}]`;
    const started = Date.now();
    expect(jsonErrorOffset(long)).toBe(long.length - 1);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
