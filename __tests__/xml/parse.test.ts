import { AccordError } from '../../src/errors';
import { parseXml } from '../../src/xml/parse';
import { serializeXml } from '../../src/xml/serialize';
import { accordErrorOf } from '../helpers/accord-error';

const failure = (text: string): AccordError => accordErrorOf(() => parseXml(text), 'expected the XML to be refused');

describe('XML parsing of hostile input', () => {
  it('refuses an external entity (XXE) without fetching anything', () => {
    const e = failure('<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>');
    expect(e.code).toBe('ACCORD_ERR_XML');
    expect(e.message).toBe('a DOCTYPE is not allowed in XML payloads (no DTDs, no entities)');
  });

  it('refuses an entity bomb at once', () => {
    const lol = ['<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`)].join('');
    const started = Date.now();
    expect(failure(`<!DOCTYPE lolz [${lol}]><lolz>&lol9;</lolz>`).message).toMatch(/DOCTYPE is not allowed/);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('refuses an undeclared entity, deep nesting and too many attributes', () => {
    expect(failure('<a>&nope;</a>').message).toMatch(/undefined entity|nope/i);
    expect(failure('<a>'.repeat(300) + '</a>'.repeat(300)).message).toBe('elements nested deeper than 256 levels');
    const attrs = Array.from({ length: 300 }, (_, i) => `a${i}="1"`).join(' ');
    expect(failure(`<x ${attrs}/>`).message).toBe('element <x> has more than 256 attributes');
  });

  it('says where malformed XML breaks', () => {
    const e = failure('<a>\n  <b></c>\n</a>');
    expect(e.location.line).toBe(2);
    expect(e.message).toMatch(/unexpected close tag/);
    expect(failure('').message).toBe('document must contain a root element.');
    expect(failure('<a/><b/>').message).toMatch(/root/);
  });

  it('leaves nothing behind after a document that failed half-way', () => {
    expect(failure('<a><b>unclosed').code).toBe('ACCORD_ERR_XML');
    expect(failure('<!DOCTYPE x><x/>').message).toMatch(/DOCTYPE/);
    expect(parseXml('<c><d>1</d></c>')).toMatchObject({ name: 'c', children: [{ name: 'd', children: [{ type: 'text', value: '1' }] }] });
    expect(() => parseXml('<e><f/></e>', { maxDepth: 1 })).toThrow('elements nested deeper than 1 levels');
    expect(parseXml('<e><f><g/></f></e>').name).toBe('e');
  });

  it('keeps prefixes, drops comments and whitespace-only text, and round-trips escapes', () => {
    const el = parseXml('<?xml version="1.0"?>\n<p:a xmlns:p="urn:p" q="&quot;1&quot;">\n  <!-- c -->\n  <p:b>x &amp; y</p:b>\n</p:a>');
    expect(el).toMatchObject({ name: 'p:a', prefix: 'p', local: 'a' });
    expect(serializeXml(el)).toBe('<p:a xmlns:p="urn:p" q="&quot;1&quot;"><p:b>x &amp; y</p:b></p:a>');
  });
});
