/** Declared contract types: what the emitter declares, and how each is written in a contract. */
import { renderXml, type XNode } from './xml-text';

/** A declared contract type: an XML node type (root `<SPECMATIC_TYPE>`) or an enum. */
export type TypeDef =
  | { kind: 'xml'; name: string; node: XNode; source: string }
  | { kind: 'enum'; name: string; base: 'string' | 'number'; values: string[]; source: string };

export function renderType(t: TypeDef): string[] {
  if (t.kind === 'enum') return [`And enum ${t.name} (${t.base}) values ${t.values.join(',')}`];
  return [`And type ${t.name}`, '"""', renderXml(t.node), '"""'];
}
