import { formatLocation } from '../errors';
import { operationBase, TypeNames } from './names';
import type { Operation } from './operations';
import { renderElement, renderJson, type TypeDecl } from './render';

export interface WriteOptions {
  feature: string;
  /** Lines for the comment at the top: where the contract came from. */
  header: string[];
}

/**
 * The operations as a readable .spec: one scenario per operation and outcome,
 * each declaring its own types, in the order the operations were first seen.
 */
export function writeContract(ops: Operation[], options: WriteOptions): string {
  const out: string[] = [];
  for (const h of options.header) out.push(`# ${oneLine(h)}`);
  out.push(`Feature: ${oneLine(options.feature)}`);
  // Successes first: a stub answers with the first scenario that takes a request.
  const ordered = [...ops.filter((o) => o.status < 300), ...ops.filter((o) => o.status >= 300)];
  const names = scenarioNames(ordered);
  ordered.forEach((op, i) => {
    out.push('');
    out.push(...scenario(op, names[i]).map((l) => (l === '' ? '' : `  ${l}`)));
  });
  return `${out.join('\n')}\n`;
}

function scenario(op: Operation, name: string): string[] {
  const head: string[] = [];
  const lines: string[] = [];
  const calls = [...op.calls].sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1)).map((c) => oneLine(formatLocation(c))).join(', ');
  head.push(`# ${op.count} logged call${op.count === 1 ? '' : 's'}: ${calls}${op.count > op.calls.length ? ', …' : ''}`);
  const rows = op.examples ? exampleRows(op) : undefined;
  if (op.status >= 300 && !rows) {
    // A typed request cannot say which calls fail: as a contract test this would send any request and expect the failure.
    head.push('# The logs show these calls failing, but typed placeholders cannot say which requests fail:');
    head.push('# in progress (@WIP) until you pin the request values (accord import log --examples) or edit them in.');
    head.push('@WIP');
  }
  head.push(`${rows ? 'Scenario Outline' : 'Scenario'}: ${name}`);
  const types: TypeDecl[] = [];
  const names = new TypeNames();
  let requestBody: string | undefined;
  let responseBody: string | undefined;
  const base = op.operation ? operationBase(op.operation) : name;
  if (op.kind === 'soap') {
    const reqName = names.take(`${base}Request`);
    const resName = names.take(`${base}${op.fault ? 'Fault' : 'Response'}`);
    if (op.request) {
      const text = renderElement(op.request, names, types);
      types.unshift({ name: reqName, text });
      requestBody = `(${reqName})`;
    }
    if (op.response) {
      const before = types.length;
      const text = renderElement(op.response, names, types);
      types.splice(before, 0, { name: resName, text });
      responseBody = `(${resName})`;
    }
  } else {
    if (op.requestJson) requestBody = jsonBody(op.requestJson, names, types, 'Request');
    if (op.responseJson) responseBody = jsonBody(op.responseJson, names, types, 'Response');
  }
  types.forEach((t, i) => lines.push(...typeStep(i === 0 ? 'Given' : 'And', t)));
  const query = [...op.query].map(([k, q]) => `${encodeURIComponent(k)}=(${q.type})`).join('&');
  lines.push(`When ${op.method} ${op.path}${query ? `?${query}` : ''}`);
  const action = soapActionStep(op);
  if (action) lines.push(action);
  if (requestBody) lines.push(...bodyStep('request-body', requestBody));
  lines.push(`Then status ${op.status}`);
  if (responseBody) lines.push(...bodyStep('response-body', responseBody));
  if (rows) {
    lines.push('');
    lines.push('Examples:');
    lines.push(...table(rows));
  }
  return [...head, ...lines.map((l) => (l === '' ? '' : `  ${l}`))];
}

function soapActionStep(op: Operation): string | undefined {
  const a = op.soapAction;
  if (a.seen === 0) return undefined;
  const optional = a.seen < op.count ? '?' : '';
  const only = a.values.size === 1 ? [...a.values][0] : undefined;
  // A value that would not stay one step (or would read as a placeholder) is written as its type.
  const literal = only !== undefined && only !== '' && !/[\u0000-\u001f\u007f]/.test(only) && !/^\(.*\)$/.test(only.trim());
  return `And request-header SOAPAction${optional} ${literal ? only : '(string)'}`;
}

/** A JSON body: an object or array goes in a docstring; a scalar stays on the step's line. */
function jsonBody(shape: Parameters<typeof renderJson>[0], names: TypeNames, types: TypeDecl[], hint: string): string {
  // An object or array body that some calls sent as null: the structure becomes a type, the body `(Type?)`.
  if (shape.nulls > 0 && shape.nulls < shape.count && !shape.mixed && (shape.jsonKind === 'object' || shape.jsonKind === 'array')) {
    const name = names.take(hint);
    const value = renderJson({ ...shape, nulls: 0, count: shape.count - shape.nulls }, names, types, hint);
    types.push({ name, text: JSON.stringify(value, null, 2) });
    return `(${name}?)`;
  }
  const value = renderJson(shape, names, types, hint);
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2);
}

function typeStep(keyword: string, t: TypeDecl): string[] {
  if (!t.text.includes('\n') && t.text.length <= 100) return [`${keyword} type ${t.name} ${t.text.trim()}`];
  return [`${keyword} type ${t.name}`, ...docString(t.text)];
}

function bodyStep(keyword: string, text: string): string[] {
  if (!text.includes('\n')) return [`And ${keyword} ${text}`];
  return [`And ${keyword}`, ...docString(text)];
}

function docString(text: string): string[] {
  return ['  """', ...text.split('\n').map((l) => `  ${l}`), '  """'];
}

/** Distinct names: the operation, then its outcome, then its path when that is still not enough. */
function scenarioNames(ops: Operation[]): string[] {
  const first = ops.map((op) => {
    const base = op.kind === 'soap' ? op.operation ?? `${op.method} ${op.path}` : `${op.method} ${op.path}`;
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

function exampleRows(op: Operation): string[][] | undefined {
  const t = op.examples!;
  const all = [...t.rows.values()];
  // A column empty in every row (an empty <Header/>) says nothing.
  const columns = t.columns.filter((c) => !t.ambiguous.has(c) && all.some((r) => (r.get(c) ?? '') !== ''));
  if (columns.length === 0 || t.rows.size === 0) return undefined;
  const rows = [...t.rows.values()].map((r) => columns.map((c) => r.get(c) ?? ''));
  return [columns, ...rows];
}

function table(rows: string[][]): string[] {
  const cells = rows.map((r) => r.map(escapeCell));
  const widths = cells[0].map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  return cells.map((r) => `  | ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`);
}

/** Gherkin table cells: `|`, `\` and newlines are escaped; other control characters cannot be written and become spaces. */
function escapeCell(v: string): string {
  return v
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, '\\n')
    .replace(/[\u0000-\u001f\u007f]/g, ' ');
}

/** Text from the logs (file names) written where one line is expected: control characters become `?`. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, '?');
}
