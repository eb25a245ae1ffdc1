import { validateXML, memoryPages } from 'xmllint-wasm';
import type { Element } from '@xmldom/xmldom';
import { children, parseXml, standalone } from './dom';
import type { SchemaSet } from './schema-set';

/**
 * What an XSD validator sees of a SOAP message: each Body child (the payload)
 * and each Header block, as documents of their own with the namespace
 * declarations in scope in the envelope (xsi:type and QName values use them).
 * Attributes of the SOAP envelope namespace (mustUnderstand, encodingStyle,
 * actor/role) belong to SOAP, not to the payload's type, and are left out.
 */
const ENVELOPES = ['http://schemas.xmlsoap.org/soap/envelope/', 'http://www.w3.org/2003/05/soap-envelope'];

/**
 * Header blocks of protocols layered on SOAP, which the WSDL's own schemas do not declare:
 * WS-Addressing (the runner writes them for a WSDL that says `wsaw:UsingAddressing`) and
 * WS-Security. They are checked by their own tests, not against the WSDL's schemas.
 */
const PROTOCOL_HEADERS = [
  'http://www.w3.org/2005/08/addressing',
  'http://schemas.xmlsoap.org/ws/2004/08/addressing',
  'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd',
];

export interface Payload {
  part: 'body' | 'header';
  /** `{ns}local` of the payload's root, for reports. */
  element: string;
  xml: string;
}

export function payloadsOf(envelope: string): Payload[] {
  const root = parseXml(envelope, 'message').documentElement!;
  if (!ENVELOPES.includes(root.namespaceURI ?? '') || root.localName !== 'Envelope') throw new Error(`not a SOAP envelope: <${root.tagName}>`);
  const out: Payload[] = [];
  for (const [part, local] of [
    ['header', 'Header'],
    ['body', 'Body'],
  ] as const) {
    for (const holder of children(root, root.namespaceURI!, local)) {
      for (const el of part === 'body' ? faultDetail(holder, root.namespaceURI!) : children(holder).filter((h) => !PROTOCOL_HEADERS.includes(h.namespaceURI ?? ''))) {
        const copy = el.cloneNode(true) as Element;
        for (const a of [...Array.from({ length: copy.attributes.length }, (_, i) => copy.attributes[i])]) {
          if (ENVELOPES.includes(a.namespaceURI ?? '')) copy.removeAttributeNode(a);
        }
        el.parentNode!.replaceChild(copy, el);
        out.push({ part, element: `{${el.namespaceURI ?? ''}}${el.localName}`, xml: standalone(copy) });
      }
    }
  }
  return out;
}

/**
 * A Body's payloads: its children, or for a Fault the children of its detail (SOAP 1.1 `detail`,
 * unqualified; 1.2 `env:Detail`), which the WSDL's fault message types. The Fault itself is SOAP's.
 */
function faultDetail(body: Element, ns: string): Element[] {
  const all = children(body);
  const fault = all.length === 1 && all[0].namespaceURI === ns && all[0].localName === 'Fault' ? all[0] : undefined;
  if (!fault) return all;
  return children(fault)
    .filter((c) => c.localName === 'detail' || c.localName === 'Detail')
    .flatMap((d) => children(d));
}

export interface Verdict {
  valid: boolean;
  /** libxml2's messages for this document, without file name and line. */
  errors: string[];
}

/** Thrown when xmllint cannot compile the schema set: the WSDL is an exception to list, not a measurement. */
export class SchemaLoadError extends Error {}

const MAX_PER_CALL = 400;

/**
 * Validates many documents against one schema set: one xmllint run per batch
 * compiles the schemas once (each run is a fresh WebAssembly instance in a
 * worker, so the set is the unit of reuse).
 */
export async function validateAll(set: SchemaSet, docs: readonly string[], perCall = MAX_PER_CALL): Promise<{ verdicts: Verdict[]; warnings: string[] }> {
  const verdicts: Verdict[] = [];
  const warnings = new Set<string>();
  for (let i = 0; i < docs.length; i += perCall) verdicts.push(...(await validateBatch(set, docs.slice(i, i + perCall), warnings)));
  return { verdicts, warnings: [...warnings] };
}

async function validateBatch(set: SchemaSet, docs: readonly string[], warnings: Set<string>): Promise<Verdict[]> {
  const names = docs.map((_, i) => `m/doc${i}.xml`);
  let raw: string;
  try {
    const r = await validateXML({
      xml: docs.map((contents, i) => ({ fileName: names[i], contents })),
      schema: [set.wrapper],
      preload: set.files,
      maxMemoryPages: memoryPages.GiB,
    });
    raw = r.rawOutput;
  } catch (e) {
    throw new SchemaLoadError(String((e as Error).message).trim());
  }
  const byName = new Map<string, Verdict>(names.map((n) => [n, { valid: true, errors: [] }]));
  for (const line of raw.split('\n')) {
    const file = line.slice(0, line.indexOf(':'));
    const v = byName.get(file);
    if (v) {
      // `m/doc3.xml:1: element foo: Schemas validity error : Element 'foo': …`
      v.valid = false;
      v.errors.push(line.replace(/^[^:]*:\d+: /, '').replace(/^(element [^:]*: )?Schemas validity error : /, ''));
    } else if (/ fails to validate$/.test(line)) {
      byName.get(line.replace(/ fails to validate$/, ''))!.valid = false;
    } else if (line.trim() && !/ validates$/.test(line)) {
      // What the schema compiler said (a skipped import, an unresolved reference): part of the report.
      warnings.add(line.trim());
    }
  }
  return names.map((n) => byName.get(n)!);
}
