/** A small XML tree for writing contract fragments; text holds a placeholder such as `(number)`. */
export interface XNode {
  name: string;
  attrs: [string, string][];
  children: XNode[];
  text?: string;
}

/** A comment line in a fragment: read by people, dropped by the contract parser. */
export const COMMENT = '#comment';

export function comment(text: string): XNode {
  return { name: COMMENT, attrs: [], children: [], text };
}

export function xnode(name: string, attrs: [string, string][] = [], children: XNode[] = [], text?: string): XNode {
  return { name, attrs, children, text };
}

/** Indented XML, one element per line, for a `"""` block. */
export function renderXml(node: XNode, indent = ''): string {
  if (node.name === COMMENT) return `${indent}<!-- ${(node.text ?? '').replace(/--/g, '- -')} -->`;
  const attrs = node.attrs.map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('');
  if (node.children.length === 0) {
    if (node.text === undefined || node.text === '') return `${indent}<${node.name}${attrs}/>`;
    return `${indent}<${node.name}${attrs}>${escapeText(node.text)}</${node.name}>`;
  }
  const inner = node.children.map((c) => renderXml(c, `${indent}  `)).join('\n');
  return `${indent}<${node.name}${attrs}>\n${inner}\n${indent}</${node.name}>`;
}

function escapeAttr(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

function escapeText(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}
