import { compareVersions } from '../../src/compat';
import { languageWithin } from '../../src/pattern/scalars/regex-language';
import { xsdRegex, type XsdRegexNode } from '../../src/pattern/scalars/xsd-regex';
import { PATTERN_UNDECIDED } from '../../src/pattern/scalars/facets';

describe('pattern languages compared exactly', () => {
  test.each([
    // [B's patterns, A's pattern, every text of B fits A?]
    [['C[0-9]{9}'], '[A-Z0-9]{8,12}', 'included'],
    [['[A-Z0-9]{8,12}'], 'C[0-9]{9}', 'not-included'],
    [['[a-z]+'], '.*', 'included'],
    [['\\d{5}'], '[0-9]+', 'not-included'], // \d is every Unicode decimal digit (XSD), not only 0-9
    [['[0-9]{5}'], '\\d+', 'included'],
    [['[0-9]+'], '\\d{5}', 'not-included'],
    [['(a|b)*a(a|b){6}'], '[ab]*', 'included'],
    [['[A-Z]{2}', '[A-M].'], '[A-M][A-Z]', 'included'], // all of B's patterns hold at once
    [['[A-Z]{2}'], '[A-M][A-Z]', 'not-included'],
    [[], '[a-z]*', 'not-included'], // no pattern: any text
  ] as const)('%j within %s: %s', (b, a, verdict) => {
    expect(languageWithin({ patterns: b }, a)).toBe(verdict);
  });

  test("B's length facets count: any text of at most 3 characters without line breaks", () => {
    expect(languageWithin({ patterns: ['[^\\n\\r]*'], maxLength: 3 }, '.{0,3}')).toBe('included');
    expect(languageWithin({ patterns: ['[^\\n\\r]*'], maxLength: 4 }, '.{0,3}')).toBe('not-included');
    expect(languageWithin({ patterns: [], minLength: 2, maxLength: 2 }, '.{0,3}')).toBe('not-included'); // a line break is any text too
  });

  test('an automaton too large to build is "undecided", quickly', () => {
    const started = Date.now();
    expect(languageWithin({ patterns: ['[ab]*'] }, '(a|b)*a(a|b){20}')).toBe('undecided');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  // The reference: every text up to the longest one B allows, over an alphabet with one
  // character of each class the drawn patterns tell apart (a, b, c, a line break, any other),
  // put to the pattern matcher (re2js). Only pairs whose B has bounded repeats and texts of at
  // most 5 characters are kept, so the enumeration is the whole truth.
  test('agrees with enumerating every text, on 300 drawn pattern pairs', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const atoms = ['a', 'b', 'c', '[ab]', '[bc]', '[^a]', '.'];
    const draw = (depth: number): string => {
      const pick = rand(depth > 1 ? 3 : 5);
      if (pick === 0 && depth > 0) return `(${draw(depth - 1)}|${draw(depth - 1)})`;
      const atom = atoms[rand(atoms.length)];
      const q = ['', '?', '{2}', '{0,2}', '{1,2}'][rand(5)];
      return `${atom}${q}${pick === 1 && depth > 0 ? draw(depth - 1) : ''}`;
    };
    const longest = (n: XsdRegexNode): number =>
      n.t === 'set' ? 1 : n.t === 'seq' ? n.items.reduce((s, i) => s + longest(i), 0) : n.t === 'alt' ? Math.max(...n.alts.map(longest)) : longest(n.node) * n.max;
    const texts: string[] = [''];
    for (let len = 1, layer = ['']; len <= 5; len++) {
      layer = layer.flatMap((t) => ['a', 'b', 'c', '\n', 'd'].map((ch) => t + ch));
      texts.push(...layer);
    }
    let included = 0;
    for (let pairs = 0; pairs < 300;) {
      const [bSource, aSource] = [draw(2), draw(2)];
      const [b, a] = [xsdRegex(bSource), xsdRegex(aSource)];
      if (longest(b.ast) > 5) continue;
      pairs++;
      const witness = texts.find((t) => b.test(t) && !a.test(t));
      const verdict = languageWithin({ patterns: [bSource] }, aSource);
      expect([bSource, aSource, verdict]).toEqual([bSource, aSource, witness === undefined ? 'included' : 'not-included']);
      if (verdict === 'included') included++;
    }
    expect(included).toBeGreaterThan(20); // both answers are exercised
  });
});

/** A contract whose response code has the given pattern, and whose request id has another. */
function contract(requestPattern: string, responsePattern: string): string {
  return `Feature: Orders

  Scenario: Get an order
    When POST /orders
    And request-body <getOrder><id>(string pattern="${requestPattern}")</id></getOrder>
    Then status 200
    And response-body <order><code>(string pattern="${responsePattern}")</code></order>
`;
}

function verdict(older: string, newer: string) {
  const report = compareVersions({ file: 'orders.spec', older: { label: 'older', text: older }, newer: { label: 'newer', text: newer }, olderWhere: 'older', newerWhere: 'newer' });
  return report.verdict.results.flatMap((r) => r.findings.map((f) => ({ rule: f.rule, message: f.message })));
}

describe('accord compatible decides a pattern change by the languages', () => {
  const WIDE = '[A-Z0-9]{8,12}';
  const NARROW = 'C[0-9]{9}';

  test('a response pattern narrowed (every new value fits the old pattern): compatible', () => {
    expect(verdict(contract('.*', WIDE), contract('.*', NARROW))).toEqual([]);
  });
  test('a response pattern widened: breaking, response-type-widened', () => {
    expect(verdict(contract('.*', NARROW), contract('.*', WIDE))).toMatchObject([{ rule: 'response-type-widened' }]);
  });
  test('a request pattern widened (every old request fits the new pattern): compatible', () => {
    expect(verdict(contract(NARROW, '.*'), contract(WIDE, '.*'))).toEqual([]);
  });
  test('a request pattern narrowed: breaking, request-type-narrowed', () => {
    expect(verdict(contract(WIDE, '.*'), contract(NARROW, '.*'))).toMatchObject([{ rule: 'request-type-narrowed' }]);
  });
  test('patterns too large to compare fall back to comparing texts, and the finding says so', () => {
    const findings = verdict(contract('.*', '(a|b)*a(a|b){20}'), contract('.*', '[ab]*'));
    expect(findings).toHaveLength(1);
    expect(findings[0].message).toContain(PATTERN_UNDECIDED);
  });
});
