import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The two corpora of other people's files (30 WSDLs, 93 Specmatic contracts)
 * live beside the clone in ../shared, never in it, so a fresh clone has none.
 * Suites declare the parts that read them with `withCorpus`: with the corpus
 * there they run; without it they become one skipped test whose name says
 * what was skipped and why (corpus-reporter.js adds one line beside Jest's
 * summary); with ACCORD_REQUIRE_CORPUS=1 (CI) an absent corpus is a failing
 * test instead, so CI never skips silently. The repository's own fixtures
 * cover the same features for a fresh clone.
 */
export type CorpusName = 'wsdl-corpus' | 'spec-corpus' | 'soapui-corpus';

const SHARED = path.resolve(__dirname, '..', '..', '..', 'shared');
export const WSDL_CORPUS = path.join(SHARED, 'wsdl-corpus');
export const SPEC_CORPUS = path.join(SHARED, 'spec-corpus');
export const SOAPUI_CORPUS = path.join(SHARED, 'soapui-corpus');

/** The start of a skipped test's name; corpus-reporter.js looks for it. */
export const SKIPPED = 'skipped: ../shared/';

export function hasCorpus(name: CorpusName): boolean {
  return existsSync(path.join(SHARED, name, 'INDEX.tsv'));
}

export function corpusRequired(): boolean {
  const v = process.env.ACCORD_REQUIRE_CORPUS;
  return v !== undefined && v !== '' && v !== '0';
}

/** Declares `define` (tests, describes) under `title` when the corpora are there; see above otherwise. */
export function withCorpus(names: CorpusName | CorpusName[], title: string, define: () => void): void {
  const missing = ([] as CorpusName[]).concat(names).find((n) => !hasCorpus(n));
  if (!missing) {
    describe(title, define);
  } else if (corpusRequired()) {
    test(`${title}: needs ../shared/${missing}`, () => {
      const error = new Error(
        `../shared/${missing} not found (${path.join(SHARED, missing)}), and ACCORD_REQUIRE_CORPUS is set: put the corpus beside the clone, or unset ACCORD_REQUIRE_CORPUS to skip these tests`,
      );
      // The message says it all; a stack into this helper would only hide it.
      error.stack = error.message;
      throw error;
    });
  } else {
    test.skip(`${SKIPPED}${missing} not found: ${title}`, () => undefined);
  }
}

function tsv(file: string): { header: string[]; rows: string[][] } {
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  return { header: lines[0], rows: lines.slice(1) };
}

export interface WsdlEntry {
  folder: string;
  mainFile: string;
  file: string;
}

/** The WSDL corpus's INDEX.tsv; call it inside `withCorpus` only. */
export function wsdlCorpus(): WsdlEntry[] {
  const { header, rows } = tsv(path.join(WSDL_CORPUS, 'INDEX.tsv'));
  const folder = header.indexOf('folder');
  const main = header.indexOf('main_file');
  return rows.map((c) => ({ folder: c[folder], mainFile: c[main], file: path.join(WSDL_CORPUS, c[folder], c[main]) }));
}

export function corpusWsdl(folder: string): string {
  const e = wsdlCorpus().find((x) => x.folder === folder);
  if (!e) throw new Error(`no corpus folder ${folder}`);
  return e.file;
}

export interface SpecEntry {
  /** Relative to the corpus folder. */
  file: string;
  intent: 'valid' | 'invalid' | 'unknown';
}

/** The spec corpus's INDEX.tsv; call it inside `withCorpus` only. */
export function specCorpus(): SpecEntry[] {
  const { rows } = tsv(path.join(SPEC_CORPUS, 'INDEX.tsv'));
  return rows.map((c) => ({ file: c[0], intent: c[c.length - 1] as SpecEntry['intent'] }));
}

export interface SoapuiEntry {
  name: string;
  /** The project file, or the folder of a composite project. */
  input: string;
}

/** The SoapUI corpus's INDEX.tsv (a composite project's main file is its folder's settings.xml); call it inside `withCorpus` only. */
export function soapuiCorpus(): SoapuiEntry[] {
  const { header, rows } = tsv(path.join(SOAPUI_CORPUS, 'INDEX.tsv'));
  const name = header.indexOf('name');
  const main = header.indexOf('main_file');
  return rows.map((c) => ({ name: c[name], input: c[main] === 'settings.xml' ? path.join(SOAPUI_CORPUS, c[name]) : path.join(SOAPUI_CORPUS, c[name], c[main]) }));
}
