/**
 * What the emitter's parts share: an element's content, occurrence, and the
 * small interface through which particles, attributes and derivation call
 * back into the emitter (names, pending declarations, element nodes).
 */
import type { Element } from '@xmldom/xmldom';
import { NS, type QName } from './dom';
import type { SimpleTypes } from './simple-types';
import type { XNode } from './xml-text';
import type { Decl, SchemaIndex } from './xsd';

export type Occurs = 'once' | 'optional' | 'multiple';

/** What an element's body is: text (a placeholder), or attributes and children. */
export interface Content {
  attrs: [string, string][];
  children: XNode[];
  text?: string;
}

export const SOAPENC = new Set<string>([NS.soapenc, NS.soap12enc]);

/** The emitter as its parts see it (implemented by `Emitter` in ./emit). */
export interface EmitContext {
  readonly index: SchemaIndex;
  readonly simple: SimpleTypes;
  /** Keys of the types and groups being written, outermost first. */
  readonly stack: string[];
  note(message: string): void;
  /** `(anything)`, counted. */
  anything(): string;
  prefixFor(ns: string): string;
  schemaTns(el: Element): string;
  guard(key: string, f: () => Content): Content;
  elementNode(el: Element, decl: Decl | undefined, occurs: Occurs, top?: boolean): XNode;
  unresolvedNode(name: string, q: QName, what: string): XNode;
  finish(name: string, control: [string, string][], content: Content, occurs: Occurs, nillable: boolean): XNode;
  namedComplexType(q: QName): string | undefined;
  contentOfType(q: QName, hint: string): Content;
  complexContent(ct: Element, hint: string): Content;
}
