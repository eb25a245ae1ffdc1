import type { GherkinDocument } from '@cucumber/messages';
import { AccordError, CompositeAccordError } from '../errors';
import { excerpt } from '../printable';

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
  try {
    return parser.parse(text);
  } catch (e) {
    // A file with no Feature line at all (package.json, a README) would get one Gherkin token list per line.
    if (!hasFeatureLine(text, lib)) throw notAContract(file);
    const errors = ((e as { errors?: Error[] }).errors ?? [e as Error]).map(toAccordError(file));
    throw errors.length === 1 ? errors[0] : new CompositeAccordError(errors);
  }
}

/** The one error for a file that has no Feature line: empty, only comments, or some other kind of file. */
export function notAContract(file: string): AccordError {
  return new AccordError('ACCORD_ERR_CONTRACT_SYNTAX', `${file} is not a contract: no Feature: line`);
}

/** Whether a line starts a Feature, in the language the file declares (`# language: fr`) as Gherkin reads it. */
function hasFeatureLine(text: string, lib: GherkinLib): boolean {
  let keywords = lib.dialects.en.feature;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const language = /^#\s*language\s*:\s*([a-zA-Z_-]+)$/.exec(line);
    if (language) keywords = lib.dialects[language[1]]?.feature ?? keywords;
    else if (keywords.some((k) => line.startsWith(`${k}:`))) return true;
  }
  return false;
}

/** The version of the Gherkin parser, part of every AST cache key. */
export function gherkinVersion(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON file, cheap
  return (require('@cucumber/gherkin/package.json') as { version: string }).version;
}

function toAccordError(file: string) {
  return (e: Error & { location?: { line: number; column?: number } }): AccordError => {
    // Gherkin's messages start with "(line:column): "; the location is carried separately.
    const message = quoteSafely(e.message.replace(/^\(\d+:\d+\): /, ''));
    return new AccordError('ACCORD_ERR_CONTRACT_SYNTAX', message, { file, line: e.location?.line, column: e.location?.column });
  };
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
