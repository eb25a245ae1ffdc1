import { isUtf8 } from 'node:buffer';

/**
 * Text that came from input (a service's answer, a request, a contract, a log,
 * a WSDL) made safe to show on a terminal or write to a log. A terminal obeys
 * the control characters in what it prints: ESC sequences clear the screen,
 * colour a fake PASS, set the window title; a carriage return or a backspace
 * overwrites what was printed; bidirectional overrides reorder a line. So
 * these are shown escaped, as `\x1b`, `\r`, `\u202e`; every other character is
 * kept. Every place that prints input goes through here.
 */

/** C0 controls but tab and newline, DEL, C1 controls, bidi embeddings, overrides and isolates, lone surrogates (with `u`, a pair is one code point and does not match). */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const UNPRINTABLE_MULTILINE = /[\0-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/gu;
/** The same, and tab and newline too: for text shown inside one line. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const UNPRINTABLE_LINE = /[\0-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/gu;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** Escapes made once: a megabyte of ESC is a million calls. */
const made = new Map<string, string>();

function escape(c: string): string {
  let e = made.get(c);
  if (e === undefined) {
    const code = c.charCodeAt(0);
    e = NAMED[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
    made.set(c, e);
  }
  return e;
}

/**
 * `text` with its control characters escaped. Newlines and tabs are kept
 * (`multiline`, the default: they are the layout of a report or a body); with
 * `multiline: false` they are escaped too, for a value quoted inside a line.
 */
export function printable(text: string, options: { multiline?: boolean } = {}): string {
  const re = options.multiline === false ? UNPRINTABLE_LINE : UNPRINTABLE_MULTILINE;
  return text.replace(re, escape);
}

/** Characters of input quoted in a one-line message. */
export const EXCERPT_CHARS = 80;

/**
 * At most `max` characters of `text`, on one line and printable; when cut, it
 * says how long the whole was: `"abc…" (30000 characters)` without the quotes.
 * What every message quoting input (a cell, a contract line, a log line, a
 * name) shows, so a 30 KB cell or a secret file is never echoed whole.
 */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  if (text.length <= max) return printable(text, { multiline: false });
  // Not in the middle of a surrogate pair: that half would show as an escape.
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${printable(text.slice(0, end), { multiline: false })}… (${text.length} characters)`;
}

/** `"text"`, or `"head…" (30000 characters)` when long: a value quoted in a one-line message. */
export function quote(text: string, max = EXCERPT_CHARS): string {
  if (text.length <= max) return `"${printable(text, { multiline: false })}"`;
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `"${printable(text.slice(0, end), { multiline: false })}…" (${text.length} characters)`;
}

/**
 * A body for a report: its text, printable and cut at `max` characters (with
 * the whole length), or, when the bytes are not UTF-8 text (gzip, an image), a
 * hex preview of the first bytes and the length: never raw binary.
 */
export function printableBody(body: string, bytes?: Uint8Array, max = 2000): string {
  if (bytes && isBinary(bytes)) return hexPreview(bytes);
  const cut = body.length > max;
  const end = cut && isHighSurrogate(body.charCodeAt(max - 1)) ? max - 1 : max;
  return cut ? `${printable(body.slice(0, end))}… (${body.length} characters)` : printable(body);
}

/** Not UTF-8, or with a NUL byte (text never has one; almost every binary format does). */
export function isBinary(bytes: Uint8Array): boolean {
  return !isUtf8(bytes) || bytes.includes(0);
}

const HEX_PREVIEW_BYTES = 32;

export function hexPreview(bytes: Uint8Array): string {
  const shown = Array.from(bytes.subarray(0, HEX_PREVIEW_BYTES), (b) => b.toString(16).padStart(2, '0')).join(' ');
  return `<binary, ${bytes.length} bytes: ${shown}${bytes.length > HEX_PREVIEW_BYTES ? ' …' : ''}>`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
