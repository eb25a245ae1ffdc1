import { followRefs, effectiveElement } from '../../pattern/resolve';
import { combineOccurs } from '../../pattern/occurs';
import type { Occurs, Pattern, Scope, XmlAttributePattern, XmlContent, XmlElementPattern } from '../../pattern/types';
import { MAX_TYPE_NESTING } from '../../limits';
import { escapeAttribute } from '../../xml/serialize';
import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from '../../xml/bookkeeping';
import { isXmlName } from '../names';
import { ANNOTATED, facetLines, impliedFacets, mergeFacets, xsdTypeOf } from './xsd-types';

/*
 * The XSD of an exported WSDL: the contract's XML element patterns written as schema components,
 * one schema per namespace. Body elements and elements of another namespace than their parent's
 * are global elements; the rest are local, qualified or not as the contract writes them. Named
 * contract types (`specmatic_type`, `enum`, `type X (string maxLength=5)`) become named XSD types.
 * What a schema cannot say is put to `dropped`, one line each: never left out silently.
 */

/** Prefix → namespace URI in scope ('' the default namespace). */
export type NsContext = ReadonlyMap<string, string>;

export interface Place {
  /** How a dropped line names where it is: `scenario "Get quote" (quote.spec:12)`. */
  where: string;
  scope: Scope;
}

interface SchemaDoc {
  tns: string;
  /** Global elements by local name: their lines, written at the schema's indentation. */
  elements: Map<string, string[]>;
  /** Named types in declaration order. */
  types: string[][];
  typeNames: Set<string>;
  imports: Set<string>;
}

/** A simple type as written on a declaration: a type QName, or an inline `<xs:simpleType>`; with `fixed` and the placeholder annotation. */
interface SimpleRef {
  type?: string;
  inline?: (indent: string) => string[];
  fixed?: string;
  placeholder?: string;
}

const RESERVED_PREFIXES = new Set(['xs', 'xsd', 'wsdl', 'soap', 'soap12', 'tns', 'accord', 'xml', 'xmlns', 'xsi', 'soapenc', 'http', 'mime']);

/** Namespace prefixes of the exported WSDL, one per namespace: the contract's own where it is free, else ns1, ns2, … */
export class Prefixes {
  private readonly byNs = new Map<string, string>();
  private readonly taken = new Set<string>(RESERVED_PREFIXES);
  private next = 1;

  for(ns: string, wanted?: string): string {
    // A name in no namespace is written unprefixed (no default namespace is declared where it is named).
    if (ns === '') return '';
    const known = this.byNs.get(ns);
    if (known) return known;
    let p = wanted && isXmlName(wanted) && !wanted.includes(':') && !this.taken.has(wanted.toLowerCase()) && !wanted.toLowerCase().startsWith('xml') ? wanted : '';
    while (!p || this.taken.has(p)) p = `ns${this.next++}`;
    this.taken.add(p.toLowerCase());
    this.byNs.set(ns, p);
    return p;
  }

  entries(): [string, string][] {
    return [...this.byNs.entries()];
  }
}

export function withNamespaces(ctx: NsContext, el: { namespaces: readonly { name: string; value: string }[] }): NsContext {
  if (el.namespaces.length === 0) return ctx;
  const out = new Map(ctx);
  for (const n of el.namespaces) out.set(n.name === 'xmlns' ? '' : n.name.slice('xmlns:'.length), n.value);
  return out;
}

/** The namespace URI of a prefix in scope; undefined for an undeclared prefix. */
export function namespaceOf(prefix: string, ctx: NsContext): string | undefined {
  if (prefix === 'xml') return XML_NS;
  return ctx.get(prefix) ?? (prefix === '' ? '' : undefined);
}

/** `<a>(Code)</a>`: a `(Name)` as content is the element's text when Name is no XML type. */
function asText(content: XmlContent[], scope: Scope): XmlContent[] {
  if (content.length !== 1 || content[0].kind !== 'xml-ref') return content;
  const c = content[0];
  const t = followRefs({ kind: 'ref', name: c.name }, (n) => scope.types.get(n));
  if (t.error || t.p.kind === 'xml') return content;
  const ref: Pattern = { kind: 'ref', name: c.name };
  const value: Pattern = c.occurs.max > 1 ? { kind: 'list', inner: ref } : c.occurs.min === 0 ? { kind: 'optional', inner: ref } : ref;
  return [{ kind: 'xml-text', pattern: value }];
}

function qualifiedName(prefix: string, local: string): string {
  return prefix ? `${prefix}:${local}` : local;
}

function occursAttrs(o: Occurs): string {
  let s = '';
  if (o.min !== 1) s += ` minOccurs="${o.min}"`;
  if (o.max !== 1) s += ` maxOccurs="${o.max === Infinity ? 'unbounded' : o.max}"`;
  return s;
}

const attrText = escapeAttribute;
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

export class SchemaSet {
  readonly schemas = new Map<string, SchemaDoc>();
  readonly dropped: string[] = [];
  /** Named types already written, by the contract pattern they come from (Background types are shared by the scenarios). */
  private readonly named = new Map<Pattern, string>();
  /** The `(Name)` types being written, outermost first: a type met again inside itself is not expanded again. */
  private readonly expanding: string[] = [];

  constructor(readonly prefixes: Prefixes) {}

  private schema(ns: string): SchemaDoc {
    let s = this.schemas.get(ns);
    if (!s) {
      s = { tns: ns, elements: new Map(), types: [], typeNames: new Set(), imports: new Set() };
      this.schemas.set(ns, s);
    }
    return s;
  }

  private qname(ns: string, local: string, from: SchemaDoc): string {
    if (ns === XSD_NS) return `xs:${local}`;
    if (ns !== from.tns) from.imports.add(ns);
    this.schema(ns);
    return qualifiedName(this.prefixes.for(ns), local);
  }

  private drop(place: Place, what: string): void {
    const line = `${place.where}: ${what}`;
    if (!this.dropped.includes(line)) this.dropped.push(line);
  }

  /**
   * Declares `el` as a global element (a Body or Header entry, a fault's detail, an element of another
   * namespace than its parent's) and returns its QName as `prefix:local`; undefined when its prefix is undeclared.
   */
  globalElement(el: XmlElementPattern, ctx: NsContext, place: Place, from?: SchemaDoc): string | undefined {
    const here = withNamespaces(ctx, el);
    const ns = namespaceOf(el.prefix, here);
    if (ns === undefined) {
      this.drop(place, `<${el.name}>: its prefix ${el.prefix} is declared nowhere: not written`);
      return undefined;
    }
    this.prefixes.for(ns, el.prefix || undefined);
    const doc = this.schema(ns);
    const qn = from ? this.qname(ns, el.local, from) : qualifiedName(this.prefixes.for(ns), el.local);
    if (!doc.elements.has(el.local)) {
      // Reserved before it is written, so an element that contains itself refers to itself.
      doc.elements.set(el.local, []);
      doc.elements.set(el.local, this.declaration(el, here, doc, place, '    ', undefined));
    }
    return qn;
  }

  /** `<xs:element …>` for `el` (global when occurs is undefined), its type inline or by name. */
  private declaration(el: XmlElementPattern, ctx: NsContext, doc: SchemaDoc, place: Place, ind: string, occurs: Occurs | undefined, form?: string): string[] {
    const head = `${ind}<xs:element name="${attrText(el.local)}"${form ? ` form="${form}"` : ''}${occurs ? occursAttrs(occurs) : ''}${el.nillable ? ' nillable="true"' : ''}`;
    for (const [what, has] of [
      ['derived types (specmatic_derived)', el.derived && el.derived.length > 0],
      ['an abstract type (specmatic_abstract)', el.abstract],
      ['any name (specmatic_name="any")', el.anyName],
    ] as const)
      if (has) this.drop(place, `<${el.name}>: ${what} cannot be written in the WSDL: left out`);
    if (el.typeRef && el.attributes.length === 0 && el.anyAttribute === undefined) {
      const t = followRefs({ kind: 'ref', name: el.typeRef }, (n) => place.scope.types.get(n));
      if (!t.error && t.p.kind === 'xml') return [`${head} type="${this.namedComplexType(t.p, el.typeRef, ctx, doc, place)}"/>`];
      this.drop(place, `<${el.name}>: specmatic_type="${el.typeRef}" names no XML type: typed anyType`);
      return [`${head}/>`];
    }
    let e: XmlElementPattern;
    try {
      e = effectiveElement(el, place.scope);
    } catch {
      this.drop(place, `<${el.name}>: specmatic_type="${el.typeRef}" names no XML type: typed anyType`);
      return [`${head}/>`];
    }
    e = { ...e, content: asText(e.content, place.scope) };
    const here = withNamespaces(ctx, e);
    const texts = e.content.filter((c) => c.kind === 'xml-text');
    const nodes = e.content.filter((c) => c.kind !== 'xml-text');
    if (texts.length > 0 && nodes.length === 0 && e.attributes.length === 0 && e.anyAttribute === undefined) {
      const s = this.simple(texts[0].pattern, place, `<${el.name}>`, here, doc, false);
      const extra = `${s.fixed !== undefined ? ` fixed="${attrText(s.fixed)}"` : ''}${s.placeholder ? ` accord:placeholder="${s.placeholder}"` : ''}`;
      if (s.type) return [`${head} type="${s.type}"${extra}/>`];
      return [`${head}${extra}>`, ...s.inline!(`${ind}  `), `${ind}</xs:element>`];
    }
    const body = this.complexBody(e, here, doc, place, `${ind}    `);
    if (body.placeholder)
      return [
        `${head} accord:placeholder="${body.placeholder}">`,
        `${ind}  <xs:complexType${body.mixed ? ' mixed="true"' : ''}>`,
        ...body.lines,
        `${ind}  </xs:complexType>`,
        `${ind}</xs:element>`,
      ];
    if (body.lines.length === 0) return [`${head}>`, `${ind}  <xs:complexType/>`, `${ind}</xs:element>`];
    return [`${head}>`, `${ind}  <xs:complexType>`, ...body.lines, `${ind}</xs:complexType>`.replace(ind, `${ind}  `), `${ind}</xs:element>`];
  }

  /** A named complex type for a contract type (`specmatic_type`), declared once in the namespace where it is first used. */
  private namedComplexType(t: XmlElementPattern, name: string, ctx: NsContext, doc: SchemaDoc, place: Place): string {
    const known = this.named.get(t);
    if (known) return this.refFrom(known, doc);
    const local = this.typeName(doc, name);
    const key = `${doc.tns}\n${local}`;
    this.named.set(t, key);
    const lines: string[] = [];
    doc.types.push(lines);
    let root: XmlElementPattern;
    try {
      root = effectiveElement(t, place.scope);
    } catch {
      root = t;
    }
    root = { ...root, content: asText(root.content, place.scope) };
    if (t.derived?.length)
      this.drop(place, `type ${name}: its derived types (specmatic_derived ${t.derived.map((d) => d.xsiType).join(' ')}) cannot be written in the WSDL: left out`);
    if (t.abstract) this.drop(place, `type ${name}: abstract (specmatic_abstract) cannot be written in the WSDL: written as a concrete type`);
    const body = this.complexBody(root, withNamespaces(ctx, root), doc, place, '      ');
    if (body.placeholder) this.drop(place, `type ${name}: the text placeholder (${body.placeholder}) is written as its nearest XSD type`);
    lines.push(
      ...(body.lines.length === 0
        ? [`    <xs:complexType name="${attrText(local)}"/>`]
        : [`    <xs:complexType name="${attrText(local)}">`, ...body.lines, '    </xs:complexType>']),
    );
    return this.refFrom(key, doc);
  }

  private refFrom(key: string, doc: SchemaDoc): string {
    const nl = key.indexOf('\n');
    return this.qname(key.slice(0, nl), key.slice(nl + 1), doc);
  }

  private typeName(doc: SchemaDoc, wanted: string): string {
    const base = isXmlName(wanted) && !wanted.includes(':') ? wanted : `T_${[...wanted].filter((c) => isXmlName(`a${c}`)).join('')}`;
    let n = base;
    for (let i = 2; doc.typeNames.has(n.toLowerCase()); i++) n = `${base}_${i}`;
    doc.typeNames.add(n.toLowerCase());
    return n;
  }

  /** A complex type's children: a particle, then attributes; or simple content with attributes. */
  private complexBody(e: XmlElementPattern, ctx: NsContext, doc: SchemaDoc, place: Place, ind: string): { lines: string[]; placeholder?: string; mixed?: boolean } {
    const texts = e.content.filter((c) => c.kind === 'xml-text');
    const nodes = e.content.filter((c) => c.kind !== 'xml-text');
    const attrs = this.attributes(e, ctx, doc, place, ind);
    if (texts.length > 0 && nodes.length === 0) {
      // Text and attributes: simple content, extending a named simple type.
      const s = this.simple(texts[0].pattern, place, `<${e.name}>`, ctx, doc, false);
      let base = s.type;
      if (!base) {
        const local = this.typeName(doc, `${e.local}Value`);
        doc.types.push([`    <xs:simpleType name="${attrText(local)}">`, ...s.inline!('      ').slice(1, -1), '    </xs:simpleType>']);
        base = this.qname(doc.tns, local, doc);
      }
      if (s.fixed !== undefined) this.drop(place, `<${e.name}>: the fixed text "${s.fixed}" beside attributes is written as its type`);
      return {
        lines: [
          `${ind.slice(2)}<xs:simpleContent>`,
          `${ind}<xs:extension base="${base}">`,
          ...attrs.map((l) => `  ${l}`),
          `${ind}</xs:extension>`,
          `${ind.slice(2)}</xs:simpleContent>`,
        ],
        placeholder: s.placeholder,
      };
    }
    if (texts.length > 0) this.drop(place, `<${e.name}>: text beside child nodes (mixed content) is not written`);
    const lines: string[] = [];
    if (nodes.length > 0) {
      const group = e.anyOrder && nodes.every((n) => n.kind === 'xml' && n.occurs.max <= 1) ? 'all' : 'sequence';
      if (e.anyOrder && group === 'sequence') this.drop(place, `<${e.name}>: any order (specmatic_order) with repeated children is written as a sequence`);
      lines.push(`${ind.slice(2)}<xs:${group}>`);
      for (const n of nodes) lines.push(...this.particle(n, ctx, doc, place, ind));
      lines.push(`${ind.slice(2)}</xs:${group}>`);
    }
    return { lines: [...lines, ...attrs.map((l) => l.slice(2))] };
  }

  private particle(c: XmlContent, ctx: NsContext, doc: SchemaDoc, place: Place, ind: string, outer: Occurs = { min: 1, max: 1 }): string[] {
    switch (c.kind) {
      case 'xml':
        return this.child(c, combineOccurs(outer, c.occurs), ctx, doc, place, ind);
      case 'xml-ref': {
        const t = followRefs({ kind: 'ref', name: c.name }, (n) => place.scope.types.get(n));
        if (t.error || t.p.kind !== 'xml') {
          this.drop(place, `(${c.name}) as a node: ${t.error ? `type ${c.name} is ${t.error === 'unknown' ? 'declared nowhere' : 'circular'}` : 'not an XML type'}: not written`);
          return [];
        }
        const occurs = combineOccurs(combineOccurs(outer, c.occurs), t.p.occurs);
        // A type that holds itself through (Name) is written once; its inner occurrence takes any content.
        if (this.expanding.includes(c.name) || this.expanding.length >= MAX_TYPE_NESTING) {
          this.drop(place, `(${c.name}) holds itself: its inner <${t.p.name}> is typed xs:anyType (name the type with specmatic_type to write the recursion)`);
          return [`${ind}<xs:element name="${attrText(t.p.local)}"${occursAttrs(occurs)} type="xs:anyType"/>`];
        }
        this.expanding.push(c.name);
        try {
          return this.child(t.p, occurs, ctx, doc, place, ind);
        } finally {
          this.expanding.pop();
        }
      }
      case 'xml-choice': {
        const out = [`${ind}<xs:choice${occursAttrs(combineOccurs(outer, c.occurs))}>`];
        for (const option of c.options) {
          if (option.length === 1) out.push(...this.particle(option[0], ctx, doc, place, `${ind}  `));
          else out.push(`${ind}  <xs:sequence>`, ...option.flatMap((o) => this.particle(o, ctx, doc, place, `${ind}    `)), `${ind}  </xs:sequence>`);
        }
        return [...out, `${ind}</xs:choice>`];
      }
      case 'xml-any':
        return [`${ind}<xs:any namespace="${attrText(c.namespace)}" processContents="${c.processContents}"${occursAttrs(combineOccurs(outer, c.occurs))}/>`];
      case 'xml-text':
        return [];
    }
  }

  /** A child element: local when it is in its parent's schema namespace (or none), else a reference to a global element. */
  private child(c: XmlElementPattern, occurs: Occurs, ctx: NsContext, doc: SchemaDoc, place: Place, ind: string): string[] {
    const here = withNamespaces(ctx, c);
    const ns = namespaceOf(c.prefix, here);
    if (ns === undefined) {
      this.drop(place, `<${c.name}>: its prefix ${c.prefix} is declared nowhere: not written`);
      return [];
    }
    if (ns === doc.tns) return this.declaration(c, here, doc, place, ind, occurs);
    if (ns === '') return this.declaration(c, here, doc, place, ind, occurs, 'unqualified');
    const ref = this.globalElement({ ...c, occurs: { min: 1, max: 1 } }, ctx, place, doc)!;
    return [`${ind}<xs:element ref="${ref}"${occursAttrs(occurs)}/>`];
  }

  private attributes(e: XmlElementPattern, ctx: NsContext, doc: SchemaDoc, place: Place, ind: string): string[] {
    const out: string[] = [];
    for (const a of e.attributes) out.push(...this.attribute(a, e, ctx, doc, place, ind));
    if (e.anyAttribute !== undefined) out.push(`${ind}<xs:anyAttribute namespace="${attrText(e.anyAttribute)}" processContents="lax"/>`);
    return out;
  }

  private attribute(a: XmlAttributePattern, e: XmlElementPattern, ctx: NsContext, doc: SchemaDoc, place: Place, ind: string): string[] {
    const colon = a.name.indexOf(':');
    if (colon >= 0) {
      const ns = namespaceOf(a.name.slice(0, colon), ctx);
      // encodingStyle is the SOAP envelope's, said by the binding (use="encoded"), not by the schema.
      if ((ns === SOAP11_ENVELOPE || ns === SOAP12_ENVELOPE) && a.local === 'encodingStyle') {
        this.drop(place, `<${e.name}> carries soapenv:encodingStyle (rpc/encoded): written as document/literal, without it`);
        return [];
      }
      this.drop(place, `<${e.name}> attribute ${a.name}: a qualified attribute is not written`);
      return [];
    }
    const s = this.simple(a.pattern, place, `<${e.name}> attribute ${a.name}`, ctx, doc, true);
    const head = `${ind}<xs:attribute name="${attrText(a.local)}"${a.optional ? '' : ' use="required"'}${s.fixed !== undefined ? ` fixed="${attrText(s.fixed)}"` : ''}${s.placeholder ? ` accord:placeholder="${s.placeholder}"` : ''}`;
    if (s.type) return [`${head} type="${s.type}"/>`];
    return [`${head}>`, ...s.inline!(`${ind}  `), `${ind}</xs:attribute>`];
  }

  /** The simple type of a text or attribute value. */
  private simple(p: Pattern, place: Place, what: string, ctx: NsContext, doc: SchemaDoc, attribute: boolean, depth = 0): SimpleRef {
    switch (p.kind) {
      case 'lookup':
        return this.simple(p.inner, place, what, ctx, doc, attribute, depth);
      case 'literal':
        return { type: 'xs:string', fixed: p.value === null ? '' : String(p.value) };
      case 'scalar': {
        const base = `xs:${xsdTypeOf(p.type, attribute)}`;
        const facets = mergeFacets(impliedFacets(p.type), p.facets);
        const placeholder = ANNOTATED.has(p.type) ? p.type : undefined;
        if (!facets) return { type: base, placeholder };
        return {
          inline: (i) => [
            `${i}<xs:simpleType>`,
            `${i}  <xs:restriction base="${base}">`,
            ...facetLines(facets, `${i}    `, attrText),
            `${i}  </xs:restriction>`,
            `${i}</xs:simpleType>`,
          ],
          placeholder,
        };
      }
      case 'enum':
        return {
          type: this.namedSimple(p, p.name, doc, () => [
            `      <xs:restriction base="xs:${xsdTypeOf(p.base, true)}">`,
            ...p.values.map((v) => `        <xs:enumeration value="${attrText(v)}"/>`),
            '      </xs:restriction>',
          ]),
        };
      case 'ref': {
        const t = followRefs(p, (n) => place.scope.types.get(n));
        if (t.error || depth > 32) {
          this.drop(place, `${what}: (${p.name}) is ${t.error === 'unknown' ? 'declared nowhere' : 'circular'}: typed string`);
          return { type: 'xs:string' };
        }
        const r = t.p;
        if ((r.kind === 'scalar' && (r.facets || impliedFacets(r.type))) || r.kind === 'union' || r.kind === 'text-list') {
          const inner = this.simple(r, place, what, ctx, doc, attribute, depth + 1);
          if (inner.inline) return { type: this.namedSimple(r, t.name ?? p.name, doc, () => inner.inline!('    ').slice(1, -1)), placeholder: inner.placeholder };
          return inner;
        }
        return this.simple(r, place, what, ctx, doc, attribute, depth + 1);
      }
      case 'optional': {
        this.drop(place, `${what}: an optional value (X?) in XML text is written as X`);
        return this.simple(p.inner, place, what, ctx, doc, attribute, depth + 1);
      }
      case 'union': {
        const members = p.members.map((m) => this.simple(m, place, what, ctx, doc, attribute, depth + 1));
        const named = members.filter((m) => m.type).map((m) => m.type!);
        return {
          inline: (i) => [
            `${i}<xs:simpleType>`,
            `${i}  <xs:union${named.length ? ` memberTypes="${named.join(' ')}"` : ''}${members.some((m) => m.inline) ? '>' : '/>'}`,
            ...(members.some((m) => m.inline) ? [...members.filter((m) => m.inline).flatMap((m) => m.inline!(`${i}    `)), `${i}  </xs:union>`] : []),
            `${i}</xs:simpleType>`,
          ],
        };
      }
      case 'text-list': {
        const item = this.simple(p.item, place, what, ctx, doc, true, depth + 1);
        const list = (i: string) => (item.type ? [`${i}<xs:list itemType="${item.type}"/>`] : [`${i}<xs:list>`, ...item.inline!(`${i}  `), `${i}</xs:list>`]);
        if (!p.facets) return { inline: (i) => [`${i}<xs:simpleType>`, ...list(`${i}  `), `${i}</xs:simpleType>`] };
        return {
          inline: (i) => [
            `${i}<xs:simpleType>`,
            `${i}  <xs:restriction>`,
            `${i}    <xs:simpleType>`,
            ...list(`${i}      `),
            `${i}    </xs:simpleType>`,
            ...facetLines(p.facets!, `${i}    `, attrText),
            `${i}  </xs:restriction>`,
            `${i}</xs:simpleType>`,
          ],
        };
      }
      default:
        this.drop(place, `${what}: a ${p.kind} value cannot be an XML text: typed string`);
        return { type: 'xs:string' };
    }
  }

  /** A named simple type for a contract type or enum, declared once. `body` gives the lines inside `<xs:simpleType>`. */
  private namedSimple(p: Pattern, name: string, doc: SchemaDoc, body: () => string[]): string {
    const known = this.named.get(p);
    if (known) return this.refFrom(known, doc);
    const local = this.typeName(doc, name);
    const key = `${doc.tns}\n${local}`;
    this.named.set(p, key);
    doc.types.push([`    <xs:simpleType name="${attrText(local)}">`, ...body(), '    </xs:simpleType>']);
    return this.refFrom(key, doc);
  }

  /** Each schema's text, at the indentation of `<wsdl:types>`' children. */
  write(declare: (ns: string) => string): string[] {
    const out: string[] = [];
    for (const s of this.schemas.values()) {
      const tns = s.tns ? ` targetNamespace="${attrText(s.tns)}"` : '';
      out.push(`    <xs:schema${tns} elementFormDefault="qualified"${declare(s.tns)}>`.replace('    <', '  <'));
      for (const ns of s.imports) out.push(ns ? `    <xs:import namespace="${attrText(ns)}"/>` : '    <xs:import/>');
      for (const t of s.types) out.push(...t);
      for (const lines of s.elements.values()) out.push(...lines);
      out.push('  </xs:schema>');
    }
    return out.map((l) => `  ${l}`);
  }
}
