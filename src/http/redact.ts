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

/** A path whose query parameters named like credentials or sessions (`access_token`, `sessionid`, `apikey`) have their values redacted. */
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
      return isSecretHeader(name) ? `${kv.slice(0, eq)}=${encodeURIComponent(REDACTED)}` : kv;
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
 * One pass over the text per secret, longest first (so a secret that contains another is replaced whole):
 * a single expression of every secret is slower by far, irregexp then tries each alternative at each character.
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const re of secretPatterns(secrets)) {
    re.lastIndex = 0;
    out = out.replace(re, REDACTED);
  }
  return out;
}

/** The compiled patterns of the last few sets of secrets (a run's set changes only when an OAuth2 token is fetched). */
const compiled = new Map<string, RegExp[]>();
const COMPILED_KEPT = 16;

function secretPatterns(secrets: Iterable<string>): RegExp[] {
  const values = [...new Set(secrets)].filter((s) => s.length >= MIN_REDACTED_LENGTH).sort((a, b) => b.length - a.length);
  if (values.length === 0) return [];
  const key = values.join('\0');
  let res = compiled.get(key);
  if (res === undefined) {
    res = values.map((v) => new RegExp([v, ...base64Forms(v)].map(encodedForms).join('|'), 'g'));
    if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, res);
  }
  return res;
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
    const all = Buffer.concat([Buffer.alloc(k), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    const total = k + bytes.length;
    const start = k === 0 ? 0 : k === 1 ? 2 : 3;
    const end = Math.floor(total / 3) * 4 + (total % 3 === 0 ? 0 : total % 3 === 1 ? 1 : 2);
    const run = all.slice(start, end);
    if (run.length < MIN_BASE64_CHARS) continue;
    out.push(run);
    const urlSafe = run.replace(/\+/g, '-').replace(/\//g, '_');
    if (urlSafe !== run) out.push(urlSafe);
  }
  return out;
}

/** A regular expression source matching `value` with each character as it is or in any one encoded form. */
function encodedForms(value: string): string {
  let out = '';
  for (const ch of value) out += charForms(ch);
  return out;
}

const JSON_SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const XML_NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Every form of one character: a group of literal alternatives, no nested repetition (linear to match). */
function charForms(ch: string): string {
  const cp = ch.codePointAt(0)!;
  const forms = [escapeRegex(ch)];
  if (ch === ' ') forms.push('\\+');
  // Percent-encoded UTF-8, each byte once or twice encoded (`%2F`, `%2f`, `%252F`).
  forms.push([...Buffer.from(ch, 'utf8')].map((b) => `%(?:25)?${hexClass(b, 2)}`).join(''));
  // JSON: the short escapes and \uXXXX of each UTF-16 unit.
  if (JSON_SHORT[ch]) forms.push(escapeRegex(JSON_SHORT[ch]));
  let units = '';
  for (let i = 0; i < ch.length; i++) units += `\\\\u${hexClass(ch.charCodeAt(i), 4)}`;
  forms.push(units);
  // XML: named and numeric character references.
  if (XML_NAMED[ch]) forms.push(escapeRegex(XML_NAMED[ch]));
  forms.push(`&#[xX]0*${hexClass(cp, 1)};`, `&#0*${cp};`);
  return `(?:${forms.join('|')})`;
}

/** `n` in hexadecimal, at least `width` digits, each letter digit matching either case: `2[fF]`. */
function hexClass(n: number, width: number): string {
  return n
    .toString(16)
    .padStart(width, '0')
    .replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`);
}

function escapeRegex(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
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
      if (/^(cookie|set-cookie)2?$/i.test(name)) {
        const pairs = name.toLowerCase().startsWith('set-') ? [value.split(';')[0]] : value.split(';');
        for (const p of pairs) {
          const eq = p.indexOf('=');
          if (eq >= 0) out.push(p.slice(eq + 1).trim());
        }
        continue;
      }
      const scheme = /^\s*(\S+)\s+(\S+)\s*$/.exec(value);
      if (!scheme) continue;
      out.push(scheme[2]);
      if (scheme[1].toLowerCase() === 'basic') {
        const pair = Buffer.from(scheme[2], 'base64').toString('utf8');
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
  if (u.username || u.password) {
    u.username = REDACTED;
    u.password = '';
  }
  return redactQuery(u.href);
}
