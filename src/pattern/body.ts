import { looksLikeXml } from '../xml/parse';
import { jsonPatternFromText } from './json-pattern';
import { parsePlaceholder } from './placeholder';
import type { Pattern } from './types';
import { xmlPatternFromText } from './xml-pattern';

/** A body, header or type written in a contract: XML, JSON, a placeholder, or literal text. */
export function patternFromText(text: string): Pattern {
  const t = text.trim();
  if (looksLikeXml(t)) return xmlPatternFromText(t);
  if (t.startsWith('{') || t.startsWith('[')) return jsonPatternFromText(t);
  return parsePlaceholder(t) ?? { kind: 'literal', value: t };
}
