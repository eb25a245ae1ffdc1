import type { ScalarType } from '../pattern/types';

const NUMBERS = new Set([
  'decimal',
  'integer',
  'int',
  'long',
  'short',
  'byte',
  'nonNegativeInteger',
  'nonPositiveInteger',
  'positiveInteger',
  'negativeInteger',
  'unsignedLong',
  'unsignedInt',
  'unsignedShort',
  'unsignedByte',
  'float',
  'double',
]);

/**
 * The placeholder for an XSD built-in type: integer and decimal kinds (and
 * float/double) are numbers, boolean, date, dateTime and time have their own,
 * anyType and anySimpleType accept anything, everything else is a string.
 */
export function builtinScalar(local: string): ScalarType {
  if (NUMBERS.has(local)) return 'number';
  if (local === 'boolean') return 'boolean';
  if (local === 'date') return 'date';
  if (local === 'dateTime') return 'datetime';
  // time has a placeholder of its own (hh:mm:ss, optional fraction and zone): nearer than string.
  if (local === 'time') return 'time';
  if (local === 'anyType' || local === 'anySimpleType') return 'anything';
  return 'string';
}
