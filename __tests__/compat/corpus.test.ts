import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkCompatibility } from '../../src/compat';
import { parseContract } from '../../src/contract/load';
import { importWsdl } from '../../src/wsdl/import';
import { SPEC_CORPUS, specCorpus, withCorpus, wsdlCorpus } from '../helpers/corpus';
import { legacyContracts } from '../helpers/spec-fixtures';
import { wsdlFixtures } from '../wsdl/fixtures';

/** A valid contract is backward compatible with itself. */
function selfCompatible(abs: string): void {
  const text = readFileSync(abs, 'utf8');
  // Two separate parses: nothing may depend on the two sides sharing objects.
  const verdict = checkCompatibility(parseContract(text, abs), parseContract(text, abs));
  expect(verdict.results.filter((r) => !r.compatible).flatMap((r) => r.findings.map((f) => f.message))).toEqual([]);
  expect(verdict.compatible).toBe(true);
  expect(verdict.testsRun + verdict.skipped.length).toBe(parseContract(text, abs).scenarios.length);
}

const LEAF = /^\s*<([\w:.-]+)>\((number|string|boolean|date|datetime|time|uuid|email|url|anything)\)<\/\1>\s*$/;

/**
 * A contract imported from a WSDL (deep XSD structures, optional and repeated
 * nodes, specmatic_type, SOAPAction enums) is compatible with itself, and
 * removing any required node is found (as request-node-removed or
 * response-node-removed, depending on where the type is used).
 */
function importedSelfCompatible(wsdl: string, ownFixture = false): void {
  let text: string;
  try {
    text = importWsdl(wsdl).text;
  } catch (e) {
    if (ownFixture) throw e;
    return; // what the importer refuses of a corpus WSDL is the importer's tests' business
  }
  const older = parseContract(text, 'older.spec');
  const verdict = checkCompatibility(older, parseContract(text, 'newer.spec'));
  expect(verdict.results.flatMap((r) => r.findings.map((f) => f.message))).toEqual([]);

  // Mutants: one required leaf node (a scalar placeholder, no specmatic_occurs) removed at a time.
  // What a <specmatic_any> holds is a declaration it knows, not a node anything requires: not a leaf.
  const lines = text.split('\n');
  let inWildcard = false;
  const leaves = lines
    .map((l, i) => {
      if (/^\s*<specmatic_any(\s[^>]*[^/])?>\s*$/.test(l)) inWildcard = true;
      else if (/^\s*<\/specmatic_any>\s*$/.test(l)) inWildcard = false;
      return !inWildcard && LEAF.test(l) ? i : -1;
    })
    .filter((i) => i >= 0)
    .slice(0, 8);
  // The repository's WSDLs are written to have leaves to remove, so the check cannot pass vacuously.
  if (ownFixture) expect(leaves.length).toBeGreaterThan(0);
  const missed: string[] = [];
  for (const i of leaves) {
    let mutant;
    try {
      mutant = parseContract(lines.filter((_, j) => j !== i).join('\n'), 'newer.spec');
    } catch {
      continue; // the node was alone in its type: the mutant is not a contract
    }
    const rules = new Set(checkCompatibility(older, mutant).results.flatMap((r) => r.findings.map((f) => f.rule)));
    if (!rules.has('request-node-removed') && !rules.has('response-node-removed')) missed.push(`line ${i + 1}: ${lines[i].trim()}`);
  }
  expect(missed).toEqual([]);
}

describe('each valid legacy contract of the repository is compatible with itself', () => {
  test.each(legacyContracts().map((f) => [path.basename(f), f]))('%s', (_name, file) => selfCompatible(file));
});

describe('each contract imported from a repository WSDL is compatible with itself, and a removed required node is found', () => {
  test.each(wsdlFixtures().map((f) => [f.name, f.file]))('%s', (_name, file) => importedSelfCompatible(file, true));
});

withCorpus('spec-corpus', 'each valid corpus contract is compatible with itself', () => {
  const files = specCorpus()
    .filter((r) => r.intent === 'valid')
    .map((r) => r.file);
  test('the corpus is there', () => expect(files.length).toBeGreaterThan(80));
  test.each(files)('%s', (file) => selfCompatible(path.join(SPEC_CORPUS, file)));
});

withCorpus('wsdl-corpus', 'each contract imported from the WSDL corpus is compatible with itself', () => {
  test.each(wsdlCorpus().map((e) => [e.folder, e.file]))('%s', (_folder, file) => importedSelfCompatible(file));
});
