import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateXml } from '../../src/pattern/generate/index';
import { matchXml } from '../../src/pattern/match/index';
import { formatMismatch } from '../../src/pattern/match/mismatch';
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

describe('xs:choice (<specmatic_choice>): exactly one option per occurrence', () => {
  const contract = `<pay>
    <specmatic_choice>
      <card>(string)</card>
      <specmatic_option><iban>(string)</iban><bic>(string)</bic></specmatic_option>
    </specmatic_choice>
    <amount>(number)</amount>
  </pay>`;

  it('matches one option, and refuses none, two, or half of one', () => {
    expect(check(contract, '<pay><card>x</card><amount>1</amount></pay>')).toEqual([]);
    expect(check(contract, '<pay><iban>x</iban><bic>y</bic><amount>1</amount></pay>')).toEqual([]);
    expect(check(contract, '<pay><amount>1</amount></pay>').join('\n')).toContain('one of (card | iban, bic)');
    expect(check(contract, '<pay><card>x</card><iban>x</iban><bic>y</bic><amount>1</amount></pay>')).not.toEqual([]);
    expect(check(contract, '<pay><iban>x</iban><amount>1</amount></pay>')).not.toEqual([]);
    expect(check(contract, '<pay><card>x</card><amount>one</amount></pay>').join('\n')).toContain('pay/amount');
    expect(check(contract, '<pay><card><x/></card><amount>1</amount></pay>').join('\n')).toContain('pay/card');
  });

  it('generates one option, the same for the same seed, and both options over seeds', () => {
    const texts = generated(contract);
    for (const text of texts) {
      expect(count(text, 'card') + count(text, 'iban')).toBe(1);
      expect(count(text, 'iban')).toBe(count(text, 'bic'));
      expect(check(contract, text)).toEqual([]);
    }
    expect(new Set(texts.map((t) => count(t, 'card'))).size).toBe(2);
    expect(generated(contract, 5)).toEqual(generated(contract, 5));
  });

  it('repeats with bounds, one option per occurrence', () => {
    const repeated = '<r><specmatic_choice specmatic_occurs="2..3"><a>(number)</a><b>(number)</b></specmatic_choice><c>(number)</c></r>';
    expect(check(repeated, '<r><a>1</a><b>2</b><c>3</c></r>')).toEqual([]);
    expect(check(repeated, '<r><b>1</b><b>2</b><a>3</a><c>3</c></r>')).toEqual([]);
    expect(check(repeated, '<r><a>1</a><c>3</c></r>')).not.toEqual([]);
    expect(check(repeated, '<r><a>1</a><a>1</a><a>1</a><a>1</a><c>3</c></r>')).not.toEqual([]);
    for (const text of generated(repeated)) {
      expect(count(text, 'a') + count(text, 'b')).toBeGreaterThanOrEqual(2);
      expect(count(text, 'a') + count(text, 'b')).toBeLessThanOrEqual(3);
      expect(check(repeated, text)).toEqual([]);
    }
  });

  it('matches thousands of repeated choices without deep recursion', () => {
    const many = '<r><specmatic_choice specmatic_occurs="multiple"><a>(number)</a><b>(number)</b></specmatic_choice></r>';
    const body = Array.from({ length: 30_000 }, (_, i) => (i % 3 ? '<a>1</a>' : '<b>2</b>')).join('');
    expect(check(many, `<r>${body}</r>`)).toEqual([]);
  });
});

describe('wildcards (<specmatic_any/>, specmatic_any_attribute)', () => {
  const contract = `<r xmlns:t="urn:t"><id>(number)</id><specmatic_any specmatic_occurs="0..*" namespace="##other" targetNamespace="urn:t" processContents="lax"/></r>`;

  it('accepts elements the namespace constraint allows, within bounds', () => {
    expect(check(contract, '<r xmlns="urn:t"><id>1</id></r>')).toEqual([]);
    expect(check(contract, '<r xmlns="urn:t"><id>1</id><x:ext xmlns:x="urn:other"><deep/></x:ext><x:more xmlns:x="urn:other"/></r>')).toEqual([]);
    expect(check(contract, '<r xmlns="urn:t"><id>1</id><ext/></r>').join('\n')).toContain('ext');
    expect(check(contract, '<r xmlns="urn:t"><id>1</id><ext xmlns=""/></r>')).not.toEqual([]);
  });

  it('leaves optional wildcards out and fills required ones with an element, never text', () => {
    for (const text of generated(contract, 3)) expect(text).not.toContain('any');
    const required = '<r><specmatic_any specmatic_occurs="2" namespace="##other" targetNamespace="urn:t"/></r>';
    for (const text of generated(required, 3)) {
      expect(text).toBe('<r><any xmlns="urn:accord:any"/><any xmlns="urn:accord:any"/></r>');
      expect(check(required, text)).toEqual([]);
    }
  });

  it('accepts unknown attributes where specmatic_any_attribute is', () => {
    expect(check('<r specmatic_any_attribute="##any" id="(number)">(string)</r>', '<r id="1" x:extra="2" xmlns:x="urn:x">a</r>')).toEqual([]);
    expect(check('<r id="(number)">(string)</r>', '<r id="1" extra="2">a</r>')).not.toEqual([]);
  });
});

describe('node placeholders with bounds: (Item{2..5}), (Item{1..*}), (Item{3})', () => {
  const withItem: Scope = { types: new Map([['Item', xmlPatternFromText('<item>(number)</item>')]]) };
  const checkIn = (contract: string, actual: string) => matchXml(xmlPatternFromText(contract), parseXml(actual), withItem).map(formatMismatch);
  const items = (n: number) => `<r>${'<item>1</item>'.repeat(n)}</r>`;

  it('reads the bounds and matches by them', () => {
    expect(xmlPatternFromText('<r>(Item{2..5})</r>').content).toEqual([{ kind: 'xml-ref', name: 'Item', occurs: { min: 2, max: 5 } }]);
    expect(xmlPatternFromText('<r>(Item{1..*})(Item{3})</r>').content.map((c) => c.kind === 'xml-ref' && c.occurs)).toEqual([
      { min: 1, max: Infinity },
      { min: 3, max: 3 },
    ]);
    expect(checkIn('<r>(Item{2..5})</r>', items(1))).not.toEqual([]);
    expect(checkIn('<r>(Item{2..5})</r>', items(2))).toEqual([]);
    expect(checkIn('<r>(Item{2..5})</r>', items(5))).toEqual([]);
    expect(checkIn('<r>(Item{2..5})</r>', items(6))).not.toEqual([]);
  });

  it('refuses bounds that mean nothing, naming the syntax', () => {
    for (const bad of ['(Item{})', '(Item{5..2})', '(Item{lots})', '(Item{0})']) expect(() => xmlPatternFromText(`<r>${bad}</r>`)).toThrow(/\(Item\{2\.\.5\}\)/);
  });
});

describe('derived types written by hand: specmatic_derived and specmatic_abstract', () => {
  const types: Scope = {
    types: new Map([
      ['Pet', xmlPatternFromText('<SPECMATIC_TYPE specmatic_abstract="true" specmatic_derived="p:Dog p:Cat=Kitty"><name>(string)</name></SPECMATIC_TYPE>')],
      ['Dog', xmlPatternFromText('<SPECMATIC_TYPE><name>(string)</name><barks>(boolean)</barks></SPECMATIC_TYPE>')],
      ['Kitty', xmlPatternFromText('<SPECMATIC_TYPE lives="(int)"><name>(string)</name></SPECMATIC_TYPE>')],
    ]),
  };
  const contract = '<r><pet specmatic_type="Pet" specmatic_occurs="1..*"/></r>';
  const checkIn = (actual: string) => matchXml(xmlPatternFromText(contract), parseXml(actual), types).map(formatMismatch);
  const X = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:p="urn:p"';

  it('reads each derived type, its xsi:type name and its contract type', () => {
    expect(types.types.get('Pet')).toMatchObject({
      abstract: true,
      derived: [
        { xsiType: 'p:Dog', local: 'Dog', type: 'Dog' },
        { xsiType: 'p:Cat', local: 'Cat', type: 'Kitty' },
      ],
    });
    // Empty: no derived type at this element (its own XSD block refuses them).
    expect(xmlPatternFromText('<r specmatic_type="Animal" specmatic_derived=""/>').derived).toEqual([]);
    for (const bad of ['p:Dog=', 'a:b:c', 'p:Dog=1x']) expect(() => xmlPatternFromText(`<r specmatic_derived="${bad}"/>`)).toThrow(/specmatic_derived/);
  });

  it('matches each instance by its xsi:type (prefix ignored), an abstract one without it refused', () => {
    expect(checkIn(`<r ${X}><pet xsi:type="p:Dog"><name>a</name><barks>true</barks></pet><pet xsi:type="x:Cat" lives="9"><name>b</name></pet></r>`)).toEqual([]);
    expect(checkIn(`<r ${X}><pet xsi:type="p:Cat"><name>b</name></pet></r>`).join('\n')).toContain('r/pet[0]/@lives');
    expect(checkIn(`<r ${X}><pet><name>b</name></pet></r>`)).toEqual([
      'r/pet[0]: expected xsi:type naming a type derived from the abstract type (Pet): p:Dog, p:Cat, found no xsi:type',
    ]);
  });

  it('generates each occurrence as a derived type with its xsi:type declared', () => {
    const texts = Array.from({ length: 10 }, (_, seed) =>
      generateXml(xmlPatternFromText(contract), { scope: types, rng: createRandom(seed) }, true)
        .map(serializeXml)
        .join(''),
    );
    expect(texts.join('')).toContain('<pet xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="p:Cat" lives="');
    expect(texts.join('')).toContain('xsi:type="p:Dog"><name>');
    for (const t of texts) expect(checkIn(t.replace('<r>', `<r ${X}>`))).toEqual([]);
  });
});

describe('a wildcard holding the declarations it knows (<specmatic_any> with elements)', () => {
  const contract = '<r><specmatic_any namespace="##other" targetNamespace="urn:r"><x:flag xmlns:x="urn:x">(boolean)</x:flag></specmatic_any></r>';

  it('checks an element of a known name against it (strict and lax), accepts others, and skip checks nothing', () => {
    expect(check(contract, '<r><x:flag xmlns:x="urn:x">true</x:flag></r>')).toEqual([]);
    expect(check(contract, '<r><x:flag xmlns:x="urn:x">no</x:flag></r>')).toEqual(['r/flag: expected a boolean, found "no"']);
    expect(check(contract, '<r><y:other xmlns:y="urn:y">no</y:other></r>')).toEqual([]);
    expect(check(contract.replace('urn:r">', 'urn:r" processContents="lax">'), '<r><x:flag xmlns:x="urn:x">no</x:flag></r>')).not.toEqual([]);
    expect(check(contract.replace('urn:r">', 'urn:r" processContents="skip">'), '<r><x:flag xmlns:x="urn:x">no</x:flag></r>')).toEqual([]);
  });

  it('generates the first declaration for a required wildcard', () => {
    for (const text of generated(contract, 4)) expect(text).toMatch(/^<r><x:flag xmlns:x="urn:x">(true|false)<\/x:flag><\/r>$/);
  });

  it('refuses text or structure inside it', () => {
    expect(() => xmlPatternFromText('<r><specmatic_any>text</specmatic_any></r>')).toThrow(/specmatic_any/);
    expect(() => xmlPatternFromText('<r><specmatic_any><specmatic_choice><a/></specmatic_choice></specmatic_any></r>')).toThrow(/specmatic_any/);
  });
});
