import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import { AccordError } from '../../src/errors';
import { importWsdl } from '../../src/wsdl';
import { withCorpus, wsdlCorpus } from '../helpers/corpus';
import { wsdlFixtures } from './fixtures';
import { depth } from '../helpers/depth';

/**
 * Every input is hostile: each WSDL (the repository's, and the corpus's when
 * ../shared is there), damaged at random (attributes
 * dropped or given odd values, elements renamed), either imports into a
 * contract that parses, or fails with an AccordError. Anything else is a bug.
 */
// A third in `npm test` (helpers/depth.ts); CI makes all 12 per WSDL.
const MUTANTS_PER_WSDL = depth(12, 4);
const ODD = ['', '0', 'unbounded', '::', 'a b', 'tns:nowhere', '../../../../etc/passwd', 'http://127.0.0.1:9/x.xsd', '\u00e9l\u00e9ment'];

function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}

function mutate(text: string, rnd: (n: number) => number): string {
  let t = text;
  for (let k = 0; k < 3; k++) {
    const attrs = [...t.matchAll(/\s[\w:]+="[^"]*"/g)];
    const kind = rnd(3);
    if (kind === 0 && attrs.length) t = t.replace(attrs[rnd(attrs.length)][0], '');
    else if (kind === 1 && attrs.length) {
      const a = attrs[rnd(attrs.length)][0];
      t = t.replace(a, a.replace(/="[^"]*"/, `="${ODD[rnd(ODD.length)]}"`));
    } else {
      const els = [...t.matchAll(/<(\w+):(element|complexType|sequence|part|message|binding|operation|import|include|portType|service)\b/g)];
      if (els.length) {
        const e = els[rnd(els.length)];
        t = t.slice(0, e.index) + t.slice(e.index!).replace(/^<(\w+):(\w+)/, `<$1:${['choice', 'any', 'group', 'all'][rnd(4)]}`);
      }
    }
  }
  return t;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-mutants-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function damaged(name: string, file: string, seed: number): void {
  const copy = path.join(dir, name.replace(/\W/g, '_'));
  cpSync(path.dirname(file), copy, { recursive: true });
  const main = path.join(copy, path.basename(file));
  const original = readFileSync(main, 'utf8');
  const rnd = random(seed);
  for (let m = 0; m < MUTANTS_PER_WSDL; m++) {
    writeFileSync(main, mutate(original, rnd));
    let text: string;
    try {
      text = importWsdl(main).text;
    } catch (e) {
      expect(e).toBeInstanceOf(AccordError);
      expect((e as AccordError).describe()).toMatch(/\S/);
      continue;
    }
    expect(() => parseContract(text, `${name}-mutant-${m}.spec`)).not.toThrow();
  }
}

const TITLE = '%s: damaged copies import or fail cleanly';
test.each(wsdlFixtures().map((f, i) => [f.name, f.file, 2000 + i] as const))(TITLE, damaged);

withCorpus('wsdl-corpus', 'damaged copies of the corpus WSDLs', () => {
  test.each(wsdlCorpus().map((e, i) => [e.folder, e.file, 1000 + i] as const))(TITLE, damaged);
});
