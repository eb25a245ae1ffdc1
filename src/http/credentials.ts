/**
 * Headers that carry credentials: their values are never shown in a report nor written to a
 * recording, whoever sent them (`***` instead; src/runner/redact.ts, src/stub/proxy.ts).
 */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

export const HIDDEN = '***';

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase());
}
