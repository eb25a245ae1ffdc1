/**
 * How deep the property and exhaustive suites go. `npm test` checks a fixed part of each (the
 * same part every run, so a failure repeats); `ACCORD_TEST_DEPTH=full` (`npm run test:deep`, and
 * CI's `.ci/run`) checks all of it. A suite names both sizes: `depth(full, part)`.
 */
export const FULL_DEPTH = process.env.ACCORD_TEST_DEPTH === 'full';

/** `full` under ACCORD_TEST_DEPTH=full, `part` otherwise. */
export function depth<T>(full: T, part: T): T {
  return FULL_DEPTH ? full : part;
}
