import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseContract } from '../../src/contract/load';
import type { Scenario } from '../../src/contract/model';
import { scenarioChanges } from '../../src/compat/diff';
import { ParsedBody } from '../../src/http/body';
import { matchBody } from '../../src/http/match-body';
import { samePathShape } from '../../src/http/compare-http';
import { generateBody, type GenerateContext } from '../../src/pattern/generate/index';
import { createRandom } from '../../src/pattern/random';
import type { Pattern, Scope } from '../../src/pattern/types';
import { SPEC_CORPUS, specCorpus, withCorpus } from '../helpers/corpus';
import { SPEC_FIXTURES, legacyContracts, specHistories } from '../helpers/spec-fixtures';
import { FIXTURES, fixtureNames } from './fixtures';

/**
 * The check decides on patterns; this test cross-checks it with the matcher.
 * Bodies generated from the side that produces them (older requests, newer
 * responses) must be accepted by the other side whenever the check says the
 * side is compatible; for a break, some generated body shows it.
 */
function samples(p: Pattern | undefined, scope: Scope, seed: number): string[] {
  if (!p) return [];
  const out: string[] = [];
  const variants: Partial<GenerateContext>[] = [
    { optional: true, repeat: [1, 3] },
    { optional: false, repeat: [0, 0] },
    { optional: true, repeat: [0, 2] },
  ];
  for (let i = 0; i < 12; i++) {
    const v = variants[i % variants.length];
    out.push(generateBody(p, { scope, rng: createRandom(seed + i), ...v }).text);
  }
  return out;
}

function rejected(accepting: Pattern | undefined, scope: Scope, bodies: string[]): string[] {
  return bodies.filter((b) => matchBody(accepting, new ParsedBody(b), scope, 'BODY').length > 0);
}

function pairs(group: 'breaks' | 'compatible', name: string): [Scenario, Scenario][] {
  const dir = path.join(FIXTURES, group, name);
  // As the compatibility check reads them: Examples cells are not part of the promise.
  const older = parseContract(readFileSync(path.join(dir, 'base.spec'), 'utf8'), 'base.spec', { checkExamples: false });
  const newer = parseContract(readFileSync(path.join(dir, 'revision.spec'), 'utf8'), 'revision.spec', { checkExamples: false });
  return older.scenarios.flatMap((o) => newer.scenarios.filter((n) => n.name === o.name && n.response.status === o.response.status).map((n) => [o, n] as [Scenario, Scenario]));
}

/** Breaks a generated body cannot show: the generator never writes xsi:nil, keys beyond the listed ones, or a node under another name than its own. */
const NO_WITNESS = new Set([
  'request-node-made-non-nillable',
  'response-node-made-nillable',
  'request-object-closed',
  'response-object-opened',
  'request-node-any-name-removed',
  'response-node-any-name-added',
]);

describe('the verdict agrees with the matcher on generated bodies', () => {
  for (const group of ['compatible', 'breaks'] as const) {
    for (const name of fixtureNames(group)) {
      test(`${group}/${name}`, () => {
        for (const [o, n] of pairs(group, name)) {
          const changes = scenarioChanges(o, n).filter((c) => c.path.includes('.BODY'));
          const requestOk = !changes.some((c) => c.side === 'request');
          const responseOk = !changes.some((c) => c.side === 'response');
          const requests = rejected(n.request.body, n.scope, samples(o.request.body, o.scope, 1));
          const responses = rejected(o.response.body, o.scope, samples(n.response.body, n.scope, 100));
          if (requestOk) expect(requests).toEqual([]);
          if (responseOk) expect(responses).toEqual([]);
          if (group === 'breaks' && !NO_WITNESS.has(name)) {
            if (!requestOk) expect(requests.length).toBeGreaterThan(0);
            if (!responseOk) expect(responses.length).toBeGreaterThan(0);
          }
        }
      });
    }
  }
});

/** Bodies either side generates are accepted by the other, wherever the check says that side is compatible. */
function historyAgrees(olderFile: string, newerFile: string): void {
  const older = parseContract(readFileSync(olderFile, 'utf8'), olderFile);
  const newer = parseContract(readFileSync(newerFile, 'utf8'), newerFile);
  let pairs = 0;
  for (const o of older.scenarios.filter((s) => !s.wip && !s.unsupported)) {
    for (const n of newer.scenarios.filter(
      (s) => !s.unsupported && s.request.method === o.request.method && samePathShape(s.request.segments, o.request.segments) && s.response.status === o.response.status,
    )) {
      pairs++;
      const changes = scenarioChanges(o, n).filter((c) => c.path.includes('.BODY'));
      if (!changes.some((c) => c.side === 'request')) expect(rejected(n.request.body, n.scope, samples(o.request.body, o.scope, 7))).toEqual([]);
      if (!changes.some((c) => c.side === 'response')) expect(rejected(o.response.body, o.scope, samples(n.response.body, n.scope, 70))).toEqual([]);
    }
  }
  expect(pairs).toBeGreaterThan(0);
}

const rel = (dir: string) => (f: string) => path.relative(dir, f);

describe("the same on the repository's contract histories (name~version.spec against name.spec)", () => {
  const histories = specHistories(legacyContracts());
  test('there are histories', () => expect(histories.length).toBeGreaterThan(0));
  test.each(histories.map((h) => h.map(rel(SPEC_FIXTURES))))('%s → %s', (olderFile, newerFile) =>
    historyAgrees(path.join(SPEC_FIXTURES, olderFile), path.join(SPEC_FIXTURES, newerFile)),
  );
});

withCorpus('spec-corpus', 'the same on real contract histories (older versions in the shared corpus against the current one)', () => {
  const histories = specHistories(specCorpus().map((r) => path.join(SPEC_CORPUS, r.file))).filter(([older]) => /~[0-9a-f]{7}\./.test(older));
  test('there are histories', () => expect(histories.length).toBeGreaterThan(5));
  test.each(histories.map((h) => h.map(rel(SPEC_CORPUS))))('%s → %s', (olderFile, newerFile) =>
    historyAgrees(path.join(SPEC_CORPUS, olderFile), path.join(SPEC_CORPUS, newerFile)),
  );
});
