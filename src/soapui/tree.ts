import { elementChildren, textOf, type XmlElement } from '../xml/tree';

/**
 * SoapUI project XML read by namespace URI (its prefix is `con` in every file seen, but need not be):
 * a tree with each element's namespace resolved from the declarations in scope, and QName values
 * (`xsi:type="con:RequestStep"`) resolved the same way.
 */
export const SOAPUI_NS = 'http://eviware.com/soapui/config';
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

export interface Node {
  el: XmlElement;
  ns: string;
  local: string;
  scope: ReadonlyMap<string, string>;
  kids: Node[];
  /** The file it was read from (a composite project is many). */
  file: string;
}

/** The tree with namespaces resolved; an element in an undeclared prefix is in no namespace. */
export function resolveTree(root: XmlElement, file: string, outer: ReadonlyMap<string, string> = new Map()): Node {
  const walk = (el: XmlElement, up: ReadonlyMap<string, string>, depth: number): Node => {
    let scope = up;
    for (const a of el.attributes) {
      if (a.name === 'xmlns' || a.prefix === 'xmlns') {
        if (scope === up) scope = new Map(up);
        (scope as Map<string, string>).set(a.name === 'xmlns' ? '' : a.local, a.value);
      }
    }
    const ns = scope.get(el.prefix) ?? '';
    const node: Node = { el, ns, local: el.local, scope, kids: [], file };
    // The XML reader bounds the depth already; the walk keeps its own count only to stay iterative-safe.
    if (depth < 512) node.kids = elementChildren(el).map((k) => walk(k, scope, depth + 1));
    return node;
  };
  return walk(root, outer, 0);
}

/** Children in SoapUI's namespace named `local` (any of them with an array). */
export function kids(n: Node, local: string | readonly string[]): Node[] {
  const names = typeof local === 'string' ? [local] : local;
  return n.kids.filter((k) => k.ns === SOAPUI_NS && names.includes(k.local));
}

export function kid(n: Node, local: string): Node | undefined {
  return n.kids.find((k) => k.ns === SOAPUI_NS && k.local === local);
}

/** A child in no namespace (assertion and step configurations write theirs unprefixed) or in SoapUI's. */
export function plainKid(n: Node, local: string): Node | undefined {
  return n.kids.find((k) => k.local === local && (k.ns === '' || k.ns === SOAPUI_NS));
}

export function attr(n: Node, name: string): string | undefined {
  return n.el.attributes.find((a) => a.name === name)?.value;
}

export function text(n: Node | undefined): string {
  return n ? textOf(n.el) : '';
}

/** The child's text, or undefined when it is absent or `xsi:nil`. */
export function kidText(n: Node, local: string): string | undefined {
  const k = kid(n, local);
  if (!k || isNil(k)) return undefined;
  return text(k);
}

export function isNil(n: Node): boolean {
  return n.el.attributes.some((a) => a.local === 'nil' && n.scope.get(a.prefix) === XSI_NS && a.value === 'true');
}

/** `xsi:type`'s local name when it names a type in SoapUI's namespace (`con:RequestStep` → `RequestStep`). */
export function xsiType(n: Node): string | undefined {
  const a = n.el.attributes.find((x) => x.local === 'type' && x.prefix !== '' && n.scope.get(x.prefix) === XSI_NS);
  if (!a) return undefined;
  const i = a.value.indexOf(':');
  const prefix = i < 0 ? '' : a.value.slice(0, i);
  return n.scope.get(prefix) === SOAPUI_NS || i < 0 ? a.value.slice(i + 1) : undefined;
}

export function lineOf(n: Node): number | undefined {
  return n.el.line;
}
