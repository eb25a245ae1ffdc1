/**
 * Headers that carry credentials: their values are never shown in a report nor written to a
 * recording, whoever sent them (`***` instead; src/runner/redact.ts, src/stub/proxy.ts).
 */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

export const HIDDEN = '***';

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase());
}

/** The mismatches of a credential header's value, its value hidden: a report about a wrong token must not print the token. */
export function hideCredential<T extends { actual: string }>(name: string, mismatches: T[]): T[] {
  if (mismatches.length === 0 || !isCredentialHeader(name)) return mismatches;
  return mismatches.map((m) => ({ ...m, actual: `${HIDDEN} (the value of ${name} is not shown)` }));
}
