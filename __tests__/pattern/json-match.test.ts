import { patternFromText } from '../../src/pattern/body';
import { matchJson, matchText } from '../../src/pattern/match/index';
import { formatMismatch } from '../../src/pattern/match/mismatch';
import type { Pattern, Scope } from '../../src/pattern/types';

const scope = (types: Record<string, string> = {}): Scope => ({
  types: new Map<string, Pattern>(Object.entries(types).map(([k, v]) => [k, patternFromText(v)])),
});

const json = (pattern: string, value: unknown, types: Record<string, string> = {}) => matchJson(patternFromText(pattern), value, scope(types)).map(formatMismatch);
const text = (pattern: string, value: string | undefined) => matchText(patternFromText(pattern), value, scope()).map(formatMismatch);

describe('JSON matching', () => {
  it('checks keys by type, optional keys by "?", and reports extra keys', () => {
    const pet = '{"petid": "(number)", "name?": "(string)"}';
    expect(json(pet, { petid: 10 })).toEqual([]);
    expect(json(pet, { petid: 10, name: 'Rex' })).toEqual([]);
    expect(json(pet, { petid: '10' })).toEqual(['petid: expected a number, found "10"']);
    expect(json(pet, { name: 'Rex', colour: 'red' })).toEqual([
      'petid: expected key "petid" ((number)), found no such key',
      'colour: expected no such key, found unexpected key "colour"',
    ]);
  });

  it('reports a value nested 100,000 deep (a hostile answer) without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(json('{"petid": "(number)"}', { petid: deep })).toEqual([`petid: expected a number, found ${'['.repeat(79)}…`]);
    expect(json('(number)', { a: deep })).toEqual([`: expected a number, found {"a":${'['.repeat(74)}…`]);
  });

  it('matches lists of a named type and nested paths', () => {
    const types = { Pet: '{"id": "(number)", "tags": ["(string*)"]}' };
    expect(
      json(
        '(Pet*)',
        [
          { id: 1, tags: ['a'] },
          { id: 2, tags: [] },
        ],
        types,
      ),
    ).toEqual([]);
    expect(json('(Pet*)', [{ id: 1, tags: ['a', 3] }], types)).toEqual(['[0].tags[1]: expected a string, found 3']);
    expect(json('(Pet*)', { id: 1 }, types)).toEqual([': expected a JSON array, found {"id":1}']);
  });

  it('tells a bare number from a JSON object (the seed /square change)', () => {
    expect(text('(number)', '25')).toEqual([]);
    expect(text('(number)', '{"square": 25}')).toEqual([': expected a number, found "{\\"square\\": 25}"']);
  });

  it('knows the other placeholder types', () => {
    expect(text('(boolean)', 'true')).toEqual([]);
    expect(text('(date)', '2024-02-29')).toEqual([]);
    expect(text('(date)', '2023-02-29')).toEqual([': expected a date (YYYY-MM-DD), found "2023-02-29"']);
    expect(text('(datetime)', '2024-01-02T03:04:05Z')).toEqual([]);
    expect(text('(uuid)', '123e4567-e89b-12d3-a456-426614174000')).toEqual([]);
    expect(text('(uuid)', 'nope')).toHaveLength(1);
    expect(text('(anything)', 'whatever')).toEqual([]);
    expect(text('(number?)', '')).toEqual([]);
    expect(text('(number?)', undefined)).toEqual([]);
    expect(text('(number)', undefined)).toEqual([': expected (number), found nothing']);
    expect(json('(null)', null)).toEqual([]);
  });

  it('allows more keys in an object written with "..."', () => {
    expect(json('{"id": "(number)", "...": ""}', { id: 1, more: true })).toEqual([]);
  });
});
