import type { Element } from '@xmldom/xmldom';
import type { Pattern, ScalarType } from '../pattern/types';
import { ANNOTATED, PLACEHOLDER_NS, withoutImplied } from './export/xsd-types';

/**
 * `accord:placeholder="number"` on an `xs:element` or `xs:attribute` (what `accord export wsdl` writes
 * where XSD has no built-in for a placeholder): the text is that placeholder, not the nearest XSD type
 * written beside it, so an exported contract imports as it was written. Any other value, or a text
 * that is not a plain scalar (a fixed value, an enumeration), is left as the XSD says.
 */
export function annotatedText(decl: Element, p: Pattern): Pattern {
  const v = decl.getAttributeNS(PLACEHOLDER_NS, 'placeholder');
  if (!v || !ANNOTATED.has(v as ScalarType) || p.kind !== 'scalar') return p;
  const facets = withoutImplied(v as ScalarType, p.facets);
  return { kind: 'scalar', type: v as ScalarType, ...(facets ? { facets } : {}) };
}
