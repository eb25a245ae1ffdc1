import { tokensOfTags, wantsHttps, type WsSecurityToken } from '../http/ws-security';
import { wantsAddressing } from '../http/ws-addressing';
import type { Hit } from './model';

/** What each requirement is called in a finding, and the tag it is read from. */
const WORDS: Record<WsSecurityToken | 'https' | 'addressing', string> = {
  https: 'HTTPS (@https)',
  UsernameToken: 'a WS-Security UsernameToken (@ws-security:UsernameToken)',
  PasswordDigest: 'a WS-Security UsernameToken with a password digest (@ws-security:PasswordDigest)',
  Timestamp: 'a WS-Security Timestamp (@ws-security:Timestamp)',
  Signature: 'an X.509 signature of the Body and the Timestamp (@ws-security:Signature)',
  addressing: 'WS-Addressing headers (@ws-addressing)',
};

function requirements(tags: readonly string[]): Set<keyof typeof WORDS> {
  const out = new Set<keyof typeof WORDS>(tokensOfTags(tags));
  if (wantsHttps(tags)) out.add('https');
  if (wantsAddressing(tags)) out.add('addressing');
  return out;
}

/**
 * What the newer scenario's protection asks beyond the older's, one hit each. A digest is more
 * than a PasswordText token (older clients send the text); a signature brings a Timestamp with it,
 * so a Timestamp where the older signed is nothing new. Less than before is compatible: a provider
 * takes the token it no longer asks for (the stub does, and WSS4J and WCF ignore a Timestamp
 * they do not require).
 */
export function protectionAdded(olderTags: readonly string[], newerTags: readonly string[]): Hit[] {
  const older = requirements(olderTags);
  const newer = requirements(newerTags);
  if (older.has('Signature')) older.add('Timestamp');
  if (older.has('PasswordDigest')) older.add('UsernameToken');
  const had = older.size === 0 ? 'the older contract asked for none' : `the older contract asked for ${[...older].map((k) => WORDS[k]).join(', ')}`;
  const hits: Hit[] = [];
  for (const k of newer) {
    if (older.has(k)) continue;
    // A digest where the older asked for a text token: still the one new requirement, said once.
    if (k === 'UsernameToken' && newer.has('PasswordDigest')) continue;
    hits.push({ path: 'REQUEST', older: had, newer: WORDS[k] });
  }
  return hits;
}
