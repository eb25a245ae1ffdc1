import { AccordError } from '../errors';
import { parseXml } from '../xml/parse';
import { isNamespaceDeclaration, type XmlElement } from '../xml/tree';
import { isOnce, MULTIPLE, ONCE, OPTIONAL, parseOccurs } from './occurs';
import { isTypeName, parsePlaceholder } from './placeholder';
import { words } from './wildcard';
import type { DerivedType, Occurs, Pattern, XmlAttributePattern, XmlChoicePattern, XmlContent, XmlElementPattern, XmlRefContent, XmlWildcardPattern } from './types';

/** Control attributes written by Specmatic's importer (and Qontract's before it); never data. */
const CONTROL = /^(specmatic|qontract)_(occurs|nillable|type)$/;

export function xmlPatternFromText(text: string): XmlElementPattern {
  return xmlPatternFromElement(parseXml(text));
}

export function xmlPatternFromElement(el: XmlElement): XmlElementPattern {
  const namespaces: XmlElementPattern['namespaces'] = [];
  const attributes: XmlAttributePattern[] = [];
  let occurs: Occurs = ONCE;
  let nillable = false;
  let typeRef: string | undefined;

  let anyAttribute: string | undefined;
  let derived: DerivedType[] | undefined;
  let abstract = false;
  let anyOrder = false;
  let anyName = false;
  let xsiType: string | undefined;
  for (const a of el.attributes) {
    if (a.name === XSI_TYPE) {
      xsiType = a.value;
      continue;
    }
    if (a.name === ANY_NAME_ATTRIBUTE) {
      if (a.value !== 'any')
        throw structureError(el, `${ANY_NAME_ATTRIBUTE}="${a.value}" on <${el.name}>: expected "any" (the node under any name), or no ${ANY_NAME_ATTRIBUTE} for the name written`);
      anyName = true;
      continue;
    }
    if (a.name === ORDER) {
      if (a.value !== 'any') throw structureError(el, `${ORDER}="${a.value}" on <${el.name}>: expected "any" (its child nodes in any order), or no ${ORDER} for the order written`);
      anyOrder = true;
      continue;
    }
    if (a.name === 'specmatic_any_attribute') {
      anyAttribute = a.value;
      continue;
    }
    if (a.name === DERIVED) {
      derived = derivedFrom(el, a.value);
      continue;
    }
    if (a.name === ABSTRACT) {
      abstract = a.value === 'true';
      continue;
    }
    if (isNamespaceDeclaration(a)) {
      namespaces.push({ name: a.name, value: a.value });
      continue;
    }
    const control = CONTROL.exec(a.name);
    if (control) {
      if (control[2] === 'occurs') {
        occurs = parseOccurs(a.value) ?? badOccurs(el, a.name, a.value);
      } else if (control[2] === 'nillable') nillable = a.value === 'true';
      else typeRef = a.value;
      continue;
    }
    const optional = a.name.endsWith('.opt');
    const name = optional ? a.name.slice(0, -4) : a.name;
    const local = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
    const placeholder = parsePlaceholder(a.value);
    let pattern: Pattern = placeholder ?? { kind: 'literal', value: a.value };
    let isOptional = optional;
    if (pattern.kind === 'optional') {
      isOptional = true;
      pattern = pattern.inner;
    }
    attributes.push({ name, local, optional: isOptional, pattern });
  }

  const content: XmlContent[] = [];
  for (const c of el.children) {
    if (c.type === 'element') {
      content.push(nodeContent(c));
      continue;
    }
    content.push(...textContents(c.value, el));
  }
  if (el.local === 'Envelope') for (const c of content) if (c.kind === 'xml') makeEmptyHeaderOptional(c);
  return {
    kind: 'xml',
    name: el.name,
    prefix: el.prefix,
    local: el.local,
    namespaces,
    attributes,
    content,
    occurs,
    nillable,
    typeRef,
    ...(anyAttribute !== undefined ? { anyAttribute } : {}),
    ...(derived ? { derived } : {}),
    ...(abstract ? { abstract } : {}),
    ...(anyOrder ? { anyOrder } : {}),
    ...(anyName ? { anyName } : {}),
    ...(xsiType !== undefined ? { xsiType } : {}),
    line: el.line,
  };
}

/** A child element of the contract: an element pattern, or `<specmatic_choice>` / `<specmatic_any/>`. */
function nodeContent(el: XmlElement): XmlContent {
  if (el.name === CHOICE) return choiceFrom(el);
  if (el.name === ANY) return wildcardFrom(el);
  return xmlPatternFromElement(el);
}

/** The element names of the structure the contract language adds to XML (README, "XML structure"). */
export const CHOICE = 'specmatic_choice';
/** `specmatic_order="any"` on an element: its child nodes in any order (XmlElementPattern.anyOrder). */
export const ORDER = 'specmatic_order';
/** `specmatic_name="any"` on an element: matched whatever its name (XmlElementPattern.anyName). */
export const ANY_NAME_ATTRIBUTE = 'specmatic_name';
/** `specmatic_xsi_type="tns:Order"`: the xsi:type written for the node in SOAP-encoding scope (XmlElementPattern.xsiType). */
export const XSI_TYPE = 'specmatic_xsi_type';
export const OPTION = 'specmatic_option';
export const ANY = 'specmatic_any';

/** The control attributes of XSD type derivation (README, "Derived types and xsi:type"). */
export const DERIVED = 'specmatic_derived';
export const ABSTRACT = 'specmatic_abstract';

/** `specmatic_derived="tns:Circle tns:Square=ns1_Square"`: each a QName for xsi:type, and the contract type when its name differs. */
function derivedFrom(el: XmlElement, value: string): DerivedType[] {
  const out: DerivedType[] = [];
  for (const token of value.trim() === '' ? [] : words(value)) {
    const eq = token.indexOf('=');
    const xsiType = eq < 0 ? token : token.slice(0, eq);
    const local = xsiType.slice(xsiType.indexOf(':') + 1);
    const type = eq < 0 ? local : token.slice(eq + 1);
    if (local === '' || !isTypeName(type) || xsiType.indexOf(':') !== xsiType.lastIndexOf(':')) {
      throw structureError(el, `${DERIVED}="${value}" on <${el.name}>: expected derived types such as "tns:Circle tns:Square" (or "tns:Circle=OtherName")`);
    }
    out.push({ xsiType, local, type });
  }
  // Empty: no derived type stands here (an element whose own XSD `block` refuses those its type lists).
  return out;
}

/** `<specmatic_choice>`: each child element is an option, a `<specmatic_option>` an option of several nodes. */
function choiceFrom(el: XmlElement): XmlChoicePattern {
  const options: XmlContent[][] = [];
  for (const c of el.children) {
    if (c.type !== 'element') throw structureError(el, `<${CHOICE}> holds elements only (its options), not text "${c.value.trim()}"`);
    if (c.name !== OPTION) {
      options.push([nodeContent(c)]);
      continue;
    }
    const option: XmlContent[] = [];
    for (const x of c.children) {
      if (x.type !== 'element') throw structureError(c, `<${OPTION}> holds elements only, not text "${x.value.trim()}"`);
      option.push(nodeContent(x));
    }
    options.push(option);
  }
  if (options.length === 0) throw structureError(el, `<${CHOICE}> needs at least one option`);
  return { kind: 'xml-choice', options, occurs: structureOccurs(el, []) };
}

/**
 * `<specmatic_any namespace="##other" processContents="lax" specmatic_occurs="0..*"/>`: XSD's attributes, XSD's defaults.
 * It may hold elements: declarations the contract knows for it (an element found of one's name is checked against it).
 */
function wildcardFrom(el: XmlElement): XmlWildcardPattern {
  const elements: XmlElementPattern[] = [];
  for (const c of el.children) {
    if (c.type !== 'element' || c.name === CHOICE || c.name === ANY || c.name === OPTION) {
      throw structureError(el, `<${ANY}> holds nothing, or the elements it may stand for (their declarations), not ${c.type === 'element' ? `<${c.name}>` : 'text'}`);
    }
    elements.push(xmlPatternFromElement(c));
  }
  const processContents = el.attributes.find((a) => a.name === 'processContents')?.value ?? 'strict';
  if (processContents !== 'strict' && processContents !== 'lax' && processContents !== 'skip') {
    throw structureError(el, `processContents="${processContents}" on <${ANY}>: expected "strict", "lax" or "skip"`);
  }
  const targetNamespace = el.attributes.find((a) => a.name === 'targetNamespace')?.value;
  return {
    kind: 'xml-any',
    occurs: structureOccurs(el, ['namespace', 'targetNamespace', 'processContents']),
    namespace: el.attributes.find((a) => a.name === 'namespace')?.value ?? '##any',
    ...(targetNamespace !== undefined ? { targetNamespace } : {}),
    processContents,
    ...(elements.length ? { elements } : {}),
  };
}

function structureOccurs(el: XmlElement, allowed: string[]): Occurs {
  let occurs: Occurs = ONCE;
  for (const a of el.attributes) {
    if (a.name === 'specmatic_occurs') occurs = parseOccurs(a.value) ?? badOccurs(el, a.name, a.value);
    else if (!allowed.includes(a.name)) throw structureError(el, `attribute ${a.name} on <${el.name}> means nothing here`);
  }
  return occurs;
}

function badOccurs(el: XmlElement, name: string, value: string): never {
  throw structureError(el, `${name}="${value}" on <${el.name}>: expected "optional", "multiple" or bounds such as "2..5", "1..*", "3"`);
}

function structureError(el: XmlElement, message: string): AccordError {
  return new AccordError('ACCORD_ERR_CONTRACT_TYPE', message, { line: el.line });
}

/**
 * An empty SOAP Header in a contract says "no header entries". SOAP makes the
 * Header element itself optional (SOAP 1.1 section 4.2, SOAP 1.2 part 1 section 5.2),
 * and stacks differ on writing an empty one, so an absent Header matches too.
 * It is still generated as written.
 */
function makeEmptyHeaderOptional(p: XmlElementPattern): void {
  if (p.local === 'Header' && p.content.length === 0 && p.attributes.length === 0 && isOnce(p.occurs)) p.occurs = OPTIONAL;
}

/** `(Id)(Id*)`: several node placeholders in a row stand for nodes one after another. */
function textContents(text: string, el: XmlElement): XmlContent[] {
  const parts = text.match(/\([^()]*\)/g);
  if (parts && parts.length > 1 && parts.join('') === text.replace(/\s+/g, '')) {
    const contents = parts.map((part) => textContent(part, el));
    if (contents.some((c) => c.kind !== 'xml-ref')) {
      throw new AccordError('ACCORD_ERR_CONTRACT_TYPE', `in <${el.name}>: "${text}" mixes several values in one text; only node types such as (Id)(Id*) may follow each other`, {
        line: el.line,
      });
    }
    return contents;
  }
  return [textContent(text, el)];
}

function textContent(text: string, el: XmlElement): XmlContent {
  const bounded = boundedRef(text, el);
  if (bounded) return bounded;
  let placeholder: Pattern | undefined;
  try {
    placeholder = parsePlaceholder(text);
  } catch (e) {
    if (e instanceof AccordError) throw new AccordError(e.code, `in <${el.name}>: ${e.message}`, { line: el.line });
    throw e;
  }
  if (!placeholder) return { kind: 'xml-text', pattern: { kind: 'literal', value: text } };
  return xmlContentOf(placeholder);
}

/**
 * `(Item{2..5})`, `(Item{3})`, `(Item{1..*})`: a node type with bounds other than `?` and `*`,
 * in `specmatic_occurs`'s syntax between the braces. Undefined when the text is not of that form.
 */
function boundedRef(text: string, el: XmlElement): XmlRefContent | undefined {
  const t = text.trim();
  const open = t.indexOf('{');
  if (!t.startsWith('(') || !t.endsWith('})') || open < 0) return undefined;
  const name = t.slice(1, open).trim();
  if (!isTypeName(name)) return undefined;
  const bounds = t.slice(open + 1, -2);
  const o = parseOccurs(bounds);
  if (!o) throw structureError(el, `"${t}" in <${el.name}>: expected bounds such as (${name}{2..5}), (${name}{1..*}) or (${name}{3})`);
  return { kind: 'xml-ref', name, occurs: o };
}

/** A pattern written as element content, as the parser reads it: a ref (possibly repeated or optional) stands for nodes, anything else for the text. */
export function xmlContentOf(p: Pattern): XmlContent {
  // A ref whose target may be a node type: resolved when used.
  if (p.kind === 'ref') return { kind: 'xml-ref', name: p.name, occurs: ONCE };
  if (p.kind === 'list' && p.inner.kind === 'ref') return { kind: 'xml-ref', name: p.inner.name, occurs: MULTIPLE };
  if (p.kind === 'optional' && p.inner.kind === 'ref') return { kind: 'xml-ref', name: p.inner.name, occurs: OPTIONAL };
  return { kind: 'xml-text', pattern: p };
}

/** An element pattern built in code (the importers): prefix and local name from `name`, everything else defaulted. */
export function xmlElement(name: string, init: Partial<Omit<XmlElementPattern, 'kind' | 'name' | 'prefix' | 'local'>> = {}): XmlElementPattern {
  const i = name.indexOf(':');
  return {
    kind: 'xml',
    name,
    prefix: i < 0 ? '' : name.slice(0, i),
    local: i < 0 ? name : name.slice(i + 1),
    namespaces: init.namespaces ?? [],
    attributes: init.attributes ?? [],
    content: init.content ?? [],
    occurs: init.occurs ?? ONCE,
    nillable: init.nillable ?? false,
    ...(init.typeRef !== undefined ? { typeRef: init.typeRef } : {}),
    ...(init.anyAttribute !== undefined ? { anyAttribute: init.anyAttribute } : {}),
    ...(init.derived ? { derived: init.derived } : {}),
    ...(init.abstract ? { abstract: true } : {}),
    ...(init.anyOrder ? { anyOrder: true } : {}),
    ...(init.anyName ? { anyName: true } : {}),
    ...(init.xsiType !== undefined ? { xsiType: init.xsiType } : {}),
    ...(init.comments?.length ? { comments: init.comments } : {}),
  };
}
