/**
 * Patterns as contract text: the one place that knows how each pattern is
 * written (placeholders, XML fragments, JSON). Whatever it writes reads back,
 * through the contract parser, into an equal pattern; what cannot be written
 * that way (a literal that looks like a placeholder, a list of inline objects)
 * is a bug in the caller and throws an InternalError rather than writing a
 * contract that means something else.
 */
import { InternalError, unreachable } from '../../errors';
import { isPlaceholder } from '../../pattern/placeholder';
import { facetsText } from '../../pattern/scalars/facets';
import { occursText } from '../../pattern/occurs';
import { SCALARS } from '../../pattern/scalars/index';
import type { DerivedType, Occurs, Pattern, XmlAttributePattern, XmlChoicePattern, XmlContent, XmlElementPattern, XmlWildcardPattern } from '../../pattern/types';
import { ABSTRACT, ANY, CHOICE, DERIVED, OPTION, ORDER, ANY_NAME_ATTRIBUTE, XSI_TYPE } from '../../pattern/xml-pattern';
import { escapeAttribute, escapeText } from '../../xml/serialize';

const NAME = /^[A-Za-z_][\w.-]*$/;

function unprintable(what: string): never {
  throw new InternalError(`cannot be written in a contract: ${what}`);
}

/** `(number)`, `(Pet*)`, `(id:number)`...; undefined when the pattern is not a placeholder. */
export function placeholderText(p: Pattern): string | undefined {
  const inner = placeholderInner(p);
  return inner === undefined ? undefined : `(${inner})`;
}

function placeholderInner(p: Pattern): string | undefined {
  switch (p.kind) {
    case 'scalar':
      return `${SCALARS[p.type].written}${facetsText(p.facets)}`;
    case 'ref':
      return NAME.test(p.name) ? p.name : unprintable(`type name "${p.name}"`);
    case 'list':
    case 'optional': {
      const i = placeholderInner(p.inner);
      // `k:T*` and `dictionary K V*` read as a lookup and a dictionary, not as a list of them.
      if (i === undefined || i.split(' ')[0].includes(':') || i.startsWith('dictionary ')) return undefined;
      return `${i}${p.kind === 'list' ? '*' : '?'}`;
    }
    case 'lookup': {
      const i = placeholderInner(p.inner);
      // One word, or a built-in type with its facets: what parseLookup reads back.
      const faceted = p.inner.kind === 'scalar' && p.inner.facets !== undefined && !/\s/.test(SCALARS[p.inner.type].written);
      if (!NAME.test(p.key) || i === undefined || !(faceted || /^[^\s:]+$/.test(i))) return undefined;
      return `${p.key}:${i}`;
    }
    case 'dictionary': {
      const k = placeholderInner(p.key);
      const v = placeholderInner(p.value);
      if (k === undefined || v === undefined || /\s/.test(k) || /\s/.test(v)) return undefined;
      return `dictionary ${k} ${v}`;
    }
    case 'text-list': {
      const i = placeholderInner(p.item);
      return i !== undefined && !/\s/.test(i) ? `list ${i}${facetsText(p.facets)}` : unprintable('a list whose item is not a name (declare the item as a type)');
    }
    case 'union': {
      const ms = p.members.map(placeholderInner);
      if (ms.some((m) => m === undefined || m.startsWith('list ') || m.startsWith('dictionary ') || m.split(' ')[0].includes(':')))
        return unprintable('a union member that is not a name or scalar');
      return ms.join(' | ');
    }
    case 'literal':
    case 'enum':
    case 'object':
    case 'array':
    case 'xml':
      return undefined;
    default:
      return unreachable(p, 'pattern kind');
  }
}

/** A value on one line (a header, an attribute, XML text): its placeholder, or the literal as written. */
export function valueText(p: Pattern, where: string): string {
  const ph = placeholderText(p);
  if (ph !== undefined) return ph;
  if (p.kind !== 'literal') return unprintable(`a ${p.kind} pattern as ${where}`);
  const v = String(p.value);
  if (isPlaceholder(v)) return unprintable(`the literal "${v}" as ${where} (it would read as a placeholder)`);
  return v;
}

// ---------- XML ----------

/** An element pattern as indented XML, one element per line. */
export function printXml(el: XmlElementPattern, indent = ''): string {
  return xmlLines(el, indent).join('\n');
}

function xmlLines(el: XmlElementPattern, indent: string): string[] {
  const attrs: string[] = [];
  for (const n of el.namespaces) attrs.push(`${n.name}="${attributeText(n.value)}"`);
  if (el.typeRef !== undefined) attrs.push(`specmatic_type="${attributeText(el.typeRef)}"`);
  const occurs = occursText(el.occurs);
  if (occurs !== undefined) attrs.push(`specmatic_occurs="${occurs}"`);
  if (el.nillable) attrs.push('specmatic_nillable="true"');
  if (el.anyAttribute !== undefined) attrs.push(`specmatic_any_attribute="${attributeText(el.anyAttribute)}"`);
  if (el.abstract) attrs.push(`${ABSTRACT}="true"`);
  if (el.anyOrder) attrs.push(`${ORDER}="any"`);
  if (el.anyName) attrs.push(`${ANY_NAME_ATTRIBUTE}="any"`);
  if (el.xsiType !== undefined) attrs.push(`${XSI_TYPE}="${attributeText(el.xsiType)}"`);
  if (el.derived) attrs.push(derivedAttribute(el.derived, indent));
  for (const a of el.attributes) attrs.push(attribute(a, el));
  const open = `${indent}<${el.name}${attrs.map((a) => ` ${a}`).join('')}`;
  const comments = el.comments ?? [];
  if (el.content.length === 0 && comments.length === 0) return [`${open}/>`];
  checkTexts(el);
  if (comments.length === 0 && el.content.every((c) => !isNode(c))) {
    return [`${open}>${el.content.map((c) => contentText(c as TextContent, el)).join('')}</${el.name}>`];
  }
  const inner = `${indent}  `;
  const lines = [`${open}>`];
  const commentsAt = (i: number) => {
    for (const c of comments) if (c.at === i) lines.push(`${inner}<!-- ${c.text.replace(/--/g, '- -').replace(/[\r\n]+/g, ' ')} -->`);
  };
  el.content.forEach((c, i) => {
    commentsAt(i);
    if (isNode(c)) lines.push(...nodeLines(c, inner));
    else lines.push(`${inner}${contentText(c, el)}`);
  });
  commentsAt(el.content.length);
  lines.push(`${indent}</${el.name}>`);
  return lines;
}

/** Characters of derived type names per line: a base of a large schema has hundreds (NetSuite's Record: 8,000 characters on one line). */
const DERIVED_LINE = 100;

/** `specmatic_derived`, its names wrapped over indented lines when they do not fit one (they are read back as white-space separated words). */
function derivedAttribute(derived: readonly DerivedType[], indent: string): string {
  const names = derived.map((d) => attributeText(derivedText(d)));
  if (names.join(' ').length <= DERIVED_LINE) return `${DERIVED}="${names.join(' ')}"`;
  const lines: string[] = [];
  let line = '';
  for (const n of names) {
    if (line !== '' && line.length + 1 + n.length > DERIVED_LINE) {
      lines.push(line);
      line = n;
    } else line = line === '' ? n : `${line} ${n}`;
  }
  lines.push(line);
  return `${DERIVED}="\n${lines.map((l) => `${indent}    ${l}`).join('\n')}\n${indent}  "`;
}

function derivedText(d: DerivedType): string {
  return d.type === d.local ? d.xsiType : `${d.xsiType}=${d.type}`;
}

function attribute(a: XmlAttributePattern, el: XmlElementPattern): string {
  if (a.pattern.kind === 'optional' && !a.optional) unprintable(`attribute ${a.name} on <${el.name}>: a required attribute with an optional value`);
  return `${a.name}${a.optional ? '.opt' : ''}="${attributeText(valueText(a.pattern, `attribute ${a.name} on <${el.name}>`))}"`;
}

/**
 * Texts standing next to each other read back as one text: only node
 * placeholders such as (Id)(Id*) may follow one another.
 */
function checkTexts(el: XmlElementPattern): void {
  for (let i = 1; i < el.content.length; i++) {
    const a = el.content[i - 1];
    const b = el.content[i];
    if (isNode(a) || isNode(b)) continue;
    if (a.kind === 'xml-text' || b.kind === 'xml-text') unprintable(`two texts next to each other in <${el.name}>`);
  }
}

type NodeContent = XmlElementPattern | XmlChoicePattern | XmlWildcardPattern;
type TextContent = Exclude<XmlContent, NodeContent>;

function isNode(c: XmlContent): c is NodeContent {
  return c.kind === 'xml' || c.kind === 'xml-choice' || c.kind === 'xml-any';
}

/** An element, a `<specmatic_choice>` or a `<specmatic_any/>`, one element per line. */
function nodeLines(c: NodeContent, indent: string): string[] {
  if (c.kind === 'xml') return xmlLines(c, indent);
  const occurs = occursText(c.occurs);
  const bounds = occurs === undefined ? '' : ` specmatic_occurs="${occurs}"`;
  if (c.kind === 'xml-any') {
    const ns = c.namespace === '##any' ? '' : ` namespace="${attributeText(c.namespace)}"`;
    const tns = c.targetNamespace === undefined ? '' : ` targetNamespace="${attributeText(c.targetNamespace)}"`;
    const pc = c.processContents === 'strict' ? '' : ` processContents="${c.processContents}"`;
    if (!c.elements?.length) return [`${indent}<${ANY}${bounds}${ns}${tns}${pc}/>`];
    return [`${indent}<${ANY}${bounds}${ns}${tns}${pc}>`, ...c.elements.flatMap((x) => xmlLines(x, `${indent}  `)), `${indent}</${ANY}>`];
  }
  const inner = `${indent}  `;
  const lines = [`${indent}<${CHOICE}${bounds}>`];
  for (const option of c.options) {
    if (option.length === 1 && isNode(option[0])) {
      lines.push(...nodeLines(option[0], inner));
      continue;
    }
    if (!option.every(isNode)) unprintable(`text as an option of a choice`);
    if (option.length === 0) {
      lines.push(`${inner}<${OPTION}/>`);
      continue;
    }
    lines.push(`${inner}<${OPTION}>`);
    for (const x of option) lines.push(...nodeLines(x as NodeContent, `${inner}  `));
    lines.push(`${inner}</${OPTION}>`);
  }
  lines.push(`${indent}</${CHOICE}>`);
  return lines;
}

function contentText(c: TextContent, el: XmlElementPattern): string {
  if (c.kind === 'xml-ref') return `(${c.name}${refSuffix(c.occurs)})`;
  const ph = placeholderText(c.pattern);
  if (ph !== undefined) return ph;
  const v = valueText(c.pattern, `text of <${el.name}>`);
  // The parser trims text and drops empty text.
  if (v === '' || v.trim() !== v) unprintable(`text "${v}" in <${el.name}> (leading or trailing spaces are not kept)`);
  return escapeText(v);
}

/** `(T)`, `(T?)`, `(T*)`, and other bounds in specmatic_occurs's syntax: `(T{2..5})`, `(T{1..*})`, `(T{3})`. */
function refSuffix(o: Occurs): string {
  const text = occursText(o);
  if (text === undefined) return '';
  if (text === 'optional') return '?';
  if (text === 'multiple') return '*';
  return `{${text}}`;
}

/** An attribute value kept on one line: line breaks and tabs as character references. */
function attributeText(value: string): string {
  return escapeAttribute(value).replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

// ---------- JSON ----------

/** A JSON pattern as the contract writes it: two-space indented JSON with placeholders as strings. */
export function printJson(p: Pattern): string {
  return JSON.stringify(jsonValue(p), null, 2);
}

function jsonValue(p: Pattern): unknown {
  switch (p.kind) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const f of p.fields) {
        const key = f.optional ? `${f.key}?` : f.key;
        if ((!f.optional && f.key.endsWith('?')) || f.key === '...' || Object.hasOwn(out, key)) unprintable(`JSON key "${f.key}"`);
        // "(number?)" on a required key reads as a required key whose value may be null; on "key?" as written.
        out[key] = jsonValue(f.pattern);
      }
      if (p.open) out['...'] = '';
      return out;
    }
    case 'array':
      // A lone list item reads back as the list itself.
      if (p.items.length === 1 && p.items[0].kind === 'list') unprintable('an array holding only a list');
      return p.items.map(jsonValue);
    case 'list': {
      const ph = placeholderText(p);
      return ph !== undefined ? [ph] : unprintable('a list of values that are not a type name or scalar (declare the item as a type)');
    }
    case 'literal':
      if (typeof p.value === 'string' && isPlaceholder(p.value)) unprintable(`the JSON string "${p.value}" (it would read as a placeholder)`);
      return p.value;
    case 'xml':
      return unprintable('XML inside JSON');
    default: {
      const ph = placeholderText(p);
      return ph !== undefined ? ph : unprintable(`a ${p.kind} pattern in JSON`);
    }
  }
}

// ---------- bodies and types ----------

/** How a pattern stands in a step: on the step's line, or as a block (a doc string). */
export type PatternText = { inline: string } | { block: string };

/** A body or type definition: a placeholder or literal on the line, XML and JSON as a block. */
export function patternText(p: Pattern, where: string): PatternText {
  if (p.kind === 'xml') return { block: printXml(p) };
  if (p.kind === 'object' || p.kind === 'array' || p.kind === 'list') return { block: printJson(p) };
  if (p.kind === 'literal') {
    const v = valueText(p, where);
    if (typeof p.value !== 'string' || v === '' || v.trim() !== v || /[\r\n]/.test(v) || /^[<{[]/.test(v)) unprintable(`the literal ${JSON.stringify(p.value)} as ${where}`);
    return { inline: v };
  }
  return { inline: valueText(p, where) };
}
