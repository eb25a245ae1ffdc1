import { cpuMsSync } from '../helpers/timing';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fastParseXml } from '../../src/xml/fast-parse';
import { DEFAULT_XML_LIMITS, parseXml, parseXmlInSlices, parseXmlWithSaxes, type XmlParseLimits } from '../../src/xml/parse';
import type { XmlElement } from '../../src/xml/tree';
import { AccordError } from '../../src/errors';
import { SPEC_CORPUS, WSDL_CORPUS, withCorpus } from '../helpers/corpus';
import { mutant, seeded } from '../helpers/mutate';

/**
 * The fast path must give exactly saxes' tree or step aside (undefined): it may
 * never accept a document saxes rejects, nor read one differently. Checked on
 * real documents (the repository's fixtures and every XML docstring of its
 * contracts; the WSDL and Specmatic corpora when ../shared is there),
 * hand-picked edge cases, and thousands of mutants.
 */
const ROOT = path.join(__dirname, '..', '..');

function files(dir: string, exts: string[]): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (exts.some((e) => name.endsWith(e))) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

function xmlDocstrings(spec: string): string[] {
  const out: string[] = [];
  const re = /"""\s*\n([\s\S]*?)\n\s*"""/g;
  for (let m = re.exec(spec); m; m = re.exec(spec)) {
    const body = m[1]
      .split('\n')
      .map((l) => l.trim())
      .join('\n')
      .trim();
    if (body.startsWith('<')) out.push(body);
  }
  return out;
}

/** XML files and the XML docstrings of the contracts under `dirs`. */
function documentsIn(dirs: string[]): string[] {
  return [
    ...dirs.flatMap((d) => files(d, ['.wsdl', '.xsd', '.xml'])).map((f) => readFileSync(f, 'utf8')),
    ...dirs.flatMap((d) => files(d, ['.spec', '.qontract', '.contract'])).flatMap((f) => xmlDocstrings(readFileSync(f, 'utf8'))),
  ];
}

const ownDocuments = () => documentsIn([path.join(ROOT, '__tests__', 'fixtures'), path.join(ROOT, 'contracts')]);
const corpusDocuments = () => documentsIn([WSDL_CORPUS, SPEC_CORPUS]);

type Outcome = { ok: true; tree: XmlElement } | { ok: false; error: string; location?: unknown };

function saxes(text: string, limits?: XmlParseLimits): Outcome {
  try {
    return { ok: true, tree: parseXmlWithSaxes(text, limits) };
  } catch (e) {
    return { ok: false, error: (e as Error).message, location: (e as AccordError).location };
  }
}

/**
 * The property: fast is undefined, or saxes accepts the text and builds the same tree (lines
 * included), or both refuse it at a limit with the same words at the same place.
 */
function agree(text: string, limits: XmlParseLimits = {}): 'fast' | 'saxes' | 'refused' {
  let fast: XmlElement | undefined;
  try {
    fast = fastParseXml(text, { ...DEFAULT_XML_LIMITS, ...limits });
  } catch (e) {
    if (!(e instanceof AccordError)) throw e;
    const reference = saxes(text, limits);
    if (reference.ok) throw new Error(`fast path refused (${e.message}) what saxes accepts:\n${text.slice(0, 2000)}`, { cause: e });
    expect({ error: e.message, location: e.location }).toEqual({ error: reference.error, location: reference.location });
    return 'refused';
  }
  if (fast === undefined) return 'saxes';
  const reference = saxes(text, limits);
  if (!reference.ok) throw new Error(`fast path accepted what saxes rejects (${reference.error}):\n${text.slice(0, 2000)}`);
  expect(fast).toEqual(reference.tree);
  return 'fast';
}

const PALETTE = [
  '<',
  '>',
  '/',
  '&',
  ';',
  '"',
  "'",
  '=',
  '!',
  '?',
  '-',
  ':',
  ' ',
  '\t',
  '\n',
  '\r',
  ']',
  'x',
  '#',
  'é',
  '\u0000',
  '<!--',
  '-->',
  '&amp;',
  '&lt;',
  '&#65;',
  '<?xml version="1.0"?>',
  '<![CDATA[x]]>',
  '<a>',
  '</a>',
  '<b/>',
  'xmlns:p="u"',
];

/** Every document agrees, and most take the fast path (real files often carry \r\n or character references, left to saxes). */
function agreesOnAll(documents: string[], atLeast: number): void {
  expect(documents.length).toBeGreaterThan(atLeast);
  const paths = documents.map((d) => agree(d));
  expect(paths.filter((p) => p === 'fast').length).toBeGreaterThan(documents.length / 2);
}

/** Mutants never make the fast path accept what saxes rejects, nor read differently; both sides are exercised. */
function agreesOnMutants(documents: string[], count: number, seed: number): void {
  const r = seeded(seed);
  const seeds = documents.filter((d) => d.length < 6000);
  let fast = 0;
  let rejected = 0;
  for (let i = 0; i < count; i++) {
    const text = mutant(seeds[Math.floor(r() * seeds.length)], r, PALETTE);
    if (agree(text) === 'fast') fast++;
    else if (!saxes(text).ok) rejected++;
  }
  expect(fast).toBeGreaterThan(count / 10);
  expect(rejected).toBeGreaterThan(count / 10);
}

withCorpus(['wsdl-corpus', 'spec-corpus'], 'the fast XML path agrees with saxes on the corpora', () => {
  const documents = corpusDocuments();
  it(`on every real document (${documents.length})`, () => agreesOnAll(documents, 100));
  it('on 10,000 mutants of them', () => agreesOnMutants(documents, 10_000, 20261122));
});

describe('the fast XML path agrees with saxes', () => {
  const documents = ownDocuments();
  it(`on every document of the repository (${documents.length}), and takes most of them`, () => agreesOnAll(documents, 100));

  it('on 10,000 mutants of them: never accepts what saxes rejects, never reads differently', () => agreesOnMutants(documents, 10_000, 20261125));

  it('on the SOAP request the stub sees most (the reason it exists)', () => {
    const text =
      '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header/><soapenv:Body><pet:getPetRequest xmlns:pet="http://example.com/petstore"><pet:id>10</pet:id></pet:getPetRequest></soapenv:Body></soapenv:Envelope>';
    expect(agree(text)).toBe('fast');
  });

  it.each([
    [
      'declaration, comments, entities, lines',
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- a -->\n<a x="1 &amp; 2" y=\'q"\'>\n  <b>t &lt;x&gt; &quot;&apos;</b>\n  <!-- c --> tail <c/>\n</a>\n<!-- end -->\n',
      'fast',
    ],
    ['text split by a comment is joined', '<a> one <!-- x --> two </a>', 'fast'],
    ['empty comment', '<a><!----></a>', 'fast'],
    ['spaces inside tags', '<a  x = "1"   ><b  /></a >', 'fast'],
    ['CRLF line ends', '<a>\r\n<b/>\r\n</a>', 'saxes'],
    ['a character reference', '<a>&#65;</a>', 'saxes'],
    ['CDATA', '<a><![CDATA[<x>]]></a>', 'saxes'],
    ['a DOCTYPE', '<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>', 'saxes'],
    ['a processing instruction', '<a><?pi x?></a>', 'saxes'],
    ['an unknown entity', '<a>&nbsp;</a>', 'saxes'],
    ['a bare ampersand', '<a>x & y</a>', 'saxes'],
    ['a tab in an attribute (normalised by XML)', '<a x="1\t2"/>', 'saxes'],
    ['a non-ASCII name', '<café/>', 'saxes'],
    ['two colons', '<a:b:c/>', 'saxes'],
    ['mismatched close tag', '<a><b></a></b>', 'saxes'],
    ['close tag with a longer name', '<a></ab>', 'saxes'],
    ['unclosed', '<a><b/>', 'saxes'],
    ['two roots', '<a/><b/>', 'saxes'],
    ['text outside the root', '<a/>x', 'saxes'],
    ['a BOM', '\uFEFF<a/>', 'saxes'],
    ['duplicate attribute', '<a x="1" x="2"/>', 'saxes'],
    ['no space between attributes', '<a x="1"y="2"/>', 'saxes'],
    ['< in an attribute', '<a x="<"/>', 'saxes'],
    [']]> in text', '<a>]]></a>', 'saxes'],
    ['-- in a comment', '<a><!-- a -- b --></a>', 'saxes'],
    ['comment ending in ---', '<a><!-- a ---></a>', 'saxes'],
    ['declaration not first', ' <?xml version="1.0"?><a/>', 'saxes'],
    ['declaration with version 1.1', '<?xml version="1.1"?><a/>', 'saxes'],
    ['empty', '', 'saxes'],
    ['only a comment', '<!-- x -->', 'saxes'],
  ])('%s', (_, text, expected) => {
    expect(agree(text)).toBe(expected);
  });

  it("refuses at every limit itself, in saxes' words and at its place (a hostile body is not parsed twice)", () => {
    expect(agree('<a><b><c><d/></c></b></a>', { maxDepth: 3 })).toBe('refused');
    expect(agree('<a x="1" y="2"/>', { maxAttributes: 1 })).toBe('refused');
    expect(agree('<a><b/><b/><b/></a>', { maxElements: 3 })).toBe('refused');
    expect(agree('<a>\n  <b/>\n  <b x="1"\n   y="2"/>\n<b/></a>', { maxElements: 3 })).toBe('refused');
    expect(agree('<a>\n<b x="1" y="2" z="3"\n   w="4"/></a>', { maxAttributes: 3 })).toBe('refused');
    expect(agree('<a>\n<b x="1" y="2" z="3"\n   w="4"/></a>', { maxAttributes: 2 })).toBe('refused');
    // A tag that is malformed beyond its limit is still saxes' to word.
    expect(agree('<a><b/><b/><b x="1"y="2"/></a>', { maxElements: 3 })).toBe('saxes');
    expect(() => parseXml('<a><b><c><d/></c></b></a>', { maxDepth: 3 })).toThrow('elements nested deeper than 3 levels');
    expect(agree('<a><b><c/></b></a>', { maxDepth: 3 })).toBe('fast');
  });

  it('stays linear on large documents (hostile input must never hang the stub)', () => {
    // No line breaks at all: counting lines once searched to the end of the text for every element (22 s here).
    const flat = `<r>${'<e a="1" b="2">text &amp; more</e>'.repeat(150_000)}</r>`;
    // The largest element the limits allow, repeated: duplicate attributes are looked up, not compared pairwise.
    const wide = `<r>${`<e ${Array.from({ length: 256 }, (_, i) => `a${i}=""`).join(' ')}/>`.repeat(2_000)}</r>`;
    for (const text of [flat, wide]) {
      // CPU time, not the clock: on a loaded machine a linear parse waits for a core; a quadratic one took 22 s.
      expect(cpuMsSync(() => expect(fastParseXml(text, DEFAULT_XML_LIMITS)).toBeDefined())).toBeLessThan(3_000);
    }
  });

  it('on 3,000 mutants under tight limits: refuses in the same words at the same place as saxes', () => {
    const r = seeded(20261124);
    const seeds = ownDocuments().filter((d) => d.length < 6000);
    let refused = 0;
    for (let i = 0; i < 3_000; i++) {
      const text = mutant(seeds[Math.floor(r() * seeds.length)], r, PALETTE);
      const limits = { maxDepth: 1 + Math.floor(r() * 6), maxAttributes: Math.floor(r() * 4), maxElements: 1 + Math.floor(r() * 40) };
      if (agree(text, limits) === 'refused') refused++;
    }
    expect(refused).toBeGreaterThan(300);
  });

  it('parsed in slices (the stub, for large bodies), gives the same tree or the same error, on 600 mutants', async () => {
    const r = seeded(20261125);
    const seeds = ownDocuments().filter((d) => d.length < 6000);
    const outcome = (f: () => XmlElement) => {
      try {
        return { tree: f() };
      } catch (e) {
        return { error: (e as Error).message, location: (e as AccordError).location };
      }
    };
    for (let i = 0; i < 600; i++) {
      const text = i % 4 === 0 ? seeds[Math.floor(r() * seeds.length)] : mutant(seeds[Math.floor(r() * seeds.length)], r, PALETTE);
      const limits = i % 3 === 0 ? { maxElements: 1 + Math.floor(r() * 40), maxDepth: 1 + Math.floor(r() * 6) } : undefined;
      // Slices of a few characters: every boundary falls inside some name, entity, comment or line end.
      const slice = 1 + Math.floor(r() * 200);
      let sliced: ReturnType<typeof outcome>;
      try {
        sliced = { tree: await parseXmlInSlices(text, limits, slice) };
      } catch (e) {
        sliced = { error: (e as Error).message, location: (e as AccordError).location };
      }
      expect(sliced).toEqual(outcome(() => parseXml(text, limits)));
    }
  });
});
