import { isScalarName } from '../pattern/scalars/index';

/** Names the writer uses itself; an XSD type with one of these names gets another. */
const RESERVED = new Set(['Request', 'Response', 'RequestEnvelope', 'ResponseEnvelope', 'SoapAction', 'SoapFaultCode', 'Soap12FaultCode', 'SPECMATIC_TYPE', 'dictionary']);

const NCNAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** A name usable as `(Name)` in a contract: ASCII word characters, dots and dashes. */
export function contractName(raw: string): string {
  // `(?<!\.)`: an attempt starts only where a run of dots starts, so a long run is scanned once, not once per dot.
  let s = raw.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/(?<!\.)\.+$/, '');
  if (!/^[A-Za-z_]/.test(s)) s = `_${s}`;
  return s;
}

/** Hands out contract type names, each once, trying the readable candidates first. */
export class NameTable {
  private readonly taken = new Set<string>();
  private readonly byKey = new Map<string, string>();

  get(key: string): string | undefined {
    return this.byKey.get(key);
  }

  /** Candidates are tried in turn; a function is called only when reached (it may allocate a prefix). */
  allocate(key: string, candidates: (string | (() => string))[]): string {
    const known = this.byKey.get(key);
    if (known) return known;
    const ok = (n: string) => !this.taken.has(n.toLowerCase()) && !RESERVED.has(n) && !isScalarName(n);
    let name: string | undefined;
    for (const c of candidates) {
      const n = contractName(typeof c === 'function' ? c() : c);
      if (ok(n)) {
        name = n;
        break;
      }
    }
    if (!name) {
      const first = candidates[0];
      const base = contractName(typeof first === 'function' ? first() : first);
      for (let i = 2; !name; i++) if (ok(`${base}_${i}`)) name = `${base}_${i}`;
    }
    this.taken.add(name.toLowerCase());
    this.byKey.set(key, name);
    return name;
  }
}

/**
 * One prefix per namespace for the whole contract. The WSDL author's prefix is
 * kept when it is a legal XML name and still free; otherwise ns1, ns2, ...
 * A prefix is never made from a namespace URI.
 */
export class Prefixes {
  private readonly byNs = new Map<string, string>();
  private readonly used = new Set<string>();
  private next = 1;

  constructor(
    private readonly suggested: Map<string, string>,
    reserved: string[],
  ) {
    for (const r of reserved) this.used.add(r);
  }

  reserve(ns: string, prefix: string): void {
    this.byNs.set(ns, prefix);
    this.used.add(prefix);
  }

  for(ns: string): string {
    if (ns === '') return '';
    const known = this.byNs.get(ns);
    if (known) return known;
    let p = this.suggested.get(ns);
    if (!p || !NCNAME.test(p) || /^xml/i.test(p) || this.used.has(p)) {
      do p = `ns${this.next++}`;
      while (this.used.has(p));
    }
    this.byNs.set(ns, p);
    this.used.add(p);
    return p;
  }

  /** `[xmlns:p, uri]` for every namespace handed out, in order. */
  declarations(): [string, string][] {
    return [...this.byNs].map(([ns, p]) => [`xmlns:${p}`, ns]);
  }
}

/** An XML name without a colon (XML 1.0 fifth edition, approximately): what an element or attribute may be called. */
const XML_NAME = /^[\p{L}_][\p{L}\p{N}\p{Mn}\p{Mc}._\-\u00B7\u203F\u2040]*$/u;

export function isXmlName(name: string): boolean {
  return XML_NAME.test(name);
}

export function qualified(prefix: string, local: string): string {
  return prefix ? `${prefix}:${local}` : local;
}
