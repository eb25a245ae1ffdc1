import { ghCommand, ghData, ghProperty, oneLine, xmlAttrs, xmlText } from '../../src/ci-text';

/**
 * The one escaping of input for the CI report formats, shared by `accord compatible`
 * (compat/ci-formats.ts) and `accord proxy --check` (proxy/check-report.ts): a value from a
 * contract or the traffic cannot close an XML attribute, start a workflow command or write a
 * control character into a CI log.
 */
describe('JUnit XML', () => {
  test('markup and quotes are escaped, control characters shown escaped', () => {
    expect(xmlText(`a<b>&"c"'d'\x1b[31m`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;\\x1b[31m');
  });

  test('line ends kept inside an element, escaped in an attribute', () => {
    expect(xmlText('one\ntwo', true)).toBe('one\ntwo');
    expect(xmlText('one\ntwo')).toBe('one\\ntwo');
  });

  test('attributes: strings escaped, numbers as they are, undefined left out', () => {
    expect(xmlAttrs({ name: 'x" onload="y', tests: 3, file: undefined, line: 0 })).toBe(' name="x&quot; onload=&quot;y" tests="3" line="0"');
  });
});

describe('GitHub workflow commands', () => {
  test('a newline in a value cannot start a command line', () => {
    expect(ghData('fine\n::warning::x\r100%')).toBe('fine%0A::warning::x%0D100%25');
    expect(oneLine('a\tb\u202e')).toBe('a\\tb\\u{202e}');
  });

  test('a property value cannot end its property', () => {
    expect(ghProperty('a,b:c')).toBe('a%2Cb%3Ac');
  });

  test('properties without a value are left out, in the order given', () => {
    expect(ghCommand('error', { file: 'pets.spec', line: 4, title: 'accord proxy --check: drift' }, 'status 500\nx')).toBe(
      '::error file=pets.spec,line=4,title=accord proxy --check%3A drift::status 500%0Ax',
    );
    expect(ghCommand('notice', { file: undefined, line: undefined, title: 't' }, 'm')).toBe('::notice title=t::m');
    expect(ghCommand('notice', {}, 'm')).toBe('::notice::m');
  });
});
