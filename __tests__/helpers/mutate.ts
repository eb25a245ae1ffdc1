/**
 * Seeded damage for "every input is hostile" tests: the same mutants on every
 * run, so a failure can be replayed.
 */

/** mulberry32: a small, well-spread generator of numbers in [0, 1). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One edit at a random place: delete a few characters, insert a piece from `palette`, repeat a stretch, or swap two characters. */
export function mutateText(text: string, r: () => number, palette: readonly string[]): string {
  const at = Math.floor(r() * (text.length + 1));
  switch (Math.floor(r() * 4)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(r() * 3));
    case 1:
      return text.slice(0, at) + palette[Math.floor(r() * palette.length)] + text.slice(at);
    case 2: {
      const len = Math.floor(r() * 60);
      return text.slice(0, at) + text.slice(at, at + len) + text.slice(at);
    }
    default: {
      const other = Math.floor(r() * text.length);
      const chars = [...text];
      [chars[at], chars[other]] = [chars[other], chars[at]];
      return chars.join('');
    }
  }
}

/** `edits` (1 to 3 by default) edits in a row. */
export function mutant(text: string, r: () => number, palette: readonly string[], edits = 1 + Math.floor(r() * 3)): string {
  let t = text;
  for (let e = 0; e < edits; e++) t = mutateText(t, r, palette);
  return t;
}
