import type { Facets, ScalarType } from '../../pattern/types';

/**
 * The XSD namespace of accord's placeholder annotation: `accord:placeholder="number"` on an
 * `xs:element` or `xs:attribute` whose text is a placeholder XSD has no built-in for. XSD lets any
 * schema component carry attributes of another namespace (XSD 1.0 part 1, 3.2.2, 3.3.2), so SOAP
 * toolkits read the nearest built-in type written beside it and ignore it; `accord import wsdl`
 * reads the placeholder back, so an exported contract imports as it was written.
 */
export const PLACEHOLDER_NS = 'urn:accord-contracts:placeholder';

/** The placeholders the annotation may name: those whose XSD type below is only the nearest. */
export const ANNOTATED: ReadonlySet<ScalarType> = new Set<ScalarType>(['number', 'number-in-string', 'uuid', 'email', 'url', 'empty', 'null']);

/** The XSD built-in written for each placeholder (the nearest one where XSD has no exact type: see ANNOTATED). */
const XSD_TYPE: Record<ScalarType, string> = {
  number: 'decimal',
  'number-in-string': 'decimal',
  string: 'string',
  boolean: 'boolean',
  null: 'string',
  empty: 'string',
  date: 'date',
  datetime: 'dateTime',
  time: 'time',
  uuid: 'string',
  email: 'string',
  url: 'anyURI',
  anything: 'anyType',
  integer: 'integer',
  long: 'long',
  int: 'int',
  short: 'short',
  byte: 'byte',
  nonNegativeInteger: 'nonNegativeInteger',
  positiveInteger: 'positiveInteger',
  nonPositiveInteger: 'nonPositiveInteger',
  negativeInteger: 'negativeInteger',
  unsignedLong: 'unsignedLong',
  unsignedInt: 'unsignedInt',
  unsignedShort: 'unsignedShort',
  unsignedByte: 'unsignedByte',
  decimal: 'decimal',
  float: 'float',
  double: 'double',
  base64Binary: 'base64Binary',
  hexBinary: 'hexBinary',
  duration: 'duration',
  gYear: 'gYear',
  gYearMonth: 'gYearMonth',
  gMonth: 'gMonth',
  gMonthDay: 'gMonthDay',
  gDay: 'gDay',
  anyURI: 'anyURI',
  qname: 'QName',
  ncname: 'NCName',
  'xml-name': 'Name',
  'xml-id': 'ID',
  'xml-idref': 'IDREF',
  nmtoken: 'NMTOKEN',
  nmtokens: 'NMTOKENS',
  token: 'token',
  normalizedString: 'normalizedString',
  language: 'language',
};

/** The built-in's local name (in the XSD namespace) for a placeholder; `anySimpleType` in place of anyType where only simple types may stand. */
export function xsdTypeOf(t: ScalarType, simpleOnly = false): string {
  const x = XSD_TYPE[t];
  return simpleOnly && x === 'anyType' ? 'anySimpleType' : x;
}

/** Facets the placeholder itself implies, so the XSD checks what the placeholder checks (beside the annotation). */
export function impliedFacets(t: ScalarType): Facets | undefined {
  switch (t) {
    case 'uuid':
      return { pattern: ['[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}'] };
    case 'email':
      return { pattern: ['[^@\\s]+@[^@\\s]+\\.[^@\\s]+'] };
    case 'empty':
      return { maxLength: 0 };
    default:
      return undefined;
  }
}

/** Facets as XSD restriction children, in XSD's order; `indent` before each line. */
export function facetLines(f: Facets, indent: string, attr: (s: string) => string): string[] {
  const out: string[] = [];
  const one = (name: string, v: string | number | undefined) => {
    if (v !== undefined) out.push(`${indent}<xs:${name} value="${attr(String(v))}"/>`);
  };
  one('length', f.length);
  one('minLength', f.minLength);
  one('maxLength', f.maxLength);
  for (const p of f.pattern ?? []) one('pattern', p);
  one('minInclusive', f.min);
  one('maxInclusive', f.max);
  one('minExclusive', f.minExclusive);
  one('maxExclusive', f.maxExclusive);
  one('totalDigits', f.totalDigits);
  one('fractionDigits', f.fractionDigits);
  return out;
}

/** Both sets of facets, the explicit ones winning where both give one bound. */
export function mergeFacets(implied: Facets | undefined, own: Facets | undefined): Facets | undefined {
  if (!implied) return own;
  if (!own) return implied;
  return { ...implied, ...own, pattern: [...(implied.pattern ?? []), ...(own.pattern ?? [])] };
}

/** What an annotated placeholder's facets are beyond those it implies (the importer's inverse of mergeFacets). */
export function withoutImplied(t: ScalarType, f: Facets | undefined): Facets | undefined {
  const implied = impliedFacets(t);
  if (!f || !implied) return f;
  const out: Facets = { ...f };
  if (implied.maxLength !== undefined && out.maxLength === implied.maxLength) delete out.maxLength;
  if (implied.pattern && out.pattern) {
    const rest = out.pattern.filter((p) => !implied.pattern!.includes(p));
    if (rest.length > 0) out.pattern = rest;
    else delete out.pattern;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
