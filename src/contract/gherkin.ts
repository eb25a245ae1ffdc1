import type { GherkinDocument } from '@cucumber/messages';
import { AccordError, InternalError, throwGathered } from '../errors';
import { excerpt } from '../printable';
import { descriptionTypos, explainParseErrors, keywordTypo, type Dialect } from './gherkin-hints';

type GherkinLib = typeof import('./gherkin-lib');
let gherkin: GherkinLib | undefined;

/**
 * @cucumber/gherkin and @cucumber/messages (with class-transformer and
 * reflect-metadata) take about 30 ms to load: loaded on the first parse, so a
 * process whose contracts all come from the AST cache never pays for them.
 */
function load(): GherkinLib {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (see above)
  gherkin ??= require('./gherkin-lib') as GherkinLib;
  return gherkin;
}

/** Stage 1: text to a Gherkin AST, errors carried with file and line. */
export function parseGherkin(text: string, file: string): GherkinDocument {
  const lib = load();
  const parser = new lib.Parser(new lib.AstBuilder(lib.IdGenerator.incrementing()), new lib.GherkinClassicTokenMatcher());
  let doc: GherkinDocument;
  try {
    doc = parser.parse(text);
  } catch (e) {
    // A file with no Feature line at all (package.json, a README) would get one Gherkin token list per line.
    const dialect = dialectOf(text, lib);
    if (!hasFeatureLine(text, dialect)) throw notAContract(file, featureTypo(text, dialect));
    const raw = (e as { errors?: Error[] }).errors ?? [e as Error];
    throwGathered(explainParseErrors(raw, text, dialect).map((x) => toAccordError(file, x)));
    throw new InternalError('the Gherkin parser failed without saying why', { cause: e });
  }
  const typos = descriptionTypos(doc, text, dialectOf(text, lib));
  throwGathered(typos.map((t) => new AccordError(t.code, t.message, { ...t.location, file })));
  return doc;
}

/** The one error for a file that has no Feature line: empty, only comments, or some other kind of file; at a misspelt one when there is one. */
export function notAContract(file: string, typo?: { line: number; message: string }): AccordError {
  if (typo) return new AccordError('ACCORD_ERR_CONTRACT_SYNTAX', `${file} has no Feature: line: ${typo.message}`, { file, line: typo.line });
  return new AccordError('ACCORD_ERR_CONTRACT_SYNTAX', `${file} is not a contract: no Feature: line`);
}

/** The dialect the file declares (`# language: fr`), as Gherkin reads it; English otherwise. */
function dialectOf(text: string, lib: GherkinLib): Dialect {
  for (const raw of text.slice(0, 4096).split('\n')) {
    const language = /^#\s*language\s*:\s*([a-zA-Z_-]+)$/.exec(raw.trim());
    if (language) return lib.dialects[language[1]] ?? lib.dialects.en;
  }
  return lib.dialects.en;
}

/** Whether a line starts a Feature. */
function hasFeatureLine(text: string, dialect: Dialect): boolean {
  return text.split('\n').some((raw) => dialect.feature.some((k) => raw.trim().startsWith(`${k}:`)));
}

/** `Featur: Pets`: the first line that looks like a misspelt Feature keyword. */
function featureTypo(text: string, dialect: Dialect): { line: number; message: string } | undefined {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && i < 200; i++) {
    const message = keywordTypo(
      lines[i],
      { ...dialect, background: [], scenario: [], scenarioOutline: [], examples: [], rule: [], given: [], when: [], then: [], and: [], but: [] },
      true,
    );
    if (message) return { line: i + 1, message };
  }
  return undefined;
}

/** The version of the Gherkin parser, part of every AST cache key. */
export function gherkinVersion(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON file, cheap
  return (require('@cucumber/gherkin/package.json') as { version: string }).version;
}

function toAccordError(file: string, e: { message: string; line?: number; column?: number }): AccordError {
  return new AccordError('ACCORD_ERR_CONTRACT_SYNTAX', quoteSafely(e.message), { file, line: e.line, column: e.column });
}

/**
 * Gherkin quotes the offending line whole (`got 'the line'`): a contract path
 * that is a link to a secrets file would print it. Only a short excerpt is
 * kept, with control characters escaped.
 */
function quoteSafely(message: string): string {
  const at = message.indexOf(", got '");
  if (at < 0 || !message.endsWith("'")) return excerpt(message, 400);
  return `${excerpt(message.slice(0, at), 400)}, got '${excerpt(message.slice(at + 7, -1))}'`;
}
