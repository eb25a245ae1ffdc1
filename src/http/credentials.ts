import { isSecretHeader, REDACTED } from './redact';

/**
 * Headers that carry credentials or session ids (Authorization, Cookie, X-Api-Key, …: the one
 * list, `isSecretHeader` in redact.ts): their values are never shown in a report nor written to a
 * recording, whoever sent them (`***` instead; src/runner/redact.ts, src/proxy/proxy.ts).
 */
export const HIDDEN = REDACTED;

export function isCredentialHeader(name: string): boolean {
  return isSecretHeader(name);
}

/** The mismatches of a credential header's value, its value hidden: a report about a wrong token must not print the token. */
export function hideCredential<T extends { actual: string }>(name: string, mismatches: T[]): T[] {
  if (mismatches.length === 0 || !isCredentialHeader(name)) return mismatches;
  return mismatches.map((m) => ({ ...m, actual: `${HIDDEN} (the value of ${name} is not shown)` }));
}
