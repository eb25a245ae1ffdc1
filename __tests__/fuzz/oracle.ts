/**
 * What every fuzz case must hold, and the run's size. `npm test` runs a bounded, seeded
 * number of cases; `npm run fuzz -- <seed> <cases>` runs the same suites longer
 * (FUZZ_SEED, FUZZ_CASES), so a failure is replayed by its seed.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261124);

/** Cases per suite: `fallback` in npm test, FUZZ_CASES when the fuzz script sets it. */
export function fuzzCases(fallback: number): number {
  return process.env.FUZZ_CASES ? Number(process.env.FUZZ_CASES) : fallback;
}

/** A stack frame line, as Node prints them ("    at fn (file.js:1:2)"). */
const STACK_FRAME = /\n\s+at .*[(\s][^()\s]*:\d+:\d+\)?/;

const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

/** Why `text`, shown to a user, breaks the rules, or undefined. */
export function badOutput(text: string): string | undefined {
  if (/internal error/i.test(text)) return 'an internal error';
  if (STACK_FRAME.test(text)) return 'a stack trace';
  const c = CONTROL.exec(text);
  if (c) return `a raw control character U+${c[0].charCodeAt(0).toString(16).padStart(4, '0')}`;
  return undefined;
}
