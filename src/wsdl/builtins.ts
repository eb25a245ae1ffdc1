import type { ScalarType } from '../pattern/types';

/**
 * XSD built-in types whose placeholder is not their own name: the rest of
 * XSD's built-ins with a lexical space have a row of that name in
 * pattern/scalars/xsd.ts (integer, unsignedByte, base64Binary, gYear, …).
 */
const RENAMED: Record<string, ScalarType> = {
  dateTime: 'datetime',
  dateTimeStamp: 'datetime',
  QName: 'qname',
  NOTATION: 'qname',
  NCName: 'ncname',
  ID: 'xml-id',
  IDREF: 'xml-idref',
  ENTITY: 'ncname',
  Name: 'xml-name',
  NMTOKEN: 'nmtoken',
  NMTOKENS: 'nmtokens',
  IDREFS: 'nmtokens',
  ENTITIES: 'nmtokens',
  anyType: 'anything',
  anySimpleType: 'anything',
  anyAtomicType: 'anything',
};

const SAME = new Set<string>([
  'string',
  'boolean',
  'date',
  'time',
  'decimal',
  'integer',
  'long',
  'int',
  'short',
  'byte',
  'nonNegativeInteger',
  'positiveInteger',
  'nonPositiveInteger',
  'negativeInteger',
  'unsignedLong',
  'unsignedInt',
  'unsignedShort',
  'unsignedByte',
  'float',
  'double',
  'base64Binary',
  'hexBinary',
  'duration',
  'gYear',
  'gYearMonth',
  'gMonth',
  'gMonthDay',
  'gDay',
  'anyURI',
  'token',
  'normalizedString',
  'language',
]);

/**
 * The placeholder for an XSD built-in type: its own row where XSD gives it a
 * lexical space (integer kinds with their ranges, binary, durations, names…),
 * anyType and anySimpleType accept anything, an unknown name is a string.
 */
export function builtinScalar(local: string): ScalarType {
  if (SAME.has(local)) return local as ScalarType;
  return RENAMED[local] ?? 'string';
}
