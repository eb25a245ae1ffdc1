import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateXml } from '../../src/pattern/generate';
import { matchXml } from '../../src/pattern/match';
import { formatMismatch } from '../../src/pattern/mismatch';
import { createRandom } from '../../src/pattern/random';
import type { Scope } from '../../src/pattern/types';
import { xmlPatternFromText } from '../../src/pattern/xml-pattern';
import { parseXml } from '../../src/xml/parse';
import { serializeXml } from '../../src/xml/serialize';

/* XML structure as XSD has it: exact occurrence bounds, choices, wildcards, derived types. */

const scope: Scope = { types: new Map() };

function check(contract: string, actual: string): string[] {
  return matchXml(xmlPatternFromText(contract), parseXml(actual), scope).map(formatMismatch);
}

function generated(contract: string, seeds = 20): string[] {
  const p = xmlPatternFromText(contract);
  return Array.from({ length: seeds }, (_, seed) =>
    generateXml(p, { scope, rng: createRandom(seed) }, true)
      .map(serializeXml)
      .join(''),
  );
}

const count = (text: string, local: string) => text.split(`<${local}>`).length - 1;

describe('exact occurrence bounds (specmatic_occurs="2..5")', () => {
  const contract = '<r><a specmatic_occurs="2..3">(number)</a><b specmatic_occurs="1..*">(string)</b><c specmatic_occurs="2">(number)</c></r>';

  it('matches within the bounds and names the bound that is broken', () => {
    expect(check(contract, '<r><a>1</a><a>2</a><b>x</b><c>1</c><c>2</c></r>')).toEqual([]);
    expect(check(contract, '<r><a>1</a><a>2</a><a>3</a><b>x</b><b>y</b><c>1</c><c>2</c></r>')).toEqual([]);
    expect(check(contract, '<r><a>1</a><b>x</b><c>1</c><c>2</c></r>').join('\n')).toContain('a{2..3}');
    expect(check(contract, '<r><a>1</a><a>2</a><a>3</a><a>4</a><b>x</b><c>1</c><c>2</c></r>').join('\n')).toContain('at most 3 nodes <a>');
    expect(check(contract, '<r><a>1</a><a>2</a><c>1</c><c>2</c></r>').join('\n')).toContain('node <b>');
    expect(check(contract, '<r><a>1</a><a>2</a><b>x</b><c>1</c><c>2</c><c>3</c></r>')).not.toEqual([]);
  });

  it('generates within the bounds: a required repeated node never comes out zero times', () => {
    for (const text of generated(contract)) {
      expect(count(text, 'a')).toBeGreaterThanOrEqual(2);
      expect(count(text, 'a')).toBeLessThanOrEqual(3);
      expect(count(text, 'b')).toBeGreaterThanOrEqual(1);
      expect(count(text, 'c')).toBe(2);
      expect(check(contract, text)).toEqual([]);
    }
  });

  it('keeps Specmatic words and refuses bounds that mean nothing', () => {
    expect(check('<r><a specmatic_occurs="multiple">(number)</a></r>', '<r/>')).toEqual([]);
    expect(check('<r><a specmatic_occurs="optional">(number)</a></r>', '<r/>')).toEqual([]);
    for (const bad of ['3..2', 'lots', '0', '1..', '..2', '-1..2', '99999999']) {
      expect(() => xmlPatternFromText(`<r><a specmatic_occurs="${bad}">(number)</a></r>`)).toThrow(/specmatic_occurs/);
    }
  });
});

describe("the README's XML structure fragments", () => {
  const readme = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### XML structure: bounds, choices, wildcards'), readme.indexOf('### Steps accord reads but does not run'));
  const fragments = [...section.matchAll(/```xml\n([\s\S]*?)```/g)].map((m) => m[1]);

  it('each reads, and what it generates it matches', () => {
    expect(fragments.length).toBeGreaterThan(0);
    for (const f of fragments) for (const text of generated(f, 5)) expect(check(f, text)).toEqual([]);
  });
});
