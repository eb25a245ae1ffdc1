import { isSoapEncodingStyle, SOAP11_ENCODING, SOAP12_ENCODING } from '../../xml/encoding-scope';
import { contentSlots, effectiveElement, resolve } from '../resolve';
import { XSD_SCALARS } from '../scalars/xsd';
import type { Pattern, ScalarType, Scope, XmlElementPattern, XmlNamespace } from '../types';

/**
 * What generation writes inside SOAP-encoding scope (SOAP 1.1 section 5, SOAP 1.2 part 2 section 4):
 * clients that type an encoded message by the message itself (suds, SOAP::Lite) read an accessor's
 * `xsi:type` and an array's `SOAP-ENC:arrayType="ns:T[n]"` (1.2: `enc:itemType` and `enc:arraySize`),
 * and take everything else for strings. The scope is the contract's own: an element whose
 * `encodingStyle` attribute (written literally, as `accord import wsdl` writes it for an encoded
 * binding) names SOAP encoding starts it, one naming anything else ends it. Matching needs none of
 * this: these attributes are bookkeeping (xml/bookkeeping.ts), accepted with or without.
 * Generation (generate.ts) and the stub's templates (stub/answer/template.ts) both decide through here.
 */
export interface EncodingScope {
  version: '1.1' | '1.2';
  /** The prefixes that stand for XML Schema instance, XML Schema, and the SOAP encoding namespace. */
  xsi: string;
  xsd: string;
  enc: string;
}

/** The scope inside an element, and the namespace declarations the element must carry when it starts one. */
export interface EncodingStep {
  scope: EncodingScope | undefined;
  declare: XmlNamespace[];
}

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

/** Outside SOAP-encoding scope: most messages, so one value serves them all. */
const LITERAL: EncodingStep = Object.freeze({ scope: undefined, declare: [] });

/** The scope inside `p` (an element as generated, after effectiveElement), given the scope around it. */
export function encodingInside(p: XmlElementPattern, outer: EncodingScope | undefined): EncodingStep {
  const style = ownEncodingStyle(p);
  if (style === undefined) return outer ? { scope: outer, declare: [] } : LITERAL;
  if (!isSoapEncodingStyle(style)) return LITERAL;
  const version = style.includes(SOAP12_ENCODING) ? '1.2' : '1.1';
  if (outer?.version === version) return { scope: outer, declare: [] };
  const declare: XmlNamespace[] = [];
  const taken = new Set(p.namespaces.map((n) => n.name));
  const prefixFor = (preferred: string, uri: string): string => {
    const own = p.namespaces.find((n) => n.value === uri && n.name.startsWith('xmlns:'));
    if (own) return own.name.slice('xmlns:'.length);
    let prefix = preferred;
    for (let i = 1; taken.has(`xmlns:${prefix}`); i++) prefix = `${preferred}${i}`;
    taken.add(`xmlns:${prefix}`);
    declare.push({ name: `xmlns:${prefix}`, value: uri });
    return prefix;
  };
  const xsi = prefixFor('xsi', XSI_NS);
  const xsd = prefixFor('xsd', XSD_NS);
  const enc = prefixFor('SOAP-ENC', version === '1.2' ? SOAP12_ENCODING : SOAP11_ENCODING);
  return { scope: { version, xsi, xsd, enc }, declare };
}

/** An element's own `encodingStyle` (a prefixed attribute written as a literal), if it has one. */
function ownEncodingStyle(p: XmlElementPattern): string | undefined {
  for (const a of p.attributes) {
    if (a.local !== 'encodingStyle' || !a.name.includes(':') || a.pattern.kind !== 'literal') continue;
    return String(a.pattern.value ?? '');
  }
  return undefined;
}

/** The SOAP-encoding attributes of one accessor: its xsi:type, and for an array the item type whose count follows the members. */
export interface EncodedAccessor {
  /** The whole `xsi:type="..."` attribute, or undefined. */
  type?: [string, string];
  /** An array: its attributes once the number of members made is known. */
  array?: (count: number) => [string, string][];
}

/**
 * What SOAP encoding writes on accessor `p` (as generated, after effectiveElement) inside `scope`:
 * `xsi:type` for a value of an XML Schema built-in type or a node the contract names a type for
 * (`specmatic_xsi_type`), and an array's type and size when `p` holds the members of a SOAP-encoded
 * array (one repeated child under any name, `specmatic_name="any"`). Attributes the contract
 * declares itself are left to it. `typed`: the node already carries an xsi:type (a derived type).
 */
export function encodedAccessor(p: XmlElementPattern, types: Scope, scope: EncodingScope, typed = false): EncodedAccessor {
  const declares = (local: string) => p.attributes.some((a) => a.local === local && a.name.includes(':'));
  const out: EncodedAccessor = {};
  const slots = contentSlots(p.content, types);
  const member = slots.length === 1 && slots[0].kind === 'element' && slots[0].pattern.anyName && slots[0].max > 1 ? slots[0].pattern : undefined;
  let type = p.xsiType;
  if (type === undefined && slots.length === 1 && slots[0].kind === 'text') {
    const builtin = builtinName(slots[0].pattern, types);
    if (builtin) type = `${scope.xsd}:${builtin}`;
  }
  if (member && !declares('arrayType') && !declares('itemType') && !declares('arraySize')) {
    const item = memberType(member, types, scope);
    if (scope.version === '1.1') out.array = (n) => [[`${scope.enc}:arrayType`, `${item}[${n}]`]];
    else
      out.array = (n) => [
        [`${scope.enc}:itemType`, item],
        [`${scope.enc}:arraySize`, String(n)],
      ];
  }
  if (type !== undefined && !typed && !declares('type')) out.type = [`${scope.xsi}:type`, type];
  return out;
}

/** The type an array's members are of: the one the contract names, their built-in type, else any type (SOAP 1.1 section 5.4.2). */
function memberType(member: XmlElementPattern, types: Scope, scope: EncodingScope): string {
  const eff = effectiveElement(member, types);
  if (eff.xsiType !== undefined) return eff.xsiType;
  const slots = contentSlots(eff.content, types);
  const builtin = slots.length === 1 && slots[0].kind === 'text' ? builtinName(slots[0].pattern, types) : undefined;
  return `${scope.xsd}:${builtin ?? 'anyType'}`;
}

/**
 * accord's scalar types by their XML Schema names where the two differ (wsdl/builtins.ts reads them the
 * other way); the XSD rows of scalars-xsd.ts not listed here have their XSD name. A type with no entry
 * has no built-in type to name (anything, empty, null).
 */
const XSD_NAMES: Partial<Record<ScalarType, string>> = {
  string: 'string',
  boolean: 'boolean',
  date: 'date',
  time: 'time',
  number: 'decimal',
  'number-in-string': 'string',
  datetime: 'dateTime',
  uuid: 'string',
  email: 'string',
  url: 'anyURI',
  qname: 'QName',
  ncname: 'NCName',
  'xml-name': 'Name',
  'xml-id': 'ID',
  'xml-idref': 'IDREF',
  nmtoken: 'NMTOKEN',
  nmtokens: 'NMTOKENS',
};

/**
 * The XML Schema built-in type a text pattern stands for, or undefined. Only a plain built-in: a value
 * of a type narrowed by facets, or of an enumeration, is of a named simple type the contract does not
 * name, and an `xsi:type` naming its base is invalid against the schema (an xsi:type must name the
 * declared type or one derived from it).
 */
export function builtinName(p: Pattern, types: Scope): string | undefined {
  const r = resolve(p, types);
  if (r.kind === 'optional' || r.kind === 'lookup') return builtinName(r.inner, types);
  if (r.kind !== 'scalar' || r.facets) return undefined;
  return XSD_NAMES[r.type] ?? (Object.hasOwn(XSD_SCALARS, r.type) ? r.type : undefined);
}
