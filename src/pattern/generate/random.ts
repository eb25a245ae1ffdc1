/**
 * The seeded draws moved down to `pattern/random.ts` (scalars draw from them, and scalars sit below
 * generate/). This re-export keeps the stub's imports working until its rewrite lands; new code
 * imports `../random`.
 */
export { createRandom, seedFrom, type Random } from '../random';
