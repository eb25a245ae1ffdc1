/** Declared contract types: what the emitter declares (an XML node type with root `<SPECMATIC_TYPE>`, or an enum). */
import type { EnumPattern, XmlElementPattern } from '../pattern/types';

export interface TypeDef {
  name: string;
  pattern: XmlElementPattern | EnumPattern;
  /** The XSD construct it comes from, e.g. `complexType Person`. */
  source: string;
}
