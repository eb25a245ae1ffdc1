import { MAX_OCCURS_BOUND } from '../limits';
import type { Occurs } from './types';

/*
 * How many times a node may occur: XSD's minOccurs..maxOccurs, kept exactly
 * (max Infinity for unbounded). Specmatic's words are two of these bounds:
 * "optional" is 0..1 and "multiple" is 0..*.
 */

export const ONCE: Occurs = Object.freeze({ min: 1, max: 1 });
export const OPTIONAL: Occurs = Object.freeze({ min: 0, max: 1 });
export const MULTIPLE: Occurs = Object.freeze({ min: 0, max: Infinity });

export function occurs(min: number, max: number): Occurs {
  if (min === 1 && max === 1) return ONCE;
  if (min === 0 && max === 1) return OPTIONAL;
  if (min === 0 && max === Infinity) return MULTIPLE;
  return { min, max };
}

export function isOnce(o: Occurs): boolean {
  return o.min === 1 && o.max === 1;
}

/** A node's occurrence inside a place that itself occurs `outer` times: each bound multiplied. */
export function combineOccurs(outer: Occurs, own: Occurs): Occurs {
  const max = outer.max === 0 || own.max === 0 ? 0 : outer.max * own.max;
  return occurs(outer.min * own.min, max);
}

/** How a `specmatic_occurs` attribute writes it: "optional", "multiple", "2..5", "1..*"; undefined for once. */
export function occursText(o: Occurs): string | undefined {
  if (isOnce(o)) return undefined;
  if (o.min === 0 && o.max === 1) return 'optional';
  if (o.min === 0 && o.max === Infinity) return 'multiple';
  if (o.min === o.max) return `${o.min}`;
  return `${o.min}..${o.max === Infinity ? '*' : o.max}`;
}

/** Reads a `specmatic_occurs` value (occursText's forms, and "N" for exactly N); undefined when it is none of them. */
export function parseOccurs(text: string): Occurs | undefined {
  if (text === 'optional') return OPTIONAL;
  if (text === 'multiple') return MULTIPLE;
  if (text === 'once') return ONCE;
  const dots = text.indexOf('..');
  const min = count(dots < 0 ? text : text.slice(0, dots));
  const max = dots < 0 ? min : text.slice(dots + 2) === '*' ? Infinity : count(text.slice(dots + 2));
  if (min === undefined || max === undefined || max < min || max === 0) return undefined;
  return occurs(min, max);
}

function count(s: string): number | undefined {
  if (s.length === 0 || s.length > 6) return undefined;
  for (const ch of s) if (ch < '0' || ch > '9') return undefined;
  const n = Number(s);
  return n <= MAX_OCCURS_BOUND ? n : undefined;
}

/** A node name with its bounds, as reports write it: `id`, `id?`, `id*`, `id+`, `id{2..5}`. */
export function withBounds(local: string, o: { min: number; max: number }): string {
  if (o.min === 1 && o.max === 1) return local;
  if (o.min === 0 && o.max === 1) return `${local}?`;
  if (o.min === 0 && o.max === Infinity) return `${local}*`;
  if (o.min === 1 && o.max === Infinity) return `${local}+`;
  return `${local}{${o.min === o.max ? o.min : `${o.min}..${o.max === Infinity ? '*' : o.max}`}}`;
}

/** Bounds in words, for compatibility reports: "required", "optional", "repeated", "2 to 5". */
export function boundsWords(o: { min: number; max: number }): string {
  if (o.min === 1 && o.max === 1) return 'required';
  if (o.min === 0 && o.max === 1) return 'optional';
  if (o.min === 0 && o.max === Infinity) return 'repeated';
  return o.max === Infinity ? `at least ${o.min}` : o.min === o.max ? `exactly ${o.max}` : `${o.min} to ${o.max}`;
}
