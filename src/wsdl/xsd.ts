import type { Element } from '@xmldom/xmldom';
import { attr, kids, NS, qkey, type QName } from './dom';
import type { SchemaSource } from './load';

export type DeclKind = 'element' | 'type' | 'group' | 'attributeGroup' | 'attribute';

/** A top-level schema component with the schema it belongs to. */
export interface Decl {
  el: Element;
  schema: SchemaInfo;
  name: QName;
}

export interface SchemaInfo {
  source: SchemaSource;
  targetNamespace: string;
  elementsQualified: boolean;
  attributesQualified: boolean;
}

const KINDS: Record<string, DeclKind> = {
  element: 'element',
  complexType: 'type',
  simpleType: 'type',
  group: 'group',
  attributeGroup: 'attributeGroup',
  attribute: 'attribute',
};

/**
 * Every named top-level component of every schema in the set, by kind and
 * QName. Lookups fall back to the local name when the namespace does not
 * match (chameleon includes, sloppy prefixes) and the name is unambiguous.
 */
export class SchemaIndex {
  private readonly byKey = new Map<string, Decl>();
  private readonly byLocal = new Map<string, Decl[]>();
  /** Substitution group head (qkey) to its members. */
  readonly substitutes = new Map<string, Decl[]>();
  /** A named complex type (qkey) to the named complex types derived from it directly, with how. */
  readonly derivations = new Map<string, { decl: Decl; method: 'extension' | 'restriction' }[]>();
  readonly namespaces = new Set<string>();

  constructor(schemas: SchemaSource[]) {
    for (const source of schemas) {
      const info: SchemaInfo = {
        source,
        targetNamespace: source.targetNamespace,
        elementsQualified: attr(source.el, 'elementFormDefault') === 'qualified',
        attributesQualified: attr(source.el, 'attributeFormDefault') === 'qualified',
      };
      this.namespaces.add(source.targetNamespace);
      const tops = [...kids(source.el, NS.xsd), ...kids(source.el, NS.xsd, ['redefine', 'override']).flatMap((r) => kids(r, NS.xsd))];
      for (const el of tops) {
        const kind = KINDS[el.localName ?? ''];
        const name = attr(el, 'name');
        if (!kind || !name) continue;
        const q = { ns: source.targetNamespace, local: name };
        const decl: Decl = { el, schema: info, name: q };
        const key = `${kind}${qkey(q)}`;
        if (!this.byKey.has(key)) this.byKey.set(key, decl);
        const lk = `${kind}:${name}`;
        const list = this.byLocal.get(lk) ?? [];
        list.push(decl);
        this.byLocal.set(lk, list);
      }
    }
    for (const [key, decl] of this.byKey) {
      if (key.startsWith('type{') && decl.el.localName === 'complexType') this.indexDerivation(decl);
      if (!key.startsWith('element{')) continue;
      const head = attr(decl.el, 'substitutionGroup');
      if (!head) continue;
      // A space-separated list in XSD 1.1; each head gets the member.
      for (const h of head.trim().split(/\s+/)) {
        const hq = resolveIn(decl.el, h);
        const target = this.find('element', hq);
        if (!target) continue;
        const k = qkey(target.name);
        const list = this.substitutes.get(k) ?? [];
        list.push(decl);
        this.substitutes.set(k, list);
      }
    }
  }

  /** complexContent or simpleContent deriving from a named complex type: recorded under the base. */
  private indexDerivation(decl: Decl): void {
    const step = derivationStep(decl.el);
    if (!step) return;
    const target = this.find('type', step.base);
    if (!target || target.el.localName !== 'complexType' || target === decl) return;
    const k = qkey(target.name);
    const list = this.derivations.get(k) ?? [];
    list.push({ decl, method: step.method });
    this.derivations.set(k, list);
  }

  /** Every global element declaration, in the order the schemas declare them. */
  globalElements(): Decl[] {
    const out: Decl[] = [];
    for (const [key, decl] of this.byKey) if (key.startsWith('element{')) out.push(decl);
    return out;
  }

  find(kind: DeclKind, q: QName): Decl | undefined {
    const exact = this.byKey.get(`${kind}${qkey(q)}`);
    if (exact) return exact;
    const candidates = this.byLocal.get(`${kind}:${q.local}`);
    if (candidates && candidates.length === 1 && !this.namespaces.has(q.ns)) return candidates[0];
    if (candidates && q.ns === '') return candidates[0];
    return undefined;
  }

  /** Whether a schema defining `ns` is in the set at all (else a lookup miss is an unresolved import). */
  hasNamespace(ns: string): boolean {
    return this.namespaces.has(ns);
  }
}

/** A complex type's (named or anonymous) derivation: extension or restriction of a base; undefined when it derives from none. */
export function derivationStep(typeEl: Element): { method: 'extension' | 'restriction'; base: QName } | undefined {
  const content = kids(typeEl, NS.xsd, ['complexContent', 'simpleContent'])[0];
  const d = content && kids(content, NS.xsd, ['extension', 'restriction'])[0];
  const base = d && attr(d, 'base');
  return base ? { method: d.localName === 'extension' ? 'extension' : 'restriction', base: resolveIn(d, base) } : undefined;
}

function resolveIn(el: Element, value: string): QName {
  const i = value.indexOf(':');
  const prefix = i < 0 ? null : value.slice(0, i);
  return { ns: el.lookupNamespaceURI(prefix ?? '') ?? '', local: i < 0 ? value : value.slice(i + 1) };
}

/** Which schema an element inside a schema belongs to: the nearest `xsd:schema` ancestor. */
export function owningSchema(el: Element): Element | undefined {
  for (let p = el.parentNode; p; p = p.parentNode) {
    const e = p as Element;
    if (e.namespaceURI === NS.xsd && e.localName === 'schema') return e;
  }
  return undefined;
}
