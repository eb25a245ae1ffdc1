import { X509Certificate, timingSafeEqual } from 'node:crypto';
import { WS_SECURITY_LIMITS } from '../limits';
import { textOf, elementChildren, type XmlElement } from '../xml/tree';
import { SOAP11_ENVELOPE, SOAP12_ENVELOPE, type HttpResponse } from './message';
import { escapeText, XML_DECLARATION } from '../xml/serialize';
import { printable } from '../printable';
import { BASE64_BINARY, PASSWORD_DIGEST, PASSWORD_TEXT, WSSE, WSU, namespaceOf, passwordDigest, soapParts, type WsSecurityToken } from './ws-security';
import { WSA } from './ws-addressing';
import { verifyWsSignature } from './ws-security-signature';

/**
 * Checks a request's wsse:Security header against what its contract asks for and the secrets a
 * provider (accord's stub) was given. Every refusal is a value naming the WS-Security fault code
 * (SOAP Message Security 1.1, section 12) and a reason for people; never an exception.
 */
export type WsSecurityFaultCode =
  | 'InvalidSecurity'
  | 'FailedAuthentication'
  | 'MessageExpired'
  | 'FailedCheck'
  | 'InvalidSecurityToken'
  | 'UnsupportedSecurityToken'
  | 'UnsupportedAlgorithm'
  /** Not a WS-Security code: SOAP's own, for a mustUnderstand header block nothing here understands. */
  | 'MustUnderstand';

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
  /** How old a UsernameToken's or a Timestamp's Created may be (and how long a Nonce is remembered). */
  tokenMaxAgeSeconds: number;
  /** Accept SHA-1 signatures and digests (refused by default). */
  allowSha1?: boolean;
  /** Header blocks (by local name) the scenario's contract names, understood whatever their mustUnderstand says. */
  understood?: readonly string[];
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
    // One of each (WS-Security 1.1: at most one Timestamp in a Security header): a second one is where a wrapped, older or unsigned copy hides.
    const seen = new Set<string>();
    for (const c of elementChildren(found.security)) {
      const ns = namespaceOf(c, up);
      const kind = c.local === 'Timestamp' && ns === WSU ? 'timestamp' : c.local === 'UsernameToken' && ns === WSSE ? 'token' : c.local === 'Signature' ? 'signature' : undefined;
      if (c.local === 'BinarySecurityToken' && ns === WSSE) found.binaryTokens.push(c);
      if (!kind) continue;
      if (seen.has(kind)) return { code: 'InvalidSecurity', reason: `more than one ${c.name} in the wsse:Security header` };
      seen.add(kind);
      found[kind] = c;
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
  const notUnderstood = mustUnderstandRefusal(root, c.understood ?? []);
  if (notUnderstood) return notUnderstood;
  const skew = c.clockSkewSeconds * 1000;
  const needs = (t: WsSecurityToken) => required.includes(t);

  if (found.timestamp) {
    const refused = checkTimestamp(found.timestamp, now, skew, c.tokenMaxAgeSeconds * 1000);
    if (refused) return refused;
  } else if (needs('Timestamp')) return { code: 'InvalidSecurity', reason: 'no wsu:Timestamp in the wsse:Security header' };

  if (found.token) {
    const refused = checkUsernameToken(found.token, needs('PasswordDigest'), c, nonces, now);
    if (refused) return refused;
  } else if (needs('UsernameToken') || needs('PasswordDigest')) return { code: 'InvalidSecurity', reason: 'no wsse:UsernameToken in the wsse:Security header' };

  if (found.signature) {
    // What docs/ws-security.md promised and a real provider (WSS4J, WCF) does: a signature covers the Body and a Timestamp, so it cannot be replayed for ever.
    if (!found.timestamp) return { code: 'InvalidSecurity', reason: 'a signed request needs a wsu:Timestamp in the wsse:Security header, covered by the signature' };
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

function checkTimestamp(ts: XmlElement, now: number, skew: number, maxAge: number): WsSecurityRefusal | undefined {
  const createdEl = child(ts, 'Created');
  const expiresEl = child(ts, 'Expires');
  // WS-Security 1.1 (10): a Timestamp has one Created; without it a message carries no age and is fresh for ever.
  if (!createdEl) return { code: 'InvalidSecurity', reason: 'the wsu:Timestamp has no Created' };
  const created = instant(textOf(createdEl));
  const expires = expiresEl ? instant(textOf(expiresEl)) : undefined;
  if (Number.isNaN(created) || Number.isNaN(expires)) return { code: 'InvalidSecurity', reason: 'the wsu:Timestamp has a Created or Expires that is not an xs:dateTime' };
  if (created - skew > now) return { code: 'InvalidSecurity', reason: 'the wsu:Timestamp was created in the future (beyond the allowed clock skew)' };
  if (expires !== undefined && expires < created) return { code: 'InvalidSecurity', reason: 'the wsu:Timestamp expires before it was created' };
  if (expires !== undefined && expires + skew <= now)
    return { code: 'MessageExpired', reason: `the message expired at ${new Date(expires).toISOString()} (wsu:Timestamp/Expires)` };
  // A Timestamp made long ago is stale whatever its Expires says (WSS4J's timeToLive): the same age as a UsernameToken's.
  if (created + maxAge + skew < now) return { code: 'MessageExpired', reason: `the wsu:Timestamp is older than ${maxAge / 1000} s (its Created)` };
  return undefined;
}

/**
 * SOAP 1.1 (4.2.3) and 1.2 (5.2.3): a header block marked mustUnderstand that the receiver does not
 * understand is a MustUnderstand fault, not an answer. The stub understands wsse:Security, the
 * WS-Addressing headers it answers to, and the header blocks the scenario's contract names.
 */
function mustUnderstandRefusal(root: XmlElement, understood: readonly string[]): WsSecurityRefusal | undefined {
  const soap = soapParts(root);
  if (!soap?.header) return undefined;
  const env = soap.version === '1.2' ? SOAP12_ENVELOPE : SOAP11_ENVELOPE;
  for (const block of elementChildren(soap.header)) {
    const flag = block.attributes.find(
      (a) => a.local === 'mustUnderstand' && a.prefix !== '' && a.prefix !== 'xmlns' && namespaceOfPrefix(a.prefix, [root, soap.header, block]) === env,
    );
    if (!flag || !['1', 'true'].includes(flag.value.trim())) continue;
    const ns = namespaceOf(block, [root, soap.header]);
    if ((block.local === 'Security' && ns === WSSE) || ns === WSA || understood.includes(block.local)) continue;
    return { code: 'MustUnderstand', reason: `the header block ${block.name} is marked mustUnderstand and this stub does not understand it (its contract does not name it)` };
  }
  return undefined;
}

function namespaceOfPrefix(prefix: string, scope: readonly (XmlElement | undefined)[]): string | undefined {
  for (const e of [...scope].reverse()) {
    const decl = e?.attributes.find((a) => a.name === `xmlns:${prefix}`);
    if (decl) return decl.value;
  }
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
  const nonce = nonceEl && nonceBytes(nonceEl);
  if (nonce && !Buffer.isBuffer(nonce)) return nonce;
  if (digest) {
    if (!nonce || !createdEl) return { code: 'InvalidSecurity', reason: 'a PasswordDigest needs a Nonce and a Created in the wsse:UsernameToken' };
    if (expected === undefined || !same(textOf(passwordEl).trim(), passwordDigest(nonce, textOf(createdEl).trim(), expected))) return failed;
  } else if (expected === undefined || !same(textOf(passwordEl), expected)) return failed;
  // Remembered by its bytes, what the digest is made of: the same nonce written another way is the same nonce.
  if (nonce && nonces.replayed(`${name}\u0000${nonce.toString('base64')}`, now))
    return { code: 'FailedAuthentication', reason: 'the wsse:Nonce was used before (a replayed request)' };
  return undefined;
}

/**
 * A wsse:Nonce's bytes. Only canonical base64 is read (the alphabet with `+` and `/`, its padding,
 * no white space inside, zero bits after the last character), so one nonce has one spelling; white
 * space around it is the layout of the XML. At least `nonceMinBytes`: a nonce of a byte or two is
 * no defence against a replay within its lifetime.
 */
function nonceBytes(el: XmlElement): Buffer | WsSecurityRefusal {
  const type = el.attributes.find((a) => a.local === 'EncodingType')?.value;
  if (type !== undefined && type !== BASE64_BINARY && !type.endsWith('#Base64Binary'))
    return { code: 'InvalidSecurity', reason: 'the wsse:Nonce EncodingType is not Base64Binary' };
  const text = textOf(el).trim();
  const bytes = text.length <= 4 * WS_SECURITY_LIMITS.nonceBytes && /^[A-Za-z0-9+/]*={0,2}$/.test(text) && text.length % 4 === 0 ? Buffer.from(text, 'base64') : undefined;
  if (!bytes || bytes.toString('base64') !== text)
    return { code: 'InvalidSecurity', reason: 'the wsse:Nonce is not canonical base64 (the + / alphabet, padded, no white space inside)' };
  if (bytes.length < WS_SECURITY_LIMITS.nonceMinBytes || bytes.length > WS_SECURITY_LIMITS.nonceBytes)
    return { code: 'InvalidSecurity', reason: `the wsse:Nonce has ${bytes.length} bytes; ${WS_SECURITY_LIMITS.nonceMinBytes} to ${WS_SECURITY_LIMITS.nonceBytes} are taken` };
  return bytes;
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
  if (textOf(bst).length > WS_SECURITY_LIMITS.tokenChars)
    return { code: 'InvalidSecurityToken', reason: `the wsse:BinarySecurityToken has more than ${WS_SECURITY_LIMITS.tokenChars} characters` };
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
  const covered = verifyWsSignature(text, cert, { allowSha1: c.allowSha1 === true });
  if ('code' in covered) return covered;
  if (!body || !covered.body) return { code: 'FailedCheck', reason: 'the signature does not cover the SOAP Body' };
  if (!covered.timestamp) return { code: 'FailedCheck', reason: 'the signature does not cover the wsu:Timestamp' };
  return undefined;
}

/**
 * The SOAP Fault of the request's version for a refusal: SOAP 1.1 `faultcode` wsse:<code>
 * (status 500); SOAP 1.2 env:Sender with the subcode wsse:<code> (status 400, as the 1.2 HTTP
 * binding gives a Sender fault).
 */
export function wsSecurityFault(soap12: boolean, r: WsSecurityRefusal): HttpResponse {
  const reason = escapeText(r.reason);
  // SOAP's own fault (both versions answer it with 500): the envelope's namespace, not wsse.
  if (r.code === 'MustUnderstand') {
    const body = soap12
      ? `<env:Envelope xmlns:env="${SOAP12_ENVELOPE}"><env:Body><env:Fault><env:Code><env:Value>env:MustUnderstand</env:Value></env:Code><env:Reason><env:Text xml:lang="en">${reason}</env:Text></env:Reason></env:Fault></env:Body></env:Envelope>`
      : `<soap:Envelope xmlns:soap="${SOAP11_ENVELOPE}"><soap:Body><soap:Fault><faultcode>soap:MustUnderstand</faultcode><faultstring>${reason}</faultstring></soap:Fault></soap:Body></soap:Envelope>`;
    return { status: 500, headers: { 'content-type': soap12 ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8' }, body: XML_DECLARATION + body };
  }
  const body = soap12
    ? `<env:Envelope xmlns:env="${SOAP12_ENVELOPE}" xmlns:wsse="${WSSE}"><env:Body><env:Fault><env:Code><env:Value>env:Sender</env:Value>` +
      `<env:Subcode><env:Value>wsse:${r.code}</env:Value></env:Subcode></env:Code><env:Reason><env:Text xml:lang="en">${reason}</env:Text></env:Reason></env:Fault></env:Body></env:Envelope>`
    : `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:wsse="${WSSE}"><soap:Body><soap:Fault><faultcode>wsse:${r.code}</faultcode>` +
      `<faultstring>${reason}</faultstring></soap:Fault></soap:Body></soap:Envelope>`;
  return { status: soap12 ? 400 : 500, headers: { 'content-type': soap12 ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8' }, body: XML_DECLARATION + body };
}
