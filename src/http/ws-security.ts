import { createHash, randomBytes } from 'node:crypto';
import { AccordError } from '../errors';
import { parseXml, parseXmlOrUndefined } from '../xml/parse';
import { escapeText, serializeXml } from '../xml/serialize';
import { elementChildren, type XmlElement } from '../xml/tree';
import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from './message';

/**
 * WS-Security (OASIS SOAP Message Security 1.1) as accord writes it into a request and checks
 * it in one: a UsernameToken (PasswordText or PasswordDigest, UsernameToken Profile 1.1), a
 * Timestamp, and an X.509 signature of the Body and the Timestamp with a BinarySecurityToken
 * (X.509 Token Profile; exclusive c14n, RSA-SHA256, SHA-256 digests). The XML-DSig work is
 * xml-crypto's, not ours.
 */
export const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
export const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const PROFILE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0';
export const PASSWORD_TEXT = `${PROFILE}#PasswordText`;
export const PASSWORD_DIGEST = `${PROFILE}#PasswordDigest`;
export const BASE64_BINARY = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';
export const X509V3 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3';
export const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

/** What a contract asks for; tags `@ws-security:<token>` on a Feature or Scenario name them, case aside. */
export const WS_SECURITY_TOKENS = ['UsernameToken', 'PasswordDigest', 'Timestamp', 'Signature'] as const;
export type WsSecurityToken = (typeof WS_SECURITY_TOKENS)[number];
export const WS_SECURITY_TAG = '@ws-security';
/** A contract tag: the provider takes requests over HTTPS only (the importer writes it for a WS-SecurityPolicy TransportBinding); the runner refuses to send to a base URL that is not https. */
export const HTTPS_TAG = '@https';

/** Whether a scenario's tags ask for HTTPS. */
export function wantsHttps(tags: readonly string[]): boolean {
  return tags.some((t) => t.toLowerCase() === HTTPS_TAG);
}

/** The tokens a scenario's tags ask for (`@ws-security` alone means a UsernameToken). */
export function tokensOfTags(tags: readonly string[]): WsSecurityToken[] {
  const out = new Set<WsSecurityToken>();
  for (const tag of tags) {
    const t = tag.toLowerCase();
    if (t === WS_SECURITY_TAG) out.add('UsernameToken');
    else if (t.startsWith(`${WS_SECURITY_TAG}:`)) {
      const named = WS_SECURITY_TOKENS.find((k) => k.toLowerCase() === t.slice(WS_SECURITY_TAG.length + 1));
      if (named) out.add(named);
    }
  }
  return [...out];
}

/** Tags that start like a WS-Security tag but name no token: reported, not ignored. */
export function unknownSecurityTags(tags: readonly string[]): string[] {
  return tags.filter((t) => {
    const l = t.toLowerCase();
    return l.startsWith(`${WS_SECURITY_TAG}:`) && !WS_SECURITY_TOKENS.some((k) => k.toLowerCase() === l.slice(WS_SECURITY_TAG.length + 1));
  });
}

/** What to put in a request's Security header; the secrets are already read (no file or variable here). */
export interface WsSecurityWrite {
  username?: { name: string; password: string; digest: boolean };
  /** Seconds from Created to Expires; no Timestamp when undefined. */
  timestampTtlSeconds?: number;
  signature?: { certificatePem: string; privateKeyPem: string; passphrase?: string };
  /** Test hooks for negative tests: a wrong digest, a timestamp in the past. */
  breakDigest?: boolean;
  expiredTimestamp?: boolean;
  now?: Date;
}

/** `2026-11-27T13:05:00.123Z`: xs:dateTime in UTC, as both profiles ask. */
export function utc(d: Date): string {
  return d.toISOString();
}

/** Base64(SHA-1(nonce + created + password)), the nonce's bytes, not its base64 text (UsernameToken Profile 1.1, 3.1). */
export function passwordDigest(nonce: Buffer, created: string, password: string): string {
  return createHash('sha1')
    .update(Buffer.concat([nonce, Buffer.from(created, 'utf8'), Buffer.from(password, 'utf8')]))
    .digest('base64');
}

/** A SOAP envelope's parts, or an AccordError saying why the text is not one. */
export function soapParts(root: XmlElement): { version: '1.1' | '1.2'; envelope: XmlElement; header?: XmlElement; body?: XmlElement } | undefined {
  if (root.local !== 'Envelope') return undefined;
  const ns = namespaceOf(root, []);
  if (ns !== SOAP11_ENVELOPE && ns !== SOAP12_ENVELOPE) return undefined;
  const kids = elementChildren(root);
  return {
    version: ns === SOAP12_ENVELOPE ? '1.2' : '1.1',
    envelope: root,
    header: kids.find((k) => k.local === 'Header'),
    body: kids.find((k) => k.local === 'Body'),
  };
}

/** The namespace of an element, from its own declarations and its ancestors' (`ancestors` nearest last). */
export function namespaceOf(el: XmlElement, ancestors: readonly XmlElement[]): string | undefined {
  const want = el.prefix ? `xmlns:${el.prefix}` : 'xmlns';
  for (const e of [el, ...[...ancestors].reverse()]) {
    const decl = e.attributes.find((a) => a.name === want);
    if (decl) return decl.value;
  }
  return undefined;
}

let idCounter = 0;
function freshId(kind: string): string {
  return `${kind}-${randomBytes(8).toString('hex')}-${++idCounter}`;
}

/**
 * The envelope with a wsse:Security header (first in its Header, a Header made when there is
 * none), fresh Nonce and Created every call; signed when `o.signature` is given. The body of a
 * request that is not a SOAP envelope is given back as it is.
 */
export function addWsSecurity(envelopeText: string, o: WsSecurityWrite): string {
  const root = parseXmlOrUndefined(envelopeText);
  if (!root) return envelopeText;
  const soap = soapParts(root);
  if (!soap || !soap.body) return envelopeText;
  const now = o.now ?? new Date();
  const parts: string[] = [];
  let timestampId: string | undefined;
  let tokenId: string | undefined;
  if (o.signature) {
    tokenId = freshId('X509');
    parts.push(
      `<wsse:BinarySecurityToken EncodingType="${BASE64_BINARY}" ValueType="${X509V3}" wsu:Id="${tokenId}">${pemBody(o.signature.certificatePem)}</wsse:BinarySecurityToken>`,
    );
  }
  if (o.timestampTtlSeconds !== undefined || o.expiredTimestamp) {
    const ttl = (o.timestampTtlSeconds ?? 300) * 1000;
    // An expired one: made and expired well before now, past any sensible clock skew.
    const created = o.expiredTimestamp ? new Date(now.getTime() - 3600_000 - ttl) : now;
    timestampId = freshId('TS');
    parts.push(
      `<wsu:Timestamp wsu:Id="${timestampId}"><wsu:Created>${utc(created)}</wsu:Created><wsu:Expires>${utc(new Date(created.getTime() + ttl))}</wsu:Expires></wsu:Timestamp>`,
    );
  }
  if (o.username) {
    const u = o.username;
    let password: string;
    let rest = '';
    const created = utc(now);
    if (u.digest) {
      const nonce = randomBytes(16);
      const digest = passwordDigest(nonce, created, o.breakDigest ? `${u.password}accord-wrong` : u.password);
      password = `<wsse:Password Type="${PASSWORD_DIGEST}">${digest}</wsse:Password>`;
      rest = `<wsse:Nonce EncodingType="${BASE64_BINARY}">${nonce.toString('base64')}</wsse:Nonce>`;
    } else {
      password = `<wsse:Password Type="${PASSWORD_TEXT}">${escapeText(o.breakDigest ? `${u.password}accord-wrong` : u.password)}</wsse:Password>`;
    }
    parts.push(
      `<wsse:UsernameToken wsu:Id="${freshId('UT')}"><wsse:Username>${escapeText(u.name)}</wsse:Username>${password}${rest}<wsu:Created>${created}</wsu:Created></wsse:UsernameToken>`,
    );
  }
  const mustUnderstand = soap.version === '1.2' ? 'true' : '1';
  const envPrefix = soap.envelope.prefix;
  const security = parseXml(
    `<wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}"${envPrefix ? ` xmlns:${envPrefix}="${soap.version === '1.2' ? SOAP12_ENVELOPE : SOAP11_ENVELOPE}"` : ''} ${envPrefix ? `${envPrefix}:` : ''}mustUnderstand="${mustUnderstand}">${parts.join('')}</wsse:Security>`,
  );
  // The Security element need not declare the envelope's own prefix again: the Envelope does.
  if (envPrefix) security.attributes = security.attributes.filter((a) => a.name !== `xmlns:${envPrefix}`);
  else security.attributes = security.attributes.filter((a) => a.local !== 'mustUnderstand');
  let header = soap.header;
  if (!header) {
    header = { type: 'element', name: envPrefix ? `${envPrefix}:Header` : 'Header', prefix: envPrefix, local: 'Header', attributes: [], children: [] };
    root.children.splice(root.children.indexOf(soap.body), 0, header);
  }
  // Any Security header the contract's own example carried is replaced: one per actor, and this one is accord's.
  header.children = [security, ...header.children.filter((c) => !(c.type === 'element' && c.local === 'Security'))];
  if (!o.signature) return serializeXml(root);
  const bodyId = existingId(soap.body) ?? freshId('Body');
  if (!existingId(soap.body))
    soap.body.attributes.push({ name: 'xmlns:wsu', prefix: 'xmlns', local: 'wsu', value: WSU }, { name: 'wsu:Id', prefix: 'wsu', local: 'Id', value: bodyId });
  return sign(serializeXml(root), o.signature, tokenId!, [bodyId, ...(timestampId ? [timestampId] : [])]);
}

function existingId(el: XmlElement): string | undefined {
  return el.attributes.find((a) => a.local === 'Id' && a.prefix !== 'xmlns')?.value;
}

/** The base64 of a PEM certificate, with no armour or line breaks. */
export function pemBody(pem: string): string {
  const m = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/.exec(pem);
  if (!m) throw new AccordError('ACCORD_ERR_USAGE', 'the WS-Security signing certificate is not a PEM certificate (-----BEGIN CERTIFICATE-----)');
  return m[1].replace(/\s+/g, '');
}

function sign(xml: string, s: NonNullable<WsSecurityWrite['signature']>, tokenId: string, ids: string[]): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- xml-crypto (and its DOM) is loaded only when a request is signed
  const { SignedXml } = require('xml-crypto') as typeof import('xml-crypto');
  const signer = new SignedXml({
    idMode: 'wssecurity',
    privateKey: s.passphrase === undefined ? s.privateKeyPem : ({ key: s.privateKeyPem, passphrase: s.passphrase } as unknown as string),
    canonicalizationAlgorithm: EXC_C14N,
    signatureAlgorithm: RSA_SHA256,
    getKeyInfoContent: () => `<wsse:SecurityTokenReference><wsse:Reference URI="#${tokenId}" ValueType="${X509V3}"/></wsse:SecurityTokenReference>`,
  });
  for (const id of ids) signer.addReference({ xpath: `//*[@*[local-name(.)='Id']='${id}']`, transforms: [EXC_C14N], digestAlgorithm: SHA256 });
  try {
    signer.computeSignature(xml, {
      prefix: 'ds',
      location: { reference: `//*[local-name(.)='Security' and namespace-uri(.)='${WSSE}']`, action: 'append' },
      existingPrefixes: { wsse: WSSE, wsu: WSU },
    });
  } catch (e) {
    throw new AccordError('ACCORD_ERR_USAGE', `cannot sign the request with the WS-Security key: ${(e as Error).message}`, {}, { cause: e });
  }
  return signer.getSignedXml();
}
