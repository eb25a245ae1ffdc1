import { unreachable } from '../errors';
import { patternFromText } from '../pattern/body';
import { exampleValue } from '../pattern/generate/index';
import { isOnce } from '../pattern/occurs';
import { resolve } from '../pattern/resolve';
import type { Pattern, ScalarType, Scope, XmlContent, XmlElementPattern } from '../pattern/types';
import { isTemplateCell } from './check-examples';
import { REQUEST_BODY_COLUMN, type ExampleRow, type Scenario } from './model';

/**
 * A scenario narrowed to one Examples row: wherever the request names a column
 * (path parameter, query parameter, header, form field, XML node or attribute,
 * JSON key, `(name:type)` lookup) the pattern becomes the row's value as a literal.
 * A request matches the row exactly when it matches this narrowed scenario, so
 * the ordinary matcher decides, with no second notion of "equal".
 * Empty cells constrain nothing (in a request they mean "left out"), nor do `{{…}}` cells.
 * Computed once at start-up, never per request.
 */
export function narrowToRow(s: Scenario, row: ExampleRow): Scenario {
  // A `{{…}}` cell is a response template (response-template.ts): it constrains no request either.
  const values = new Map([...row.values].filter(([, v]) => v !== '' && !isTemplateCell(v)));
  const n = new Narrower(values, s.scope);
  const types = new Map<string, Pattern>();
  for (const [name, p] of s.scope.types) types.set(name, n.pattern(p, false));
  const r = s.request;
  const whole = values.get(REQUEST_BODY_COLUMN);
  return {
    ...s,
    scope: { types },
    request: {
      ...r,
      segments: r.segments.map((seg) => (seg.pattern && values.has(seg.name) ? { ...seg, pattern: n.literal(seg.pattern, values.get(seg.name)!, false) } : seg)),
      // A row that gives a query parameter or an optional header is a request that sends it: one that does not is not this row's.
      query: r.query.map((q) => (values.has(q.name) ? { ...q, pattern: n.literal(q.pattern, values.get(q.name)!, false), required: true } : q)),
      headers: r.headers.map((h) => {
        const v = values.get(h.name) ?? values.get(h.name.toLowerCase());
        return v === undefined ? h : { ...h, pattern: n.literal(h.pattern, v, false), optional: false };
      }),
      body: whole !== undefined ? wholeBody(whole) : r.body && n.pattern(r.body, false),
      formFields: r.formFields.map((f) => (values.has(f.name) ? { ...f, pattern: n.literal(f.pattern, values.get(f.name)!, false) } : f)),
    },
  };
}

/**
 * A scenario whose response is narrowed to `values` (column → value) as narrowToRow narrows a
 * request: wherever the response names a column (header, XML node or attribute, JSON key,
 * `(name:type)` lookup) the pattern becomes the value, so an answer matches it exactly when it has
 * those values there. As the stub answers a row (its generator puts a cell only where it fits the
 * declared type), a place whose type the value does not fit keeps its pattern; and the value is
 * compared as its type compares values (`10.50` is `10.5` for a decimal; pattern/scalars/equal.ts).
 * For the provider's run (runner/row-values.ts), which holds an answer to a row's response cells and
 * to the values its `{{…}}` cells take from the request sent.
 */
export function narrowResponse(s: Scenario, values: ReadonlyMap<string, string>): Scenario {
  const n = new Narrower(values, s.scope, true);
  const types = new Map<string, Pattern>();
  for (const [name, p] of s.scope.types) types.set(name, n.pattern(p, false));
  const caseless = new Map([...values].map(([k, v]) => [k.toLowerCase(), v]));
  const r = s.response;
  return {
    ...s,
    scope: { types },
    response: {
      ...r,
      headers: r.headers.map((h) => {
        const v = caseless.get(h.name.toLowerCase());
        return v === undefined ? h : { ...h, pattern: n.literal(h.pattern, v, false) };
      }),
      body: r.body && n.pattern(r.body, false),
    },
  };
}

/** A `(REQUEST-BODY)` cell is a complete sample body; read it as a pattern so XML/JSON compare structurally. */
function wholeBody(cell: string): Pattern {
  try {
    return patternFromText(cell);
  } catch {
    return { kind: 'literal', value: cell.trim() };
  }
}

class Narrower {
  constructor(
    private readonly values: ReadonlyMap<string, string>,
    private readonly scope: Scope,
    /** Narrowing a response: only where the value fits, compared as a value of its type. */
    private readonly typed = false,
  ) {}

  pattern(p: Pattern, json: boolean): Pattern {
    switch (p.kind) {
      case 'lookup':
        return this.values.has(p.key) ? this.literal(p.inner, this.values.get(p.key)!, json) : { ...p, inner: this.pattern(p.inner, json) };
      case 'optional':
      case 'list':
        return { ...p, inner: this.pattern(p.inner, json) };
      case 'object':
        return {
          ...p,
          fields: p.fields.map((f) => ({ ...f, pattern: this.values.has(f.key) ? this.literal(f.pattern, this.values.get(f.key)!, true) : this.pattern(f.pattern, true) })),
        };
      case 'array':
        return { ...p, items: p.items.map((i) => this.pattern(i, true)) };
      case 'dictionary':
        return { ...p, value: this.pattern(p.value, true) };
      case 'xml':
        return this.element(p);
      case 'scalar':
      case 'text-list':
      case 'union':
      case 'literal':
      case 'enum':
      case 'ref':
        return p;
      default:
        return unreachable(p, 'pattern kind');
    }
  }

  private element(p: XmlElementPattern): XmlElementPattern {
    const attributes = p.attributes.map((a) => (this.values.has(a.local) ? { ...a, pattern: this.literal(a.pattern, this.values.get(a.local)!, false) } : a));
    const value = this.values.get(p.local);
    let content: XmlContent[];
    const text = value === undefined ? undefined : this.textOnly(p.content);
    const narrowed = value === undefined || text === undefined ? undefined : this.literal(text, value, false);
    if (narrowed !== undefined && narrowed !== text) content = [{ kind: 'xml-text', pattern: narrowed }];
    else content = p.content.map((c) => (c.kind === 'xml' ? this.element(c) : c.kind === 'xml-text' ? { ...c, pattern: this.pattern(c.pattern, false) } : c));
    return { ...p, attributes, content };
  }

  /** `<id>(number)</id>` or `<id>(Id)</id>` with Id a scalar type: the node holds one value a column can name; its pattern. */
  private textOnly(content: readonly XmlContent[]): Pattern | undefined {
    if (content.length !== 1) return undefined;
    const c = content[0];
    if (c.kind === 'xml-text') return c.pattern;
    if (c.kind !== 'xml-ref' || !isOnce(c.occurs)) return undefined;
    try {
      const ref: Pattern = { kind: 'ref', name: c.name };
      return resolve(ref, this.scope).kind !== 'xml' ? ref : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The cell as a literal of the pattern's type: in JSON "10" for a (number) is the number 10.
   * A cell that does not fit the place leaves its pattern (the runner sends, and the stub answers,
   * a generated value there); narrowing a response, the literal compares as the place's scalar type.
   */
  literal(p: Pattern, cell: string, json: boolean): Pattern {
    // Only where the cell fits, as the generator puts it (a request's `owner.id` uuid is not the row's `id` 30), for the request too.
    let fits: boolean;
    try {
      fits = exampleValue(cell, p, this.scope, json ? 'json' : 'text') !== undefined;
    } catch {
      fits = false;
    }
    if (!fits) return p;
    const made = this.untyped(p, cell, json);
    if (!this.typed) return made;
    const as = made.kind === 'literal' ? this.scalarOf(p) : undefined;
    return as === undefined ? made : ({ ...made, as } as Pattern);
  }

  /** The scalar type a place's value is of (`(number)`, `(Id)` naming `(decimal)`, an enumeration's base), if it is one. */
  private scalarOf(p: Pattern): ScalarType | undefined {
    try {
      let r = resolve(p, this.scope);
      while (r.kind === 'optional' || r.kind === 'lookup') r = resolve(r.inner, this.scope);
      return r.kind === 'scalar' ? r.type : r.kind === 'enum' ? r.base : undefined;
    } catch {
      return undefined;
    }
  }

  private untyped(p: Pattern, cell: string, json: boolean): Pattern {
    if (!json) return { kind: 'literal', value: cell };
    let r: Pattern;
    try {
      r = resolve(p, this.scope);
      while (r.kind === 'optional' || r.kind === 'lookup') r = resolve(r.inner, this.scope);
    } catch {
      return { kind: 'literal', value: cell };
    }
    if (cell === 'null' && (p.kind === 'optional' || (r.kind === 'scalar' && r.type === 'null'))) return { kind: 'literal', value: null };
    const numeric = (r.kind === 'scalar' && r.type === 'number') || (r.kind === 'enum' && r.base === 'number');
    if (numeric && cell.trim() !== '' && !Number.isNaN(Number(cell))) return { kind: 'literal', value: Number(cell) };
    if (r.kind === 'scalar' && r.type === 'boolean' && (cell === 'true' || cell === 'false')) return { kind: 'literal', value: cell === 'true' };
    if (r.kind === 'object' || r.kind === 'array' || r.kind === 'list' || r.kind === 'dictionary') {
      try {
        return patternFromText(cell);
      } catch {
        return { kind: 'literal', value: cell };
      }
    }
    return { kind: 'literal', value: cell };
  }
}
