import { X509Certificate, timingSafeEqual } from 'node:crypto';
import { WS_SECURITY_LIMITS } from '../limits';
import { textOf, elementChildren, type XmlElement } from '../xml/tree';
import { SOAP12_ENVELOPE, type HttpResponse } from './message';
import { escapeText } from '../xml/serialize';
import { printable } from '../printable';
import { PASSWORD_DIGEST, PASSWORD_TEXT, WSSE, WSU, namespaceOf, passwordDigest, soapParts, type WsSecurityToken } from './ws-security';

/**
 * Checks a request's wsse:Security header against what its contract asks for and the secrets a
 * provider (accord's stub) was given. Every refusal is a value naming the WS-Security fault code
 * (SOAP Message Security 1.1, section 12) and a reason for people; never an exception.
 */
export type WsSecurityFaultCode = 'InvalidSecurity' | 'FailedAuthentication' | 'MessageExpired' | 'FailedCheck' | 'InvalidSecurityToken' | 'UnsupportedSecurityToken';

export interface WsSecurityRefusal {
  code: WsSecurityFaultCode;
  reason: string;
}

export interface WsSecurityCheck {
  /** Users and their passwords. */
  users: ReadonlyMap<string, string>;
  /** Certificates whose holders may sign; a token is trusted when it is one of them or is issued and signed by one. */
  trusted: readonly X509Certificate[];
  /** Allowed difference between the sender's clock and this one. */
  clockSkewSeconds: number;
  /** How old a UsernameToken's Created may be (and how long its Nonce is remembered). */
  tokenMaxAgeSeconds: number;
}

/**
 * Nonces seen, each remembered for as long as a token carrying it can be fresh; at most
 * `capacity` at once (the oldest go first), so a flood of requests cannot grow it without bound.
 */
export class NonceCache {
  private readonly seen = new Map<string, number>();
  constructor(
    private readonly capacity: number = WS_SECURITY_LIMITS.nonces,
    private readonly keepMs = 600_000,
  ) {}

  /** true when the nonce was seen (a replay); else remembers it. */
  replayed(key: string, now: number): boolean {
    const until = this.seen.get(key);
    if (until !== undefined && until > now) return true;
    if (until !== undefined) this.seen.delete(key);
    this.seen.set(key, now + this.keepMs);
    for (const [k, t] of this.seen) {
      if (this.seen.size <= this.capacity && t > now) break;
      this.seen.delete(k);
    }
    return false;
  }

  get size(): number {
    return this.seen.size;
  }
}

interface Found {
  security?: XmlElement;
  timestamp?: XmlElement;
  token?: XmlElement;
  signature?: XmlElement;
  binaryTokens: XmlElement[];
}

function findSecurity(root: XmlElement): { found: Found; body?: XmlElement } | WsSecurityRefusal {
  const soap = soapParts(root);
  if (!soap) return { code: 'InvalidSecurity', reason: 'the request is not a SOAP envelope' };
  const found: Found = { binaryTokens: [] };
  const header = soap.header;
  if (header) {
    const blocks = elementChildren(header).filter((c) => c.local === 'Security' && namespaceOf(c, [root, header]) === WSSE);
    if (blocks.length > 1) return { code: 'InvalidSecurity', reason: 'more than one wsse:Security header' };
    found.security = blocks[0];
  }
  if (found.security) {
    const up = [root, header!, found.security];
    for (const c of elementChildren(found.security)) {
      const ns = namespaceOf(c, up);
      if (c.local === 'Timestamp' && ns === WSU) found.timestamp ??= c;
      else if (c.local === 'UsernameToken' && ns === WSSE) found.token ??= c;
      else if (c.local === 'BinarySecurityToken' && ns === WSSE) found.binaryTokens.push(c);
      else if (c.local === 'Signature') found.signature ??= c;
    }
  }
  return { found, body: soap.body };
}

/** `undefined` when the request carries what `required` asks for and everything it carries checks out. */
export function checkWsSecurity(
  text: string,
  root: XmlElement,
  required: readonly WsSecurityToken[],
  c: WsSecurityCheck,
  nonces: NonceCache,
  now = Date.now(),
): WsSecurityRefusal | undefined {
  const located = findSecurity(root);
  if ('code' in located) return located;
  const { found, body } = located;
  if (!found.security) return { code: 'InvalidSecurity', reason: 'no wsse:Security header in the request' };
  const skew = c.clockSkewSeconds * 1000;
  const needs = (t: WsSecurityToken) => required.includes(t);

  if (found.timestamp) {
    const refused = checkTimestamp(found.timestamp, now, skew);
    if (refused) return refused;
  } else if (needs('Timestamp')) return { code: 'InvalidSecurity', reason: 'no wsu:Timestamp in the wsse:Security header' };

  if (found.token) {
    const refused = checkUsernameToken(found.token, needs('PasswordDigest'), c, nonces, now);
    if (refused) return refused;
  } else if (needs('UsernameToken') || needs('PasswordDigest')) return { code: 'InvalidSecurity', reason: 'no wsse:UsernameToken in the wsse:Security header' };

  if (found.signature) {
    const refused = checkSignature(text, found, body, c, now);
    if (refused) return refused;
  } else if (needs('Signature')) return { code: 'InvalidSecurity', reason: 'no ds:Signature in the wsse:Security header' };
  return undefined;
}

function child(el: XmlElement, local: string): XmlElement | undefined {
  return elementChildren(el).find((k) => k.local === local);
}

/** Milliseconds since the epoch of an xs:dateTime; NaN when it is not one. A time without a zone is read as UTC. */
function instant(text: string): number {
  const t = text.trim();
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)?$/.test(t)) return NaN;
  return Date.parse(/(Z|[+-]\d\d:\d\d)$/.test(t) ? t : `${t}Z`);
}

function checkTimestamp(ts: XmlElement, now: number, skew: number): WsSecurityRefusal | undefined {
  const createdEl = child(ts, 'Created');
  const expiresEl = child(ts, 'Expires');
  const created = createdEl ? instant(textOf(createdEl)) : undefined;
  const expires = expiresEl ? instant(textOf(expiresEl)) : undefined;
  if (Number.isNaN(created) || Number.isNaN(expires)) return { code: 'InvalidSecurity', reason: 'the wsu:Timestamp has a Created or Expires that is not an xs:dateTime' };
  if (created !== undefined && created - skew > now) return { code: 'InvalidSecurity', reason: 'the wsu:Timestamp was created in the future (beyond the allowed clock skew)' };
  if (expires !== undefined && expires + skew <= now)
    return { code: 'MessageExpired', reason: `the message expired at ${new Date(expires).toISOString()} (wsu:Timestamp/Expires)` };
  return undefined;
}

function checkUsernameToken(token: XmlElement, digestRequired: boolean, c: WsSecurityCheck, nonces: NonceCache, now: number): WsSecurityRefusal | undefined {
  const nameEl = child(token, 'Username');
  const passwordEl = child(token, 'Password');
  if (!nameEl) return { code: 'InvalidSecurity', reason: 'the wsse:UsernameToken has no Username' };
  const name = textOf(nameEl).trim();
  const expected = c.users.get(name);
  // The same answer for an unknown user and a wrong password: a client learns nothing of who exists.
  const failed: WsSecurityRefusal = { code: 'FailedAuthentication', reason: 'the user name or password is not right' };
  if (!passwordEl) return { code: 'FailedAuthentication', reason: 'the wsse:UsernameToken has no Password' };
  const type = passwordEl.attributes.find((a) => a.local === 'Type')?.value ?? PASSWORD_TEXT;
  const digest = type === PASSWORD_DIGEST || type.endsWith('#PasswordDigest') || type === 'wsse:PasswordDigest';
  if (!digest && type !== PASSWORD_TEXT && !type.endsWith('#PasswordText') && type !== 'wsse:PasswordText')
    return { code: 'UnsupportedSecurityToken', reason: 'the wsse:Password Type is neither PasswordText nor PasswordDigest' };
  if (digestRequired && !digest) return { code: 'InvalidSecurity', reason: 'the contract asks for a PasswordDigest; the request sent its password as PasswordText' };
  const nonceEl = child(token, 'Nonce');
  const createdEl = child(token, 'Created');
  let created: number | undefined;
  if (createdEl) {
    created = instant(textOf(createdEl));
    if (Number.isNaN(created)) return { code: 'InvalidSecurity', reason: 'the wsse:UsernameToken Created is not an xs:dateTime' };
    if (created - c.clockSkewSeconds * 1000 > now) return { code: 'InvalidSecurity', reason: 'the wsse:UsernameToken was created in the future (beyond the allowed clock skew)' };
    if (created + (c.tokenMaxAgeSeconds + c.clockSkewSeconds) * 1000 < now)
      return { code: 'MessageExpired', reason: `the wsse:UsernameToken is older than ${c.tokenMaxAgeSeconds} s (its Created)` };
  }
  if (digest) {
    if (!nonceEl || !createdEl) return { code: 'InvalidSecurity', reason: 'a PasswordDigest needs a Nonce and a Created in the wsse:UsernameToken' };
    const nonce = Buffer.from(textOf(nonceEl).trim(), 'base64');
    if (nonce.length === 0 || nonce.length > WS_SECURITY_LIMITS.nonceBytes) return { code: 'InvalidSecurity', reason: 'the wsse:Nonce is empty or too long' };
    if (expected === undefined || !same(textOf(passwordEl).trim(), passwordDigest(nonce, textOf(createdEl).trim(), expected))) return failed;
  } else if (expected === undefined || !same(textOf(passwordEl), expected)) return failed;
  if (nonceEl) {
    if (nonces.replayed(`${name}\u0000${textOf(nonceEl).trim()}`, now)) return { code: 'FailedAuthentication', reason: 'the wsse:Nonce was used before (a replayed request)' };
  }
  return undefined;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

function idOf(el: XmlElement): string | undefined {
  return el.attributes.find((a) => (a.local === 'Id' || a.local === 'ID' || a.local === 'id') && a.prefix !== 'xmlns')?.value;
}

/** The certificate of the BinarySecurityToken the signature's KeyInfo points at (or the only one). */
function signingCertificate(found: Found): X509Certificate | WsSecurityRefusal {
  const keyInfo = child(found.signature!, 'KeyInfo');
  const str = keyInfo && child(keyInfo, 'SecurityTokenReference');
  const ref = str && child(str, 'Reference');
  const uri = ref?.attributes.find((a) => a.local === 'URI')?.value;
  let bst: XmlElement | undefined;
  if (uri?.startsWith('#')) bst = found.binaryTokens.find((b) => idOf(b) === uri.slice(1));
  else if (found.binaryTokens.length === 1) bst = found.binaryTokens[0];
  if (!bst)
    return { code: 'UnsupportedSecurityToken', reason: 'the signature does not point at a wsse:BinarySecurityToken in the header (only X.509 BinarySecurityTokens are read)' };
  try {
    return new X509Certificate(Buffer.from(textOf(bst).replace(/\s+/g, ''), 'base64'));
  } catch {
    return { code: 'InvalidSecurityToken', reason: 'the wsse:BinarySecurityToken is not an X.509 certificate' };
  }
}

function trusts(cert: X509Certificate, trusted: readonly X509Certificate[]): boolean {
  return trusted.some((t) => t.raw.equals(cert.raw) || (cert.checkIssued(t) && cert.verify(t.publicKey)));
}

function checkSignature(text: string, found: Found, body: XmlElement | undefined, c: WsSecurityCheck, now: number): WsSecurityRefusal | undefined {
  const cert = signingCertificate(found);
  if ('code' in cert) return cert;
  if (c.trusted.length === 0) return { code: 'FailedCheck', reason: 'the request is signed but no certificate is trusted (give trustedCertificates)' };
  if (!trusts(cert, c.trusted))
    return { code: 'InvalidSecurityToken', reason: `the signing certificate (${printable(cert.subject.replace(/\n/g, ', ')).slice(0, 200)}) is not trusted` };
  if (Date.parse(cert.validTo) < now || Date.parse(cert.validFrom) > now) return { code: 'InvalidSecurityToken', reason: 'the signing certificate is outside its validity dates' };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- xml-crypto and its DOM are loaded only for a signed request
  const { SignedXml } = require('xml-crypto') as typeof import('xml-crypto');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  const { DOMParser } = require('@xmldom/xmldom') as typeof import('@xmldom/xmldom');
  const verifier = new SignedXml({ publicCert: cert.toString() });
  let referenced: Set<string>;
  try {
    const doc = new DOMParser().parseFromString(text, 'text/xml');
    const signatures = doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature');
    if (signatures.length !== 1) return { code: 'InvalidSecurity', reason: `expected one ds:Signature in the request, found ${signatures.length}` };
    verifier.loadSignature(signatures[0] as never);
    if (!verifier.checkSignature(text)) return { code: 'FailedCheck', reason: 'the signature does not verify: a signed part was changed' };
    referenced = new Set(verifier.getReferences().map((r) => (r.uri ?? '').replace(/^#/, '')));
  } catch (e) {
    return { code: 'FailedCheck', reason: `the signature does not verify: ${(e as Error).message.slice(0, 200)}` };
  }
  const bodyId = body && idOf(body);
  if (!bodyId || !referenced.has(bodyId)) return { code: 'FailedCheck', reason: 'the signature does not cover the SOAP Body' };
  if (found.timestamp) {
    const tsId = idOf(found.timestamp);
    if (!tsId || !referenced.has(tsId)) return { code: 'FailedCheck', reason: 'the signature does not cover the wsu:Timestamp' };
  }
  return undefined;
}

/**
 * The SOAP Fault of the request's version for a refusal: SOAP 1.1 `faultcode` wsse:<code>
 * (status 500); SOAP 1.2 env:Sender with the subcode wsse:<code> (status 400, as the 1.2 HTTP
 * binding gives a Sender fault).
 */
export function wsSecurityFault(soap12: boolean, r: WsSecurityRefusal): HttpResponse {
  const reason = escapeText(r.reason);
  const body = soap12
    ? `<env:Envelope xmlns:env="${SOAP12_ENVELOPE}" xmlns:wsse="${WSSE}"><env:Body><env:Fault><env:Code><env:Value>env:Sender</env:Value>` +
      `<env:Subcode><env:Value>wsse:${r.code}</env:Value></env:Subcode></env:Code><env:Reason><env:Text xml:lang="en">${reason}</env:Text></env:Reason></env:Fault></env:Body></env:Envelope>`
    : `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:wsse="${WSSE}"><soap:Body><soap:Fault><faultcode>wsse:${r.code}</faultcode>` +
      `<faultstring>${reason}</faultstring></soap:Fault></soap:Body></soap:Envelope>`;
  return { status: soap12 ? 400 : 500, headers: { 'content-type': soap12 ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8' }, body };
}
