import { lineOfPath, prettyXml } from '../../src/xml/pretty';

/** The indented view of an XML body the HTML report shows, and the line a mismatch's path points at. */
const DOC =
  '<s:Envelope xmlns:s="urn:s"><s:Body><r:getIds xmlns:r="urn:r"><r:id>1</r:id><r:id>two</r:id><r:note a="&lt;&quot;">x &amp; y</r:note><r:empty/></r:getIds></s:Body></s:Envelope>';

test('one element a line, indented, escaped as XML, each element with its key', () => {
  const p = prettyXml(DOC, 100, 10_000)!;
  expect(p.cut).toBe(false);
  expect(p.lines.map((l) => `${'  '.repeat(l.depth)}${l.text}`)).toEqual([
    '<s:Envelope xmlns:s="urn:s">',
    '  <s:Body>',
    '    <r:getIds xmlns:r="urn:r">',
    '      <r:id>1</r:id>',
    '      <r:id>two</r:id>',
    '      <r:note a="&lt;&quot;">x &amp; y</r:note>',
    '      <r:empty/>',
    '    </r:getIds>',
    '  </s:Body>',
    '</s:Envelope>',
  ]);
  expect(p.lines[4].key).toBe('Envelope[0]/Body[0]/getIds[0]/id[1]');
});

test("a mismatch's path finds its element; a missing node, the nearest element above it", () => {
  const { lines } = prettyXml(DOC, 100, 10_000)!;
  expect(lineOfPath(lines, 'Envelope/Body/getIds/id[1]')).toBe(4);
  expect(lineOfPath(lines, 'Envelope/Body/getIds/id')).toBe(3);
  expect(lineOfPath(lines, 'Envelope/Body/getIds/note/@a')).toBe(5);
  expect(lineOfPath(lines, 'Envelope/Body/getIds/status')).toBe(2);
  expect(lineOfPath(lines, 'Other/x')).toBeUndefined();
});

test('bounded by lines and characters; not XML is undefined', () => {
  const many = `<a>${'<b>1</b>'.repeat(10_000)}</a>`;
  const p = prettyXml(many, 50, 100_000)!;
  expect(p.lines).toHaveLength(50);
  expect(p.cut).toBe(true);
  const long = prettyXml(`<a>${'x'.repeat(100_000)}</a>`, 50, 1000)!;
  expect(long.lines[0].text.length).toBeLessThanOrEqual(1001);
  expect(prettyXml('not xml', 50, 1000)).toBeUndefined();
  // Nested as deep as the parser allows: no recursion to overflow.
  const deep = `${'<a>'.repeat(250)}x${'</a>'.repeat(250)}`;
  expect(prettyXml(deep, 1000, 100_000)!.lines).toHaveLength(499);
});
