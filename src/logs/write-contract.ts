import { printContract, type PrintScenario, type Step } from '../contract/print';
import { formatLocation } from '../errors';
import type { Pattern } from '../pattern/types';
import { operationBase, TypeNames } from './names';
import type { Operation } from './operations';
import { renderElement, renderJson, type TypeDecl } from './render';

export interface WriteOptions {
  feature: string;
  /** Lines for the comment at the top: where the contract came from. */
  header: string[];
  /** Name the file and line of each call (false when the log is not kept: the places would point nowhere). */
  cite?: boolean;
  /** Said after every scenario's name, in parentheses. */
  nameSuffix?: string;
}

/**
 * The operations as a readable .spec: one scenario per operation and outcome,
 * each declaring its own types, in the order the operations were first seen.
 */
export function writeContract(ops: Operation[], options: WriteOptions): string {
  // Successes first: a stub answers with the first scenario that takes a request.
  const ordered = [...ops.filter((o) => o.status < 300), ...ops.filter((o) => o.status >= 300)];
  const names = scenarioNames(ordered).map((n) => (options.nameSuffix ? `${n} (${options.nameSuffix})` : n));
  return printContract({ header: options.header, feature: options.feature, scenarios: ordered.map((op, i) => scenario(op, names[i], options.cite ?? true)) });
}

function scenario(op: Operation, name: string, cite: boolean): PrintScenario {
  const comments: string[] = [];
  const tags: string[] = [];
  const calls = [...op.calls]
    .sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1))
    .map((c) => formatLocation(c))
    .join(', ');
  comments.push(
    cite ? `${op.count} logged call${op.count === 1 ? '' : 's'}: ${calls}${op.count > op.calls.length ? ', …' : ''}` : `${op.count} recorded call${op.count === 1 ? '' : 's'}`,
  );
  const examples = op.examples ? exampleRows(op) : undefined;
  if (op.status >= 300 && !examples) {
    // A typed request cannot say which calls fail: as a contract test this would send any request and expect the failure.
    comments.push('The logs show these calls failing, but typed placeholders cannot say which requests fail:');
    comments.push('in progress (@WIP) until you pin the request values (accord import log --examples) or edit them in.');
    tags.push('@WIP');
  }
  const types: TypeDecl[] = [];
  const names = new TypeNames();
  let requestBody: Pattern | undefined;
  let responseBody: Pattern | undefined;
  const base = op.operation ? operationBase(op.operation) : name;
  if (op.kind === 'soap') {
    const reqName = names.take(`${base}Request`);
    const resName = names.take(`${base}${op.fault ? 'Fault' : 'Response'}`);
    if (op.request) {
      const pattern = renderElement(op.request, names, types);
      types.unshift({ name: reqName, pattern });
      requestBody = { kind: 'ref', name: reqName };
    }
    if (op.response) {
      const before = types.length;
      const pattern = renderElement(op.response, names, types);
      types.splice(before, 0, { name: resName, pattern });
      responseBody = { kind: 'ref', name: resName };
    }
  } else {
    if (op.requestJson) requestBody = jsonBody(op.requestJson, names, types, 'Request');
    if (op.responseJson) responseBody = jsonBody(op.responseJson, names, types, 'Response');
  }
  const steps: Step[] = types.map((t) => ({ kind: 'type', name: t.name, pattern: t.pattern }));
  const query = [...op.query].map(([k, q]) => `${encodeURIComponent(k)}=(${q.type})`).join('&');
  steps.push({ kind: 'request', method: op.method, path: `${op.path}${query ? `?${query}` : ''}` });
  const action = soapActionStep(op);
  if (action) steps.push(action);
  if (requestBody) steps.push({ kind: 'body', side: 'request', pattern: requestBody });
  steps.push({ kind: 'status', status: op.status });
  if (responseBody) steps.push({ kind: 'body', side: 'response', pattern: responseBody });
  return { comments, tags, name, steps, examples };
}

function soapActionStep(op: Operation): Step | undefined {
  const a = op.soapAction;
  if (a.seen === 0) return undefined;
  const only = a.values.size === 1 ? [...a.values][0] : undefined;
  // A value that would not stay one step (or would read as a placeholder) is written as its type.
  const literal = only !== undefined && only !== '' && only.trim() === only && !/[\u0000-\u001f\u007f]/.test(only) && !/^\(.*\)$/.test(only.trim());
  return {
    kind: 'header',
    side: 'request',
    name: 'SOAPAction',
    optional: a.seen < op.count,
    pattern: literal ? { kind: 'literal', value: only } : { kind: 'scalar', type: 'string' },
  };
}

/** A JSON body: an object or array goes in a doc string; a scalar stays on the step's line. */
function jsonBody(shape: Parameters<typeof renderJson>[0], names: TypeNames, types: TypeDecl[], hint: string): Pattern {
  // An object or array body that some calls sent as null: the structure becomes a type, the body `(Type?)`.
  if (shape.nulls > 0 && shape.nulls < shape.count && !shape.mixed && (shape.jsonKind === 'object' || shape.jsonKind === 'array')) {
    const name = names.take(hint);
    types.push({ name, pattern: renderJson({ ...shape, nulls: 0, count: shape.count - shape.nulls }, names, types, hint) });
    return { kind: 'optional', inner: { kind: 'ref', name } };
  }
  return renderJson(shape, names, types, hint);
}

/** Distinct names: the operation, then its outcome, then its path when that is still not enough. */
function scenarioNames(ops: Operation[]): string[] {
  const first = ops.map((op) => {
    const base = op.kind === 'soap' ? (op.operation ?? `${op.method} ${op.path}`) : `${op.method} ${op.path}`;
    if (op.status === 200 && !op.fault) return base;
    return `${base} (${op.fault ? 'fault, ' : ''}status ${op.status})`;
  });
  const counts = new Map<string, number>();
  for (const n of first) counts.set(n, (counts.get(n) ?? 0) + 1);
  const withPath = first.map((n, i) => {
    if (counts.get(n)! === 1) return n;
    const op = ops[i];
    if (op.requestEmpty === op.count && op.method !== 'GET' && op.method !== 'HEAD') return `${n} without a request body`;
    if (op.responseEmpty === op.count) return `${n} without a response body`;
    return op.kind === 'soap' ? `${n} on ${op.path}` : n;
  });
  const seen = new Map<string, number>();
  return withPath.map((n) => {
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return k === 1 ? n : `${n} #${k}`;
  });
}

function exampleRows(op: Operation): PrintScenario['examples'] {
  const t = op.examples!;
  const all = [...t.rows.values()];
  // A column empty in every row (an empty <Header/>) says nothing.
  const columns = t.columns.filter((c) => !t.ambiguous.has(c) && all.some((r) => (r.get(c) ?? '') !== ''));
  if (columns.length === 0 || t.rows.size === 0) return undefined;
  return { columns, rows: all.map((r) => columns.map((c) => r.get(c) ?? '')) };
}
