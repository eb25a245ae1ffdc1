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
 * `pin`). The log importer's Redactor and the proxy's drift report apply the same test.
 */
const CREDENTIAL_NAME = /(password|passwd|passphrase|secret|apikey|api_key|token)$|^(pwd|pin|cvv|cvc|sid)$|password|session|cookie/i;

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

function hideXml(el: XmlElement, inHeader: boolean): void {
  for (const a of el.attributes) if (isCredentialName(a.local)) a.value = REDACTED;
  if (isCredentialName(el.local) || (inHeader && el.local === 'Security')) {
    el.children = [{ type: 'text', value: REDACTED }];
    return;
  }
  for (const c of el.children) if (c.type === 'element') hideXml(c, inHeader || el.local === 'Header');
}

function hideJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(hideJson);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = isCredentialName(k) ? REDACTED : hideJson(x);
  return out;
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
