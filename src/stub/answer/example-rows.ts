import { unreachable } from '../../errors';
import { isTemplateCell } from '../../contract/check-examples';
import { REQUEST_BODY_COLUMN, type ExampleRow, type Scenario } from '../../contract/model';
import { patternFromText } from '../../pattern/body';
import { isOnce } from '../../pattern/occurs';
import { resolve } from '../../pattern/resolve';
import type { Pattern, Scope, XmlContent, XmlElementPattern } from '../../pattern/types';

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
      query: r.query.map((q) => (values.has(q.name) ? { ...q, pattern: n.literal(q.pattern, values.get(q.name)!, false) } : q)),
      headers: r.headers.map((h) => {
        const v = values.get(h.name) ?? values.get(h.name.toLowerCase());
        return v === undefined ? h : { ...h, pattern: n.literal(h.pattern, v, false) };
      }),
      body: whole !== undefined ? wholeBody(whole) : r.body && n.pattern(r.body, false),
      formFields: r.formFields.map((f) => (values.has(f.name) ? { ...f, pattern: n.literal(f.pattern, values.get(f.name)!, false) } : f)),
    },
  };
}

/**
 * A scenario whose response is narrowed to `values` (column → value) as narrowToRow narrows a
 * request: wherever the response names a column (header, XML node or attribute, JSON key,
 * `(name:type)` lookup) the pattern becomes the value as a literal, so an answer matches it
 * exactly when it has those values there. For the provider's run (runner/echo.ts), which holds an
 * answer to the values a row's `{{…}}` cells take from the request sent.
 */
export function narrowResponse(s: Scenario, values: ReadonlyMap<string, string>): Scenario {
  const n = new Narrower(values, s.scope);
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
    if (value !== undefined && this.isTextOnly(p.content)) content = [{ kind: 'xml-text', pattern: { kind: 'literal', value } }];
    else content = p.content.map((c) => (c.kind === 'xml' ? this.element(c) : c.kind === 'xml-text' ? { ...c, pattern: this.pattern(c.pattern, false) } : c));
    return { ...p, attributes, content };
  }

  /** `<id>(number)</id>` or `<id>(Id)</id>` with Id a scalar type: the node holds one value a column can name. */
  private isTextOnly(content: readonly XmlContent[]): boolean {
    if (content.length !== 1) return false;
    const c = content[0];
    if (c.kind === 'xml-text') return true;
    if (c.kind !== 'xml-ref' || !isOnce(c.occurs)) return false;
    try {
      return resolve({ kind: 'ref', name: c.name }, this.scope).kind !== 'xml';
    } catch {
      return false;
    }
  }

  /** The cell as a literal of the pattern's type: in JSON "10" for a (number) is the number 10. */
  literal(p: Pattern, cell: string, json: boolean): Pattern {
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
