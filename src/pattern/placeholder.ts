import { AccordError, unreachable } from '../errors';
import { inapplicableFacet, splitFacets } from './scalars/facets';
import { scalarWritten } from './scalars/index';
import type { Pattern, XmlContent } from './types';

const NAME = /^[A-Za-z_][\w.-]*$/;

/** A name a contract can give a type: `Pet`, `ns1_Item`, `a.b-c`. */
export function isTypeName(s: string): boolean {
  return NAME.test(s);
}

export function isPlaceholder(text: string): boolean {
  const t = text.trim();
  if (t.length < 3 || !t.startsWith('(') || !t.endsWith(')')) return false;
  // A facet's quoted value (`pattern="(a|b)"`) may hold parentheses; elsewhere a "(" means this is not one placeholder.
  let quoted = false;
  for (let i = 1; i < t.length - 1; i++) {
    if (t[i] === '"') quoted = !quoted;
    else if (t[i] === '(' && !quoted) return false;
  }
  return !quoted;
}

/**
 * `(number)`, `(Pet)`, `(Pet*)`, `(id?)`, `(petid:number)`, `(string: number)`,
 * `(dictionary string Pet)`, `(number in string)`. Returns undefined when the
 * text is not a placeholder at all (then it is a literal).
 */
export function parsePlaceholder(text: string): Pattern | undefined {
  if (!isPlaceholder(text)) return undefined;
  const inner = text.trim().slice(1, -1).trim();
  return parsePlaceholderInner(inner);
}

export function parsePlaceholderInner(inner: string): Pattern {
  if (inner === '') throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', 'empty placeholder "()"');
  const members = unionMembers(inner);
  if (members.length > 1) return { kind: 'union', members: members.map(parsePlaceholderInner) };
  if (inner.startsWith('list ')) {
    const { head, facets } = splitFacets(inner.slice(5).trim());
    if (/\s/.test(head) || head === '') throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', `"(${inner})": a list names its item type, e.g. (list Color) or (list int maxLength=3)`);
    const wrong = facets && inapplicableFacet('nmtokens', facets);
    if (wrong) throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', `"(${inner})": ${wrong} does not apply to a list (its length facets count items)`);
    return facets ? { kind: 'text-list', item: parsePlaceholderInner(head), facets } : { kind: 'text-list', item: parsePlaceholderInner(head) };
  }
  const dict = /^dictionary\s+(\S+)\s+(\S+)$/.exec(inner) ?? /^(string|number):\s+(\S+)$/.exec(inner);
  if (dict) return { kind: 'dictionary', key: parsePlaceholderInner(dict[1]), value: parsePlaceholderInner(dict[2]) };
  const lookup = parseLookup(inner);
  if (lookup) return lookup;
  if (inner.endsWith('...')) return { kind: 'list', inner: parsePlaceholderInner(inner.slice(0, -3)) };
  if (inner.endsWith('*')) return { kind: 'list', inner: parsePlaceholderInner(inner.slice(0, -1)) };
  if (inner.endsWith('?')) return { kind: 'optional', inner: parsePlaceholderInner(inner.slice(0, -1)) };
  if (inner.endsWith('[]')) return { kind: 'list', inner: parsePlaceholderInner(inner.slice(0, -2)) };
  const scalar = scalarWritten(inner);
  if (scalar) return { kind: 'scalar', type: scalar };
  const { head, facets } = splitFacets(inner);
  if (facets) {
    const type = scalarWritten(head);
    if (!type) throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', `"(${head} …)": facets apply to a built-in type such as (string maxLength=10) or (decimal min=0)`);
    const wrong = inapplicableFacet(type, facets);
    if (wrong) throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', `"(${head} …)": ${wrong} does not apply to (${head})`);
    return { kind: 'scalar', type, facets };
  }
  if (!NAME.test(inner)) {
    throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', `"(${inner})" is not a placeholder: expected a type such as (number), (string), (Pet), (Pet*) or (id?)`);
  }
  return { kind: 'ref', name: inner };
}

/**
 * `id:number`, `id: string`, `id:string maxLength=3`: the value of Examples column `id`, of the type after
 * the colon with its facets (checked in matching, Examples and generation alike). Undefined when the text
 * before the colon is not a name or the type is not one word (then it is no lookup).
 */
function parseLookup(inner: string): Pattern | undefined {
  const colon = inner.indexOf(':');
  if (colon <= 0 || !NAME.test(inner.slice(0, colon))) return undefined;
  const rest = inner.slice(colon + 1).trim();
  const { head } = splitFacets(rest);
  if (head === '' || head.includes(':') || /\s/.test(head)) return undefined;
  return { kind: 'lookup', key: inner.slice(0, colon), inner: parsePlaceholderInner(rest) };
}

/** `A | B | C` split at each `|` outside a facet's quoted value (one member when there is none). */
function unionMembers(inner: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '"') quoted = !quoted;
    else if (inner[i] === '|' && !quoted) {
      out.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(inner.slice(start).trim());
  if (out.length > 1 && out.some((m) => m === ''))
    throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', `"(${inner})": a union names a type on each side of "|", e.g. (date | datetime)`);
  return out;
}

/** Names referred to by a pattern (directly), for checking that every type exists. */
export function referencedNames(p: Pattern, out: Set<string> = new Set()): Set<string> {
  switch (p.kind) {
    case 'ref':
      out.add(p.name);
      break;
    case 'optional':
    case 'list':
    case 'lookup':
      referencedNames(p.inner, out);
      break;
    case 'object':
      for (const f of p.fields) referencedNames(f.pattern, out);
      break;
    case 'array':
      for (const i of p.items) referencedNames(i, out);
      break;
    case 'text-list':
      referencedNames(p.item, out);
      break;
    case 'union':
      for (const m of p.members) referencedNames(m, out);
      break;
    case 'dictionary':
      referencedNames(p.key, out);
      referencedNames(p.value, out);
      break;
    case 'xml':
      if (p.typeRef) out.add(p.typeRef);
      for (const d of p.derived ?? []) out.add(d.type);
      for (const a of p.attributes) referencedNames(a.pattern, out);
      for (const c of p.content) contentNames(c, out);
      break;
    case 'scalar':
    case 'literal':
    case 'enum':
      break;
    default:
      unreachable(p, 'pattern kind');
  }
  return out;
}

function contentNames(c: XmlContent, out: Set<string>): void {
  if (c.kind === 'xml-ref') out.add(c.name);
  else if (c.kind === 'xml-text') referencedNames(c.pattern, out);
  else if (c.kind === 'xml-choice') for (const o of c.options) for (const x of o) contentNames(x, out);
  else if (c.kind === 'xml') referencedNames(c, out);
  else if (c.kind === 'xml-any') for (const x of c.elements ?? []) referencedNames(x, out);
}

/** Names given as `specmatic_type="T"`: T must be an XML node type (its root lends attributes and children). */
export function nodeTypeNames(p: Pattern, out: Set<string> = new Set()): Set<string> {
  if (p.kind === 'optional' || p.kind === 'list' || p.kind === 'lookup') return nodeTypeNames(p.inner, out);
  if (p.kind !== 'xml') return out;
  if (p.typeRef) out.add(p.typeRef);
  for (const d of p.derived ?? []) out.add(d.type);
  const walk = (c: XmlContent): void => {
    if (c.kind === 'xml') nodeTypeNames(c, out);
    else if (c.kind === 'xml-choice') for (const o of c.options) o.forEach(walk);
    else if (c.kind === 'xml-any') for (const x of c.elements ?? []) nodeTypeNames(x, out);
  };
  p.content.forEach(walk);
  return out;
}
