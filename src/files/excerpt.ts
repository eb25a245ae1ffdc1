import { FILE_LIMITS } from '../limits';

/**
 * A short, printable excerpt of input for a message: control characters (C0,
 * DEL, C1), bidirectional overrides and line separators are written as escapes,
 * and anything past `max` characters is cut with a count. A message can then
 * never move the cursor, recolour a terminal, or print a whole file (a contract
 * that is a link to /proc/self/environ would otherwise print the environment).
 */
export function excerpt(text: string, max: number = FILE_LIMITS.excerptChars): string {
  const chars = Array.from(text.length > max * 4 ? text.slice(0, max * 4) : text);
  const shown = chars.length > max ? chars.slice(0, max) : chars;
  let out = '';
  for (const c of shown) out += escapeChar(c);
  const rest = text.length > max * 4 ? Array.from(text).length - max : chars.length - shown.length;
  return rest > 0 ? `${out}… (${rest} more character${rest === 1 ? '' : 's'})` : out;
}

/** As excerpt, in double quotes: for names and values inside a sentence. */
export function quoted(text: string, max: number = FILE_LIMITS.excerptChars): string {
  return `"${excerpt(text, max).replace(/"/g, '\\"')}"`;
}

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x200e ||
    code === 0x200f ||
    code === 0x061c ||
    code === 0xfeff
  ) {
    return `\\u{${code.toString(16)}}`;
  }
  return c;
}

/** Whether a string holds a character `excerpt` would escape. */
export function hasControl(text: string): boolean {
  for (const c of text) if (escapeChar(c) !== c) return true;
  return false;
}
