/** Declared contract types: what the emitter declares (an XML node type with root `<SPECMATIC_TYPE>`, an enum, a simple type with facets, a list or union). */
import type { Pattern } from '../pattern/types';

export interface TypeDef {
  name: string;
  pattern: Pattern;
  /** The XSD construct it comes from, e.g. `complexType Person`. */
  source: string;
}
