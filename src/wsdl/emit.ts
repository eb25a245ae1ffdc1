import { MAX_TYPE_NESTING } from '../limits';
/**
 * The emitter's core: its state (declared types, names, declarations
 * pending, the recursion guard), element nodes and named types. Particles,
 * attributes and derived types are written by ./particles, ./attributes and
 * ./derivation, which call back through `EmitContext`.
 */
import type { Element } from '@xmldom/xmldom';
import { quoted } from '../printable';
import { attr, kid, NS, qkey, resolveQName, type QName } from './dom';
import { builtinScalar } from './builtins';
import { annotatedText } from './placeholder-annotation';
import { isPlaceholder } from '../pattern/placeholder';
import type { DerivedType, Pattern } from '../pattern/types';
import type { TypeDef } from './declared-types';
import { blockedBy, blocks } from './blocking';
import { complexDerived, simpleContent } from './derivation';
import { ANYTHING, comment, element, SOAPENC, type Child, type Content, type EmitContext, type Occurs } from './emit-context';
import { isXmlName, NameTable, Prefixes, qualified } from './names';
import { particlesAndAttributes } from './particles';
import { ONCE } from '../pattern/occurs';
import type { Decl, SchemaIndex } from './xsd';
import { owningSchema } from './xsd';
import { SimpleTypes } from './simple-types';

export type { TypeDef } from './declared-types';

export interface EmitStats {
  /** Nodes whose content is `(anything)`: wildcards, anyType, unresolved types. */
  anything: number;
  notes: string[];
  /** Declarations used and not found (their schema not loaded, or not declared): what made the import partial. */
  missing: string[];
  /** The nodes written (anything) because of a missing declaration, each once: `trace: element {urn:x}trace not found`. */
  holes: Hole[];
}

/** A node written (anything) because `subject` (`element {urn:x}trace`) was not found; `node` its name where it has one. */
export interface Hole {
  node?: string;
  subject: string;
}

/**
 * XSD to contract XML. Named complex types become contract types (declared
 * once, used through `specmatic_type`), anonymous ones are written in place;
 * named simple types with enumerations become enums. Only what an operation
 * reaches is declared, and recursion stops at named types.
 *
 * The importer uses `registerSchema`, `globalElement`, `typedNode`, `flush`
 * and `types`; most other members are public only because the emitter's
 * parts call them through `EmitContext`.
 */
export class Emitter implements EmitContext {
  readonly types = new Map<string, TypeDef>();
  private readonly names = new NameTable();
  private readonly pending: (() => void)[] = [];
  readonly stack: string[] = [];
  private readonly noted = new Set<string>();
  readonly simple: SimpleTypes;
  /**
   * Whether an operation imported is rpc/encoded: then a node of a named type (a struct, a named simple
   * type) names it for `xsi:type`, as PHP SoapServer and Axis 1 type every accessor of an encoded message.
   * Generation writes it only in SOAP-encoding scope, so a literal operation sharing the type is untouched.
   */
  encoded = false;

  constructor(
    readonly index: SchemaIndex,
    readonly prefixes: Prefixes,
    readonly stats: EmitStats,
  ) {
    this.simple = new SimpleTypes(
      index,
      this.names,
      this.types,
      (ns) => this.prefixFor(ns),
      (m) => this.note(m),
    );
  }

  /** Declares everything queued while emitting; call once all operations are emitted. */
  flush(): void {
    while (this.pending.length) this.pending.shift()!();
  }

  note(message: string): void {
    if (this.noted.has(message)) return;
    this.noted.add(message);
    this.stats.notes.push(message);
  }

  missing(subject: string, message: string, node?: string): void {
    if (!this.stats.holes.some((h) => h.node === node && h.subject === subject)) this.stats.holes.push(node === undefined ? { subject } : { node, subject });
    if (this.noted.has(message)) return;
    this.note(message);
    if (!this.stats.missing.includes(subject)) this.stats.missing.push(subject);
  }

  anything(): Pattern {
    this.stats.anything++;
    return ANYTHING;
  }

  // ---------- top-level uses (message parts) ----------

  /** The node for a global element (a document/literal part). */
  globalElement(q: QName, occurs: Occurs = ONCE): Child[] {
    const decl = this.index.find('element', q);
    if (!decl) return [this.unresolvedNode(qualified(this.prefixes.for(q.ns), q.local), q, 'element', occurs)];
    return [this.elementNode(decl.el, decl, occurs, true)];
  }

  /** A part typed with `type=` (rpc style): an unqualified node named after the part. */
  typedNode(name: string, typeQ: QName, occurs: Occurs = ONCE): Child {
    const content = this.contentOfType(typeQ, name);
    return this.finish(name, undefined, this.typedForEncoding(content, typeQ), occurs, false);
  }

  /** A node the WSDL names with something XML does not allow: left out (a comment says so). */
  private illegalName(local: string): Child {
    this.note(`${quoted(local)} is not a legal XML name: that node is left out`);
    return comment(`${quoted(local).replace(/--/g, '- -')} left out: not a legal XML name`);
  }

  /** An element whose declaration is missing: `(anything)`, keeping the bounds of the place it stands in (an optional header stays optional). */
  unresolvedNode(name: string, q: QName, what: string, occurs: Occurs = ONCE): Child {
    if (!isXmlName(q.local)) return this.illegalName(q.local);
    this.missing(
      `${what} {${q.ns}}${q.local}`,
      `${what} {${q.ns}}${q.local} not found${this.index.hasNamespace(q.ns) ? '' : ' (its schema was not loaded)'}: marked (anything)`,
      name,
    );
    return this.finish(name, undefined, { attrs: [], children: [], text: this.anything() }, occurs, false);
  }

  // ---------- elements ----------

  /** `decl` is given for a global element (always qualified with its schema's namespace). */
  elementNode(el: Element, decl: Decl | undefined, occurs: Occurs, top = false): Child {
    const name = attr(el, 'name') ?? 'element';
    const schema = owningSchema(el);
    const tns = decl ? decl.schema.targetNamespace : this.schemaTns(el);
    const form = attr(el, 'form');
    const qualifiedForm = decl !== undefined || form === 'qualified' || (form === undefined && attr(schema ?? el, 'elementFormDefault') === 'qualified');
    const nodeName = qualified(qualifiedForm ? this.prefixFor(tns) : '', name);
    const nillable = attr(el, 'nillable') === 'true';
    let typeRef: string | undefined;
    const typeAttr = attr(el, 'type');
    let content: Content;
    if (typeAttr) {
      const tq = resolveQName(el, typeAttr);
      const named = this.namedComplexType(tq);
      if (named) {
        typeRef = named;
        content = { attrs: [], children: [], derived: this.derivedAt(el, tq, name) };
      } else content = this.contentOfType(tq, name);
      content = this.typedForEncoding(content, tq);
    } else {
      const ct = kid(el, NS.xsd, 'complexType');
      const st = kid(el, NS.xsd, 'simpleType');
      if (ct && decl && !top) {
        // A global element with an anonymous type, used by ref: declared once, named after the element.
        typeRef = this.elementType(decl);
        content = { attrs: [], children: [] };
      } else if (ct) content = this.complexContent(ct, name);
      else if (st) content = { attrs: [], children: [], text: this.simple.anonymousText(st, name) };
      else content = { attrs: [], children: [], text: this.anything() };
    }
    if (content.text) content = { ...content, text: annotatedText(el, content.text) };
    // A fixed value is the only one a simple-content element may hold: sent and matched as written (unless it would read as a placeholder).
    const fixed = attr(el, 'fixed');
    if (fixed !== undefined && content.text !== undefined && content.children.length === 0 && !typeRef && !isPlaceholder(fixed))
      content = { ...content, text: { kind: 'literal', value: fixed } };
    // An empty element stands for its default value (XSD 1.0 part 1, 3.3.4): servers send <n/> for it, so empty is accepted too.
    else if (attr(el, 'default') !== undefined && content.text !== undefined && content.children.length === 0 && !typeRef) content = { ...content, text: orEmpty(content.text) };
    return this.finish(nodeName, typeRef, content, occurs, nillable);
  }

  finish(name: string, typeRef: string | undefined, content: Content, occurs: Occurs, nillable: boolean): Child {
    const local = name.slice(name.indexOf(':') + 1);
    if (!isXmlName(local)) return this.illegalName(local);
    return element(name, {
      typeRef: typeRef ?? content.typeRef,
      occurs,
      nillable,
      derived: content.derived,
      attributes: content.attrs,
      anyAttribute: content.anyAttribute,
      children: content.children,
      text: content.text,
      anyOrder: content.anyOrder,
      xsiType: content.xsiType,
    });
  }

  /**
   * `content` naming its type `q` for `xsi:type` when the import has an encoded operation and `q` is a
   * type of the WSDL's own schemas: not a built-in (its placeholder names it), not a SOAP-encoded array
   * (typed by its `arrayType`, where PHP and Axis write `SOAP-ENC:Array`, which the schema does not
   * derive from the array's declared type), and not a type the schemas lack.
   */
  private typedForEncoding(content: Content, q: QName): Content {
    if (!this.encoded || q.ns === NS.xsd || SOAPENC.has(q.ns) || content.xsiType !== undefined) return content;
    const decl = this.index.find('type', q);
    if (!decl || isEncodedArray(decl.el)) return content;
    return { ...content, xsiType: qualified(this.prefixFor(q.ns), q.local) };
  }

  schemaTns(el: Element): string {
    const s = owningSchema(el);
    if (!s) return '';
    // A chameleon include takes the includer's namespace: the index knows which schema source this is.
    return this.chameleonTns(s) ?? attr(s, 'targetNamespace') ?? '';
  }

  private readonly chameleons = new Map<Element, string>();
  registerSchema(el: Element, tns: string): void {
    this.chameleons.set(el, tns);
  }
  private chameleonTns(s: Element): string | undefined {
    return this.chameleons.get(s);
  }

  prefixFor(ns: string): string {
    if (ns === NS.xml) return 'xml';
    return this.prefixes.for(ns);
  }

  // ---------- types ----------

  /** The contract name of a named complex type, declaring it (later) when first used; undefined for simple and built-in types. */
  namedComplexType(q: QName): string | undefined {
    if (q.ns === NS.xsd) return undefined;
    const decl = this.index.find('type', q);
    if (!decl || decl.el.localName !== 'complexType') return undefined;
    if (SOAPENC.has(q.ns)) return undefined;
    const key = `complex${qkey(decl.name)}`;
    const known = this.names.get(key);
    if (known) return known;
    const name = this.names.allocate(key, [decl.name.local, () => `${this.prefixFor(decl.name.ns)}_${decl.name.local}`]);
    this.pending.push(() => {
      const content = this.guard(key, () => this.complexContent(decl.el, decl.name.local));
      const derived = this.derivedTypes(decl);
      const abstract = attr(decl.el, 'abstract') === 'true';
      // An abstract type nothing derives from has no valid instance: its own content is kept, as before.
      if (abstract && derived.length === 0) this.note(`complexType ${decl.name.local} is abstract and no type derives from it: its own content is written`);
      const derivation = { abstract: abstract && derived.length > 0, derived };
      this.types.set(name, { name, pattern: typeRoot(content, derivation), source: `complexType ${decl.name.local}` });
    });
    return name;
  }

  /**
   * The named complex types derived from `base`, at any depth, that an instance may name with
   * xsi:type: each declared as a contract type. Derivation by a method `base` blocks (`block`,
   * the schema's `blockDefault`) is left out, and so are abstract ones (no instance has them);
   * `alsoBlocked` adds what an element declaration of that type blocks.
   */
  private derivedTypes(base: Decl, alsoBlocked: readonly string[] = []): DerivedType[] {
    const blocked = [...blockedBy(base.el), ...alsoBlocked];
    const allowed = (m: string) => !blocks(blocked, m);
    const out: DerivedType[] = [];
    const seen = new Set<string>([qkey(base.name)]);
    const walk = (d: Decl): void => {
      for (const { decl, method } of this.index.derivations.get(qkey(d.name)) ?? []) {
        const k = qkey(decl.name);
        if (seen.has(k) || !allowed(method)) continue;
        seen.add(k);
        const type = attr(decl.el, 'abstract') === 'true' ? undefined : this.namedComplexType(decl.name);
        if (type) out.push({ xsiType: qualified(this.prefixFor(decl.name.ns), decl.name.local), local: decl.name.local, type });
        walk(decl);
      }
    };
    walk(base);
    return out;
  }

  /**
   * The derived types an element of named type `tq` may hold when its own `block` (or its schema's
   * `blockDefault`) refuses more than the type does: a narrower list written on the element
   * (`specmatic_derived=""` when none is left); undefined when the type's own list holds there.
   */
  private derivedAt(el: Element, tq: QName, name: string): DerivedType[] | undefined {
    const blocked = blockedBy(el);
    if (!blocks(blocked, 'extension') && !blocks(blocked, 'restriction')) return undefined;
    const decl = this.index.find('type', tq)!;
    const all = this.derivedTypes(decl);
    const here = this.derivedTypes(decl, blocked);
    if (here.length === all.length) return undefined;
    if (here.length === 0 && attr(decl.el, 'abstract') === 'true')
      this.note(`element ${name} blocks every type derived from abstract type ${tq.local}: no instance of it is valid`);
    return here;
  }

  private elementType(decl: Decl): string {
    const key = `element${qkey(decl.name)}`;
    const known = this.names.get(key);
    if (known) return known;
    const name = this.names.allocate(key, [decl.name.local, () => `${this.prefixFor(decl.name.ns)}_${decl.name.local}`]);
    this.pending.push(() => {
      const ct = kid(decl.el, NS.xsd, 'complexType')!;
      const content = this.guard(key, () => this.complexContent(ct, decl.name.local));
      this.types.set(name, { name, pattern: typeRoot(content), source: `element ${decl.name.local}` });
    });
    return name;
  }

  /** Content for an element of type `q` written in place (simple and built-in types, SOAP-encoded arrays). */
  contentOfType(q: QName, hint: string): Content {
    if (q.ns === NS.xsd || (SOAPENC.has(q.ns) && !this.index.find('type', q))) {
      if (SOAPENC.has(q.ns) && q.local === 'Array') return { attrs: [], children: [], text: this.anything() };
      const scalar = builtinScalar(q.local);
      return { attrs: [], children: [], text: scalar === 'anything' ? this.anything() : { kind: 'scalar', type: scalar } };
    }
    const named = this.namedComplexType(q);
    if (named) return { typeRef: named, attrs: [], children: [] };
    const decl = this.index.find('type', q);
    if (!decl) {
      this.missing(`type {${q.ns}}${q.local}`, `type {${q.ns}}${q.local} not found${this.index.hasNamespace(q.ns) ? '' : ' (its schema was not loaded)'}: marked (anything)`, hint);
      return { attrs: [], children: [], text: this.anything() };
    }
    if (decl.el.localName === 'complexType') return this.complexContent(decl.el, hint);
    return { attrs: [], children: [], text: this.simple.text(decl) };
  }

  guard<T extends Content>(key: string, f: () => T): T | Content {
    if (this.stack.includes(key) || this.stack.length > MAX_TYPE_NESTING) {
      this.note(`${key.replace(/^\w+/, '')} contains itself without a named type in between: the inner occurrence is marked (anything)`);
      return { attrs: [], children: [], text: this.anything() };
    }
    this.stack.push(key);
    try {
      return f();
    } finally {
      this.stack.pop();
    }
  }

  /** Attributes and children of a complexType element (named or anonymous). */
  complexContent(ct: Element, hint: string): Content {
    const simple = kid(ct, NS.xsd, 'simpleContent');
    if (simple) return simpleContent(this, simple, hint);
    const complex = kid(ct, NS.xsd, 'complexContent');
    if (complex) return complexDerived(this, complex, hint);
    return particlesAndAttributes(this, ct, hint);
  }
}

/** A complexType restricting a SOAP-encoded Array (SOAP 1.1 section 5.4.2, SOAP 1.2 part 2 section 4). */
function isEncodedArray(ct: Element): boolean {
  const cc = kid(ct, NS.xsd, 'complexContent');
  const res = cc ? kid(cc, NS.xsd, 'restriction') : undefined;
  const base = res ? attr(res, 'base') : undefined;
  if (!res || !base) return false;
  const q = resolveQName(res, base);
  return SOAPENC.has(q.ns) && q.local === 'Array';
}

/** A declared type's root: `<SPECMATIC_TYPE>` holding the type's attributes and content (and its derived types, for xsi:type). */
function typeRoot(content: Content, derivation: { abstract?: boolean; derived?: DerivedType[] } = {}): ReturnType<typeof element> {
  return element('SPECMATIC_TYPE', {
    typeRef: content.typeRef,
    attributes: content.attrs,
    anyAttribute: content.anyAttribute,
    children: content.children,
    text: content.text,
    abstract: derivation.abstract,
    derived: derivation.derived?.length ? derivation.derived : undefined,
    anyOrder: content.anyOrder,
  });
}

/** A simple content that may also be empty: `(T | empty)`. Lists and literals are left as they are (a union member names a type). */
function orEmpty(text: Pattern): Pattern {
  const empty: Pattern = { kind: 'scalar', type: 'empty' };
  switch (text.kind) {
    case 'scalar':
      return text.type === 'empty' || text.type === 'anything' || (text.type === 'string' && !text.facets) ? text : { kind: 'union', members: [text, empty] };
    case 'ref':
      return { kind: 'union', members: [text, empty] };
    case 'union':
      return text.members.some((m) => m.kind === 'scalar' && m.type === 'empty') ? text : { kind: 'union', members: [...text.members, empty] };
    default:
      return text;
  }
}
