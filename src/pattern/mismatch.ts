/** A mismatch is a value: where, what the contract expected, what was found. */
export interface Mismatch {
  path: string;
  expected: string;
  actual: string;
}

export function joinPath(base: string, segment: string): string {
  if (!base) return segment;
  if (segment.startsWith('[') || segment.startsWith('.')) return base + segment;
  return base.endsWith(' ') ? base + segment : `${base}/${segment}`;
}

export function formatMismatch(m: Mismatch): string {
  return `${m.path}: expected ${m.expected}, found ${m.actual}`;
}

/** Short, single-line rendering of a found value for reports. */
export function shown(value: unknown, max = 80): string {
  let s: string;
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') s = JSON.stringify(value);
  else {
    try {
      s = JSON.stringify(value) ?? String(value);
    } catch {
      s = String(value);
    }
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
