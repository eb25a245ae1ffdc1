import { patternFromText } from '../../src/pattern/body';
import { encompasses } from '../../src/pattern/compare/index';
import { matchJson, matchText } from '../../src/pattern/match/index';
import { compareBodies, comparePath, samePathShape } from '../../src/http/compare-http';
import { parseRequestPath } from '../../src/contract/path';
import type { Pattern, Scope } from '../../src/pattern/types';

const scope = (types: Record<string, string> = {}): Scope => ({ types: new Map(Object.entries(types).map(([k, v]) => [k, patternFromText(v)])) });
const p = (text: string): Pattern => patternFromText(text);
const kinds = (ds: { kind: string; path: string }[]) => ds.map((d) => `${d.kind} ${d.path}`);

/** A ⊇ B for bodies, each with its own scope. */
function body(a: string, b: string, aTypes: Record<string, string> = {}, bTypes: Record<string, string> = aTypes) {
  return compareBodies(p(a), scope(aTypes), p(b), scope(bTypes), 'BODY');
}

describe('scalars and literals', () => {
  test('text: string accepts number, not the reverse', () => {
    expect(encompasses(p('(string)'), scope(), p('(number)'), scope(), 'text')).toEqual([]);
    const d = encompasses(p('(number)'), scope(), p('(string)'), scope(), 'text');
    expect(d).toMatchObject([{ kind: 'type', a: '(number)', b: '(string)', narrower: true }]);
  });
  test('JSON: a string does not hold a number, but holds a date', () => {
    expect(kinds(encompasses(p('(string)'), scope(), p('(number)'), scope(), 'json'))).toEqual(['type ']);
    expect(encompasses(p('(string)'), scope(), p('(date)'), scope(), 'json')).toEqual([]);
  });
  test('literals and enums are checked value by value', () => {
    expect(encompasses(p('(number)'), scope(), p('42'), scope(), 'text')).toEqual([]);
    const sc = {
      types: new Map<string, Pattern>([
        ['S', { kind: 'enum', name: 'S', base: 'string', values: ['a', 'b'] }],
        ['T', { kind: 'enum', name: 'T', base: 'string', values: ['a', 'b', 'c'] }],
      ]),
    };
    expect(encompasses(p('(T)'), sc, p('(S)'), sc, 'text')).toEqual([]);
    expect(encompasses(p('(S)'), sc, p('(T)'), sc, 'text')).toMatchObject([{ kind: 'type', narrower: true }]);
  });
  test('optional: A optional accepts B required, not the reverse', () => {
    expect(encompasses(p('(number?)'), scope(), p('(number)'), scope(), 'json')).toEqual([]);
    expect(kinds(encompasses(p('(number)'), scope(), p('(number?)'), scope(), 'json'))).toEqual(['optional ']);
  });
});

describe('JSON', () => {
  test('keys: added, removed, made optional, open objects', () => {
    expect(kinds(body('{"a": "(number)"}', '{"a": "(number)", "b": "(string)"}'))).toEqual(['unexpected BODY b']);
    expect(kinds(body('{"a": "(number)", "b": "(string)"}', '{"a": "(number)"}'))).toEqual(['missing BODY b']);
    expect(body('{"a": "(number)", "b?": "(string)"}', '{"a": "(number)"}')).toEqual([]);
    expect(kinds(body('{"a": "(number)"}', '{"a?": "(number)"}'))).toEqual(['optional BODY a']);
    expect(kinds(body('{"a": "(number)"}', '{"a": "(number)", "...": ""}'))).toEqual(['open BODY']);
    expect(body('{"a": "(number)", "...": ""}', '{"a": "(number)", "z": "(string)"}')).toEqual([]);
  });
  test('lists and nested paths', () => {
    expect(kinds(body('{"pets": "(Pet*)"}', '{"pets": "(Pet*)"}', { Pet: '{"id": "(number)"}' }, { Pet: '{"id": "(string)"}' }))).toEqual(['type BODY pets[*].id']);
    expect(body('["(number*)"]', '[1, 2, "(number)"]')).toEqual([]);
  });
  test('dictionaries', () => {
    expect(body('{"m": "(dictionary string number)"}', '{"m": {"x": "(number)"}}')).toEqual([]);
    expect(kinds(body('{"m": "(dictionary string number)"}', '{"m": "(dictionary string string)"}'))).toEqual(['type BODY m.*']);
  });
  test('a bare number body against a JSON object', () => {
    expect(body('(number)', '{"result": "(number)"}')).toMatchObject([{ kind: 'type', path: 'BODY', a: '(number)', b: 'a JSON object' }]);
  });
});

describe('XML', () => {
  const env = (inner: string) => `<e:Envelope xmlns:e="urn:e"><e:Body>${inner}</e:Body></e:Envelope>`;
  test('prefixes and namespaces do not matter', () => {
    expect(body(env('<p:get xmlns:p="urn:a"><p:id>(number)</p:id></p:get>'), '<s:Envelope xmlns:s="urn:x"><s:Body><get><id>(number)</id></get></s:Body></s:Envelope>')).toEqual([]);
  });
  test('(Type*) repetition: A* then A is the same language as A then A*', () => {
    const t = { Id: '<id>(number)</id>' };
    expect(body('<r>(Id*)<id>(number)</id></r>', '<r><id>(number)</id>(Id*)</r>', t)).toEqual([]);
    expect(body('<r>(Id*)</r>', '<r><id>(number)</id>(Id*)</r>', t)).toEqual([]);
    expect(kinds(body('<r><id>(number)</id>(Id*)</r>', '<r>(Id*)</r>', t))).toEqual(['optional BODY r/id']);
  });
  test('attributes: added, removed, optional', () => {
    expect(kinds(body('<r a="(number)"/>', '<r a="(number)" b="(string)"/>'))).toEqual(['unexpected BODY r/@b']);
    expect(kinds(body('<r a="(number)"/>', '<r/>'))).toEqual(['missing BODY r/@a']);
    expect(kinds(body('<r a="(number)"/>', '<r a.opt="(number)"/>'))).toEqual(['optional BODY r/@a']);
    expect(body('<r a.opt="(number)"/>', '<r/>')).toEqual([]);
  });
  test('text against child nodes', () => {
    expect(body('<r><id>(number)</id></r>', '<r><id><v>(number)</v></id></r>')).toMatchObject([{ kind: 'type', path: 'BODY r/id', a: '(number)', b: 'child nodes (v)' }]);
  });
  test('specmatic_type names a type whose children are taken', () => {
    const older = { T: '<SPECMATIC_TYPE><id>(number)</id></SPECMATIC_TYPE>' };
    const newer = { T: '<SPECMATIC_TYPE><id>(number)</id><name>(string)</name></SPECMATIC_TYPE>' };
    expect(kinds(body('<r><x specmatic_type="T"/></r>', '<r><x specmatic_type="T"/></r>', older, newer))).toEqual(['unexpected BODY r/x/name']);
  });
  test('recursive types terminate and still find a change deep down', () => {
    const older = { Node: '<node><v>(number)</v>(Node*)</node>' };
    const newer = { Node: '<node><v>(string)</v>(Node*)</node>' };
    expect(body('<tree>(Node)</tree>', '<tree>(Node)</tree>', older, older)).toEqual([]);
    expect(kinds(body('<tree>(Node)</tree>', '<tree>(Node)</tree>', older, newer))).toEqual(['type BODY tree/node/v']);
  });
  test('recursive JSON types end however the recursion is wrapped (an optional on one side unwrapped first overflowed the stack)', () => {
    for (const wrapped of ['"next?": "(Node)"', '"next": "(Node?)"', '"kids": "(Node*)"', '"next": "(Node?)", "m": {"(string)": "(Node)"}']) {
      const older = { Node: `{"v": "(number)", ${wrapped}}` };
      const newer = { Node: `{"v": "(string)", ${wrapped}}` };
      expect(body('(Node)', '(Node)', older, older)).toEqual([]);
      expect(kinds(body('(Node)', '(Node)', older, newer))).toEqual(['type BODY v']);
    }
  });
  test('a long sequence of optional siblings stays linear', () => {
    const many = Array.from({ length: 60 }, (_, i) => `<f${i} specmatic_occurs="optional">(string)</f${i}>`).join('');
    const t0 = Date.now();
    expect(body(`<r>${many}</r>`, `<r>${many}</r>`)).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});

describe('paths', () => {
  const segs = (s: string) => parseRequestPath(s).segments;
  test('same shape: literal segments equal, parameters face anything', () => {
    expect(samePathShape(segs('/pets/(id:number)'), segs('/pets/(petid:string)'))).toBe(true);
    expect(samePathShape(segs('/pets/(id:number)'), segs('/owners/(id:number)'))).toBe(false);
    expect(samePathShape(segs('/pets/(id:number)'), segs('/pets/(id:number)/toys'))).toBe(false);
  });
  test('a parameter narrowed from string to number, or to one literal', () => {
    expect(kinds(comparePath(segs('/pets/(id:number)'), scope(), segs('/pets/(id:string)'), scope(), 'PATH'))).toEqual(['type PATH id']);
    expect(comparePath(segs('/pets/(id:string)'), scope(), segs('/pets/(id:number)'), scope(), 'PATH')).toEqual([]);
    expect(comparePath(segs('/pets/(id:number)'), scope(), segs('/pets/10'), scope(), 'PATH')).toEqual([]);
    expect(kinds(comparePath(segs('/pets/10'), scope(), segs('/pets/(id:number)'), scope(), 'PATH'))).toEqual(['type PATH id']);
  });
});

describe('whole bodies', () => {
  test('an optional XML body', () => {
    const t = { E: '<e><id>(number)</id></e>' };
    expect(body('(E?)', '(E)', t)).toEqual([]);
    expect(kinds(body('(E)', '(E?)', t))).toEqual(['optional BODY']);
  });
  test('no body declared accepts any body; a body declared where there was none is a type change', () => {
    expect(compareBodies(undefined, scope(), p('(number)'), scope(), 'BODY')).toEqual([]);
    expect(compareBodies(p('(number)'), scope(), undefined, scope(), 'BODY')).toMatchObject([{ kind: 'type', b: 'any body (none declared)' }]);
  });
  test('a (string) text body accepts any body', () => {
    expect(body('(string)', '{"a": "(number)"}')).toEqual([]);
    expect(body('(string)', '<a>(number)</a>')).toEqual([]);
  });
  test('different root elements', () => {
    expect(body('<a>(number)</a>', '<b>(number)</b>')).toMatchObject([{ kind: 'type', a: 'an XML document <a>', b: 'an XML document <b>' }]);
  });
});

describe('child sequences: the verdict equals language inclusion (brute force over short words)', () => {
  // Specmatic's words and exact bounds (specmatic_occurs="2..*"), each with the regex quantifier it means.
  const OCCURS: [string, string][] = [
    ['', ''],
    ['optional', '?'],
    ['multiple', '*'],
    ['1..*', '+'],
    ['1..2', '{1,2}'],
    ['2..*', '{2,}'],
    ['0..2', '{0,2}'],
    ['2', '{2}'],
  ];
  type Slot = { name: string; occurs: [string, string] };
  const NAMES = ['a', 'b', 'c'];
  let seed = 12345;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const randomSeq = (): Slot[] => Array.from({ length: 1 + rnd(4) }, () => ({ name: NAMES[rnd(3)], occurs: OCCURS[rnd(seed % 2 ? 3 : OCCURS.length)] }));
  const xml = (seq: Slot[]) => `<r>${seq.map((s) => `<${s.name}${s.occurs[0] === '' ? '' : ` specmatic_occurs="${s.occurs[0]}"`}>(string)</${s.name}>`).join('')}</r>`;
  const regex = (seq: Slot[]) => new RegExp(`^${seq.map((s) => `(?:${s.name})${s.occurs[1]}`).join('')}$`);
  const words: string[] = [''];
  for (let len = 1; len <= 6; len++) for (const w of words.filter((x) => x.length === len - 1)) for (const n of NAMES) words.push(w + n);

  test('1500 random pairs, unique names and repeated names alike, with exact bounds', () => {
    const wrong: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const a = randomSeq();
      const b = randomSeq();
      const ra = regex(a);
      const rb = regex(b);
      const included = words.every((w) => !rb.test(w) || ra.test(w));
      const verdict = body(xml(a), xml(b)).length === 0;
      if (verdict !== included) wrong.push(`A=${ra.source} B=${rb.source}: check says ${verdict}, words say ${included}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('JSON null and optional keys, as the matcher reads them', () => {
  test('an optional key also holds null', () => {
    expect(body('{"a?": "(number)"}', '{"a": "(number?)"}')).toEqual([]);
    expect(body('{"a?": "(number)"}', '{"a?": "(number)"}')).toEqual([]);
    expect(kinds(body('{"a": "(number)"}', '{"a?": "(number)"}'))).toEqual(['optional BODY a']);
    expect(kinds(body('{"a": "(number)"}', '{"a": "(number?)"}'))).toEqual(['optional BODY a']);
  });
});

describe('JSON: the verdict equals inclusion over a universe of values (brute force)', () => {
  let seed = 777;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const LEAVES = ['"(number)"', '"(string)"', '"(number?)"', '"(boolean)"', '"(date)"', '1', '"x"', 'null', '"(null)"'];
  const randomValue = (depth: number): string => (depth < 1 && rnd(4) === 0 ? randomObject(depth + 1) : LEAVES[rnd(LEAVES.length)]);
  const randomObject = (depth: number): string => {
    const parts: string[] = [];
    for (const k of ['a', 'b']) {
      const r = rnd(3);
      if (r === 0) continue;
      parts.push(`"${k}${r === 2 ? '?' : ''}": ${randomValue(depth)}`);
    }
    if (rnd(5) === 0) parts.push('"...": ""');
    return `{${parts.join(', ')}}`;
  };
  const SCALARS: unknown[] = [1, 2, 'x', '2020-01-01', true, null];
  const objects = (values: unknown[]): Record<string, unknown>[] => {
    const out: Record<string, unknown>[] = [];
    for (const a of [undefined, ...values])
      for (const b of [undefined, ...values])
        for (const c of [undefined, 1]) {
          const o: Record<string, unknown> = {};
          if (a !== undefined) o.a = a;
          if (b !== undefined) o.b = b;
          if (c !== undefined) o.c = c;
          out.push(o);
        }
    return out;
  };
  const VALUES: unknown[] = [...SCALARS, ...objects(SCALARS)];
  const universe: unknown[] = [...VALUES, ...objects(VALUES)];

  test('150 random pairs of JSON object patterns', () => {
    const wrong: string[] = [];
    for (let i = 0; i < 150; i++) {
      const a = randomObject(0);
      const b = randomObject(0);
      const pa = p(a);
      const pb = p(b);
      const accepts = (pt: Pattern, v: unknown) => matchJson(pt, v, scope()).length === 0;
      const witness = universe.find((v) => accepts(pb, v) && !accepts(pa, v));
      const verdict = encompasses(pa, scope(), pb, scope(), 'json').length === 0;
      if (verdict && witness !== undefined) wrong.push(`A=${a} B=${b}: said compatible, but ${JSON.stringify(witness)}`);
      if (!verdict && witness === undefined)
        wrong.push(
          `A=${a} B=${b}: said not compatible (${encompasses(pa, scope(), pb, scope(), 'json')
            .map((d) => `${d.kind} ${d.path}`)
            .join('; ')}), no witness`,
        );
    }
    expect(wrong).toEqual([]);
  });
});

describe('text (XML text, headers, path segments): the verdict equals inclusion over a universe of texts', () => {
  const PATTERNS = [
    '(number)',
    '(string)',
    '(boolean)',
    '(date)',
    '(datetime)',
    '(uuid)',
    '(email)',
    '(null)',
    '(empty)',
    '(anything)',
    '(number in string)',
    '(number?)',
    '(string?)',
    '(date?)',
    '1',
    'x',
    'true',
    '(S)',
    '(T)',
    '(S?)',
  ];
  const types = {
    types: new Map<string, Pattern>([
      ['S', { kind: 'enum', name: 'S', base: 'string', values: ['x', 'y'] }],
      ['T', { kind: 'enum', name: 'T', base: 'number', values: ['1', '2'] }],
    ]),
  };
  const TEXTS = ['', '1', '2', '1.5', 'x', 'y', 'true', 'false', 'null', '2020-01-01', '2020-01-01T10:00:00Z', 'a@b.cd', '123e4567-e89b-12d3-a456-426614174000', ' '];
  test('every pair of text patterns', () => {
    const wrong: string[] = [];
    for (const a of PATTERNS) {
      for (const b of PATTERNS) {
        const pa = p(a);
        const pb = p(b);
        const witness = TEXTS.find((t) => matchText(pb, t, types).length === 0 && matchText(pa, t, types).length > 0);
        const verdict = encompasses(pa, types, pb, types, 'text').length === 0;
        if (verdict && witness !== undefined) wrong.push(`A=${a} B=${b}: said compatible, but "${witness}"`);
        if (!verdict && witness === undefined) wrong.push(`A=${a} B=${b}: said not compatible, no witness`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('choices compared exactly: one option per occurrence (A accepts every sequence B allows)', () => {
  const C = (options: string) => `<r><specmatic_choice>${options}</specmatic_choice></r>`;
  test('regrouped options, a sequence made a choice and back, bounded repeats', () => {
    const ab_c = C('<specmatic_option><a>(number)</a><b>(number)</b></specmatic_option><c>(number)</c>');
    const a_bc = C('<a>(number)</a><specmatic_option><b>(number)</b><c>(number)</c></specmatic_option>');
    expect(kinds(body(a_bc, ab_c))).toEqual(['unexpected BODY r/c']);
    expect(body(ab_c, ab_c)).toEqual([]);
    expect(kinds(body(C('<a>(number)</a><b>(number)</b>'), '<r><a>(number)</a><b>(number)</b></r>'))).toEqual(['unexpected BODY r/b']);
    expect(kinds(body('<r><a>(number)</a><b>(number)</b></r>', C('<a>(number)</a><b>(number)</b>')))).toEqual(['optional BODY r/a', 'optional BODY r/b']);
    const twice = (n: string) => `<r><specmatic_choice specmatic_occurs="${n}"><a>(number)</a><b>(number)</b></specmatic_choice></r>`;
    expect(body(twice('1..3'), twice('2'))).toEqual([]);
    // Nothing at all is the shortest sequence the optional pair allows and the choice refuses.
    expect(kinds(body(C('<a>(number)</a><b>(number)</b>'), '<r><a specmatic_occurs="optional">(number)</a><b specmatic_occurs="optional">(number)</b></r>'))).toEqual([
      'optional BODY r/a',
    ]);
  });
});
