import { resolveEncodedReferences } from '../../src/xml/multi-ref';
import { parseXml } from '../../src/xml/parse';
import type { XmlElement } from '../../src/xml/tree';

/**
 * A large literal document (a 5 MB wrong body at the stub) is compared with every route of its
 * path, and each comparison asks whether SOAP encoding is in scope: the answer is found once per
 * document of 1,000 elements or more, not by a walk of its 90,000 elements per route.
 */
const ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const ENC = 'http://schemas.xmlsoap.org/soap/encoding/';
const notes = (n: number) => '<note>x</note>'.repeat(n);

/** The document's root, with its reads of `children` counted. */
function counted(xml: string): { root: XmlElement; reads: () => number } {
  const root = parseXml(xml);
  const children = root.children;
  let reads = 0;
  Object.defineProperty(root, 'children', {
    get: () => {
      reads++;
      return children;
    },
  });
  return { root, reads: () => reads };
}

test('a large literal document is walked once, however often it is asked', () => {
  const { root, reads } = counted(`<s:Envelope xmlns:s="${ENV}"><s:Body><op>${notes(2_000)}</op></s:Body></s:Envelope>`);
  expect(resolveEncodedReferences(root)).toEqual({ root, problems: [] });
  const once = reads();
  for (let i = 0; i < 3; i++) expect(resolveEncodedReferences(root)).toEqual({ root, problems: [] });
  expect(reads()).toBe(once);
});

test('a small literal document is walked again (nothing kept per request), and an encoded large one is still read', () => {
  const small = counted(`<s:Envelope xmlns:s="${ENV}"><s:Body><op>${notes(3)}</op></s:Body></s:Envelope>`);
  resolveEncodedReferences(small.root);
  const once = small.reads();
  resolveEncodedReferences(small.root);
  expect(small.reads()).toBeGreaterThan(once);

  const encoded = parseXml(
    `<s:Envelope xmlns:s="${ENV}" xmlns:enc="${ENC}"><s:Body s:encodingStyle="${ENC}"><op><v href="#id0"/></op><multiRef id="id0" enc:root="0">${notes(2_000)}</multiRef></s:Body></s:Envelope>`,
  );
  for (let i = 0; i < 2; i++) {
    const r = resolveEncodedReferences(encoded);
    expect(r.problems).toEqual([]);
    const body = r.root.children.find((c) => c.type === 'element') as XmlElement;
    const op = body.children.find((c) => c.type === 'element') as XmlElement;
    expect(op.local).toBe('op');
    // The accessor holds the referenced element's 2,000 notes, and the multiRef left the Body.
    expect((op.children[0] as XmlElement).children.filter((c) => c.type === 'element')).toHaveLength(2_000);
    expect(body.children.filter((c) => c.type === 'element')).toHaveLength(1);
  }
});
