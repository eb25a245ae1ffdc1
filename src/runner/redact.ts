import { HIDDEN, isCredentialHeader } from '../http/credentials';

/**
 * What accord never shows of a run with credentials: the values of Authorization, Proxy-Authorization,
 * Cookie and Set-Cookie headers, of the headers the configuration adds from a secret, and every
 * secret value itself (each value read through an `{ env }` reference, a Basic header's base64, an
 * OAuth2 token) wherever it appears, as `***`. Applied to every report the runner writes, before Jest
 * (and so the terminal, `--json`, jest-junit and GitHub's annotations) sees it.
 */
export interface Redaction {
  /** Whether a header's value is hidden (name in lower case). */
  hidesHeader(name: string): boolean;
  /** The text with every secret value replaced by ***. */
  text(text: string): string;
}

/** Shorter values are not searched for in text (they would garble it); their headers are still hidden. */
export const MIN_REDACTED_LENGTH = 4;

export function redaction(secretHeaders: readonly string[] = [], secrets: () => Iterable<string> = () => []): Redaction {
  const hidden = new Set(secretHeaders.map((h) => h.toLowerCase()));
  return {
    hidesHeader: (name) => isCredentialHeader(name) || hidden.has(name.toLowerCase()),
    text: (text) => redactText(text, secrets()),
  };
}

/** The same without configured secrets: the credential headers are still hidden. */
export const DEFAULT_REDACTION = redaction();

export function redactText(text: string, secrets: Iterable<string>): string {
  // Longest first, so a secret that contains another is replaced whole.
  const sorted = [...secrets].filter((s) => s.length >= MIN_REDACTED_LENGTH).sort((a, b) => b.length - a.length);
  let out = text;
  for (const s of sorted) if (out.includes(s)) out = out.split(s).join(HIDDEN);
  return out;
}

/** `name: value` lines of headers as shown in a report. */
export function headerLines(headers: Record<string, string>, r: Redaction, indent = '  '): string[] {
  return Object.entries(headers).map(([k, v]) => `${indent}${k}: ${r.hidesHeader(k) ? HIDDEN : v}`);
}
