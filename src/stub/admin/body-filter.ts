import { isScalarName, SCALARS } from '../../pattern/scalars/index';
import { parseXml } from '../../xml/parse';
import { elementChildren, isNamespaceDeclaration, splitName, textOf, type XmlElement } from '../../xml/tree';

/**
 * XML-aware selection of journalled requests, as the rest of accord matches XML: by local names,
 * whatever the prefixes and namespaces. `nodes` names nodes by path (`getBook/isbn`, `@id` for an
 * attribute) with the text they must hold; `xmlIncludes` is a fragment of a contract body whose
 * elements (in any order) must be present with their text, a `(number)`-style placeholder
 * matching any text of that type. Runs only when a filter asks for it (a test's verification,
 * never the stub's serving), each body parsed once.
 */
export interface XmlFilter {
  nodes?: Record<string, string | number | boolean>;
  xmlIncludes?: string;
}

/** What is read of a journal entry (not its type: journal.ts imports this file). */
interface Recorded {
  body: string;
  bodyCut?: true;
}

const trees = new WeakMap<Recorded, XmlElement | null>();

function treeOf(e: Recorded): XmlElement | null {
  let t = trees.get(e);
  if (t === undefined) {
    try {
      t = e.bodyCut ? null : parseXml(e.body);
    } catch {
      t = null; // not XML: no node is there
    }
    trees.set(e, t);
  }
  return t;
}

const fragments = new Map<string, XmlElement | null>();

export function xmlSelected(e: Recorded, f: XmlFilter): boolean {
  const root = treeOf(e);
  if (!root) return false;
  for (const [p, v] of Object.entries(f.nodes ?? {})) if (!nodeValues(root, p).includes(String(v))) return false;
  if (f.xmlIncludes !== undefined) {
    const fragment = fragmentOf(f.xmlIncludes);
    if (!fragment || !descendants(root).some((el) => fits(el, fragment))) return false;
  }
  return true;
}

/** The texts (trimmed) of every node a path names in a request, for the failure message; [] when its body is not XML. */
export function nodeValuesOf(e: Recorded, nodePath: string): string[] {
  const root = treeOf(e);
  return root ? nodeValues(root, nodePath) : [];
}

function fragmentOf(text: string): XmlElement | null {
  let f = fragments.get(text);
  if (f === undefined) {
    try {
      f = parseXml(text);
    } catch {
      f = null;
    }
    // A test file asks for a handful of fragments; bounded all the same.
    if (fragments.size > 100) fragments.clear();
    fragments.set(text, f);
  }
  return f;
}

function local(name: string): string {
  return splitName(name).local;
}

function descendants(root: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    out.push(el);
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i];
      if (c.type === 'element') stack.push(c);
    }
  }
  return out;
}

/** `getBook/isbn`: elements named getBook anywhere, then their isbn children; `/Envelope/...` starts at the root; a last `@name` is an attribute. */
function nodeValues(root: XmlElement, nodePath: string): string[] {
  const segments = nodePath.split('/').filter((s) => s !== '');
  if (segments.length === 0) return [];
  const attribute = segments[segments.length - 1].startsWith('@') ? local(segments.pop()!.slice(1)) : undefined;
  const names = segments.map(local);
  let at = nodePath.startsWith('/') ? (root.local === names[0] ? [root] : []) : descendants(root).filter((el) => el.local === names[0]);
  for (const name of names.slice(1)) at = at.flatMap((el) => elementChildren(el).filter((c) => c.local === name));
  if (attribute !== undefined) return at.flatMap((el) => el.attributes.filter((a) => !isNamespaceDeclaration(a) && a.local === attribute).map((a) => a.value));
  return at.map((el) => textOf(el).trim());
}

/** Whether `el` has what the fragment's element has: its attributes, its child elements (any order), or its text. */
function fits(el: XmlElement, want: XmlElement): boolean {
  if (el.local !== want.local) return false;
  for (const a of want.attributes) {
    if (isNamespaceDeclaration(a)) continue;
    if (!el.attributes.some((b) => b.local === a.local && textFits(b.value, a.value))) return false;
  }
  const children = elementChildren(want);
  if (children.length > 0) return children.every((w) => elementChildren(el).some((c) => fits(c, w)));
  const text = textOf(want).trim();
  return text === '' || textFits(textOf(el).trim(), text);
}

/** Equal text, or `(type)` and a text of that type. */
function textFits(actual: string, wanted: string): boolean {
  const name = wanted.startsWith('(') && wanted.endsWith(')') ? wanted.slice(1, -1) : '';
  if (isScalarName(name)) return SCALARS[name].test(actual);
  return actual === wanted;
}
