import { MAX_TYPE_NESTING } from '../limits';
import type { Element } from '@xmldom/xmldom';
import { AccordError } from '../errors';
import { inapplicableFacet } from '../pattern/scalars/facets';
import { SCALARS } from '../pattern/scalars/index';
import { xsdRegex } from '../pattern/scalars/xsd-regex';
import { builtinScalar } from './builtins';
import { attr, kid, kids, NS, qkey, resolveQName } from './dom';
import type { TypeDef } from './declared-types';
import type { NameTable } from './names';
import type { Decl, SchemaIndex } from './xsd';
import type { Facets, Pattern, ScalarPattern, ScalarType } from '../pattern/types';

/** What a simple type is: a scalar with its facets, an enumeration, or a list or union (any pattern). */
type Shape = { kind: 'scalar'; text: ScalarPattern } | { kind: 'enum'; base: ScalarType; values: string[] } | { kind: 'other'; pattern: Pattern };

const STRING: ScalarPattern = { kind: 'scalar', type: 'string' };
const EMPTY: ScalarPattern = { kind: 'scalar', type: 'empty' };

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
    const r = this.shape(decl.el, depth, decl.name.local);
    // A plain restriction of a built-in is written as the built-in; one with facets, a list or a union keeps its name.
    if (r.kind === 'scalar' && !r.text.facets) return r.text;
    const name = this.names.allocate(key, [decl.name.local, () => `${this.prefixFor(decl.name.ns)}_${decl.name.local}`]);
    const pattern: Pattern = r.kind === 'enum' ? { kind: 'enum', name, base: r.base, values: r.values } : r.kind === 'scalar' ? r.text : r.pattern;
    this.types.set(name, { name, pattern, source: `simpleType ${decl.name.local}` });
    return { kind: 'ref', name };
  }

  /** Placeholder for an anonymous simple type (enumerations get an enum named after the element). */
  anonymousText(st: Element, hint: string, restriction?: Element): Pattern {
    const r = restriction ? this.restriction(restriction, 0, hint) : this.shape(st, 0, hint);
    return this.declared(r, hint);
  }

  private declared(r: Shape, hint: string): Pattern {
    if (r.kind === 'scalar') return r.text;
    if (r.kind === 'other') return r.pattern;
    // An enumeration of the empty text alone (xml.xsd's member of xml:lang) is `(empty)`, where no white space is folded away.
    if (r.values.length === 1 && r.values[0] === '' && SCALARS[r.base].whiteSpace === undefined) return EMPTY;
    const key = `anon-simple:${hint}:${r.base}:${r.values.join('|')}`;
    const known = this.names.get(key);
    if (known) return { kind: 'ref', name: known };
    const name = this.names.allocate(key, [`${hint.charAt(0).toUpperCase()}${hint.slice(1)}`, `${hint}Enum`]);
    this.types.set(name, { name, pattern: { kind: 'enum', name, base: r.base, values: r.values }, source: `enumeration in ${hint}` });
    return { kind: 'ref', name };
  }

  /** `hint` names what the simple type belongs to (its own name, or the element's or attribute's): inline parts are named after it. */
  private shape(st: Element, depth: number, hint: string): Shape {
    if (depth > MAX_TYPE_NESTING) return { kind: 'scalar', text: STRING };
    const res = kid(st, NS.xsd, 'restriction');
    if (res) return this.restriction(res, depth, hint);
    const list = kid(st, NS.xsd, 'list');
    if (list) return this.list(list, depth);
    const union = kid(st, NS.xsd, 'union');
    if (union) return this.union(union, depth, hint);
    return { kind: 'scalar', text: STRING };
  }

  private restriction(res: Element, depth: number, hint: string): Shape {
    const base = this.restrictionBase(res, depth, hint);
    const values = kids(res, NS.xsd, 'enumeration').map((e) => attr(e, 'value') ?? '');
    if (values.length > 0) {
      const type = base.kind === 'scalar' ? base.text.type : base.kind === 'enum' ? base.base : 'string';
      // A restriction of a list or union by enumeration: the values are whole texts of it.
      return { kind: 'enum', base: type, values: [...new Set(values)] };
    }
    if (base.kind === 'other') return this.restrictedOther(res, base.pattern, hint);
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
    const joined = this.stepPattern(res);
    if (joined !== undefined) (out.pattern ??= []).push(joined);
    if (out.pattern?.length === 0) delete out.pattern;
    for (const k of Object.keys(out) as (keyof Facets)[]) if (out[k] === undefined) delete out[k];
    // A facet the base type has no use for (a length on a number) is left out rather than refused.
    for (let wrong = inapplicableFacet(base.type, out); wrong; wrong = inapplicableFacet(base.type, out)) delete out[wrong as keyof Facets];
    return Object.keys(out).length > 0 ? out : undefined;
  }

  /** A restriction step's own pattern facets, one expression (several in one step are alternatives); undefined when none or unreadable. */
  private stepPattern(res: Element): string | undefined {
    const patterns = kids(res, NS.xsd, 'pattern').map((p) => attr(p, 'value') ?? '');
    if (patterns.length === 0) return undefined;
    const joined = patterns.length === 1 ? patterns[0] : patterns.map((p) => `(${p})`).join('|');
    try {
      xsdRegex(joined);
      return joined;
    } catch (e) {
      if (!(e instanceof AccordError)) throw e;
      this.note(`${e.message}: that pattern facet is left out`);
      return undefined;
    }
  }

  /**
   * A restriction of a list or union without enumerations. A list takes the step's length and pattern facets (lengths count
   * items). A union allows only pattern (XSD 1.0, 4.1.5): a value must fit the pattern and a member, which is the pattern
   * on every member; a member no value of which fits (an enumeration's values are tried) is left out.
   */
  private restrictedOther(res: Element, base: Pattern, hint: string): Shape {
    if (base.kind === 'text-list') {
      const facets = this.facets(res, { kind: 'scalar', type: 'nmtokens', facets: base.facets });
      return { kind: 'other', pattern: facets ? { ...base, facets } : base };
    }
    const joined = this.stepPattern(res);
    if (joined === undefined) return { kind: 'other', pattern: base };
    const narrowed = this.withPattern(base, joined, `${hint}Member`, 0);
    if (narrowed) return { kind: 'other', pattern: narrowed };
    this.note(`no member of the union ${hint} fits its pattern facet "${joined}": the pattern is left out`);
    return { kind: 'other', pattern: base };
  }

  /** `p` narrowed to the texts that fit `pattern` too; undefined when none can (an enumeration with no value that fits). */
  private withPattern(p: Pattern, pattern: string, hint: string, depth: number): Pattern | undefined {
    const fits = (text: string) => xsdRegex(pattern).test(text);
    switch (p.kind) {
      case 'ref': {
        const def = this.types.get(p.name)?.pattern;
        if (!def || depth > MAX_TYPE_NESTING) return p;
        // An enumeration all of whose values fit is the same type: its name is kept.
        if (def.kind === 'enum' && def.values.every(fits)) return p;
        const narrowed = this.withPattern(def, pattern, hint, depth + 1);
        return narrowed && this.nameable(narrowed, hint);
      }
      case 'enum':
        return this.enumWith(p.base, p.values.filter(fits), hint);
      case 'scalar':
        if (p.type === 'empty') return fits('') ? p : undefined;
        return { ...p, facets: { ...p.facets, pattern: [...(p.facets?.pattern ?? []), pattern] } };
      case 'text-list':
        return { ...p, facets: { ...p.facets, pattern: [...(p.facets?.pattern ?? []), pattern] } };
      case 'literal':
        return fits(String(p.value ?? '')) ? p : undefined;
      case 'union': {
        const members = p.members.flatMap((m) => {
          const narrowed = this.withPattern(m, pattern, hint, depth + 1);
          return narrowed ? [this.nameable(narrowed, hint)] : [];
        });
        return members.length === 0 ? undefined : members.length === 1 ? members[0] : { kind: 'union', members };
      }
      default:
        return p;
    }
  }

  private enumWith(base: ScalarType, values: string[], hint: string): Pattern | undefined {
    return values.length === 0 ? undefined : this.declared({ kind: 'enum', base, values }, hint);
  }

  /** The shape a restriction's base stands for: a scalar with facets, an enum, a list or union. */
  private restrictionBase(res: Element, depth: number, hint: string): Shape {
    const baseAttr = attr(res, 'base');
    if (!baseAttr) {
      const inner = kid(res, NS.xsd, 'simpleType');
      return inner ? this.shape(inner, depth + 1, hint) : { kind: 'scalar', text: STRING };
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
    return this.shape(d.el, depth + 1, q.local);
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
    } else if (inner) item = this.declared(this.shape(inner, depth + 1, 'item'), 'item');
    return { kind: 'other', pattern: { kind: 'text-list', item: this.nameable(item, 'Item') } };
  }

  /**
   * `xs:union`: one of the member types, in XSD's order (those of memberTypes, then the inline ones), each a name
   * (scalars with facets, lists and enumerations are declared, named after the union); an inline union's members join this one's.
   */
  private union(union: Element, depth: number, hint: string): Shape {
    const members: Pattern[] = [];
    const add = (p: Pattern) => {
      if (!members.some((m) => JSON.stringify(m) === JSON.stringify(p))) members.push(p);
    };
    for (const m of (attr(union, 'memberTypes') ?? '').trim().split(/\s+/)) {
      if (m === '') continue;
      const q = resolveQName(union, m);
      const d = q.ns === NS.xsd ? undefined : this.index.find('type', q);
      add(this.nameable(d && d.el.localName === 'simpleType' ? this.text(d, depth + 1) : this.declared(this.named(q, depth), q.local), q.local));
    }
    const inline = kids(union, NS.xsd, 'simpleType');
    inline.forEach((st, i) => {
      const name = `${hint}Member${inline.length > 1 ? i + 1 : ''}`;
      const s = this.shape(st, depth + 1, name);
      if (s.kind === 'other' && s.pattern.kind === 'union') s.pattern.members.forEach(add);
      else add(this.nameable(this.declared(s, name), name));
    });
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
