import { HTTP_METHODS } from './model';
import { KAFKA_KEYWORD, NOTED_KEYWORDS, STEP_KEYWORDS } from './steps';

/**
 * The words a step of a contract can start with (after Given/When/Then/And/But), besides an HTTP
 * method: derived from the step readers (steps.ts), so the builder and the did-you-mean hints
 * (steps.ts, gherkin-hints.ts) cannot drift apart.
 */
export { KAFKA_KEYWORD, NOTED_KEYWORDS, STEP_KEYWORDS };

/** Whether a word (any case, as the builder reads it) starts a step accord reads. */
export function isStepWord(word: string): boolean {
  const w = word.toLowerCase();
  return HTTP_METHODS.has(word.toUpperCase()) || STEP_KEYWORDS.includes(w) || NOTED_KEYWORDS.has(w) || w === KAFKA_KEYWORD;
}
