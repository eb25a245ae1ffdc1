import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkCompatibility } from '../../src/compat';
import { parseContract, testCases } from '../../src/contract/load';
import { AccordError } from '../../src/errors';
import { buildRequest } from '../../src/http/build-request';
import { buildRoutes } from '../../src/stub/decide/build-routes';
import { requestRandom, respond } from '../../src/stub/answer/respond';
import { SPEC_CORPUS, withCorpus } from '../helpers/corpus';
import { mutant, seeded } from '../helpers/mutate';
import { legacyContracts } from '../helpers/spec-fixtures';

/**
 * Every input is hostile, contracts too: damaged copies of every real contract
 * (contracts/, the repository's legacy contracts, and the Specmatic corpus
 * when ../shared is there) either parse and then build requests,
 * stub routes, answers and a compatibility check without an internal error, or
 * are refused with an AccordError (a file:line message). Anything else would
 * reach a user as "internal error".
 */
const ROOT = path.join(__dirname, '..', '..');
const MUTANTS = 1500;
const PALETTE = [
  '(',
  ')',
  '*',
  '?',
  '<',
  '>',
  '/',
  '"',
  '{',
  '}',
  '[',
  ']',
  ':',
  '|',
  '\n',
  ' ',
  '(number)',
  '(string*)',
  '(Foo)',
  '"""',
  'Scenario: x\n',
  'Examples:\n | a |\n | 1 |\n',
  'specmatic_occurs="multiple"',
  'specmatic_type="X"',
  '...',
  '(Id?)',
  '(id:number)',
  '@WIP\n',
  'And type T (T)\n',
  'And type U <u>(U*)</u>\n',
];

function specs(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? specs(p) : /\.(spec|qontract|contract)$/.test(p) ? [p] : [];
  });
}

const read = (dirs: string[], files: string[] = []) => [...dirs.flatMap(specs), ...files].map((f) => readFileSync(f, 'utf8'));

/** Runs `f`; an AccordError is a clean refusal (undefined), anything else is rethrown with the stage. */
function clean<T>(stage: string, text: string, f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof AccordError) return undefined;
    throw new Error(`${stage} failed with ${(e as Error)?.stack ?? e}\n--- mutant ---\n${text}`, { cause: e });
  }
}

function damaged(documents: string[], seed: number): void {
  const r = seeded(seed);
  let parsed = 0;
  let refused = 0;
  for (let i = 0; i < MUTANTS; i++) {
    const text = mutant(documents[Math.floor(r() * documents.length)], r, PALETTE);
    const contract = clean('parse', text, () => parseContract(text, 'mutant.spec'));
    if (!contract) {
      refused++;
      continue;
    }
    parsed++;
    for (const tc of testCases(contract).slice(0, 5)) clean('request', text, () => buildRequest(tc, 1));
    const table = clean('routes', text, () => buildRoutes([contract]));
    for (const route of table?.routes.slice(0, 5) ?? []) clean('respond', text, () => respond(route, undefined, requestRandom(route, 'POST /ws')));
    clean('compatibility', text, () => checkCompatibility(contract, contract));
  }
  // Both outcomes happen often, so the property is tested on each side.
  expect(parsed).toBeGreaterThan(200);
  expect(refused).toBeGreaterThan(200);
}

const TITLE = `${MUTANTS} damaged contracts are read, run and compared, or refused with a message`;
test(`${TITLE} (contracts/ and the repository's legacy contracts)`, () => damaged(read([path.join(ROOT, 'contracts')], legacyContracts()), 20261123));

withCorpus('spec-corpus', 'damaged copies of the shared spec corpus', () => {
  test(TITLE, () => damaged(read([SPEC_CORPUS]), 20261124));
});
