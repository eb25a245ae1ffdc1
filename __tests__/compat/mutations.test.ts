import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkCompatibility, formatText } from '../../src/compat';
import { parseContract } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { AccordError } from '../../src/errors';
import { SPEC_CORPUS, withCorpus } from '../helpers/corpus';
import { seeded } from '../helpers/mutate';
import { legacyContracts } from '../helpers/spec-fixtures';

/**
 * Every version pair is hostile input too: real contracts (the repository's,
 * and the shared spec corpus when ../shared is there), their placeholders
 * swapped for others (types, optionality, repetition, open objects, new
 * nodes), compared with the original both ways. Every contract that reads must
 * compare and report without an error. This found types in query parameters
 * and specmatic_type that were checked only when a test got there.
 */
const ROOT = path.join(__dirname, '..', '..');
const PAIRS = 1500;
const SWAPS = [
  '(number)',
  '(string)',
  '(boolean)',
  '(Id*)',
  '(Id?)',
  '?',
  '*',
  'specmatic_occurs="optional"',
  'specmatic_occurs="multiple"',
  'specmatic_nillable="true"',
  '"...": "",',
  '(date)',
  '(null)',
  '(anything)',
  '"k?": "(number)",',
  '<x>(number)</x>',
  '',
];
const PLACEHOLDER = /\((number|string|boolean|date|datetime|uuid|null|anything|[A-Z]\w*\*?\??)\)/g;

function specs(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? specs(p) : /\.(spec|qontract|contract)$/.test(p) ? [p] : [];
  });
}

const texts = (dirs: string[], files: string[] = []) => [...dirs.flatMap(specs), ...files].map((f) => readFileSync(f, 'utf8'));

function read(text: string, file: string): Contract | undefined {
  try {
    return parseContract(text, file, { checkExamples: false });
  } catch (e) {
    if (e instanceof AccordError) return undefined;
    throw e;
  }
}

function changed(documents: string[], seed: number): void {
  const r = seeded(seed);
  let compared = 0;
  for (let i = 0; i < PAIRS; i++) {
    const base = documents[Math.floor(r() * documents.length)];
    const older = read(base, 'older.spec');
    if (!older) continue;
    let text = base;
    for (let k = 1 + Math.floor(r() * 3); k > 0; k--) {
      const found = [...text.matchAll(PLACEHOLDER)];
      const swap = SWAPS[Math.floor(r() * SWAPS.length)];
      if (found.length > 0 && r() < 0.7) {
        const m = found[Math.floor(r() * found.length)];
        text = text.slice(0, m.index) + swap + text.slice(m.index! + m[0].length);
      } else {
        const at = Math.floor(r() * text.length);
        text = text.slice(0, at) + swap + text.slice(at);
      }
    }
    const newer = read(text, 'newer.spec');
    if (!newer) continue;
    for (const [a, b] of [
      [older, newer],
      [newer, older],
    ]) {
      try {
        const verdict = checkCompatibility(a, b);
        formatText([{ file: 'api_v1.spec', status: 'compared', older: 'older', newer: 'newer', inFolder: false, verdict }]);
        compared++;
      } catch (e) {
        throw new Error(`${(e as Error)?.stack ?? e}\n--- changed version ---\n${text}`, { cause: e });
      }
    }
  }
  expect(compared).toBeGreaterThan(1000);
}

const TITLE = `${PAIRS} changed versions of real contracts compare both ways without an error`;
test(`${TITLE} (contracts/ and the repository's fixtures)`, () =>
  changed(texts([path.join(ROOT, 'contracts'), path.join(ROOT, '__tests__', 'fixtures', 'compat')], legacyContracts()), 20261126));

withCorpus('spec-corpus', 'changed versions of the shared spec corpus', () => {
  test(TITLE, () => changed(texts([SPEC_CORPUS]), 20261127));
});
