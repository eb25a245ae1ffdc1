import { isUtf8 } from 'node:buffer';

/**
 * Text that came from input (a service's answer, a request, a contract, a log,
 * a WSDL) made safe to show on a terminal or write to a log. A terminal obeys
 * the control characters in what it prints: ESC sequences clear the screen,
 * colour a fake PASS, set the window title; a carriage return or a backspace
 * overwrites what was printed; bidirectional overrides reorder a line. So
 * these are shown escaped, as `\x1b`, `\r`, `\u{202e}`; every other character is
 * kept. Every place that prints input goes through here.
 */

/**
 * C0 controls but tab and newline, DEL, C1 controls, the bidi marks, embeddings, overrides and
 * isolates, line and paragraph separators, the byte order mark, and lone surrogates (with `u`, a
 * pair is one code point and does not match).
 */

const UNPRINTABLE_MULTILINE = /[\0-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]/gu;
/** The same, and tab and newline too: for text shown inside one line. */

const UNPRINTABLE_LINE = /[\0-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]/gu;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** Escapes made once: a megabyte of ESC is a million calls. */
const made = new Map<string, string>();

function escape(c: string): string {
  let e = made.get(c);
  if (e === undefined) {
    const code = c.charCodeAt(0);
    e = NAMED[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`);
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
  return text.replace(options.multiline === false ? UNPRINTABLE_LINE : UNPRINTABLE_MULTILINE, escape);
}

/** Characters of input quoted in a one-line message. */
export const EXCERPT_CHARS = 80;

/**
 * At most `max` characters (code points) of `text`, on one line and printable;
 * when cut, it says how many more there were: `abc… (29920 more characters)`.
 * What every message quoting input (a cell, a contract line, a log line, a
 * name) shows, so a 30 KB cell or a secret file is never echoed whole.
 */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  if (text.length <= max) return printable(text, { multiline: false });
  const end = codePointsEnd(text, 0, max);
  if (end === text.length) return printable(text, { multiline: false });
  const rest = codePoints(text, end);
  return `${printable(text.slice(0, end), { multiline: false })}… (${rest} more character${rest === 1 ? '' : 's'})`;
}

/** As excerpt, in double quotes (a quote inside escaped): for names and values inside a sentence. */
export function quoted(text: string, max = EXCERPT_CHARS): string {
  return `"${excerpt(text, max).replace(/"/g, '\\"')}"`;
}

/** Whether a one-line message quoting `text` would have to escape any of it (a control character, a bidirectional mark, a line end). */
export function hasControl(text: string): boolean {
  return printable(text, { multiline: false }) !== text;
}

/** Where `count` code points from `from` end (or the end of the text). */
function codePointsEnd(text: string, from: number, count: number): number {
  let i = from;
  for (let n = 0; n < count && i < text.length; n++) i += isPair(text, i) ? 2 : 1;
  return i;
}

function codePoints(text: string, from: number): number {
  let n = 0;
  for (let i = from; i < text.length; i += isPair(text, i) ? 2 : 1) n++;
  return n;
}

function isPair(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return false;
  const d = text.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/**
 * A body for a report: its text, printable and cut at `max` characters (with
 * the whole length), or, when the bytes are not UTF-8 text (gzip, an image), a
 * hex preview of the first bytes and the length: never raw binary.
 */
export function printableBody(body: string, bytes?: Uint8Array, max = 2000): string {
  if (bytes && isBinary(bytes)) return hexPreview(bytes);
  const end = body.length <= max ? body.length : codePointsEnd(body, 0, max);
  if (end === body.length) return printable(body);
  const rest = codePoints(body, end);
  return `${printable(body.slice(0, end))}… (${rest} more character${rest === 1 ? '' : 's'})`;
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

/**
 * Text about a repository or a URL with its secrets hidden: the userinfo of every `scheme://user:token@host`
 * becomes `***` (`https://***@host`), and so does the value of every query parameter whose name looks like a
 * secret (`?access_token=***`, `&X-Amz-Signature=***`). For messages that quote a URL, git's own
 * messages included (git repeats the URL it was given). One pass, linear in the text.
 */
export function withoutCredentials(text: string): string {
  if (!text.includes('://') && !text.includes('=')) return text;
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('://', i)) {
      const start = i + 3;
      let end = start;
      let at = -1;
      for (; end < text.length && !endsAuthority(text[end]); end++) if (text[end] === '@') at = end;
      if (at >= 0) {
        out += `${text.slice(copied, start)}***`;
        copied = at;
      }
      i = end;
      continue;
    }
    const c = text[i];
    if (c === '?' || c === '&') {
      let eq = i + 1;
      while (eq < text.length && !endsParameter(text[eq]) && text[eq] !== '=') eq++;
      if (text[eq] === '=' && looksSecret(text.slice(i + 1, eq))) {
        let end = eq + 1;
        while (end < text.length && !endsParameter(text[end])) end++;
        out += `${text.slice(copied, eq + 1)}***`;
        copied = end;
        i = end;
        continue;
      }
      i = eq;
      continue;
    }
    i++;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Where a URL's authority (`user:token@host:port`) ends. */
function endsAuthority(c: string): boolean {
  return c === '/' || c === '?' || c === '#' || endsUrl(c);
}

/** Where a query parameter's name or value ends. */
function endsParameter(c: string): boolean {
  return c === '&' || c === '#' || c === '?' || endsUrl(c);
}

/** Where a URL quoted in a message ends: white space, a quote, a bracket. */
function endsUrl(c: string): boolean {
  return c <= ' ' || c === "'" || c === '"' || c === '`' || c === '<' || c === '>' || c === '\\';
}

const SECRET_NAMES = ['token', 'secret', 'pass', 'pwd', 'key', 'sig', 'auth', 'credential', 'session'];

function looksSecret(name: string): boolean {
  const n = name.toLowerCase();
  return SECRET_NAMES.some((s) => n.includes(s));
}

/**
 * Output a CI runner cannot read as a command. GitHub Actions reads a line that starts with `::`
 * after white space as a workflow command (`::warning::`, `::add-mask::`, `::stop-commands::`),
 * and `##[command]` (its older form) and Azure Pipelines' `##vso[command]` anywhere in a line. So
 * the first `:` of such a line is shown as `\x3a`, and the first `#` of `##[` and `##vso[` as
 * `\x23`, in accord's escape style: text from a contract or a service is still readable, and none
 * of it is obeyed. For text that is not itself a command stream (the `--format github` document
 * is, and escapes its own values).
 */
export function inert(text: string): string {
  const out = text.includes('##') ? text.replaceAll('##[', '\\x23#[').replaceAll('##vso[', '\\x23#vso[') : text;
  if (!out.includes('::')) return out;
  let result = '';
  let copied = 0;
  let lineStart = true;
  for (let i = 0; i < out.length; i++) {
    const c = out[i];
    // The runner reads lines as .NET's ReadLine does: a CR alone ends one too.
    if (c === '\n' || c === '\r') lineStart = true;
    else if (lineStart && !isWhiteSpace(c.charCodeAt(0))) {
      lineStart = false;
      if (c === ':' && out[i + 1] === ':') {
        result += `${out.slice(copied, i)}\\x3a`;
        copied = i + 1;
      }
    }
  }
  return copied === 0 ? out : result + out.slice(copied);
}

/** What .NET's TrimStart (the runner's) removes: Unicode white space, the no-break spaces included. */
function isWhiteSpace(n: number): boolean {
  return (
    n === 0x20 ||
    (n >= 0x09 && n <= 0x0d) ||
    n === 0x85 ||
    n === 0xa0 ||
    n === 0x1680 ||
    (n >= 0x2000 && n <= 0x200a) ||
    n === 0x2028 ||
    n === 0x2029 ||
    n === 0x202f ||
    n === 0x205f ||
    n === 0x3000 ||
    n === 0xfeff
  );
}
