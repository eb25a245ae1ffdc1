import { AstBuilder, GherkinClassicTokenMatcher, Parser } from '@cucumber/gherkin';
import { IdGenerator, type GherkinDocument } from '@cucumber/messages';
import { AccordError, CompositeAccordError } from '../errors';

/** Stage 1: text to a Gherkin AST, errors carried with file and line. */
export function parseGherkin(text: string, file: string): GherkinDocument {
  const parser = new Parser(new AstBuilder(IdGenerator.incrementing()), new GherkinClassicTokenMatcher());
  try {
    return parser.parse(text);
  } catch (e) {
    const errors = ((e as { errors?: Error[] }).errors ?? [e as Error]).map(toAccordError(file));
    throw errors.length === 1 ? errors[0] : new CompositeAccordError(errors);
  }
}

function toAccordError(file: string) {
  return (e: Error & { location?: { line: number; column?: number } }): AccordError => {
    // Gherkin's messages start with "(line:column): "; the location is carried separately.
    const message = e.message.replace(/^\(\d+:\d+\): /, '');
    return new AccordError('ACCORD_ERR_CONTRACT_SYNTAX', message, { file, line: e.location?.line, column: e.location?.column });
  };
}
