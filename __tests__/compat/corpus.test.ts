import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkCompatibility } from '../../src/compat';
import { parseContract } from '../../src/contract/load';
import { importWsdl } from '../../src/wsdl/import';

/** Every `valid` contract of the shared corpus (read in place) is backward compatible with itself. */
const CORPUS = path.resolve(__dirname, '..', '..', '..', 'shared', 'spec-corpus');

function validFiles(): string[] {
  const lines = readFileSync(path.join(CORPUS, 'INDEX.tsv'), 'utf8').trim().split('\n').slice(1);
  return lines.map((l) => l.split('\t')).filter((c) => c[c.length - 1] === 'valid').map((c) => c[0]);
}

describe('each valid corpus contract is compatible with itself', () => {
  const files = validFiles();
  test('the corpus is there', () => expect(files.length).toBeGreaterThan(80));
  test.each(files)('%s', (file) => {
    const abs = path.join(CORPUS, file);
    const text = readFileSync(abs, 'utf8');
    // Two separate parses: nothing may depend on the two sides sharing objects.
    const verdict = checkCompatibility(parseContract(text, abs), parseContract(text, abs));
    expect(verdict.results.filter((r) => !r.compatible).flatMap((r) => r.findings.map((f) => f.message))).toEqual([]);
    expect(verdict.compatible).toBe(true);
    expect(verdict.testsRun + verdict.skipped.length).toBe(parseContract(text, abs).scenarios.length);
  });
});

/**
 * Contracts imported from the shared WSDL corpus (deep XSD structures, optional
 * and repeated nodes, specmatic_type, SOAPAction enums) are compatible with
 * themselves, and removing any required node is found (as request-node-removed
 * or response-node-removed, depending on where the type is used).
 */
describe('each contract imported from the WSDL corpus is compatible with itself', () => {
  const WSDLS = path.resolve(__dirname, '..', '..', '..', 'shared', 'wsdl-corpus');
  const rows = readFileSync(path.join(WSDLS, 'INDEX.tsv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'));
  test.each(rows.map((r) => [r[0], r[1]]))('%s', (folder, main) => {
    let text: string;
    try {
      text = importWsdl(path.join(WSDLS, folder, main)).text;
    } catch {
      return; // what the importer refuses is the importer's tests' business
    }
    const older = parseContract(text, 'older.spec');
    const verdict = checkCompatibility(older, parseContract(text, 'newer.spec'));
    expect(verdict.results.flatMap((r) => r.findings.map((f) => f.message))).toEqual([]);

    // Mutants: one required leaf node (a scalar placeholder, no specmatic_occurs) removed at a time.
    const lines = text.split('\n');
    const leaves = lines.map((l, i) => (LEAF.test(l) ? i : -1)).filter((i) => i >= 0).slice(0, 8);
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
  });
});

const LEAF = /^\s*<([\w:.-]+)>\((number|string|boolean|date|datetime|time|uuid|email|url|anything)\)<\/\1>\s*$/;
