/** A plain XML tree: what accord matches and generates. Prefixes are kept as written. */
export interface XmlAttribute {
  name: string;
  prefix: string;
  local: string;
  value: string;
}

export interface XmlElement {
  type: 'element';
  name: string;
  prefix: string;
  local: string;
  attributes: XmlAttribute[];
  children: XmlNode[];
  line?: number;
}

export interface XmlText {
  type: 'text';
  value: string;
}

export type XmlNode = XmlElement | XmlText;

export function splitName(name: string): { prefix: string; local: string } {
  const i = name.indexOf(':');
  return i < 0 ? { prefix: '', local: name } : { prefix: name.slice(0, i), local: name.slice(i + 1) };
}

export function elementChildren(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => c.type === 'element');
}

export function textOf(el: XmlElement): string {
  let out = '';
  for (const c of el.children) if (c.type === 'text') out += c.value;
  return out;
}

export function isNamespaceDeclaration(attr: { name: string }): boolean {
  return attr.name === 'xmlns' || attr.name.startsWith('xmlns:');
}
