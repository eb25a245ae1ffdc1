import { matchXml } from '../../src/pattern/match/index';
import { formatMismatch } from '../../src/pattern/match/mismatch';
import type { Pattern, Scope } from '../../src/pattern/types';
import { xmlPatternFromText } from '../../src/pattern/xml-pattern';
import { parseXml } from '../../src/xml/parse';

/**
 * Elements that hold only text are matched by their text alone, without making their path
 * (match.ts, plainLeaves): the report must be what the element-by-element match gives, with the
 * same paths and repeat indexes, and every other case must still take the full match.
 */
const scope = (types: Record<string, Pattern> = {}): Scope => ({ types: new Map(Object.entries(types)) });

function check(contract: string, actual: string, limit = Infinity): string[] {
  return matchXml(xmlPatternFromText(contract), parseXml(actual), scope(), limit).map(formatMismatch);
}

const LINES = '<order><customer>(string)</customer><line specmatic_occurs="multiple"><sku>(string)</sku><qty>(number)</qty></line><total>(number)</total></order>';
const line = (sku: string, qty: string) => `<line><sku>${sku}</sku><qty>${qty}</qty></line>`;

describe('text-only elements', () => {
  it('names a wrong value with its full path and repeat index, after many right ones', () => {
    const lines = Array.from({ length: 500 }, (_, i) => line(`S${i}`, String(i))).join('');
    expect(check(LINES, `<order><customer>c</customer>${lines}${line('S', 'x')}<total>oops</total></order>`)).toEqual([
      'order/line[500]/qty: expected a number, found "x"',
      'order/total: expected a number, found "oops"',
    ]);
  });

  it('counts repeats across elements matched by their text alone', () => {
    const contract = '<list><item specmatic_occurs="multiple">(number)</item></list>';
    expect(check(contract, '<list><item>1</item><item>2</item><item>three</item><item>4</item><item>five</item></list>')).toEqual([
      'list/item[2]: expected a number, found "three"',
      'list/item[4]: expected a number, found "five"',
    ]);
  });

  it('still reports attributes, child nodes in a text element, and empty text', () => {
    expect(check(LINES, `<order><customer kind="x">c</customer>${line('S', '1')}<total>1</total></order>`)).toEqual([
      'order/customer/@kind: expected no such attribute, found unexpected attribute kind',
    ]);
    expect(check(LINES, `<order><customer><name>c</name></customer>${line('S', '1')}<total>1</total></order>`)).toEqual([
      'order/customer/name: expected no such node here, found unexpected node <name>',
    ]);
    expect(check(LINES, `<order><customer>c</customer>${line('S', '')}<total>1</total></order>`)).toEqual(['order/line[0]/qty: expected a number, found ""']);
  });

  it('leaves xsi:nil, required attributes and (anything) content to the full match', () => {
    const nillable = '<a xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><b specmatic_nillable="true">(number)</b></a>';
    expect(check(nillable, '<a xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><b xsi:nil="true"/></a>')).toEqual([]);
    expect(check('<a><b id="(number)">(string)</b></a>', '<a><b>x</b></a>')).toEqual(['a/b/@id: expected attribute id ((number)), found no such attribute']);
    expect(check('<a><b>(anything)</b></a>', '<a><b><c>1</c></b></a>')).toEqual([]);
  });

  it('stops at the limit', () => {
    const lines = Array.from({ length: 200 }, (_, i) => line(`S${i}`, 'x')).join('');
    expect(check(LINES, `<order><customer>c</customer>${lines}<total>1</total></order>`, 51)).toHaveLength(51);
  });
});
