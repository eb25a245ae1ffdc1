import { decodePercent } from '../contract/path';
import type { Location } from '../errors';
import { resolveEncodedReferences } from '../xml/multi-ref';
import type { XmlElement } from '../xml/tree';
import { elementChildren, textOf } from '../xml/tree';
import type { DecodedMessage } from './decode';
import { AccordError, untilStopped } from '../errors';
import { mergeElement, shapeBudget, type ElementShape, type ShapeBudget } from './infer-xml';
import { mergeJson, type JsonShape } from './infer-json';
import type { Exchange } from './pair';
import type { Redactor } from './redact';
import { classifyText, type TextType, widen } from './scalar';
import { recordedCall, type RecordedCall } from './recorded';

/** Everything the logged calls of one operation have in common: one scenario's worth. */
export interface Operation {
  kind: 'soap' | 'json';
  method: string;
  /** Contract path, parameters typed: `/ws`, `/pets/(petId:number)`. */
  path: string;
  /** SOAP: the operation element's local name; JSON: undefined. */
  operation?: string;
  status: number;
  fault: boolean;
  count: number;
  /** Where the first few calls are in the logs. */
  calls: Required<Pick<Location, 'file' | 'line'>>[];
  request?: ElementShape;
  response?: ElementShape;
  requestJson?: JsonShape;
  responseJson?: JsonShape;
  /** Calls whose request / response had no body. */
  requestEmpty: number;
  responseEmpty: number;
  soapAction: { values: Set<string>; seen: number };
  query: Map<string, { type: TextType; seen: number }>;
  examples?: ExampleTable;
  /** --examples: one recorded call per distinct request (an Examples row), with its answer, for replay. */
  recorded?: RecordedCall[];
}

export interface ExampleTable {
  /** Columns in first-seen order; a name met twice in one request has no column. */
  columns: string[];
  ambiguous: Set<string>;
  rows: Map<string, Map<string, string>>;
  redacted: number;
}

export interface GroupOptions {
  /** --path: every scenario uses this path. */
  path?: string;
  examples: boolean;
  maxExamples: number;
  maxOperations: number;
  maxShapeNodes: number;
  redactor: Redactor;
}

const MAX_CALLS_SHOWN = 5;

/** Groups exchanges into operations as they arrive. */
export class Operations {
  readonly byKey = new Map<string, Operation>();
  redactedValues = 0;
  /** Calls left out because there were already maxOperations operations. */
  overflow = 0;
  /** --examples: distinct calls not kept for replay because their answer holds a secret. */
  notReplayed = 0;
  private readonly budget: ShapeBudget;

  constructor(private readonly options: GroupOptions) {
    this.budget = shapeBudget(options.maxShapeNodes);
  }

  add(x: Exchange): void {
    const { request: q, response: r } = x;
    const soap = q.format === 'xml' || r.format === 'xml';
    const method = (q.method ?? 'POST').toUpperCase();
    const status = r.status ?? (r.fault ? 500 : 200);
    const path = soap ? (this.options.path ?? q.path ?? '/ws') : templatePath(q.path ?? '/');
    const operation = soap ? (q.operation ?? r.operation) : undefined;
    // A call with a body and one without cannot share a scenario (a body step either is there or not),
    // nor can an XML body and a JSON one: one body pattern is either.
    const key = `${soap ? 'soap' : 'json'} ${method} ${path} ${operation ?? ''} ${status} ${q.format} ${r.format}`;
    let op = this.byKey.get(key);
    if (!op) {
      if (this.byKey.size >= this.options.maxOperations) {
        this.overflow++;
        return;
      }
      op = {
        kind: soap ? 'soap' : 'json',
        method,
        path,
        operation,
        status,
        fault: r.fault,
        count: 0,
        calls: [],
        requestEmpty: 0,
        responseEmpty: 0,
        soapAction: { values: new Set(), seen: 0 },
        query: new Map(),
      };
      this.byKey.set(key, op);
    }
    op.count++;
    if (op.calls.length < MAX_CALLS_SHOWN) op.calls.push(q.at);
    const merged = untilStopped(this.budget.spent, () => {
      this.body(op, q, 'request');
      this.body(op, r, 'response');
      return true;
    });
    if (!merged) {
      throw new AccordError(
        'ACCORD_ERR_LIMIT',
        `the logged messages hold ${this.budget.spent.why} by this call: they do not describe one API (is this log a sample of real traffic?)`,
        q.at,
      );
    }
    const action = q.headers?.soapaction;
    if (soap && action !== undefined) {
      op.soapAction.seen++;
      if (op.soapAction.values.size < 2) op.soapAction.values.add(action);
    }
    if (!(soap && this.options.path)) {
      for (const [k, v] of q.query ?? []) {
        const t = op.query.get(k);
        const type = v === '' ? 'string' : classifyText(v);
        if (t) {
          t.type = widen(t.type, type);
          t.seen++;
        } else op.query.set(k, { type, seen: 1 });
      }
    }
    let added = false;
    if (this.options.examples && soap && q.xml) added = this.example(op, this.xmlValues(op, dereferenced(q.xml)));
    else if (this.options.examples && !soap) added = this.example(op, this.jsonValues(op, q));
    if (added) {
      const call = recordedCall(x, status, this.options.redactor, soap ? path : undefined);
      if (call) (op.recorded ??= []).push(call);
      else this.notReplayed++;
    }
  }

  private body(op: Operation, m: DecodedMessage, side: 'request' | 'response'): void {
    if (m.format === 'xml') {
      // An rpc/encoded message's multi-reference values (Axis 1's `href="#id0"` and `<multiRef id="id0">`) are typed as the
      // structure they stand for, as the matcher reads them (xml/multi-ref.ts): a recorded `href="(string)"` would not fit its own call.
      const xml = dereferenced(m.xml!);
      if (side === 'request') op.request = mergeElement(op.request, xml, this.budget);
      else op.response = mergeElement(op.response, xml, this.budget);
    } else if (m.format === 'json') {
      if (side === 'request') op.requestJson = mergeJson(op.requestJson, m.json);
      else op.responseJson = mergeJson(op.responseJson, m.json);
    } else if (side === 'request') op.requestEmpty++;
    else op.responseEmpty++;
  }

  private table(op: Operation): ExampleTable {
    return (op.examples ??= { columns: [] as string[], ambiguous: new Set<string>(), rows: new Map(), redacted: 0 });
  }

  /** One Examples row; true when it is a new one. */
  private example(op: Operation, values: Map<string, string>): boolean {
    const t = this.table(op);
    for (const k of values.keys()) if (!t.columns.includes(k)) t.columns.push(k);
    const rowKey = JSON.stringify([...values].sort());
    if (t.rows.size >= this.options.maxExamples || t.rows.has(rowKey)) return false;
    t.rows.set(rowKey, values);
    return true;
  }

  /** A SOAP request's leaf values by node name, secrets left out. */
  private xmlValues(op: Operation, envelope: XmlElement): Map<string, string> {
    const t = this.table(op);
    const values = new Map<string, string>();
    const redactor = this.options.redactor;
    const walk = (el: XmlElement, inHeader: boolean): void => {
      const kids = elementChildren(el);
      if (redactor.redactsSubtree(el.local, inHeader)) {
        this.redactedValues += countLeaves(el);
        return;
      }
      if (kids.length === 0) {
        if (redactor.redacts(el.local, el.name) || redactor.redactsValue(textOf(el))) {
          this.redactedValues++;
          t.redacted++;
          return;
        }
        if (values.has(el.local)) t.ambiguous.add(el.local);
        values.set(el.local, textOf(el));
        return;
      }
      for (const k of kids) walk(k, inHeader || el.local === 'Header');
    };
    walk(envelope, false);
    return values;
  }

  /**
   * A JSON call's values by name: path parameters, query parameters and the
   * request body's scalar keys (accord's Examples columns name JSON keys).
   */
  private jsonValues(op: Operation, q: DecodedMessage): Map<string, string> {
    const t = this.table(op);
    const values = new Map<string, string>();
    const redactor = this.options.redactor;
    const put = (name: string, value: string) => {
      if (redactor.redacts(name, name) || redactor.redactsValue(value)) {
        this.redactedValues++;
        t.redacted++;
        return;
      }
      if (values.has(name)) t.ambiguous.add(name);
      values.set(name, value);
    };
    const template = op.path.split('/').filter((x) => x !== '');
    const actual = (q.path ?? '/').split('/').filter((x) => x !== '');
    template.forEach((seg, i) => {
      const m = /^\(([^:]+):[^)]+\)$/.exec(seg);
      if (m && actual[i] !== undefined) put(m[1], decodePercent(actual[i]));
    });
    for (const [k, v] of q.query ?? []) put(k, v);
    const walk = (v: unknown, depth: number): void => {
      if (depth > 32 || v === null || typeof v !== 'object' || Array.isArray(v)) return;
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (x !== null && typeof x === 'object') walk(x, depth + 1);
        else if (x !== null) put(k, String(x));
      }
    };
    if (q.format === 'json') walk(q.json, 0);
    return values;
  }
}

/** The message as the matcher reads it: its SOAP-encoded references followed (as it is when they cannot be read, for the check to report). */
function dereferenced(xml: XmlElement): XmlElement {
  const read = resolveEncodedReferences(xml);
  return read.problems.length === 0 ? read.root : xml;
}

function countLeaves(el: XmlElement): number {
  const kids = elementChildren(el);
  return kids.length === 0 ? 1 : kids.reduce((n, k) => n + countLeaves(k), 0);
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * `/pets/12/toys/9` → `/pets/(petId:number)/toys/(toyId:number)`: a parameter
 * is named after the word before it (`id` when there is none), so its name
 * does not collide with the `id` keys of the bodies (Examples columns are
 * matched by name everywhere). Only numbers and UUIDs are taken for
 * parameters: any other segment may be a fixed word of the API.
 */
export function templatePath(path: string): string {
  const segs: string[] = path.split('/').filter((s) => s !== '');
  const params: (string | undefined)[] = segs.map((s) => (/^\d+$/.test(s) ? 'number' : UUID.test(s) ? 'uuid' : undefined));
  const used = new Set<string>();
  const out = segs.map((s, i) => {
    const type = params[i];
    if (!type) return s;
    const prev = i > 0 && !params[i - 1] ? decodePercent(segs[i - 1]).replace(/[^A-Za-z0-9]/g, '') : '';
    const name = prev && /^[A-Za-z]/.test(prev) ? `${prev.replace(/ies$/, 'y').replace(/([^s])s$/, '$1')}Id` : 'id';
    let unique = name;
    for (let n = 2; used.has(unique); n++) unique = `${name}${n}`;
    used.add(unique);
    return `(${unique}:${type})`;
  });
  return `/${out.join('/')}`;
}
