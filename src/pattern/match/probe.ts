import type { Pattern, Scope } from '../types';

/**
 * What a match read of a body's element texts, for a caller that wants to know on what its
 * verdict hung (the stub's memo of request shapes, stub/decide/shape.ts). While a probe runs,
 * every check of an element's text against a pattern is noted (the text, the pattern, its scope
 * and the verdict); a check that reads the body otherwise (a fault code's prefix resolved
 * against the declarations in scope, a body matched as text, form fields, multipart parts) marks
 * the probe as `opaque`: its verdict hung on something the notes do not say.
 *
 * Matching stays a pure function of (pattern, document): the probe only watches. Off (the
 * usual case), each site costs one comparison with undefined.
 */
export interface TextRead {
  readonly text: string;
  readonly pattern: Pattern;
  readonly scope: Scope;
  readonly fits: boolean;
}

export interface Probe {
  readonly reads: TextRead[];
  /** Something was read that the notes do not capture. */
  opaque: boolean;
}

/** At most this many reads are noted: past it the probe is opaque (a huge body is not worth the notes). */
const MAX_READS = 256;

let active: Probe | undefined;

/** Runs `run` with a probe watching what it reads; probes do not nest (an inner one sees nothing of the outer's). */
export function probing<T>(run: () => T): { result: T; probe: Probe } {
  const outer = active;
  const probe: Probe = { reads: [], opaque: false };
  active = probe;
  try {
    return { result: run(), probe };
  } finally {
    active = outer;
  }
}

/** Notes a check of an element's text (its verdict: no mismatches). */
export function noteTextRead(text: string, pattern: Pattern, scope: Scope, fits: boolean): void {
  const p = active;
  if (p === undefined) return;
  if (p.reads.length >= MAX_READS) p.opaque = true;
  else p.reads.push({ text, pattern, scope, fits });
}

/** Notes that the body was read in a way the notes cannot capture. */
export function noteOpaqueRead(): void {
  if (active !== undefined) active.opaque = true;
}
