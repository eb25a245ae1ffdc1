import { HIDDEN } from '../http/credentials';
import type { Redaction } from '../http/redact';

/**
 * What accord never shows of a run with credentials: the values of Authorization, Proxy-Authorization,
 * Cookie and Set-Cookie headers, of the headers the configuration adds from a secret, and every
 * secret value itself (each value read through an `{ env }` reference, a Basic header's base64, an
 * OAuth2 token) wherever it appears and in whatever encoding, as `***` (the one redactor,
 * http/redact.ts). Applied to every report the runner writes, before Jest (and so the terminal,
 * `--json`, jest-junit, GitHub's annotations and the HTML report) sees it.
 */
export { DEFAULT_REDACTION, MIN_REDACTED_LENGTH, redaction, type Redaction } from '../http/redact';

/** `name: value` lines of headers as shown in a report. */
export function headerLines(headers: Record<string, string>, r: Redaction, indent = '  '): string[] {
  return Object.entries(headers).map(([k, v]) => `${indent}${k}: ${r.hidesHeader(k) ? HIDDEN : v}`);
}
