import type { Element } from '@xmldom/xmldom';
import { placeOf, isElement } from './dom';
import type { LoadedSet } from './load';
import { HTTPS_TAG } from '../http/ws-security';
import { POLICY_LIMITS } from '../limits';

/**
 * WS-Policy attached to a WSDL 1.1 binding (WS-PolicyAttachment), read into the contract tags
 * accord already has: `@https` (sp:TransportBinding), `@ws-security:UsernameToken` /
 * `PasswordDigest` (sp:UsernameToken, with sp:HashPassword), `@ws-security:Timestamp`
 * (sp:IncludeTimestamp), `@ws-security:Signature` (sp:AsymmetricBinding with an X.509 initiator
 * token), `@ws-addressing` (wsam:Addressing) and `@mtom` (wsoma:OptimizedMimeSerialization).
 * Whatever else a policy asks (encryption, issued or Kerberos tokens, secure conversation, ...) is
 * named, with its file and line, as a clause accord does not support; nothing is fetched (a
 * reference to a policy outside the loaded files is reported as such).
 */

export const WSP = ['http://schemas.xmlsoap.org/ws/2004/09/policy', 'http://www.w3.org/ns/ws-policy'];
const SP = [
  'http://schemas.xmlsoap.org/ws/2005/07/securitypolicy',
  'http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702',
  'http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200802',
];
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const ADDRESSING: [string, string][] = [
  ['http://www.w3.org/2007/05/addressing/metadata', 'Addressing'],
  ['http://www.w3.org/2007/02/addressing/metadata', 'Addressing'],
  ['http://www.w3.org/2006/05/addressing/wsdl', 'UsingAddressing'],
  ['http://www.w3.org/2006/02/addressing/wsdl', 'UsingAddressing'],
  ['http://schemas.xmlsoap.org/ws/2004/08/addressing/policy', 'UsingAddressing'],
];
const MTOM: [string, string][] = [
  ['http://schemas.xmlsoap.org/ws/2004/09/policy/optimizedmimeserialization', 'OptimizedMimeSerialization'],
  ['http://www.w3.org/2007/08/soap12-mtom-policy', 'MTOM'],
];

const MAX_ALTERNATIVES = POLICY_LIMITS.alternatives;
const MAX_REFERENCE_DEPTH = POLICY_LIMITS.referenceDepth;

type Alternative = Element[];

export interface OperationPolicy {
  /** Contract tags the effective policy of the operation's input asks for. */
  tags: string[];
  /** `file:line: sp:IssuedToken (…): not supported …`, one line per clause, each clause once per import. */
  unsupported: string[];
  /** Which alternative was taken, and the like. */
  notes: string[];
}

/** What one import reads of policies: an index by id and the clauses already reported. */
export class PolicyReader {
  private readonly byId = new Map<string, Element>();
  private readonly reported = new Set<Element>();
  private readonly noted = new Set<string>();
  /** Each policy element's normal form, formed once however many operations and references reach it. */
  private readonly normal = new Map<Element, Alternative[]>();

  constructor(set: LoadedSet) {
    for (const d of set.wsdls) {
      for (const ns of WSP) {
        const all = d.doc.getElementsByTagNameNS(ns, 'Policy');
        for (let i = 0; i < all.length; i++) {
          const p = all[i];
          const id =
            p.getAttributeNS(WSU, 'Id') ||
            p.getAttribute('Id') ||
            p.getAttributeNS('http://www.w3.org/XML/1998/namespace', 'id') ||
            WSP.map((w) => p.getAttributeNS(w, 'Id')).find(Boolean);
          if (id && !this.byId.has(`#${id}`)) this.byId.set(`#${id}`, p);
          const name = p.getAttribute('Name');
          if (name && !this.byId.has(name)) this.byId.set(name, p);
        }
      }
    }
  }

  /**
   * The effective policy of an operation's input: what is attached to the binding, the binding
   * operation and its input, merged (all of them apply).
   */
  forInput(subjects: (Element | undefined)[]): OperationPolicy {
    const out: OperationPolicy = { tags: [], unsupported: [], notes: [] };
    const expressions: Element[] = [];
    for (const s of subjects) if (s) expressions.push(...this.attached(s, out));
    if (expressions.length === 0) return out;
    // The merge of several policies is the All of them.
    let alternatives: Alternative[] = [[]];
    for (const e of expressions) alternatives = product(alternatives, this.normalise(e, out, 0));
    const chosen = this.choose(alternatives, out);
    const tags = new Set<string>();
    for (const a of chosen) this.assertion(a, tags, out, false);
    if (tags.has('@ws-security:PasswordDigest')) tags.delete('@ws-security:UsernameToken');
    out.tags = [...tags];
    return out;
  }

  /** The policy expressions attached to a subject: `wsp:Policy` children, `wsp:PolicyReference` children, the `wsp:PolicyURIs` attribute. */
  private attached(subject: Element, out: OperationPolicy): Element[] {
    const found: Element[] = [];
    for (let c = subject.firstChild; c; c = c.nextSibling) {
      if (!isElement(c) || !WSP.includes(c.namespaceURI ?? '')) continue;
      if (c.localName === 'Policy') found.push(c);
      else if (c.localName === 'PolicyReference') {
        const p = this.resolve(c.getAttribute('URI') ?? '', c, out);
        if (p) found.push(p);
      }
    }
    for (const ns of WSP) {
      const uris = subject.getAttributeNS(ns, 'PolicyURIs');
      if (uris)
        for (const u of words(uris)) {
          const p = this.resolve(u, subject, out);
          if (p) found.push(p);
        }
    }
    return found;
  }

  private resolve(uri: string, at: Element, out: OperationPolicy): Element | undefined {
    const p = this.byId.get(uri);
    if (p) return p;
    const why = uri.startsWith('#') ? 'no policy in the loaded files has that id' : 'accord reads only policies in the loaded files and fetches nothing';
    this.once(out.unsupported, `${where(at)}: policy reference ${uri.slice(0, 200)} not followed (${why}): what it asks is not in the contract`);
    return undefined;
  }

  /** A policy expression in normal form: its alternatives, each a list of assertions (WS-Policy 1.5, 4.3). */
  private normalise(el: Element, out: OperationPolicy, depth: number): Alternative[] {
    const known = this.normal.get(el);
    if (known) return known;
    const formed = this.form(el, out, depth);
    this.normal.set(el, formed);
    return formed;
  }

  private form(el: Element, out: OperationPolicy, depth: number): Alternative[] {
    const ns = el.namespaceURI ?? '';
    if (WSP.includes(ns)) {
      if (el.localName === 'PolicyReference') {
        if (depth >= MAX_REFERENCE_DEPTH) {
          this.once(
            out.unsupported,
            `${where(el)}: policy reference ${(el.getAttribute('URI') ?? '').slice(0, 200)} not followed (references nested ${MAX_REFERENCE_DEPTH} deep, or circular)`,
          );
          return [[]];
        }
        const p = this.resolve(el.getAttribute('URI') ?? '', el, out);
        return p ? this.normalise(p, out, depth + 1) : [[]];
      }
      const children = kidsOf(el).map((c) => this.normalise(c, out, depth));
      if (el.localName === 'ExactlyOne') {
        const all = children.flat();
        return all.length > MAX_ALTERNATIVES ? all.slice(0, MAX_ALTERNATIVES) : all;
      }
      // Policy and All: every child applies.
      let alts: Alternative[] = [[]];
      for (const c of children) alts = product(alts, c);
      return alts;
    }
    // An assertion. Optional: the provider takes it, and takes messages without it too, so the contract does not require it.
    const optional = WSP.some((w) => el.getAttributeNS(w, 'Optional') === 'true');
    const ignorable = WSP.some((w) => el.getAttributeNS(w, 'Ignorable') === 'true');
    if (optional || ignorable) {
      // MTOM is the Feature's `@mtom` whenever a policy names it (mime.ts): sending MTOM to a provider that takes it is fine.
      if (MTOM.some(([n, l]) => n === ns && l === el.localName)) return [[]];
      this.once(out.notes, `${where(el)}: ${el.tagName} is ${optional ? 'optional' : 'ignorable'} in the policy, so the contract does not require it`);
      return [[]];
    }
    return [[el]];
  }

  /** The alternative taken: the first one accord supports fully, else the first. */
  private choose(alternatives: Alternative[], out: OperationPolicy): Alternative {
    if (alternatives.length === 0) return [];
    if (alternatives.length === 1) return alternatives[0];
    const full = alternatives.findIndex((a) => a.every((x) => this.supported(x, out)));
    const index = full < 0 ? 0 : full;
    const at = alternatives[index][0] ?? alternatives[0][0];
    this.once(
      out.notes,
      `${at ? where(at) : 'policy'}: the policy offers ${alternatives.length} alternatives; accord took the ${ordinal(index + 1)}${full < 0 ? ' (none is fully supported)' : full === 0 ? '' : ' (the first it supports fully)'}`,
    );
    return alternatives[index];
  }

  /** Whether accord supports an assertion fully; notes and unfollowed references found on the way are said as usual. */
  private supported(a: Element, out: OperationPolicy): boolean {
    const failures: string[] = [];
    const before = out.unsupported.length;
    this.assertion(a, new Set(), out, false, failures);
    return failures.length === 0 && out.unsupported.length === before;
  }

  /** One assertion into tags, or a line saying it is not supported. */
  private assertion(a: Element, tags: Set<string>, out: OperationPolicy, signed: boolean, probing?: string[]): void {
    const ns = a.namespaceURI ?? '';
    const local = a.localName ?? '';
    const no = (why: string) => {
      if (probing) {
        probing.push(why);
        return;
      }
      if (this.reported.has(a)) return;
      this.reported.add(a);
      out.unsupported.push(`${where(a)}: ${a.tagName} (${ns}) is not supported: ${why}`);
    };
    if (ADDRESSING.some(([n, l]) => n === ns && l === local)) return void tags.add('@ws-addressing');
    if (MTOM.some(([n, l]) => n === ns && l === local)) return void tags.add('@mtom');
    if (!SP.includes(ns)) return no('accord knows no such policy assertion, so the contract does not ask for it');
    const inner = this.nested(a, out);
    const has = (name: string) => inner.some((e) => SP.includes(e.namespaceURI ?? '') && e.localName === name);
    switch (local) {
      case 'TransportBinding': {
        tags.add(HTTPS_TAG);
        if (has('IncludeTimestamp')) tags.add('@ws-security:Timestamp');
        const token = inner.find((e) => e.localName === 'TransportToken');
        const https = token ? this.nested(token, out).find((e) => e.localName === 'HttpsToken') : undefined;
        if (token && !https) no('the transport token is not an sp:HttpsToken');
        if (https && (https.getAttribute('RequireClientCertificate') === 'true' || this.nested(https, out).some((e) => e.localName === 'RequireClientCertificate')))
          no('a client certificate on the TLS connection (set testEnvironmentOptions.accord.tls for the runner)');
        for (const e of this.nested(https ?? a, out))
          if (['HttpBasicAuthentication', 'HttpDigestAuthentication'].includes(e.localName ?? '')) no(`${e.localName} on the HTTPS token (set testEnvironmentOptions.accord.auth)`);
        return;
      }
      case 'AsymmetricBinding': {
        const initiator = inner.find((e) => e.localName === 'InitiatorToken' || e.localName === 'InitiatorSignatureToken');
        const x509 = initiator ? this.nested(initiator, out).find((e) => e.localName === 'X509Token') : undefined;
        if (!x509) return no('its initiator token is not an sp:X509Token (accord signs with an X.509 BinarySecurityToken)');
        if (has('EncryptSignature')) no('sp:EncryptSignature: accord does not encrypt');
        tags.add('@ws-security:Signature');
        tags.add('@ws-security:Timestamp');
        return;
      }
      case 'SymmetricBinding':
        return no('a signature with a symmetric (encrypted or derived) key; accord signs with an X.509 key pair only (sp:AsymmetricBinding)');
      case 'SignedParts': {
        // accord's signature covers the Body and the Timestamp: more headers than that, or a signature with no binding to make it, is not supported.
        const headers = kidsOf(a).filter((e) => e.localName === 'Header');
        const everything = kidsOf(a).length === 0;
        if (headers.length > 0 || everything)
          no(
            `signing ${everything ? 'every header' : headers.map((h) => h.getAttribute('Name') || h.getAttribute('Namespace')).join(', ')}; accord signs the Body and the Timestamp only`,
          );
        if (!tags.has('@ws-security:Signature') && !this.anyBinding(a)) no('signed parts without an sp:AsymmetricBinding to sign them');
        return;
      }
      case 'UsernameToken': {
        if (signed) return no('a UsernameToken the signature must cover; accord signs the Body and the Timestamp only');
        if (has('NoPassword')) return no('sp:NoPassword (a UsernameToken without a password)');
        if (has('RequireDerivedKeys') || has('RequireExplicitDerivedKeys') || has('RequireImpliedDerivedKeys')) return no('keys derived from the password');
        tags.add(has('HashPassword') ? '@ws-security:PasswordDigest' : '@ws-security:UsernameToken');
        return;
      }
      case 'SupportingTokens':
      case 'SignedSupportingTokens': {
        // Over HTTPS the TLS connection protects a signed supporting token; with a message signature it must be signed too, which accord does not do.
        const underSignature = local === 'SignedSupportingTokens' && this.hasSibling(a, 'AsymmetricBinding');
        for (const t of inner) this.assertion(t, tags, out, underSignature, probing);
        return;
      }
      case 'IncludeTimestamp':
        return void tags.add('@ws-security:Timestamp');
      case 'Wss10':
      case 'Wss11':
      case 'Trust10':
      case 'Trust13':
        // What the provider can process, not what a request must carry.
        return;
      default:
        return no(
          local.includes('Encrypt')
            ? 'accord does not encrypt messages'
            : ['Token', 'Tokens', 'Context'].some((end) => local.endsWith(end))
              ? 'accord writes and checks UsernameTokens, Timestamps and X.509 signatures only'
              : 'accord does not read this WS-SecurityPolicy assertion',
        );
    }
  }

  /** The assertions of an assertion's nested policy (its first alternative; nested alternatives are rare). */
  private nested(a: Element, out: OperationPolicy): Element[] {
    const policies = kidsOf(a).filter((c) => WSP.includes(c.namespaceURI ?? '') && (c.localName === 'Policy' || c.localName === 'PolicyReference'));
    const all: Element[] = [];
    for (const p of policies) all.push(...(this.normalise(p, out, 0)[0] ?? []));
    return all;
  }

  private hasSibling(a: Element, local: string): boolean {
    const parent = a.parentNode as Element | null;
    return !!parent && kidsOf(parent).some((c) => SP.includes(c.namespaceURI ?? '') && c.localName === local);
  }

  private anyBinding(a: Element): boolean {
    return this.hasSibling(a, 'AsymmetricBinding') || this.hasSibling(a, 'SymmetricBinding');
  }

  private once(list: string[], line: string): void {
    if (this.noted.has(line)) return;
    this.noted.add(line);
    list.push(line);
  }
}

function kidsOf(el: Element): Element[] {
  const out: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) if (isElement(c)) out.push(c);
  return out;
}

function product(a: Alternative[], b: Alternative[]): Alternative[] {
  const out: Alternative[] = [];
  for (const x of a) for (const y of b) if (out.length < MAX_ALTERNATIVES) out.push([...x, ...y]);
  return out;
}

function where(el: Element): string {
  const p = placeOf(el);
  return `${p.file ?? '?'}${p.line ? `:${p.line}` : ''}`;
}

function ordinal(n: number): string {
  return n === 1 ? 'first' : n === 2 ? 'second' : n === 3 ? 'third' : `${n}th`;
}

/** A list attribute's words (`wsp:PolicyURIs`): split on XML white space. */
function words(text: string): string[] {
  const out: string[] = [];
  let word = '';
  for (const c of text) {
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (word) out.push(word);
      word = '';
    } else word += c;
  }
  if (word) out.push(word);
  return out;
}
