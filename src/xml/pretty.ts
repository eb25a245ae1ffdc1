import { parseXml } from './parse';
import { escapeAttribute, escapeText } from './serialize';
import type { XmlElement } from './tree';

/**
 * One line of an indented XML document, for a person to read (the HTML report). `key` names the
 * element the line opens: its local names from the root, each with its place among same-named
 * siblings (`Envelope[0]/Body[0]/id[1]`), the form a mismatch's path can be brought to.
 */
export interface PrettyLine {
  depth: number;
  text: string;
  key?: string;
}

export interface PrettyXml {
  lines: PrettyLine[];
  /** The document had more than the lines or characters allowed: the rest is not shown. */
  cut: boolean;
}

/**
 * `text` as indented lines, or undefined when it is not an XML document accord can read. Stops at
 * `maxLines` lines or `maxChars` characters; a longer text value is cut on its line.
 */
export function prettyXml(text: string, maxLines: number, maxChars: number): PrettyXml | undefined {
  let root: XmlElement;
  try {
    root = parseXml(text);
  } catch {
    return undefined;
  }
  const lines: PrettyLine[] = [];
  let chars = 0;
  let cut = false;
  const put = (depth: number, line: string, key?: string): boolean => {
    if (lines.length >= maxLines || chars >= maxChars) {
      cut = true;
      return false;
    }
    const shown = line.length > maxChars - chars ? `${line.slice(0, Math.max(0, maxChars - chars))}…` : line;
    chars += shown.length;
    lines.push(key === undefined ? { depth, text: shown } : { depth, text: shown, key });
    return true;
  };
  // An explicit stack: a document nested as deep as the parser allows is not a recursion.
  const stack: Step[] = [{ el: root, depth: 0, key: `${root.local}[0]`, closing: false }];
  while (stack.length > 0 && !cut) {
    const step = stack.pop()!;
    if ('text' in step) {
      put(step.depth, escapeText(step.text));
      continue;
    }
    const { el, depth, key, closing } = step;
    if (closing) {
      put(depth, `</${el.name}>`);
      continue;
    }
    const open = `<${el.name}${el.attributes.map((a) => ` ${a.name}="${escapeAttribute(a.value)}"`).join('')}`;
    if (el.children.length === 0) {
      put(depth, `${open}/>`, key);
      continue;
    }
    if (el.children.every((c) => c.type === 'text')) {
      put(depth, `${open}>${escapeText(el.children.map((c) => (c.type === 'text' ? c.value : '')).join(''))}</${el.name}>`, key);
      continue;
    }
    if (!put(depth, `${open}>`, key)) break;
    stack.push({ el, depth, key, closing: true });
    const seen = new Map<string, number>();
    const children: Step[] = el.children.map((c) => {
      if (c.type === 'text') return { text: c.value, depth: depth + 1 };
      const n = seen.get(c.local) ?? 0;
      seen.set(c.local, n + 1);
      return { el: c, depth: depth + 1, key: `${key}/${c.local}[${n}]`, closing: false };
    });
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return { lines, cut };
}

type Step = { el: XmlElement; depth: number; key: string; closing: boolean } | { text: string; depth: number };

/**
 * The line of `lines` a mismatch's path (`Envelope/Body/getPetResponse/id[1]`, `.../@currency`)
 * concerns: the element it names; for a node that is missing, the nearest element above it that is
 * there. A step without an index is the first of its name. Undefined when no line is the root's.
 */
export function lineOfPath(lines: readonly PrettyLine[], path: string): number | undefined {
  const steps = path
    .split('/')
    .filter((s) => s !== '' && !s.startsWith('@'))
    .map((s) => (s.endsWith(']') ? s : `${s}[0]`));
  const byKey = new Map<string, number>();
  lines.forEach((l, i) => {
    if (l.key && !byKey.has(l.key)) byKey.set(l.key, i);
  });
  for (let n = steps.length; n > 0; n--) {
    const found = byKey.get(steps.slice(0, n).join('/'));
    if (found !== undefined) return found;
  }
  return undefined;
}
