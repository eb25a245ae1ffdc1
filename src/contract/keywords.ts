import { HTTP_METHODS } from './model';

/**
 * The words a step of a contract can start with (after Given/When/Then/And/But), besides an HTTP
 * method: the builder dispatches on them (build.ts) and the did-you-mean hints suggest from them
 * (build.ts, gherkin-hints.ts), so the two cannot drift apart.
 */
export const STEP_KEYWORDS = [
  'request-header',
  'response-header',
  'status',
  'request-body',
  'response-body',
  'type',
  'json',
  'pattern',
  'enum',
  'form-field',
  'request-part',
] as const;

/** Read and kept, never acted on: see the README ("Steps accord reads but does not run"). */
export const NOTED_KEYWORDS: ReadonlySet<string> = new Set(['value', 'export', 'fact', 'fixture', 'openapi', 'wsdl']);

/** Read, reported as unsupported. */
export const KAFKA_KEYWORD = 'kafka-message';

/** Whether a word (any case, as the builder reads it) starts a step accord reads. */
export function isStepWord(word: string): boolean {
  const w = word.toLowerCase();
  return HTTP_METHODS.has(word.toUpperCase()) || (STEP_KEYWORDS as readonly string[]).includes(w) || NOTED_KEYWORDS.has(w) || w === KAFKA_KEYWORD;
}
