import { MAX_TYPE_NESTING } from '../limits';
import type { Element } from '@xmldom/xmldom';
import { AccordError } from '../errors';
import { inapplicableFacet } from '../pattern/facets';
import { xsdRegex } from '../pattern/xsd-regex';
import { builtinScalar } from './builtins';
import { attr, kid, kids, NS, qkey, resolveQName } from './dom';
import type { TypeDef } from './declared-types';
import type { NameTable } from './names';
import type { Decl, SchemaIndex } from './xsd';
import type { Facets, Pattern, ScalarPattern, ScalarType } from '../pattern/types';

/** What a simple type is: a scalar with its facets, an enumeration, or a list or union (any pattern). */
type Shape = { kind: 'scalar'; text: ScalarPattern } | { kind: 'enum'; base: ScalarType; values: string[] } | { kind: 'other'; pattern: Pattern };

const STRING: ScalarPattern = { kind: 'scalar', type: 'string' };

/** XSD facet elements and the facet each becomes. */
const FACET_OF: Record<string, keyof Facets> = {
  length: 'length',
  minLength: 'minLength',
  maxLength: 'maxLength',
  minInclusive: 'min',
  maxInclusive: 'max',
  minExclusive: 'minExclusive',
  maxExclusive: 'maxExclusive',
  totalDigits: 'totalDigits',
  fractionDigits: 'fractionDigits',
};

/**
 * Simple types to text placeholders: enumerations become enums (declared
 * once, named after the simple type, or after the element for an anonymous
 * one); restrictions keep their base's scalar with the facets of every step
 * (a restriction of a restriction combines them); lists and unions become
 * `(list T)` and `(A | B)`.
 */
export class SimpleTypes {
  constructor(
    private readonly index: SchemaIndex,
    private readonly names: NameTable,
    private readonly types: Map<string, TypeDef>,
    private readonly prefixFor: (ns: string) => string,
    private readonly note: (message: string) => void = () => undefined,
  ) {}

  /** The pattern for a named simple type: `(EnumName)` for enumerations, else the base's scalar with its facets. */
  text(decl: Decl, depth = 0): Pattern {
    const key = `simple${qkey(decl.name)}`;
    const known = this.names.get(key);
    if (known) return { kind: 'ref', name: known };
    const r = this.shape(decl.el, depth);
    // A plain restriction of a built-in is written as the built-in; one with facets, a list or a union keeps its name.
    if (r.kind === 'scalar' && !r.text.facets) return r.text;
    const name = this.names.allocate(key, [decl.name.local, () => `${this.prefixFor(decl.name.ns)}_${decl.name.local}`]);
    const pattern: Pattern = r.kind === 'enum' ? { kind: 'enum', name, base: r.base, values: r.values } : r.kind === 'scalar' ? r.text : r.pattern;
    this.types.set(name, { name, pattern, source: `simpleType ${decl.name.local}` });
    return { kind: 'ref', name };
  }

  /** Placeholder for an anonymous simple type (enumerations get an enum named after the element). */
  anonymousText(st: Element, hint: string, restriction?: Element): Pattern {
    const r = restriction ? this.restriction(restriction, 0) : this.shape(st, 0);
    return this.declared(r, hint);
  }

  private declared(r: Shape, hint: string): Pattern {
    if (r.kind === 'scalar') return r.text;
    if (r.kind === 'other') return r.pattern;
    const key = `anon-simple:${hint}:${r.base}:${r.values.join('|')}`;
    const known = this.names.get(key);
    if (known) return { kind: 'ref', name: known };
    const name = this.names.allocate(key, [`${hint.charAt(0).toUpperCase()}${hint.slice(1)}`, `${hint}Enum`]);
    this.types.set(name, { name, pattern: { kind: 'enum', name, base: r.base, values: r.values }, source: `enumeration in ${hint}` });
    return { kind: 'ref', name };
  }

  private shape(st: Element, depth: number): Shape {
    if (depth > MAX_TYPE_NESTING) return { kind: 'scalar', text: STRING };
    const res = kid(st, NS.xsd, 'restriction');
    if (res) return this.restriction(res, depth);
    const list = kid(st, NS.xsd, 'list');
    if (list) return this.list(list, depth);
    const union = kid(st, NS.xsd, 'union');
    if (union) return this.union(union, depth);
    return { kind: 'scalar', text: STRING };
  }

  private restriction(res: Element, depth: number): Shape {
    const base = this.restrictionBase(res, depth);
    const values = kids(res, NS.xsd, 'enumeration').map((e) => attr(e, 'value') ?? '');
    if (values.length > 0) {
      const type = base.kind === 'scalar' ? base.text.type : base.kind === 'enum' ? base.base : 'string';
      // A restriction of a list or union by enumeration: the values are whole texts of it.
      return { kind: 'enum', base: type, values: [...new Set(values)] };
    }
    if (base.kind !== 'scalar') return base;
    const facets = this.facets(res, base.text);
    return { kind: 'scalar', text: facets ? { ...base.text, facets } : base.text };
  }

  /** The base's facets tightened by this step's: the narrower bound wins, patterns add up (each step's own are alternatives). */
  private facets(res: Element, base: ScalarPattern): Facets | undefined {
    const out: Facets = { ...base.facets, pattern: base.facets?.pattern?.slice() };
    for (const f of kids(res, NS.xsd)) {
      const value = attr(f, 'value');
      const key = FACET_OF[f.localName ?? ''];
      if (value === undefined || !key) continue;
      const o = out as Record<string, number | string | undefined>;
      if (key === 'length' || key === 'minLength' || key === 'totalDigits' || key === 'fractionDigits' || key === 'maxLength') {
        const n = Number(value.trim());
        if (!Number.isInteger(n) || n < 0) continue;
        const prev = o[key] as number | undefined;
        o[key] = prev === undefined ? n : key === 'minLength' ? Math.max(prev, n) : Math.min(prev, n);
      } else o[key] = value.trim();
    }
    const patterns = kids(res, NS.xsd, 'pattern').map((p) => attr(p, 'value') ?? '');
    if (patterns.length > 0) {
      const joined = patterns.length === 1 ? patterns[0] : patterns.map((p) => `(${p})`).join('|');
      try {
        xsdRegex(joined);
        (out.pattern ??= []).push(joined);
      } catch (e) {
        if (!(e instanceof AccordError)) throw e;
        this.note(`${e.message}: that pattern facet is left out`);
      }
    }
    if (out.pattern?.length === 0) delete out.pattern;
    for (const k of Object.keys(out) as (keyof Facets)[]) if (out[k] === undefined) delete out[k];
    // A facet the base type has no use for (a length on a number) is left out rather than refused.
    for (let wrong = inapplicableFacet(base.type, out); wrong; wrong = inapplicableFacet(base.type, out)) delete out[wrong as keyof Facets];
    return Object.keys(out).length > 0 ? out : undefined;
  }

  /** The shape a restriction's base stands for: a scalar with facets, an enum, a list or union. */
  private restrictionBase(res: Element, depth: number): Shape {
    const baseAttr = attr(res, 'base');
    if (!baseAttr) {
      const inner = kid(res, NS.xsd, 'simpleType');
      return inner ? this.shape(inner, depth + 1) : { kind: 'scalar', text: STRING };
    }
    return this.named(resolveQName(res, baseAttr), depth);
  }

  private named(q: { ns: string; local: string }, depth: number): Shape {
    if (q.ns === NS.xsd) {
      const s = builtinScalar(q.local);
      return { kind: 'scalar', text: s === 'anything' ? STRING : { kind: 'scalar', type: s } };
    }
    const d = this.index.find('type', q);
    if (!d || d.el.localName !== 'simpleType') return { kind: 'scalar', text: STRING };
    return this.shape(d.el, depth + 1);
  }

  /** `xs:list`: space-separated items of the item type (declared by name when it is an enumeration). */
  private list(list: Element, depth: number): Shape {
    const itemAttr = attr(list, 'itemType');
    const inner = kid(list, NS.xsd, 'simpleType');
    let item: Pattern = STRING;
    if (itemAttr) {
      const q = resolveQName(list, itemAttr);
      const d = q.ns === NS.xsd ? undefined : this.index.find('type', q);
      item = d && d.el.localName === 'simpleType' ? this.text(d, depth + 1) : this.declared(this.named(q, depth), q.local);
    } else if (inner) item = this.declared(this.shape(inner, depth + 1), 'item');
    return { kind: 'other', pattern: { kind: 'text-list', item: this.nameable(item, 'Item') } };
  }

  /** `xs:union`: one of the member types, each a name (scalars with facets and enumerations are declared). */
  private union(union: Element, depth: number): Shape {
    const members: Pattern[] = [];
    for (const m of (attr(union, 'memberTypes') ?? '').trim().split(/\s+/)) {
      if (m === '') continue;
      const q = resolveQName(union, m);
      const d = q.ns === NS.xsd ? undefined : this.index.find('type', q);
      members.push(this.nameable(d && d.el.localName === 'simpleType' ? this.text(d, depth + 1) : this.declared(this.named(q, depth), q.local), q.local));
    }
    for (const st of kids(union, NS.xsd, 'simpleType')) members.push(this.nameable(this.declared(this.shape(st, depth + 1), 'member'), 'Member'));
    if (members.length === 0) return { kind: 'scalar', text: STRING };
    return { kind: 'other', pattern: members.length === 1 ? members[0] : { kind: 'union', members } };
  }

  /** A list item or union member is written as a name: a scalar with facets, a list or a union becomes a declared type. */
  private nameable(p: Pattern, hint: string): Pattern {
    if (p.kind === 'ref' || (p.kind === 'scalar' && !p.facets)) return p;
    const key = `anon-simple-part:${hint}:${JSON.stringify(p)}`;
    const known = this.names.get(key);
    if (known) return { kind: 'ref', name: known };
    const name = this.names.allocate(key, [`${hint.charAt(0).toUpperCase()}${hint.slice(1)}`, `${hint}Type`]);
    this.types.set(name, { name, pattern: p, source: `simple type in ${hint}` });
    return { kind: 'ref', name };
  }
}
