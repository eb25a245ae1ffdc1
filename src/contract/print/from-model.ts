import type { Contract, Scenario } from '../model';
import type { PrintContract, PrintScenario, Step } from './contract';

/**
 * A contract model as something `printContract` writes: every scenario whole
 * (its types, the Background's included, its request and response), the
 * notes in a Background of their own. The text reads back into an equal model;
 * the layout (what was shared in the Background, comments) is not kept.
 */
export function printableContract(c: Contract): PrintContract {
  // A fact or fixture every scenario has stays in the Background, in its place among the notes; the others are written in their scenarios.
  const lines = c.scenarios.map((s) => new Set((s.facts ?? []).map((f) => f.line)));
  const shared = new Set([...(lines[0] ?? [])].filter((l) => lines.every((set) => set.has(l))));
  const own = new Set(lines.flatMap((set) => [...set]).filter((l) => !shared.has(l)));
  const notes: Step[] = c.notes.filter((n) => !own.has(n.line)).map((n) => ({ kind: 'note', keyword: n.keyword, text: n.text }));
  return { feature: c.name, background: notes.length ? notes : undefined, scenarios: c.scenarios.map((s) => printableScenario(s, shared)) };
}

function printableScenario(s: Scenario, shared: ReadonlySet<number>): PrintScenario {
  const steps: Step[] = (s.facts ?? [])
    .filter((f) => !shared.has(f.line))
    .map((f) => ({ kind: 'note', keyword: f.kind, text: f.value === undefined ? f.name : `${f.name} ${f.value}` }));
  for (const [name, pattern] of s.scope.types) steps.push({ kind: 'type', name, pattern });
  if (s.kafka !== undefined) steps.push({ kind: 'kafka-message', text: s.kafka });
  else {
    const r = s.request;
    steps.push({ kind: 'request', method: r.method, path: r.path });
    for (const h of r.headers) steps.push({ kind: 'header', side: 'request', name: h.name, optional: h.optional, pattern: h.pattern });
    for (const f of r.formFields) steps.push({ kind: 'form-field', name: f.name, pattern: f.pattern });
    for (const f of r.parts) steps.push({ kind: 'request-part', name: f.name, pattern: f.pattern });
    if (r.body) steps.push({ kind: 'body', side: 'request', pattern: r.body });
    steps.push({ kind: 'status', status: s.response.status });
    for (const h of s.response.headers) steps.push({ kind: 'header', side: 'response', name: h.name, optional: h.optional, pattern: h.pattern });
    if (s.response.body) steps.push({ kind: 'body', side: 'response', pattern: s.response.body });
  }
  return { tags: s.tags, name: s.name, steps, examples: examples(s) };
}

/** One table for all the rows; a cell a row has no value for is written `($absent)`, which the parser leaves out again. */
function examples(s: Scenario): PrintScenario['examples'] {
  if (s.examples.length === 0) return undefined;
  const columns: string[] = [];
  for (const r of s.examples) for (const k of r.values.keys()) if (!columns.includes(k)) columns.push(k);
  // Rows with no value at all (every cell exported by another contract) still count as rows.
  if (columns.length === 0) columns.push('_');
  return { columns, rows: s.examples.map((r) => columns.map((k) => r.values.get(k) ?? '($absent)')) };
}
