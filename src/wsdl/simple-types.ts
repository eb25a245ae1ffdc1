import { MAX_TYPE_NESTING } from '../limits';
import type { Element } from '@xmldom/xmldom';
import { builtinScalar } from './builtins';
import { attr, kid, kids, NS, qkey, resolveQName } from './dom';
import type { TypeDef } from './declared-types';
import type { NameTable } from './names';
import type { Decl, SchemaIndex } from './xsd';
import type { Pattern, ScalarPattern } from '../pattern/types';

type Shape = { kind: 'scalar'; text: ScalarPattern } | { kind: 'enum'; base: 'string' | 'number'; values: string[] };

const STRING: ScalarPattern = { kind: 'scalar', type: 'string' };
const NUMBER: ScalarPattern = { kind: 'scalar', type: 'number' };

/**
 * Simple types to text placeholders: enumerations become enums (declared
 * once, named after the simple type, or after the element for an anonymous
 * one); every other restriction, list and union keeps its base's scalar.
 */
export class SimpleTypes {
  constructor(
    private readonly index: SchemaIndex,
    private readonly names: NameTable,
    private readonly types: Map<string, TypeDef>,
    private readonly prefixFor: (ns: string) => string,
  ) {}

  /** The pattern for a named simple type: `(EnumName)` for enumerations, else the base's scalar. */
  text(decl: Decl, depth = 0): Pattern {
    const key = `simple${qkey(decl.name)}`;
    const known = this.names.get(key);
    if (known) return { kind: 'ref', name: known };
    const r = this.shape(decl.el, depth);
    if (r.kind === 'scalar') return r.text;
    const name = this.names.allocate(key, [decl.name.local, () => `${this.prefixFor(decl.name.ns)}_${decl.name.local}`]);
    this.types.set(name, { name, pattern: { kind: 'enum', name, base: r.base, values: r.values }, source: `simpleType ${decl.name.local}` });
    return { kind: 'ref', name };
  }

  /** Placeholder for an anonymous simple type (enumerations get an enum named after the element). */
  anonymousText(st: Element, hint: string, restriction?: Element): Pattern {
    const r = restriction ? this.restriction(restriction, 0) : this.shape(st, 0);
    if (r.kind === 'scalar') return r.text;
    const key = `anon-simple:${hint}:${r.values.join('|')}`;
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
    // list and union: the text is kept as a string.
    return { kind: 'scalar', text: STRING };
  }

  private restriction(res: Element, depth: number): Shape {
    const baseText = this.restrictionBase(res, depth);
    const values = kids(res, NS.xsd, 'enumeration').map((e) => attr(e, 'value') ?? '');
    if (values.length > 0) {
      const base = baseText.type === 'number' ? 'number' : 'string';
      // An enum line is comma-separated and trimmed: values it cannot carry leave the base type.
      const usable = values.every((v) => v !== '' && v.trim() === v && !v.includes(',') && !/[\r\n]/.test(v) && (base === 'string' || !Number.isNaN(Number(v))));
      if (usable) return { kind: 'enum', base, values: [...new Set(values)] };
      return { kind: 'scalar', text: baseText };
    }
    return { kind: 'scalar', text: baseText };
  }

  /** The scalar a restriction's base stands for (never an enum: a restriction of an enum keeps its base's scalar). */
  private restrictionBase(res: Element, depth: number): ScalarPattern {
    const baseAttr = attr(res, 'base');
    if (!baseAttr) {
      const inner = kid(res, NS.xsd, 'simpleType');
      const r = inner ? this.shape(inner, depth + 1) : undefined;
      return r && r.kind === 'scalar' ? r.text : STRING;
    }
    const q = resolveQName(res, baseAttr);
    if (q.ns === NS.xsd) {
      const s = builtinScalar(q.local);
      return s === 'anything' ? STRING : { kind: 'scalar', type: s };
    }
    const d = this.index.find('type', q);
    if (!d || d.el.localName !== 'simpleType') return STRING;
    const r = this.shape(d.el, depth + 1);
    return r.kind === 'scalar' ? r.text : r.base === 'number' ? NUMBER : STRING;
  }
}
