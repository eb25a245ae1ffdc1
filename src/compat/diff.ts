import { WHERE } from '../pattern/match/mismatch';
import { apiText, endpointText, isFaultScenario, type Contract, type Scenario } from '../contract/model';
import type { CompareOptions, Difference } from '../pattern/compare/index';
import { compareBodies, compareFields, compareHeaders, comparePath, compareQuery, samePathShape } from '../http/compare-http';
import type { Change, CompatNote, ContractDiff, ScenarioDiff, Side } from './model';

/**
 * Stage one of the check: for each older scenario that is not @WIP, the newer
 * scenarios with the same method and path, and the changes against the one it
 * is held to. A newer scenario that is @WIP still counts: marking a scenario
 * WIP must not become a way to break its promise.
 */
export function diffContracts(older: Contract, newer: Contract): ContractDiff {
  const skipped: ContractDiff['skipped'] = [];
  const scenarios: ScenarioDiff[] = [];
  const notes: CompatNote[] = [];
  const served = newer.scenarios.filter((n) => !n.unsupported);
  // Faults are held to the newer fault of the same name only, ordinary scenarios to ordinary ones:
  // a fault answers only the requests its examples name, so it never stands in for the operation.
  const endpoints = new Endpoints(served.filter((n) => !isFaultScenario(n)));
  const faults = new Endpoints(served.filter(isFaultScenario));
  const kept = new Set<Scenario>();
  for (const o of older.scenarios) {
    if (o.wip) {
      skipped.push({ scenario: o.name, line: o.line, reason: 'tagged @WIP in the older contract' });
      continue;
    }
    if (o.unsupported) {
      skipped.push({ scenario: o.name, line: o.line, reason: o.unsupported });
      continue;
    }
    if (!isFaultScenario(o)) {
      scenarios.push(diffScenario(o, endpoints.of(o)));
      continue;
    }
    const same = faults.of(o).candidates.filter((n) => n.name === o.name);
    if (same.length === 0) {
      notes.push(faultNote('fault-removed', o, 'older'));
      continue;
    }
    for (const n of same) kept.add(n);
    scenarios.push(diffScenario(o, { candidates: same, byStatus: byStatus(same) }));
  }
  for (const n of served) if (isFaultScenario(n) && !n.wip && !kept.has(n)) notes.push(faultNote('fault-added', n, 'newer'));
  return { older, newer, scenarios, skipped, notes };
}

function faultNote(kind: CompatNote['kind'], s: Scenario, version: CompatNote['version']): CompatNote {
  const message =
    kind === 'fault-added'
      ? `fault added: clients may now receive this Fault (${apiText(s)}); a change to document for them, not a break (a SOAP client takes any Fault it is sent)`
      : `fault removed: compatible (clients that handled this Fault are not broken; the service no longer promises it)`;
  return { kind, scenario: s.name, line: s.line, version, api: apiText(s), message };
}

function byStatus(scenarios: readonly Scenario[]): Map<number, Scenario[]> {
  const m = new Map<number, Scenario[]>();
  for (const n of scenarios) {
    const list = m.get(n.response.status) ?? [];
    list.push(n);
    m.set(n.response.status, list);
  }
  return m;
}

interface Endpoint {
  candidates: Scenario[];
  byStatus: Map<number, Scenario[]>;
}

/**
 * Newer scenarios by the older one's method and path, worked out once per
 * distinct path: a SOAP contract has hundreds of scenarios on one POST /ws.
 */
class Endpoints {
  private readonly cache = new Map<string, Endpoint>();
  constructor(private readonly newer: Scenario[]) {}

  of(o: Scenario): Endpoint {
    const key = endpointText(o.request);
    let e = this.cache.get(key);
    if (!e) {
      const candidates = this.newer.filter((n) => n.request.method === o.request.method && samePathShape(o.request.segments, n.request.segments));
      e = { candidates, byStatus: byStatus(candidates) };
      this.cache.set(key, e);
    }
    return e;
  }
}

/**
 * The scenario with the same name is tried first and is the one reported when
 * nothing fits; any other scenario with the same status that fits will do
 * (checked with a quick yes/no first). With no same-named one, the closest is reported.
 */
function diffScenario(o: Scenario, e: Endpoint): ScenarioDiff {
  const api = apiText(o);
  const sameStatus = e.byStatus.get(o.response.status) ?? [];
  if (sameStatus.length === 0) return { older: o, api, candidates: e.candidates, changes: [] };
  const named = sameStatus.find((n) => n.name === o.name);
  let best: { newer: Scenario; changes: Change[] } | undefined;
  if (named) {
    const changes = scenarioChanges(o, named);
    if (changes.length === 0) return { older: o, api, candidates: e.candidates, newer: named, changes };
    best = { newer: named, changes };
  }
  for (const n of sameStatus) {
    if (n === named) continue;
    if (scenarioChanges(o, n, { stopAtFirst: true }).length === 0) return { older: o, api, candidates: e.candidates, newer: n, changes: [] };
  }
  if (!best) {
    for (const n of sameStatus) {
      const changes = scenarioChanges(o, n);
      if (!best || changes.length < best.changes.length) best = { newer: n, changes };
    }
  }
  return { older: o, api, candidates: e.candidates, newer: best!.newer, changes: best!.changes };
}

/** Request side: the newer accepts every older request. Response side: the older accepts every newer response. */
export function scenarioChanges(o: Scenario, n: Scenario, opts: CompareOptions = {}): Change[] {
  const steps: [Side, () => Difference[]][] = [
    ['request', () => comparePath(n.request.segments, n.scope, o.request.segments, o.scope, WHERE.requestPath, opts)],
    ['request', () => compareQuery(n.request.query, n.scope, o.request.query, o.scope, WHERE.requestQuery, opts)],
    ['request', () => compareHeaders(n.request.headers, n.scope, o.request.headers, o.scope, WHERE.requestHeader, opts)],
    ['request', () => compareBodies(n.request.body, n.scope, o.request.body, o.scope, WHERE.requestBody, opts)],
    ['request', () => compareFields(n.request.formFields, n.scope, o.request.formFields, o.scope, WHERE.requestFormField, 'form field', opts)],
    ['request', () => compareFields(n.request.parts, n.scope, o.request.parts, o.scope, WHERE.requestPart, 'part', opts)],
    ['response', () => compareHeaders(o.response.headers, o.scope, n.response.headers, n.scope, WHERE.responseHeader, opts)],
    ['response', () => compareBodies(o.response.body, o.scope, n.response.body, n.scope, WHERE.responseBody, opts)],
  ];
  const out: Change[] = [];
  for (const [side, step] of steps) {
    for (const d of step()) out.push(toChange(d, side));
    if (opts.stopAtFirst && out.length > 0) break;
  }
  return out;
}

/** "A accepts B" into older → newer: on the request side A is the newer contract, on the response side the older. */
function toChange(d: Difference, side: Side): Change {
  const olderIsA = side === 'response';
  const change: Change = { side, kind: d.kind, target: d.target, path: d.path, older: olderIsA ? d.a : d.b, newer: olderIsA ? d.b : d.a };
  if (d.name !== undefined) change.name = d.name;
  if (d.kind === 'type' && d.narrower) change.direction = side === 'request' ? 'narrowed' : 'widened';
  if (d.note !== undefined) change.note = d.note;
  return change;
}
