/**
 * What the emitter's parts share: an element's content, occurrence, and the
 * small interface through which particles, attributes and derivation call
 * back into the emitter (names, pending declarations, element nodes).
 */
import type { Element } from '@xmldom/xmldom';
import { xmlContentOf, xmlElement } from '../pattern/xml-pattern';
import type { DerivedType, Occurs, Pattern, XmlAttributePattern, XmlChoicePattern, XmlComment, XmlElementPattern, XmlNamespace, XmlWildcardPattern } from '../pattern/types';
import { NS, type QName } from './dom';
import type { SimpleTypes } from './simple-types';
import type { Decl, SchemaIndex } from './xsd';

export type { Occurs };

/** A comment for people among an element's children: where a node was left out, or what a choice means. */
export interface CommentNode {
  kind: 'comment';
  text: string;
}

/** A child the emitter writes: an element, a choice or a wildcard, or a comment in its place. */
export type Child = XmlElementPattern | XmlChoicePattern | XmlWildcardPattern | CommentNode;

export function comment(text: string): CommentNode {
  return { kind: 'comment', text };
}

export function isComment(c: Child): c is CommentNode {
  return c.kind === 'comment';
}

export const ANYTHING: Pattern = { kind: 'scalar', type: 'anything' };

export function isAnything(p: Pattern | undefined): boolean {
  return p !== undefined && p.kind === 'scalar' && p.type === 'anything';
}

/** What an element's body is: text (a placeholder), or attributes and children. */
export interface Content {
  /** `specmatic_type`: an element of a named complex type takes that type's content. */
  typeRef?: string;
  attrs: XmlAttributePattern[];
  children: Child[];
  text?: Pattern;
  /** xs:anyAttribute's namespace constraint. */
  anyAttribute?: string;
  /** The derived types of `typeRef` an element's own `block` leaves (its type's list when absent). */
  derived?: DerivedType[];
  /** `xs:all`: the children in any order. */
  anyOrder?: boolean;
  /** The named type an encoded message types the node with (`xsi:type`, `specmatic_xsi_type`). */
  xsiType?: string;
}

export interface ElementParts {
  namespaces?: XmlNamespace[];
  typeRef?: string;
  occurs?: Occurs;
  nillable?: boolean;
  attributes?: XmlAttributePattern[];
  /** xs:anyAttribute's namespace constraint. */
  anyAttribute?: string;
  children?: Child[];
  /** The text, when there are no children (with children it is not written). */
  text?: Pattern;
  /** A type root's derivation: abstract, and the types derived from it (xsi:type). */
  abstract?: boolean;
  derived?: DerivedType[];
  /** The children in any order (`xs:all`, a SOAP-encoded struct). */
  anyOrder?: boolean;
  /** Under any name (a SOAP-encoded array's members). */
  anyName?: boolean;
  /** The QName an encoded message types the node with (`xsi:type`; a SOAP-encoded array's struct members). */
  xsiType?: string;
}

/** An element pattern from the emitter's parts: comments among the children become the element's comments. */
export function element(name: string, parts: ElementParts = {}): XmlElementPattern {
  const content: XmlElementPattern['content'] = [];
  const comments: XmlComment[] = [];
  for (const c of parts.children ?? []) {
    if (isComment(c)) comments.push({ at: content.length, text: c.text });
    else content.push(c);
  }
  if ((parts.children ?? []).length === 0 && parts.text) content.push(xmlContentOf(parts.text));
  return xmlElement(name, {
    namespaces: parts.namespaces,
    typeRef: parts.typeRef,
    occurs: parts.occurs,
    nillable: parts.nillable,
    attributes: parts.attributes,
    anyAttribute: parts.anyAttribute,
    derived: parts.derived,
    abstract: parts.abstract,
    anyOrder: parts.anyOrder,
    anyName: parts.anyName,
    xsiType: parts.xsiType,
    content,
    comments,
  });
}

export const SOAPENC = new Set<string>([NS.soapenc, NS.soap12enc]);

/** The emitter as its parts see it (implemented by `Emitter` in ./emit). */
export interface EmitContext {
  readonly index: SchemaIndex;
  readonly simple: SimpleTypes;
  /** Keys of the types and groups being written, outermost first. */
  readonly stack: string[];
  note(message: string): void;
  /** A declaration the WSDL uses and no loaded schema holds: noted, and counted as a partial import (`--strict`). */
  missing(subject: string, message: string, node?: string): void;
  /** `(anything)`, counted. */
  anything(): Pattern;
  prefixFor(ns: string): string;
  schemaTns(el: Element): string;
  guard(key: string, f: () => Content): Content;
  elementNode(el: Element, decl: Decl | undefined, occurs: Occurs, top?: boolean): Child;
  unresolvedNode(name: string, q: QName, what: string, occurs?: Occurs): Child;
  finish(name: string, typeRef: string | undefined, content: Content, occurs: Occurs, nillable: boolean): Child;
  namedComplexType(q: QName): string | undefined;
  contentOfType(q: QName, hint: string): Content;
  complexContent(ct: Element, hint: string): Content;
}
