import type { Contract, Scenario } from '../contract/model';
import { compareBodies, compareHeaders, comparePath, compareQuery, samePathShape, type Difference } from '../pattern/compare';
import type { Change, ContractDiff, ScenarioDiff, Side } from './model';

/**
 * Stage one of the check: for each older scenario that is not @WIP, the newer
 * scenarios with the same method and path, and the changes against the one it
 * is held to. A newer scenario that is @WIP still counts: marking a scenario
 * WIP must not become a way to break its promise.
 */
export function diffContracts(older: Contract, newer: Contract): ContractDiff {
  const skipped: ContractDiff['skipped'] = [];
  const scenarios: ScenarioDiff[] = [];
  const byMethod = new Map<string, Scenario[]>();
  for (const n of newer.scenarios) {
    if (n.unsupported) continue;
    const list = byMethod.get(n.request.method) ?? [];
    list.push(n);
    byMethod.set(n.request.method, list);
  }
  for (const o of older.scenarios) {
    if (o.wip) {
      skipped.push({ scenario: o.name, line: o.line, reason: 'tagged @WIP in the older contract' });
      continue;
    }
    if (o.unsupported) {
      skipped.push({ scenario: o.name, line: o.line, reason: o.unsupported });
      continue;
    }
    const candidates = (byMethod.get(o.request.method) ?? []).filter((n) => samePathShape(o.request.segments, n.request.segments));
    scenarios.push(diffScenario(o, candidates));
  }
  return { older, newer, scenarios, skipped };
}

export function apiOf(s: Scenario): string {
  return `${s.request.method} ${s.request.path} -> ${s.response.status}`;
}

function diffScenario(o: Scenario, candidates: Scenario[]): ScenarioDiff {
  const api = apiOf(o);
  const sameStatus = candidates.filter((n) => n.response.status === o.response.status);
  if (sameStatus.length === 0) return { older: o, api, candidates, changes: [] };
  // The same-named scenario is tried first and reported when nothing fits; otherwise the closest one.
  const named = sameStatus.find((n) => n.name === o.name);
  const order = named ? [named, ...sameStatus.filter((n) => n !== named)] : sameStatus;
  let best: { newer: Scenario; changes: Change[] } | undefined;
  for (const n of order) {
    const changes = scenarioChanges(o, n);
    if (changes.length === 0) return { older: o, api, candidates, newer: n, changes };
    if (!best || (best.newer !== named && changes.length < best.changes.length)) best = { newer: n, changes };
  }
  return { older: o, api, candidates, newer: best!.newer, changes: best!.changes };
}

/** Request side: the newer accepts every older request. Response side: the older accepts every newer response. */
export function scenarioChanges(o: Scenario, n: Scenario): Change[] {
  const req = [
    ...comparePath(n.request.segments, n.scope, o.request.segments, o.scope, 'REQUEST.PATH'),
    ...compareQuery(n.request.query, n.scope, o.request.query, o.scope, 'REQUEST.QUERY'),
    ...compareHeaders(n.request.headers, n.scope, o.request.headers, o.scope, 'REQUEST.HEADER'),
    ...compareBodies(n.request.body, n.scope, o.request.body, o.scope, 'REQUEST.BODY'),
  ];
  const res = [
    ...compareHeaders(o.response.headers, o.scope, n.response.headers, n.scope, 'RESPONSE.HEADER'),
    ...compareBodies(o.response.body, o.scope, n.response.body, n.scope, 'RESPONSE.BODY'),
  ];
  return [...req.map((d) => toChange(d, 'request')), ...res.map((d) => toChange(d, 'response'))];
}

/** "A accepts B" into older → newer: on the request side A is the newer contract, on the response side the older. */
function toChange(d: Difference, side: Side): Change {
  const olderIsA = side === 'response';
  const change: Change = { side, kind: d.kind, target: d.target, path: d.path, older: olderIsA ? d.a : d.b, newer: olderIsA ? d.b : d.a };
  if (d.name !== undefined) change.name = d.name;
  if (d.kind === 'type' && d.narrower) change.direction = side === 'request' ? 'narrowed' : 'widened';
  return change;
}
