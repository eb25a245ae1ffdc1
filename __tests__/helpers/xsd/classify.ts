import type { Element } from '@xmldom/xmldom';
import { parseXml, XS } from './dom';
import type { SchemaSet } from './schema-set';

/**
 * Sorts libxml2's validity messages into the classes of issue 13, so a
 * measurement says which fix moves which number. libxml2 names the element
 * and what it expected, not the schema construct, so three classes need a
 * look at the schemas and the message: an unexpected element that repeats
 * its previous sibling is an occurrence bound; one declared inside an
 * `xs:choice` is a choice; an expected wildcard is a dropped `xs:any`.
 */
export const CLASSES = [
  'xs:any dropped',
  'choice alternatives',
  'occurrence bounds',
  'facet (pattern/length/range/digits)',
  'enumeration',
  'lexical type',
  'fixed value',
  'attribute not allowed',
  'xsi:type / substitution',
  'root not declared',
  'other',
] as const;
export type ErrorClass = (typeof CLASSES)[number];

/** Local names of elements declared as particles of an xs:choice, anywhere in the set. */
export function choiceNames(set: SchemaSet): Set<string> {
  const out = new Set<string>();
  const walk = (el: Element, inChoice: boolean) => {
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== 1) continue;
      const c = n as Element;
      if (c.namespaceURI !== XS) continue;
      if (c.localName === 'element') {
        if (inChoice) {
          const name = c.getAttribute('name') || (c.getAttribute('ref') ?? '').replace(/^.*:/, '');
          if (name) out.add(name);
        }
        walk(c, false);
      } else {
        // A sequence or group inside a choice is still one alternative of it.
        walk(c, c.localName === 'choice' || (inChoice && (c.localName === 'sequence' || c.localName === 'group')));
      }
    }
  };
  for (const f of [set.wrapper, ...set.files]) {
    try {
      walk(parseXml(f.contents, f.fileName).documentElement!, false);
    } catch {
      // A file xmllint will reject anyway; the load error says why.
    }
  }
  return out;
}

/** `{ns}local` or `local` as libxml2 writes it in "Element '…'". */
function splitName(name: string): { ns: string; local: string } {
  const m = /^\{([^}]*)\}(.*)$/.exec(name);
  return m ? { ns: m[1], local: m[2] } : { ns: '', local: name };
}

/** Whether some `name` element follows a `previous` element (the same name: a repetition too many; the expected one: too few of it). */
function repeatsSibling(doc: string, name: string, previous: string): boolean {
  const { ns, local } = splitName(name);
  const before = splitName(previous);
  const root = parseXml(doc, 'payload').documentElement!;
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== 1) continue;
      const c = n as Element;
      stack.push(c);
      if (c.localName !== local || (c.namespaceURI ?? '') !== ns) continue;
      let p = c.previousSibling;
      while (p && p.nodeType !== 1) p = p.previousSibling;
      const prev = p as Element | null;
      if (prev && prev.localName === before.local && (prev.namespaceURI ?? '') === before.ns) return true;
    }
  }
  return false;
}

/** libxml2's messages by class; `doc` is the payload the message is about. */
export function classify(message: string, doc: string, choices: Set<string>): ErrorClass {
  if (/\[facet 'enumeration'\]/.test(message)) return 'enumeration';
  if (/\[facet '(pattern|length|minLength|maxLength|minInclusive|maxInclusive|minExclusive|maxExclusive|totalDigits|fractionDigits|whiteSpace)'\]/.test(message))
    return 'facet (pattern/length/range/digits)';
  if (/fixed value constraint|does not match the fixed value/.test(message)) return 'fixed value';
  if (/xsi:type|substitution group|is abstract/i.test(message)) return 'xsi:type / substitution';
  if (/No matching global declaration available for the validation root/.test(message)) return 'root not declared';
  if (/No matching global element declaration available, but demanded by the strict wildcard/.test(message)) return 'xs:any dropped';
  if (/is not a valid value of the (local )?(atomic|list|union) type/.test(message)) {
    // A value that failed a facet is reported twice: once with the facet, then as "not a valid value of the local atomic type".
    return /local atomic type/.test(message) ? 'facet (pattern/length/range/digits)' : 'lexical type';
  }
  if (/The attribute '[^']*' is not allowed|is prohibited/.test(message)) return 'attribute not allowed';
  const missing = /Missing child element\(s\)\. Expected is (?:one of )?\( (.*) \)/.exec(message);
  if (missing) return /##|\*/.test(missing[1]) ? 'xs:any dropped' : 'occurrence bounds';
  const unexpected = /^Element '([^']*)': This element is not expected/.exec(message);
  if (unexpected) {
    const expected = /Expected is \( ([^ ,)]+) \)/.exec(message)?.[1];
    if (repeatsSibling(doc, unexpected[1], unexpected[1]) || (expected && repeatsSibling(doc, unexpected[1], expected))) return 'occurrence bounds';
    if (choices.has(splitName(unexpected[1]).local)) return 'choice alternatives';
    return 'other';
  }
  if (/Character content other than whitespace is not allowed because the content type is 'element-only'/.test(message)) return 'xs:any dropped';
  return 'other';
}
