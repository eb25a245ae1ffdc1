/** A mismatch is a value: where, what the contract expected, what was found. */
export interface Mismatch {
  path: string;
  expected: string;
  actual: string;
}

/**
 * The words a report puts before a path: where in the HTTP message a mismatch
 * or a difference is. One vocabulary for the runner, the stub, the Examples
 * check and the compatibility check.
 */
export const WHERE = {
  requestPath: 'REQUEST.PATH',
  requestQuery: 'REQUEST.QUERY',
  requestHeader: 'REQUEST.HEADER',
  requestBody: 'REQUEST.BODY',
  requestFormField: 'REQUEST.FORM-FIELD',
  requestPart: 'REQUEST.PART',
  responseStatus: 'RESPONSE.STATUS',
  responseHeader: 'RESPONSE.HEADER',
  responseBody: 'RESPONSE.BODY',
} as const;

export type Where = (typeof WHERE)[keyof typeof WHERE];

/** `REQUEST.HEADER SOAPAction`: a place and the name of what is there. */
export function at(where: Where, name?: string): string {
  return name === undefined ? where : `${where} ${name}`;
}

export function formatMismatch(m: Mismatch): string {
  return `${m.path}: expected ${m.expected}, found ${m.actual}`;
}

/** Mismatches shown in one report; a payload of 100,000 wrong nodes is explained by its first ones. */
export const SHOWN_MISMATCHES = 50;

/**
 * The report lines for a list of mismatches: at most SHOWN_MISMATCHES, then how many more there
 * are. `cut`: the comparison stopped once the report was full (the stub's), so "more" has no count.
 */
export function formatMismatches(ms: readonly Mismatch[], indent = '  ', cut = false): string[] {
  const lines = ms.slice(0, SHOWN_MISMATCHES).map((m) => `${indent}${formatMismatch(m)}`);
  if (ms.length > SHOWN_MISMATCHES) {
    lines.push(
      cut ? `${indent}… and more mismatches (the comparison stops after the first ${SHOWN_MISMATCHES})` : `${indent}… and ${ms.length - SHOWN_MISMATCHES} more mismatches`,
    );
  }
  return lines;
}

/**
 * Appends `more` to `out`. Not `out.push(...more)`: spreading a list of 100,000 mismatches (a
 * hostile payload's) into arguments overflows the stack.
 */
export function append<T>(out: T[], more: readonly T[]): T[] {
  for (let i = 0; i < more.length; i++) out.push(more[i]);
  return out;
}

/** Short, single-line rendering of a found value for reports. */
export function shown(value: unknown, max = 80): string {
  if (value === undefined) return 'nothing';
  // Not JSON.stringify: a hostile payload nested 100,000 deep overflows the stack there; this stops at `max`.
  const s = preview(value, max + 1);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** JSON text of `value`, cut once it reaches `budget` characters (so it never walks more than that). */
function preview(value: unknown, budget: number): string {
  let out = '';
  const put = (text: string) => {
    out += text;
    return out.length < budget;
  };
  const walk = (v: unknown): boolean => {
    // A string is cut before quoting: a 10 MB text node is not copied to show 80 characters of it.
    if (v === null || typeof v !== 'object')
      return put(typeof v === 'string' ? JSON.stringify(v.length > budget ? v.slice(0, budget) : v) : typeof v === 'number' || typeof v === 'boolean' ? String(v) : 'null');
    if (Array.isArray(v)) {
      if (!put('[')) return false;
      for (let i = 0; i < v.length; i++) if ((i > 0 && !put(',')) || !walk(v[i])) return false;
      return put(']');
    }
    if (!put('{')) return false;
    let first = true;
    for (const k of Object.keys(v)) {
      if ((!first && !put(',')) || !put(`${JSON.stringify(k)}:`) || !walk((v as Record<string, unknown>)[k])) return false;
      first = false;
    }
    return put('}');
  };
  walk(value);
  return out;
}
