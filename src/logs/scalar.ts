import { SCALARS } from '../pattern/scalars/index';

/** The placeholders a logged literal can become. */
export type TextType = 'number' | 'boolean' | 'date' | 'datetime' | 'uuid' | 'string';

/**
 * Integers and decimals, without leading zeros: "007" and "0042" are codes
 * (zip codes, account numbers), and a stub turning them into 7 would lose
 * what they mean, so they stay strings.
 */
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** The narrowest placeholder that accepts a logged text value. Never called with "". */
export function classifyText(text: string): TextType {
  if (NUMBER.test(text)) return 'number';
  if (text === 'true' || text === 'false') return 'boolean';
  return classifyJsonString(text);
}

/** JSON strings keep their JSON type: only the string-shaped placeholders are looked for. */
export function classifyJsonString(text: string): TextType {
  if (SCALARS.date.test(text)) return 'date';
  if (SCALARS.datetime.test(text)) return 'datetime';
  if (SCALARS.uuid.test(text)) return 'uuid';
  return 'string';
}

/** Two calls disagree: the wider type holds both (every text is a string). */
export function widen(a: TextType | undefined, b: TextType): TextType {
  if (a === undefined || a === b) return b;
  return 'string';
}
