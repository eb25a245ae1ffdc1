/**
 * Did-you-mean for names a user types (options, step keywords): the candidate
 * a misspelling most likely meant, the same letters in another case or at most
 * `maxEdits` edits away (two by default). Two letters swapped (`PSOT`, `Secnario`)
 * count as one edit: it is the commonest slip on a keyboard.
 */
export function closest(word: string, candidates: readonly string[], maxEdits = 2): string | undefined {
  let best: string | undefined;
  let bestDistance = maxEdits + 1;
  for (const c of candidates) {
    const d = c.toLowerCase() === word.toLowerCase() ? 0 : editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance with adjacent transpositions (optimal string alignment). */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], before[j - 2] + 1);
    }
    before = prev;
    prev = cur;
  }
  return prev[b.length];
}
