import { createHash, timingSafeEqual, verify, type X509Certificate } from 'node:crypto';
import type { Document, Element, Node } from '@xmldom/xmldom';
import { WS_SECURITY_LIMITS } from '../limits';
import { quoted } from '../printable';
import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from './message';
import { EXC_C14N, WSSE, WSU } from './ws-security';

/**
 * The XML Signature of a WS-Security header, checked with bounded work before any digest is
 * computed. xml-crypto's `checkSignature` searches the whole document once per Reference (three
 * XPath scans for the id, one for its namespaces) and checks the SignatureValue last, so a
 * SignedInfo repeating one Reference a thousand times, signed or not, held the stub for minutes.
 * Here the document is walked once (every id, every ds:Signature), the SignedInfo's shape is read
 * and bounded (`WS_SECURITY_LIMITS`: References, Transforms, algorithms from a short list), each
 * Reference must name a distinct element that exists exactly once and is the Body, a header block
 * or a token of the Security header (disjoint parts, so all digests together read the message at
 * most once), and the SignatureValue is verified before any Reference is digested. The canonical
 * forms are xml-crypto's (its c14n classes); the rest is the XML-DSig core validation of one
 * signature whose References are same-document ids.
 */
export interface SignatureRefusal {
  code: 'InvalidSecurity' | 'FailedCheck' | 'UnsupportedAlgorithm';
  reason: string;
}

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
const SHA1_SIGNATURE = `${DSIG}rsa-sha1`;
const SHA1_DIGEST = `${DSIG}sha1`;
/** Signature methods read: RSA with SHA-2 (SHA-1 only when the settings allow it). */
const SIGNATURE_METHODS: Record<string, string> = {
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384': 'sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': 'sha512',
  [SHA1_SIGNATURE]: 'sha1',
};
const DIGEST_METHODS: Record<string, { hash: string; bytes: number }> = {
  'http://www.w3.org/2001/04/xmlenc#sha256': { hash: 'sha256', bytes: 32 },
  'http://www.w3.org/2001/04/xmldsig-more#sha384': { hash: 'sha384', bytes: 48 },
  'http://www.w3.org/2001/04/xmlenc#sha512': { hash: 'sha512', bytes: 64 },
  [SHA1_DIGEST]: { hash: 'sha1', bytes: 20 },
};
/** Canonicalizations (of SignedInfo, and as a Reference's Transform): exclusive and inclusive c14n, without comments. */
const C14N_METHODS = new Set([EXC_C14N, C14N]);
/** The enveloped-signature Transform (the soap package writes it): nothing, as no part a Reference may name holds the Signature. */
const ENVELOPED = `${DSIG}enveloped-signature`;

export interface SignatureOptions {
  /** Accept rsa-sha1 and sha1 digests (refused by default, as WS-SecurityPolicy's SHA-256 suites do). */
  allowSha1: boolean;
}

/** What a verified signature covers: whether the SOAP Body and the Security header's wsu:Timestamp are among its References. */
export interface Covered {
  body: boolean;
  timestamp: boolean;
}

const refuse = (reason: string, code: SignatureRefusal['code'] = 'InvalidSecurity'): SignatureRefusal => ({ code, reason });

const isElement = (n: Node | null | undefined): n is Element => !!n && n.nodeType === 1;

function elementsOf(el: Element): Element[] {
  const out: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) if (isElement(c)) out.push(c);
  return out;
}

/** Non-element content (other than white space) where XML-DSig allows only elements. */
function hasText(el: Element): boolean {
  for (let c = el.firstChild; c; c = c.nextSibling) if ((c.nodeType === 3 || c.nodeType === 4) && /\S/.test((c as unknown as { data: string }).data)) return true;
  return false;
}

function textOf(el: Element): string {
  let s = '';
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3 || c.nodeType === 4) s += (c as unknown as { data: string }).data;
  return s;
}

const is = (el: Element | undefined, ns: string, local: string): el is Element => !!el && el.localName === local && el.namespaceURI === ns;

/** Base64 as XSD base64Binary writes it (white space between characters allowed, as xmlsec breaks lines); undefined when it is not. */
function base64(text: string, maxChars: number): Buffer | undefined {
  if (text.length > maxChars) return undefined;
  const s = text.replace(/\s+/g, '');
  if (s.length === 0 || s.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(s)) return undefined;
  return Buffer.from(s, 'base64');
}

function attr(el: Element, name: string): string | undefined {
  return el.hasAttribute(name) ? el.getAttribute(name)! : undefined;
}

type C14n = { process(node: Element, options: object): string };

function canonical(algorithm: string, el: Element, prefixes: string[] | undefined): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- xml-crypto is loaded only for a signed request
  const lib = require('xml-crypto') as typeof import('xml-crypto');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above; the namespaces in scope at the element, as xml-crypto's own check computes them
  const { findAncestorNsForElement } = require('xml-crypto/lib/utils') as { findAncestorNsForElement(el: Element): { prefix: string; namespaceURI: string }[] };
  const c14n: C14n = algorithm === EXC_C14N ? new lib.ExclusiveCanonicalization() : new lib.C14nCanonicalization();
  const ancestorNamespaces = findAncestorNsForElement(el);
  // Not a copy (a deep clone costs more than the rest of the check): a PrefixList makes the canonicalizer declare those
  // prefixes on the element itself, and each element is canonicalized once, none inside another, the document thrown away after.
  return c14n.process(el, { inclusiveNamespacesPrefixList: prefixes, ancestorNamespaces });
}

/** The PrefixList of an exclusive c14n's ec:InclusiveNamespaces (its only child allowed); a refusal for anything else. */
function inclusivePrefixes(method: Element, what: string): string[] | undefined | SignatureRefusal {
  const kids = elementsOf(method);
  if (kids.length === 0) return undefined;
  const algorithm = attr(method, 'Algorithm');
  if (kids.length > 1 || algorithm !== EXC_C14N || kids[0].localName !== 'InclusiveNamespaces' || elementsOf(kids[0]).length > 0)
    return refuse(`the ${what} has content the stub does not read (only an ec:InclusiveNamespaces of exclusive c14n)`, 'UnsupportedAlgorithm');
  const list = (attr(kids[0], 'PrefixList') ?? '').trim();
  const prefixes = list === '' ? [] : list.split(/\s+/);
  if (prefixes.length > WS_SECURITY_LIMITS.inclusivePrefixes)
    return refuse(`the ${what}'s InclusiveNamespaces PrefixList names more than ${WS_SECURITY_LIMITS.inclusivePrefixes} prefixes`);
  return prefixes.map((p) => (p === '#default' ? '' : p));
}

interface Reference {
  uri: string;
  target: Element;
  transforms: { algorithm: string; prefixes: string[] | undefined }[];
  hash: string;
  digest: Buffer;
}

/**
 * Verifies the one ds:Signature of a signed SOAP request with the (already trusted) certificate:
 * a refusal, or what it covers.
 */
export function verifyWsSignature(text: string, cert: X509Certificate, o: SignatureOptions): SignatureRefusal | Covered {
  if (text.length > WS_SECURITY_LIMITS.signedChars) return refuse(`a signed request is checked up to ${WS_SECURITY_LIMITS.signedChars} characters; this one has ${text.length}`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- xmldom is loaded only for a signed request
  const { DOMParser } = require('@xmldom/xmldom') as typeof import('@xmldom/xmldom');
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, msg) => {
        if (level !== 'warning') throw new SyntaxError(msg);
      },
    }).parseFromString(text, 'text/xml');
  } catch {
    return refuse('the signed request is not well-formed XML');
  }
  const root = doc.documentElement;
  if (!root) return refuse('the signed request is not well-formed XML');
  const soap = root.namespaceURI;
  if (root.localName !== 'Envelope' || (soap !== SOAP11_ENVELOPE && soap !== SOAP12_ENVELOPE)) return refuse('the request is not a SOAP envelope');

  // One walk: every element's id (any attribute named Id, ID or id, of any namespace, as xml-crypto reads ids) and every ds:Signature.
  const ids = new Map<string, Element | null>();
  const signatures: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (is(el, DSIG, 'Signature')) signatures.push(el);
    for (let i = 0; i < el.attributes.length; i++) {
      const a = el.attributes[i];
      if ((a.localName === 'Id' || a.localName === 'ID' || a.localName === 'id') && a.prefix !== 'xmlns') ids.set(a.value, ids.has(a.value) ? null : el);
    }
    for (let c = el.lastChild; c; c = c.previousSibling) if (isElement(c)) stack.push(c);
  }
  if (signatures.length !== 1) return refuse(`expected one ds:Signature in the request, found ${signatures.length}`);
  const signature = signatures[0];

  const parts = elementsOf(root);
  const header = parts.find((e) => is(e, soap, 'Header'));
  const body = parts.find((e) => is(e, soap, 'Body'));
  // Nothing else beside them: a second Body (or one of another namespace) is where an unsigned copy of the message would hide.
  if (parts.length !== (header ? 2 : 1) || !body || parts[parts.length - 1] !== body || parts.some((e) => e.localName === 'Body' && e !== body))
    return refuse('a signed envelope holds one Header and one Body and nothing else');
  const security = signature.parentNode;
  if (!isElement(security) || !is(security, WSSE, 'Security') || security.parentNode !== header || !header)
    return refuse('the ds:Signature is not a child of the wsse:Security header');

  const [signedInfo, signatureValue, ...rest] = elementsOf(signature);
  if (!is(signedInfo, DSIG, 'SignedInfo') || !is(signatureValue, DSIG, 'SignatureValue') || rest.length > 1 || (rest.length === 1 && !is(rest[0], DSIG, 'KeyInfo')))
    return refuse('the ds:Signature is not SignedInfo, SignatureValue and KeyInfo (in that order, once each)');
  const [c14nMethod, signatureMethod, ...references] = elementsOf(signedInfo);
  if (!is(c14nMethod, DSIG, 'CanonicalizationMethod') || !is(signatureMethod, DSIG, 'SignatureMethod'))
    return refuse('the ds:SignedInfo does not start with CanonicalizationMethod and SignatureMethod');
  if (hasText(signedInfo) || hasText(signature)) return refuse('the ds:Signature has text where XML-DSig has elements only');
  const c14nAlgorithm = attr(c14nMethod, 'Algorithm') ?? '';
  if (!C14N_METHODS.has(c14nAlgorithm))
    return refuse(`the SignedInfo's CanonicalizationMethod ${quoted(c14nAlgorithm)} is not exclusive or inclusive c14n`, 'UnsupportedAlgorithm');
  const signedInfoPrefixes = inclusivePrefixes(c14nMethod, 'CanonicalizationMethod');
  if (signedInfoPrefixes && !Array.isArray(signedInfoPrefixes)) return signedInfoPrefixes;
  const signatureAlgorithm = attr(signatureMethod, 'Algorithm') ?? '';
  const signatureHash = SIGNATURE_METHODS[signatureAlgorithm];
  if (!signatureHash || elementsOf(signatureMethod).length > 0)
    return refuse(`the SignatureMethod ${quoted(signatureAlgorithm)} is not RSA with SHA-256, SHA-384 or SHA-512`, 'UnsupportedAlgorithm');
  if (signatureAlgorithm === SHA1_SIGNATURE && !o.allowSha1)
    return refuse('the SignatureMethod is rsa-sha1, refused (SHA-1; "allowSha1": true in the settings accepts it)', 'UnsupportedAlgorithm');
  if (references.length === 0) return refuse('the ds:SignedInfo has no Reference');
  if (references.length > WS_SECURITY_LIMITS.references) return refuse(`the ds:SignedInfo has ${references.length} References; at most ${WS_SECURITY_LIMITS.references} are read`);

  const read: Reference[] = [];
  const uris = new Set<string>();
  for (const ref of references) {
    const r = readReference(ref, uris, ids, { body, header, security, signature }, o);
    if ('reason' in r) return r;
    read.push(r);
  }

  // The SignatureValue first: only a holder of a trusted key gets the References digested.
  const value = base64(textOf(signatureValue), WS_SECURITY_LIMITS.signatureValueChars);
  if (!value) return refuse('the ds:SignatureValue is not base64 (or is too long)');
  if (cert.publicKey.asymmetricKeyType !== 'rsa') return refuse("the signing certificate's key is not RSA", 'UnsupportedAlgorithm');
  let ok: boolean;
  try {
    ok = verify(signatureHash, Buffer.from(canonical(c14nAlgorithm, signedInfo, signedInfoPrefixes), 'utf8'), cert.publicKey, value);
  } catch (e) {
    return refuse(`the signature does not verify: ${(e as Error).message.slice(0, 200)}`, 'FailedCheck');
  }
  if (!ok) return refuse("the signature does not verify: the SignatureValue is not the signing key's over the SignedInfo", 'FailedCheck');
  for (const r of read) {
    let out: string;
    try {
      // No Transform: an element is canonicalized with inclusive c14n (XML-DSig 4.4.3.2).
      const steps = r.transforms.length > 0 ? r.transforms : [{ algorithm: C14N, prefixes: undefined }];
      if (steps.length > 1) return refuse(`the Reference ${quoted(r.uri)} chains Transforms the stub does not read`, 'UnsupportedAlgorithm');
      out = canonical(steps[0].algorithm, r.target, steps[0].prefixes);
    } catch (e) {
      return refuse(`the signature does not verify: ${(e as Error).message.slice(0, 200)}`, 'FailedCheck');
    }
    const digest = createHash(r.hash).update(out, 'utf8').digest();
    if (!timingSafeEqual(digest, r.digest)) return refuse(`the signature does not verify: a signed part was changed (Reference ${quoted(r.uri)})`, 'FailedCheck');
  }
  const timestamps = elementsOf(security).filter((e) => is(e, WSU, 'Timestamp'));
  const targets = new Set(read.map((r) => r.target));
  return { body: !!body && targets.has(body), timestamp: timestamps.length === 1 && targets.has(timestamps[0]) };
}

function readReference(
  ref: Element,
  uris: Set<string>,
  ids: Map<string, Element | null>,
  at: { body?: Element; header: Element; security: Element; signature: Element },
  o: SignatureOptions,
): Reference | SignatureRefusal {
  if (!is(ref, DSIG, 'Reference')) return refuse(`the ds:SignedInfo has a ${quoted((ref as Element).localName ?? '')} where only References may follow`);
  const uri = attr(ref, 'URI');
  // A same-document reference by id: no whole document (""), no XPointer, nothing outside the message.
  if (uri === undefined || !/^#[^\s#'"()]{1,256}$/.test(uri)) return refuse(`a Reference's URI ${quoted(uri ?? '(none)')} is not "#" and an id`, 'UnsupportedAlgorithm');
  if (uris.has(uri)) return refuse(`the ds:SignedInfo names ${quoted(uri)} in more than one Reference`);
  uris.add(uri);
  const target = ids.get(uri.slice(1));
  if (target === undefined) return refuse(`a Reference names ${quoted(uri)}, which no element of the request has`, 'FailedCheck');
  if (target === null) return refuse(`more than one element has the id ${quoted(uri)} (a signature-wrapping shape)`, 'FailedCheck');
  // What a WS-Security signature covers: the Body, a header block, or a token of the Security header; never the Security header or the Signature itself, nor a part of another covered element.
  const parent = target.parentNode;
  const allowed = target === at.body || (parent === at.header && target !== at.security) || (parent === at.security && target !== at.signature);
  if (!allowed) return refuse(`a Reference names ${quoted(uri)}, which is not the SOAP Body, a header block or a token of the wsse:Security header`);
  const kids = elementsOf(ref);
  let i = 0;
  const transforms: Reference['transforms'] = [];
  if (is(kids[i], DSIG, 'Transforms')) {
    const list = elementsOf(kids[i]);
    if (list.length === 0 || list.length > WS_SECURITY_LIMITS.transforms)
      return refuse(`a Reference has ${list.length} Transforms; 1 to ${WS_SECURITY_LIMITS.transforms} are read`);
    for (const t of list) {
      const algorithm = attr(t, 'Algorithm') ?? '';
      if (is(t, DSIG, 'Transform') && algorithm === ENVELOPED && elementsOf(t).length === 0) continue;
      if (!is(t, DSIG, 'Transform') || !C14N_METHODS.has(algorithm))
        return refuse(`a Reference's Transform ${quoted(algorithm)} is not exclusive or inclusive c14n (no XPath, XSLT or other transforms)`, 'UnsupportedAlgorithm');
      const prefixes = inclusivePrefixes(t, 'Transform');
      if (prefixes && !Array.isArray(prefixes)) return prefixes;
      transforms.push({ algorithm, prefixes });
    }
    i++;
  }
  const method = kids[i];
  const value = kids[i + 1];
  if (!is(method, DSIG, 'DigestMethod') || !is(value, DSIG, 'DigestValue') || kids.length !== i + 2) return refuse('a Reference is not Transforms, DigestMethod and DigestValue');
  const algorithm = attr(method, 'Algorithm') ?? '';
  const digestMethod = DIGEST_METHODS[algorithm];
  if (!digestMethod || elementsOf(method).length > 0) return refuse(`a Reference's DigestMethod ${quoted(algorithm)} is not SHA-256, SHA-384 or SHA-512`, 'UnsupportedAlgorithm');
  if (algorithm === SHA1_DIGEST && !o.allowSha1)
    return refuse('a Reference\'s DigestMethod is sha1, refused (SHA-1; "allowSha1": true in the settings accepts it)', 'UnsupportedAlgorithm');
  const digest = base64(textOf(value), 256);
  if (!digest || digest.length !== digestMethod.bytes) return refuse(`a Reference's DigestValue is not the base64 of a ${digestMethod.hash} digest`);
  return { uri, target, transforms, hash: digestMethod.hash, digest };
}
