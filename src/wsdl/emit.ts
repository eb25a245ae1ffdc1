import type { Element } from '@xmldom/xmldom';
import { attr, kid, kids, NS, qkey, resolveQName, type QName } from './dom';
import { builtinScalar } from './builtins';
import { isXmlName, NameTable, Prefixes, qualified } from './names';
import type { Decl, SchemaIndex } from './xsd';
import { owningSchema } from './xsd';
import { comment, COMMENT, renderXml, xnode, type XNode } from './xml-text';
import { SimpleTypes } from './simple-types';

type Occurs = 'once' | 'optional' | 'multiple';

/** A declared contract type: an XML node type (root `<SPECMATIC_TYPE>`) or an enum. */
export type TypeDef =
  | { kind: 'xml'; name: string; node: XNode; source: string }
  | { kind: 'enum'; name: string; base: 'string' | 'number'; values: string[]; source: string };

/** What an element's body is: text (a placeholder), or attributes and children. */
interface Content {
  attrs: [string, string][];
  children: XNode[];
  text?: string;
}

export interface EmitStats {
  /** Nodes whose content is `(anything)`: wildcards, anyType, unresolved types. */
  anything: number;
  notes: string[];
}

const SOAPENC = new Set<string>([NS.soapenc, NS.soap12enc]);
const MAX_NESTING = 64;

/**
 * XSD to contract XML. Named complex types become contract types (declared
 * once, used through `specmatic_type`), anonymous ones are written in place;
 * named simple types with enumerations become enums. Only what an operation
 * reaches is declared, and recursion stops at named types.
 */
export class Emitter {
  readonly types = new Map<string, TypeDef>();
  private readonly names = new NameTable();
  private readonly pending: (() => void)[] = [];
  private readonly stack: string[] = [];
  private readonly noted = new Set<string>();
  private readonly simple: SimpleTypes;

  constructor(
    private readonly index: SchemaIndex,
    readonly prefixes: Prefixes,
    readonly stats: EmitStats,
  ) {
    this.simple = new SimpleTypes(index, this.names, this.types, (ns) => this.prefixFor(ns));
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

  anything(): string {
    this.stats.anything++;
    return '(anything)';
  }

  // ---------- top-level uses (message parts) ----------

  /** The node for a global element (a document/literal part). */
  globalElement(q: QName, occurs: Occurs = 'once'): XNode[] {
    const decl = this.index.find('element', q);
    if (!decl) return [this.unresolvedNode(qualified(this.prefixes.for(q.ns), q.local), q, 'element')];
    return [this.elementNode(decl.el, decl, occurs, true)];
  }

  /** A part typed with `type=` (rpc style): an unqualified node named after the part. */
  typedNode(name: string, typeQ: QName): XNode {
    const content = this.contentOfType(typeQ, name);
    return this.finish(name, [], content, 'once', false);
  }

  /** A node the WSDL names with something XML does not allow: left out (a comment says so). */
  private illegalName(local: string): XNode {
    this.note(`"${local}" is not a legal XML name: that node is left out`);
    return comment(`"${local.replace(/--/g, '- -')}" left out: not a legal XML name`);
  }

  unresolvedNode(name: string, q: QName, what: string): XNode {
    if (!isXmlName(q.local)) return this.illegalName(q.local);
    this.note(`${what} {${q.ns}}${q.local} not found${this.index.hasNamespace(q.ns) ? '' : ' (its schema was not loaded)'}: marked (anything)`);
    return xnode(name, [], [], this.anything());
  }

  // ---------- elements ----------

  /** `decl` is given for a global element (always qualified with its schema's namespace). */
  private elementNode(el: Element, decl: Decl | undefined, occurs: Occurs, top = false): XNode {
    const name = attr(el, 'name') ?? 'element';
    const schema = owningSchema(el);
    const tns = decl ? decl.schema.targetNamespace : this.schemaTns(el);
    const form = attr(el, 'form');
    const qualifiedForm = decl !== undefined || form === 'qualified' || (form === undefined && attr(schema ?? el, 'elementFormDefault') === 'qualified');
    const nodeName = qualified(qualifiedForm ? this.prefixFor(tns) : '', name);
    const nillable = attr(el, 'nillable') === 'true';
    const attrs: [string, string][] = [];
    const typeAttr = attr(el, 'type');
    let content: Content;
    if (typeAttr) {
      const tq = resolveQName(el, typeAttr);
      const named = this.namedComplexType(tq);
      if (named) {
        attrs.push(['specmatic_type', named]);
        content = { attrs: [], children: [] };
      } else content = this.contentOfType(tq, name);
    } else {
      const ct = kid(el, NS.xsd, 'complexType');
      const st = kid(el, NS.xsd, 'simpleType');
      if (ct && decl && !top) {
        // A global element with an anonymous type, used by ref: declared once, named after the element.
        attrs.push(['specmatic_type', this.elementType(decl)]);
        content = { attrs: [], children: [] };
      } else if (ct) content = this.complexContent(ct, name);
      else if (st) content = { attrs: [], children: [], text: this.simple.anonymousText(st, name) };
      else content = { attrs: [], children: [], text: this.anything() };
    }
    return this.finish(nodeName, attrs, content, occurs, nillable);
  }

  private finish(name: string, control: [string, string][], content: Content, occurs: Occurs, nillable: boolean): XNode {
    const local = name.slice(name.indexOf(':') + 1);
    if (!isXmlName(local)) return this.illegalName(local);
    const attrs: [string, string][] = [...control];
    if (occurs !== 'once') attrs.push(['specmatic_occurs', occurs]);
    if (nillable) attrs.push(['specmatic_nillable', 'true']);
    attrs.push(...content.attrs);
    return xnode(name, attrs, content.children, content.text);
  }

  private schemaTns(el: Element): string {
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

  private prefixFor(ns: string): string {
    if (ns === NS.xml) return 'xml';
    return this.prefixes.for(ns);
  }

  /** Occurrence of a particle from its minOccurs/maxOccurs, combined with the enclosing one. */
  private occursOf(el: Element, outer: Occurs): Occurs | 'none' {
    const min = attr(el, 'minOccurs') ?? '1';
    const max = attr(el, 'maxOccurs') ?? '1';
    if (max === '0') return 'none';
    let own: Occurs = 'once';
    if (max === 'unbounded' || Number(max) > 1) own = 'multiple';
    else if (min === '0') own = 'optional';
    return combine(outer, own);
  }

  // ---------- types ----------

  /** The contract name of a named complex type, declaring it (later) when first used; undefined for simple and built-in types. */
  private namedComplexType(q: QName): string | undefined {
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
      this.types.set(name, { kind: 'xml', name, node: xnode('SPECMATIC_TYPE', content.attrs, content.children, content.text), source: `complexType ${decl.name.local}` });
    });
    return name;
  }

  private elementType(decl: Decl): string {
    const key = `element${qkey(decl.name)}`;
    const known = this.names.get(key);
    if (known) return known;
    const name = this.names.allocate(key, [decl.name.local, () => `${this.prefixFor(decl.name.ns)}_${decl.name.local}`]);
    this.pending.push(() => {
      const ct = kid(decl.el, NS.xsd, 'complexType')!;
      const content = this.guard(key, () => this.complexContent(ct, decl.name.local));
      this.types.set(name, { kind: 'xml', name, node: xnode('SPECMATIC_TYPE', content.attrs, content.children, content.text), source: `element ${decl.name.local}` });
    });
    return name;
  }

  /** Content for an element of type `q` written in place (simple and built-in types, SOAP-encoded arrays). */
  private contentOfType(q: QName, hint: string): Content {
    if (q.ns === NS.xsd || (SOAPENC.has(q.ns) && !this.index.find('type', q))) {
      if (SOAPENC.has(q.ns) && q.local === 'Array') return { attrs: [], children: [], text: this.anything() };
      const scalar = builtinScalar(q.local);
      return { attrs: [], children: [], text: scalar === 'anything' ? this.anything() : `(${scalar})` };
    }
    const named = this.namedComplexType(q);
    if (named) return { attrs: [['specmatic_type', named]], children: [] };
    const decl = this.index.find('type', q);
    if (!decl) {
      this.note(`type {${q.ns}}${q.local} not found${this.index.hasNamespace(q.ns) ? '' : ' (its schema was not loaded)'}: marked (anything)`);
      return { attrs: [], children: [], text: this.anything() };
    }
    if (decl.el.localName === 'complexType') return this.complexContent(decl.el, hint);
    return { attrs: [], children: [], text: this.simple.text(decl) };
  }

  private guard<T extends Content>(key: string, f: () => T): T | Content {
    if (this.stack.includes(key) || this.stack.length > MAX_NESTING) {
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
  private complexContent(ct: Element, hint: string): Content {
    const simple = kid(ct, NS.xsd, 'simpleContent');
    if (simple) return this.simpleContent(simple, hint);
    const complex = kid(ct, NS.xsd, 'complexContent');
    if (complex) return this.complexDerived(complex, hint);
    return this.particlesAndAttributes(ct, hint);
  }

  private particlesAndAttributes(owner: Element, hint: string): Content {
    const children: XNode[] = [];
    let wildcard = false;
    let openOnly = false;
    for (const p of kids(owner, NS.xsd, ['sequence', 'all', 'choice', 'group'])) {
      const r = this.particle(p, 'once', hint);
      children.push(...r.nodes);
      wildcard ||= r.wildcard;
      openOnly ||= !!r.optionalWildcard;
    }
    const attrs = this.attributes(owner);
    // Nothing but a wildcard: the content is anything at all.
    if (wildcard || (openOnly && children.every((c) => c.name === COMMENT))) return { attrs, children: [], text: this.anything() };
    return { attrs, children };
  }

  private particle(p: Element, outer: Occurs, hint: string): { nodes: XNode[]; wildcard: boolean; optionalWildcard?: boolean } {
    const occurs = this.occursOf(p, outer);
    if (occurs === 'none') return { nodes: [], wildcard: false };
    switch (p.localName) {
      case 'element': {
        const ref = attr(p, 'ref');
        if (ref) {
          const q = resolveQName(p, ref);
          // <s:element ref="s:schema"/> (.NET DataSet): an inline schema, i.e. any content.
          if (q.ns === NS.xsd) return { nodes: [], wildcard: true };
          return { nodes: this.elementRef(q, occurs, p), wildcard: false };
        }
        return { nodes: [this.elementNode(p, undefined, occurs)], wildcard: false };
      }
      case 'any':
        // An optional wildcard (the usual extension point after declared elements) is left out; a required one makes the content (anything).
        if (occurs === 'once') return { nodes: [], wildcard: true };
        this.note('optional xsd:any wildcards are left out: extension elements in their place are reported as unexpected');
        return { nodes: [comment('xsd:any (optional) left out')], wildcard: false, optionalWildcard: true };
      case 'sequence':
      case 'all': {
        const out: XNode[] = [];
        let wildcard = false;
        let open = false;
        for (const c of kids(p, NS.xsd, ['element', 'any', 'sequence', 'choice', 'group', 'all'])) {
          const r = this.particle(c, occurs, hint);
          out.push(...r.nodes);
          wildcard ||= r.wildcard;
          open ||= !!r.optionalWildcard;
        }
        return { nodes: out, wildcard, optionalWildcard: open };
      }
      case 'choice': {
        // Every alternative is acceptable: each becomes optional (repeated when the choice repeats).
        const alt: Occurs = occurs === 'multiple' ? 'multiple' : 'optional';
        const out: XNode[] = [comment('')];
        let wildcard = false;
        let open = false;
        for (const c of kids(p, NS.xsd, ['element', 'any', 'sequence', 'choice', 'group'])) {
          const r = this.particle(c, alt, hint);
          out.push(...r.nodes);
          wildcard ||= r.wildcard;
          open ||= !!r.optionalWildcard;
        }
        const names = out.slice(1).filter((n) => n.name !== COMMENT).map((n) => n.name);
        out[0] = comment(`choice: ${occurs === 'multiple' ? 'any number' : occurs === 'optional' ? 'at most one' : 'exactly one'} of ${names.join(', ')}`);
        return { nodes: names.length > 1 ? out : out.slice(1), wildcard, optionalWildcard: open };
      }
      case 'group': {
        const ref = attr(p, 'ref');
        if (!ref) return { nodes: [], wildcard: false };
        const q = resolveQName(p, ref);
        const g = this.index.find('group', q);
        if (!g) {
          this.note(`group {${q.ns}}${q.local} not found: its place is marked (anything)`);
          return { nodes: [], wildcard: true };
        }
        const key = `group${qkey(g.name)}`;
        if (this.stack.includes(key)) return { nodes: [], wildcard: true };
        this.stack.push(key);
        try {
          const out: XNode[] = [];
          let wildcard = false;
          let open = false;
          for (const c of kids(g.el, NS.xsd, ['sequence', 'choice', 'all'])) {
            const r = this.particle(c, occurs, hint);
            out.push(...r.nodes);
            wildcard ||= r.wildcard;
            open ||= !!r.optionalWildcard;
          }
          return { nodes: out, wildcard, optionalWildcard: open };
        } finally {
          this.stack.pop();
        }
      }
      default:
        return { nodes: [], wildcard: false };
    }
  }

  /**
   * `ref=` to a global element. With a substitution group, the head (unless
   * abstract) and every member are written in turn, each optional (or
   * repeated): any one of them is accepted in that place.
   */
  private elementRef(q: QName, occurs: Occurs, at: Element): XNode[] {
    const decl = this.index.find('element', q);
    void at;
    if (!decl) return [this.unresolvedNode(qualified(this.prefixFor(q.ns), q.local), q, 'element')];
    const members = this.substitutionMembers(decl);
    if (members.length === 0) return [this.elementNode(decl.el, decl, occurs)];
    const alts = [...(attr(decl.el, 'abstract') === 'true' ? [] : [decl]), ...members];
    if (alts.length === 0) {
      this.note(`element ${decl.name.local} is abstract and nothing substitutes for it: marked (anything)`);
      return [this.finish(qualified(this.prefixFor(decl.name.ns), decl.name.local), [], { attrs: [], children: [], text: this.anything() }, occurs, false)];
    }
    if (alts.length === 1) return [this.elementNode(alts[0].el, alts[0], occurs)];
    const each: Occurs = occurs === 'multiple' ? 'multiple' : 'optional';
    const nodes = alts.map((d) => this.elementNode(d.el, d, each));
    return [comment(`substitution group ${decl.name.local}: ${occurs === 'multiple' ? 'any number' : occurs === 'optional' ? 'at most one' : 'one'} of ${nodes.map((n) => n.name).join(', ')}`), ...nodes];
  }

  private substitutionMembers(head: Decl, seen = new Set<string>()): Decl[] {
    const out: Decl[] = [];
    for (const m of this.index.substitutes.get(qkey(head.name)) ?? []) {
      const k = qkey(m.name);
      if (seen.has(k)) continue;
      seen.add(k);
      if (attr(m.el, 'abstract') !== 'true') out.push(m);
      out.push(...this.substitutionMembers(m, seen));
    }
    return out;
  }

  private complexDerived(cc: Element, hint: string): Content {
    const ext = kid(cc, NS.xsd, 'extension');
    const res = kid(cc, NS.xsd, 'restriction');
    const d = ext ?? res;
    if (!d) return { attrs: [], children: [] };
    const baseAttr = attr(d, 'base');
    const base = baseAttr ? resolveQName(d, baseAttr) : undefined;
    if (res && base && SOAPENC.has(base.ns) && base.local === 'Array') return this.encodedArray(res, hint);
    if (res && !base) return this.particlesAndAttributes(res, hint);
    let baseContent: Content = { attrs: [], children: [] };
    if (base && !(base.ns === NS.xsd && base.local === 'anyType')) {
      const bd = this.index.find('type', base);
      if (bd && bd.el.localName === 'complexType') {
        baseContent = this.guard(`complex${qkey(bd.name)}`, () => this.complexContent(bd.el, hint));
      } else if (!bd) {
        this.note(`base type {${base.ns}}${base.local} not found: only the derived part is written`);
      }
    }
    const own = this.particlesAndAttributes(d, hint);
    if (res) {
      // A restriction restates the content it keeps; attributes are inherited unless restated.
      const names = new Set(own.attrs.map(([n]) => n.replace(/\.opt$/, '')));
      return { attrs: [...baseContent.attrs.filter(([n]) => !names.has(n.replace(/\.opt$/, ''))), ...own.attrs], children: own.children, text: own.text };
    }
    const text = baseContent.text ?? own.text;
    return { attrs: [...baseContent.attrs, ...own.attrs], children: text === '(anything)' ? [] : [...baseContent.children, ...own.children], text };
  }

  /** SOAP-encoded array (`wsdl:arrayType="tns:Item[]"`): repeated `<item>` nodes of the item type. */
  private encodedArray(res: Element, hint: string): Content {
    let itemType: QName | undefined;
    for (const a of res.getElementsByTagNameNS(NS.xsd, 'attribute')) {
      const t = a.getAttributeNS(NS.wsdl11, 'arrayType');
      if (t) itemType = resolveQName(a, t.replace(/\[[\d,\s]*\]$/g, '').replace(/\[\]$/, ''));
    }
    const seq = this.particlesAndAttributes(res, hint);
    if (seq.children.length > 0) {
      return { attrs: [], children: seq.children.map((c) => ({ ...c, attrs: upgradeOccurs(c.attrs) })) };
    }
    if (!itemType) return { attrs: [], children: [], text: this.anything() };
    const named = this.namedComplexType(itemType);
    const item = named
      ? xnode('item', [['specmatic_type', named], ['specmatic_occurs', 'multiple']])
      : xnode('item', [['specmatic_occurs', 'multiple']], [], this.contentOfType(itemType, hint).text ?? this.anything());
    return { attrs: [], children: [item] };
  }

  private simpleContent(sc: Element, hint: string): Content {
    const d = kid(sc, NS.xsd, ['extension', 'restriction']);
    if (!d) return { attrs: [], children: [], text: '(string)' };
    const baseAttr = attr(d, 'base');
    let text = '(string)';
    let baseAttrs: [string, string][] = [];
    if (baseAttr) {
      const base = resolveQName(d, baseAttr);
      if (base.ns === NS.xsd) text = `(${builtinScalar(base.local)})`;
      else {
        const bd = this.index.find('type', base);
        if (bd && bd.el.localName === 'complexType') {
          const c = this.guard(`complex${qkey(bd.name)}`, () => this.complexContent(bd.el, hint));
          text = c.text ?? '(string)';
          baseAttrs = c.attrs;
        } else if (bd) text = this.simple.text(bd);
      }
    }
    const inlineSimple = kid(d, NS.xsd, 'simpleType');
    if (d.localName === 'restriction' && (kids(d, NS.xsd, 'enumeration').length > 0 || inlineSimple)) {
      text = this.simple.anonymousText(inlineSimple ?? d, hint, d.localName === 'restriction' && !inlineSimple ? d : undefined);
    }
    const own = this.attributes(d);
    const names = new Set(own.map(([n]) => n.replace(/\.opt$/, '')));
    return { attrs: [...baseAttrs.filter(([n]) => !names.has(n.replace(/\.opt$/, ''))), ...own], children: [], text };
  }

  // ---------- attributes ----------

  private attributes(owner: Element, seen: Set<string> = new Set()): [string, string][] {
    const out: [string, string][] = [];
    for (const a of kids(owner, NS.xsd, ['attribute', 'attributeGroup', 'anyAttribute'])) {
      if (a.localName === 'anyAttribute') {
        this.note('anyAttribute is not represented: attributes beyond the declared ones are reported as unexpected');
        continue;
      }
      if (a.localName === 'attributeGroup') {
        const ref = attr(a, 'ref');
        if (!ref) continue;
        const g = this.index.find('attributeGroup', resolveQName(a, ref));
        if (!g || seen.has(qkey(g.name))) continue;
        seen.add(qkey(g.name));
        out.push(...this.attributes(g.el, seen));
        continue;
      }
      const one = this.attribute(a);
      if (one) out.push(one);
    }
    return out;
  }

  private attribute(a: Element): [string, string] | undefined {
    const use = attr(a, 'use');
    if (use === 'prohibited') return undefined;
    let decl = a;
    let name = attr(a, 'name');
    let ns = '';
    const ref = attr(a, 'ref');
    if (ref) {
      const q = resolveQName(a, ref);
      // SOAP-encoding bookkeeping (arrayType) is not data.
      if (SOAPENC.has(q.ns) || q.ns === NS.wsdl11) return undefined;
      name = q.local;
      ns = q.ns;
      const g = this.index.find('attribute', q);
      if (g) decl = g.el;
    } else {
      const form = attr(a, 'form');
      const s = owningSchema(a);
      if (form === 'qualified' || (form === undefined && s && attr(s, 'attributeFormDefault') === 'qualified')) ns = this.schemaTns(a);
    }
    if (!name) return undefined;
    if (!isXmlName(name)) {
      this.note(`attribute "${name}" is not a legal XML name: left out`);
      return undefined;
    }
    let value = '(string)';
    const t = attr(decl, 'type');
    const st = kid(decl, NS.xsd, 'simpleType');
    if (t) {
      const q = resolveQName(decl, t);
      if (q.ns === NS.xsd) value = `(${builtinScalar(q.local)})`;
      else {
        const d = this.index.find('type', q);
        value = d && d.el.localName === 'simpleType' ? this.simple.text(d) : '(string)';
      }
    } else if (st) value = this.simple.anonymousText(st, name);
    if (value === '(anything)') value = '(string)';
    // A fixed value is the only one allowed: written literally (unless it would read as a placeholder).
    const fixed = attr(a, 'fixed') ?? attr(decl, 'fixed');
    if (fixed !== undefined && !/^\(.*\)$/.test(fixed.trim())) value = fixed;
    const full = qualified(ns ? this.prefixFor(ns) : '', name);
    return [use === 'required' ? full : `${full}.opt`, value];
  }
}

function combine(a: Occurs, b: Occurs): Occurs {
  if (a === 'multiple' || b === 'multiple') return 'multiple';
  if (a === 'optional' || b === 'optional') return 'optional';
  return 'once';
}

function upgradeOccurs(attrs: [string, string][]): [string, string][] {
  return [...attrs.filter(([k]) => k !== 'specmatic_occurs'), ['specmatic_occurs', 'multiple']];
}

export function renderType(t: TypeDef): string[] {
  if (t.kind === 'enum') return [`And enum ${t.name} (${t.base}) values ${t.values.join(',')}`];
  return [`And type ${t.name}`, '"""', renderXml(t.node), '"""'];
}
