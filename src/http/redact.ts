import { readJson } from '../json/parse';
import { parseXml } from '../xml/parse';
import { serializeXml } from '../xml/serialize';
import type { XmlElement } from '../xml/tree';
/**
 * Secrets that must not stay in a recording of HTTP traffic (`accord proxy`'s HAR) nor in a
 * contract written from one (`accord import log --examples`): credential headers, values that
 * name a session, and payment card numbers. Used by the proxy and by the log importer's Redactor.
 */

/** What a redacted value is replaced with. */
export const REDACTED = '***';

/**
 * Header names whose values are credentials or session ids: Authorization, Cookie and
 * Set-Cookie, and the usual custom ones (X-Session-Id, X-Auth-Token, X-API-Key, X-CSRF-Token);
 * the same test is applied to query parameter names (`access_token`, `sessionid`, `apikey`).
 */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|cookie2|set-cookie2)$|session|token|api-?key|secret|passw|credential|^x-auth/i;

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}

/**
 * A run of 13 to 19 digits, optionally grouped by single spaces or hyphens, not inside a longer
 * run of digits. Each repetition takes exactly one digit, so a failed match costs at most 19 steps
 * from each start: linear in the text.
 */
const PAN_RUN = /(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/g;

/** A payment card number: 13–19 digits (spaces and hyphens between groups allowed) passing the Luhn check. */
export function isCardNumber(value: string): boolean {
  const t = value.trim();
  PAN_RUN.lastIndex = 0;
  const m = PAN_RUN.exec(t);
  return m !== null && m.index === 0 && m[0].length === t.length && luhn(t);
}

/**
 * `text` with every card number (see isCardNumber) masked: each digit becomes 9, separators
 * stay, so the value keeps its length and its type (a number stays a number) but not its digits.
 * Returns the text and how many numbers were masked.
 */
export function maskCardNumbers(text: string): { text: string; masked: number } {
  let masked = 0;
  const out = text.replace(PAN_RUN, (run) => {
    if (!luhn(run)) return run;
    masked++;
    return run.replace(/\d/g, '9');
  });
  return { text: masked === 0 ? text : out, masked };
}

function luhn(run: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = run.length - 1; i >= 0; i--) {
    const c = run.charCodeAt(i) - 48;
    if (c < 0 || c > 9) continue;
    let d = c;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * Names of XML nodes and JSON keys whose values are credentials or session ids (`Password`, `apiKey`, `sessionId`,
 * `pin`, `credential`, `clientSecret`). The log importer's Redactor and the proxy's drift report apply the same test.
 */
const CREDENTIAL_NAME =
  /(password|passwd|passphrase|secret|apikey|api_key|token)$|^(pwd|pin|cvv|cvc|sid|auth|authorization)$|password|session|cookie|credential|secret|access_?key|private_?key/i;

export function isCredentialName(local: string): boolean {
  return CREDENTIAL_NAME.test(local);
}

/**
 * A body as a report may keep it: the values of credential-named XML elements and attributes and JSON keys, and the
 * whole content of a SOAP Header's Security element, replaced by `***`; card numbers masked. A body that does not
 * read as the XML or JSON it looks like is left out whole (its secrets could not be found).
 */
export function redactBody(text: string): string {
  const t = text.trimStart();
  if (t.startsWith('<')) {
    let root: XmlElement | undefined;
    try {
      root = parseXml(text);
    } catch {
      root = undefined;
    }
    if (!root) return '(left out: not well-formed XML, so its secrets could not be told apart)';
    hideXml(root, false);
    return maskCardNumbers(serializeXml(root)).text;
  }
  if (t.startsWith('{') || t.startsWith('[')) {
    const read = readJson(text);
    if ('problem' in read) return '(left out: not well-formed JSON, so its secrets could not be told apart)';
    return maskCardNumbers(JSON.stringify(hideJson(read.value))).text;
  }
  return maskCardNumbers(text).text;
}

function hideXml(el: XmlElement, inHeader: boolean, found?: string[]): void {
  for (const a of el.attributes)
    if (isCredentialName(a.local)) {
      found?.push(a.value);
      a.value = REDACTED;
    }
  if (isCredentialName(el.local) || (inHeader && el.local === 'Security')) {
    if (found) collectText(el, found);
    el.children = [{ type: 'text', value: REDACTED }];
    return;
  }
  for (const c of el.children) if (c.type === 'element') hideXml(c, inHeader || el.local === 'Header', found);
}

function collectText(el: XmlElement, found: string[]): void {
  for (const c of el.children) {
    if (c.type === 'element') collectText(c, found);
    else if (c.type === 'text' && c.value.trim() !== '') found.push(c.value.trim());
  }
}

function hideJson(v: unknown, found?: string[]): unknown {
  if (Array.isArray(v)) return v.map((x) => hideJson(x, found));
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (isCredentialName(k)) {
      if (found && (typeof x === 'string' || typeof x === 'number')) found.push(String(x));
      out[k] = REDACTED;
    } else out[k] = hideJson(x, found);
  }
  return out;
}

/**
 * The values of a body's credential-named XML elements and attributes and JSON keys (and a SOAP Header's
 * Security content): what redactBody hides there, to be hidden by value wherever else they are echoed.
 */
export function bodySecrets(text: string): string[] {
  const found: string[] = [];
  const t = text.trimStart();
  if (t.startsWith('<')) {
    try {
      hideXml(parseXml(text), false, found);
    } catch {
      // Not XML: no node to name a credential.
    }
  } else if (t.startsWith('{') || t.startsWith('[')) {
    const read = readJson(text);
    if (!('problem' in read)) hideJson(read.value, found);
  }
  return found;
}

/** A path whose query parameters named like credentials or sessions (`access_token`, `sessionid`, `api_key`, `client_secret`) have their values redacted. */
export function redactQuery(path: string): string {
  const q = path.indexOf('?');
  if (q < 0) return path;
  const params = path
    .slice(q + 1)
    .split('&')
    .map((kv) => {
      const eq = kv.indexOf('=');
      if (eq < 0) return kv;
      let name = kv.slice(0, eq);
      try {
        name = decodeURIComponent(name);
      } catch {
        // Not percent-encoded properly: judged as written.
      }
      return isSecretHeader(name) || isCredentialName(name) ? `${kv.slice(0, eq)}=${encodeURIComponent(REDACTED)}` : kv;
    });
  return `${path.slice(0, q + 1)}${params.join('&')}`;
}

/**
 * Redacting secret values by value: each value the run or the stub knows to be secret (a password,
 * a token, an API key, the base64 of `user:password`) replaced by `***` wherever it appears in a
 * text that is shown or written, in every encoding a service can echo it back in: as it is,
 * percent-encoded (either case of hex digits, `+` for a space, encoded twice), JSON-escaped
 * (`\/`, `\uXXXX`), XML-escaped (`&amp;`, `&#x26;`, `&#38;`), each character in any of these forms
 * independently; and base64 (standard and URL-safe, at each of the three offsets a value can start
 * at inside a longer encoded text). The one redactor: the runner's reports, the stub's journal and
 * log, the proxy's findings all go through it.
 */

/** Shorter values are not searched for in text (they would garble it); their headers are still hidden. */
export const MIN_REDACTED_LENGTH = 4;

/** A base64 form shorter than this is not searched for: a 3-character run matches too much ordinary text. */
const MIN_BASE64_CHARS = 8;

/** Redacts what a report shows: the header values it hides, and the secret values it replaces in any text. */
export interface Redaction {
  /** Whether a header's value is hidden (name in lower case). */
  hidesHeader(name: string): boolean;
  /** The text with every secret value replaced by ***. */
  text(text: string): string;
}

/** Hides the credential headers (isSecretHeader) and those named, and replaces each of `secrets()` by value. */
export function redaction(secretHeaders: readonly string[] = [], secrets: () => Iterable<string> = () => []): Redaction {
  const hidden = new Set(secretHeaders.map((h) => h.toLowerCase()));
  return {
    hidesHeader: (name) => isSecretHeader(name) || hidden.has(name.toLowerCase()),
    text: (text) => redactSecrets(text, secrets()),
  };
}

/** The same without configured secrets: the credential headers are still hidden. */
export const DEFAULT_REDACTION = redaction();

/**
 * `text` with each of `secrets` (MIN_REDACTED_LENGTH or longer), in any of its encoded forms, replaced by ***.
 * The text is read once into a decoded view (each `%XX`, `%25XX`, `\uXXXX`, JSON short escape and XML
 * character reference read as the character it stands for, `+` and a space as one, every character kept
 * with where it came from), each secret is looked for in that view as decoded the same way, and as it is
 * in the text itself; the places found are replaced, longest first where they overlap. Linear in the text
 * (one decoding pass, indexOf per secret form); no expression is built from a secret.
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  const values = [...new Set(secrets)].filter((s) => s.length >= MIN_REDACTED_LENGTH);
  if (values.length === 0 || text.length < MIN_REDACTED_LENGTH) return text;
  const forms = new Set<string>();
  for (const v of values) {
    forms.add(v);
    for (const b of base64Forms(v)) forms.add(b);
  }
  const spans: [number, number][] = [];
  for (const f of forms) for (let i = text.indexOf(f); i >= 0; i = text.indexOf(f, i + f.length)) spans.push([i, i + f.length]);
  if (mayBeEncoded(text)) {
    const view = decodedView(text);
    for (const f of forms) {
      const d = decodedView(f).text;
      if (d.length === 0) continue;
      for (let i = view.text.indexOf(d); i >= 0; i = view.text.indexOf(d, i + d.length)) spans.push([view.from[i], view.to[i + d.length - 1]]);
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let at = 0;
  for (const [from, to] of spans) {
    if (to <= at) continue;
    out += from >= at ? `${text.slice(at, from)}${REDACTED}` : '';
    at = to;
  }
  return out + text.slice(at);
}

/**
 * The runs of base64 that encode `value` wherever it starts in the encoded bytes (offset 0, 1 or 2 of
 * a 3-byte group), without the characters the neighbouring bytes share; standard and URL-safe, padding
 * left out (a value in the middle of an encoded text has none).
 */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    // Cut at `end`, before any padding.
    const all = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const total = k + bytes.length;
    const start = k === 0 ? 0 : k === 1 ? 2 : 3;
    const end = Math.floor(total / 3) * 4 + (total % 3 === 0 ? 0 : total % 3 === 1 ? 1 : 2);
    const run = all.slice(start, end);
    if (run.length < MIN_BASE64_CHARS) continue;
    out.push(run);
    const urlSafe = run.replaceAll('+', '-').replaceAll('/', '_');
    if (urlSafe !== run) out.push(urlSafe);
  }
  return out;
}

/** Whether `text` holds a character that starts an encoded form (else the text is its own decoded view). */
function mayBeEncoded(text: string): boolean {
  return text.includes('%') || text.includes('\\') || text.includes('&') || text.includes('+');
}

const UTF16 = new TextDecoder('utf-16le');
const JSON_SHORT: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const XML_NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** The longest named or numeric character reference read (`&#x10FFFF;` and some leading zeros). */
const MAX_REFERENCE = 16;

/**
 * `text` decoded one form at a time, as a service may have encoded each character (percent-encoding,
 * once or twice, of UTF-8; JSON escapes; XML character references), with `+` read as a space; for
 * each UTF-16 unit of the view, where in `text` the form it came from starts (`from`) and ends (`to`).
 */
function decodedView(text: string): { text: string; from: Int32Array; to: Int32Array } {
  const from = new Int32Array(text.length);
  const to = new Int32Array(text.length);
  // No view is longer than its text: each form is at least as long as the units it stands for.
  const units = new Uint16Array(text.length);
  let n = 0;
  const emit = (chars: string, start: number, end: number) => {
    for (let k = 0; k < chars.length; k++) {
      from[n] = start;
      to[n] = end;
      units[n++] = chars.charCodeAt(k);
    }
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    // Only `%`, `\` and `&` start a form; any other unit is itself (`+` read as a space).
    if (c !== 0x25 && c !== 0x5c && c !== 0x26) {
      from[n] = i;
      to[n] = i + 1;
      units[n++] = c === 0x2b ? 0x20 : c;
      i++;
      continue;
    }
    if (c === 0x25) {
      const got = percentChar(text, i);
      if (got) {
        emit(got.char === '+' ? ' ' : got.char, i, got.end);
        i = got.end;
        continue;
      }
    } else if (c === 0x5c) {
      const next = text[i + 1];
      if (next === 'u' && isHex(text, i + 2, 4)) {
        const ch = String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        emit(ch === '+' ? ' ' : ch, i, i + 6);
        i += 6;
        continue;
      }
      if (next !== undefined && JSON_SHORT[next] !== undefined) {
        emit(JSON_SHORT[next], i, i + 2);
        i += 2;
        continue;
      }
    } else {
      const semi = text.indexOf(';', i + 1);
      if (semi > i + 1 && semi - i <= MAX_REFERENCE) {
        const ch = referenceChar(text.slice(i + 1, semi));
        if (ch !== undefined) {
          emit(ch === '+' ? ' ' : ch, i, semi + 1);
          i = semi + 1;
          continue;
        }
      }
    }
    from[n] = i;
    to[n] = i + 1;
    units[n++] = c;
    i++;
  }
  return { text: UTF16.decode(units.subarray(0, n)), from, to };
}

function isHex(text: string, at: number, count: number): boolean {
  if (at + count > text.length) return false;
  for (let k = at; k < at + count; k++) {
    const c = text.charCodeAt(k) | 0x20;
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

/** The byte of a `%XX` or `%25XX` at `at`, and where it ends. */
function percentByte(text: string, at: number): { byte: number; end: number } | undefined {
  if (text[at] !== '%') return undefined;
  // Encoded twice: `%252F` is `%2F` to a service that decodes once more.
  if (text.startsWith('25', at + 1) && isHex(text, at + 3, 2)) return { byte: parseInt(text.slice(at + 3, at + 5), 16), end: at + 5 };
  if (isHex(text, at + 1, 2)) return { byte: parseInt(text.slice(at + 1, at + 3), 16), end: at + 3 };
  return undefined;
}

/** The character percent-encoded (as UTF-8, its bytes each once or twice encoded) at `at`, and where it ends. */
function percentChar(text: string, at: number): { char: string; end: number } | undefined {
  const first = percentByte(text, at);
  if (!first) return undefined;
  if (first.byte < 0x80) return { char: String.fromCharCode(first.byte), end: first.end };
  const count = first.byte >= 0xf0 ? 4 : first.byte >= 0xe0 ? 3 : first.byte >= 0xc0 ? 2 : 0;
  if (count === 0) return undefined;
  const bytes = [first.byte];
  let end = first.end;
  for (let k = 1; k < count; k++) {
    const b = percentByte(text, end);
    if (!b || (b.byte & 0xc0) !== 0x80) return undefined;
    bytes.push(b.byte);
    end = b.end;
  }
  const char = Buffer.from(bytes).toString('utf8');
  return char.includes('\uFFFD') ? undefined : { char, end };
}

/** The character a reference (between `&` and `;`) stands for: named, `#x` hexadecimal or `#` decimal. */
function referenceChar(name: string): string | undefined {
  if (XML_NAMED[name] !== undefined) return XML_NAMED[name];
  if (name[0] !== '#') return undefined;
  const hex = name[1] === 'x' || name[1] === 'X';
  const digits = name.slice(hex ? 2 : 1);
  if (digits === '' || !(hex ? isHex(digits, 0, digits.length) : [...digits].every((d) => d >= '0' && d <= '9'))) return undefined;
  const cp = parseInt(digits, hex ? 16 : 10);
  return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : undefined;
}

/**
 * The secret values a request carries, to be redacted by value from what is shown of its exchange:
 * the values of its credential headers (and the credential after `Bearer ` or `Basic `, and the
 * password a Basic header encodes), its cookies' values, and its credential-named query values.
 */
export function requestSecrets(headers: Record<string, string | string[] | undefined>, query: Iterable<[string, string]> = []): string[] {
  const out: string[] = [];
  for (const [name, v] of Object.entries(headers)) {
    if (v === undefined || !isSecretHeader(name)) continue;
    for (const value of Array.isArray(v) ? v : [v]) {
      out.push(value);
      const lower = name.toLowerCase();
      if (lower === 'cookie' || lower === 'cookie2' || lower === 'set-cookie' || lower === 'set-cookie2') {
        const pairs = lower.startsWith('set-') ? [value.split(';')[0]] : value.split(';');
        for (const p of pairs) {
          const eq = p.indexOf('=');
          if (eq >= 0) out.push(p.slice(eq + 1).trim());
        }
        continue;
      }
      // `Bearer <token>`, `Basic <base64>`: the credential after the scheme, alone too.
      const words = value
        .trim()
        .split(' ')
        .filter((w) => w !== '');
      if (words.length !== 2) continue;
      out.push(words[1]);
      if (words[0].toLowerCase() === 'basic') {
        const pair = Buffer.from(words[1], 'base64').toString('utf8');
        const colon = pair.indexOf(':');
        if (colon >= 0) out.push(pair, pair.slice(colon + 1));
      }
    }
  }
  for (const [name, value] of query) if (isSecretHeader(name) || isCredentialName(name)) out.push(value);
  return out;
}

/** A URL as a message may show it: a user name and password replaced by ***, credential-named query values too. */
export function shownUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return redactQuery(url);
  }
  // Nothing to hide in the user part: the URL as it was given (`new URL` would add a `/` to a bare origin).
  if (!u.username && !u.password) return redactQuery(url);
  u.username = REDACTED;
  u.password = '';
  return redactQuery(u.href);
}
