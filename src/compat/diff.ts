import { WHERE } from '../pattern/match/mismatch';
import { apiText, endpointText, isFaultScenario, type Contract, type Scenario } from '../contract/model';
import type { CompareOptions, Difference } from '../pattern/compare/index';
import { compareBodies, compareFields, compareHeaders, comparePath, compareQuery, requestsOverlap, samePathShape } from '../http/compare-http';
import type { Change, CompatNote, ContractDiff, OverlapDiff, ScenarioDiff, Side } from './model';
import { bodyElementKey, keysMeet, requestKey } from './request-key';

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
  addOverlaps(older, served, scenarios);
  return { older, newer, scenarios, skipped, notes };
}

/**
 * The overlap rule: every answer the newer contract allows to a request the older contract takes
 * must be one the older contract allowed to that request, across every pair of scenarios whose
 * requests overlap, not only the pair an older scenario is held to. A newer scenario is fine when
 * one older scenario takes every request it takes and allows every answer it gives (the quick
 * case: unchanged, renamed, reordered). Otherwise, for each older scenario whose requests overlap
 * its own, some older scenario that takes the requests of that one (itself, or one taking all its
 * requests) must allow its every answer, with its status. Faults stay out on both sides (a fault
 * answers only the requests its examples name; an added one is a note), and so does a newer
 * scenario answering a SOAP Fault without the tag (a SOAP client takes any Fault it is sent), as do
 * @WIP scenarios of the older version, and @WIP scenarios of the newer one that no older scenario's
 * name promised.
 * Work is bounded by the method, path shape, SOAPAction and body element of each request.
 */
function addOverlaps(older: Contract, served: readonly Scenario[], diffs: ScenarioDiff[]): void {
  const pool = older.scenarios.filter((o) => !o.wip && !o.unsupported && !isFaultScenario(o));
  if (pool.length === 0) return;
  const names = new Set(pool.map((o) => o.name));
  const byOlder = new Map(diffs.map((d) => [d.older, d]));
  const keys = new Map(pool.map((o) => [o, requestKey(o)]));
  const memo = new Map<Scenario, Map<Scenario, boolean>>();
  // Does the older scenario `o` take every request `x` takes (x older or newer)? Memoised: asked again for each overlap.
  const takesAll = (o: Scenario, x: Scenario): boolean => {
    let m = memo.get(o);
    if (!m) memo.set(o, (m = new Map()));
    let v = m.get(x);
    if (v === undefined) m.set(x, (v = requestCovered(o, x)));
    return v;
  };
  for (const n of served) {
    if (isFaultScenario(n) || (n.wip && !names.has(n.name)) || answersFault(n)) continue;
    const nKey = requestKey(n);
    const near = pool.filter((o) => o.request.method === n.request.method && samePathShape(o.request.segments, n.request.segments) && keysMeet(keys.get(o)!, nKey));
    if (near.length === 0) continue;
    const allows = (o: Scenario): boolean => o.response.status === n.response.status && responseChanges(o, n, { stopAtFirst: true }).length === 0;
    // The same-named scenario first: it is the likely cover.
    const ordered = [...near.filter((o) => o.name === n.name), ...near.filter((o) => o.name !== n.name)];
    if (ordered.some((o) => allows(o) && takesAll(o, n))) continue;
    const failing = ordered.filter((o) => requestsOverlap(o.request, o.scope, n.request, n.scope) && !(allows(o) || near.some((c) => c !== o && allows(c) && takesAll(c, o))));
    if (failing.length === 0) continue;
    const o = failing[0];
    const d = byOlder.get(o);
    if (!d) continue;
    // Already reported against this very pair by the older scenario's own diff (its changes, or its status gone: status-changed).
    if ((d.newer === n && d.changes.length > 0) || (d.newer === undefined && d.candidates.includes(n))) continue;
    const changes = o.response.status === n.response.status ? responseChanges(o, n) : [];
    const overlap: OverlapDiff = { older: o, api: d.api, candidates: [n], newer: n, changes, overlap: { alsoOlder: failing.slice(1).map((x) => x.name) } };
    (d.overlaps ??= []).push(overlap);
  }
}

/** A scenario whose answer is a SOAP Fault, tagged @fault or not: a SOAP client takes any Fault it is sent (the fault-added note's reasoning). */
function answersFault(s: Scenario): boolean {
  return bodyElementKey(s.response.body, s.scope) === 'Envelope/Body/Fault';
}

/** Does the older scenario `o` take every request `x` takes? */
function requestCovered(o: Scenario, x: Scenario): boolean {
  const opts: CompareOptions = { stopAtFirst: true };
  const r = o.request;
  const q = x.request;
  return (
    comparePath(r.segments, o.scope, q.segments, x.scope, WHERE.requestPath, opts).length === 0 &&
    compareQuery(r.query, o.scope, q.query, x.scope, WHERE.requestQuery, opts).length === 0 &&
    compareHeaders(r.headers, o.scope, q.headers, x.scope, WHERE.requestHeader, opts).length === 0 &&
    compareFields(r.formFields, o.scope, q.formFields, x.scope, WHERE.requestFormField, 'form field', opts).length === 0 &&
    compareFields(r.parts, o.scope, q.parts, x.scope, WHERE.requestPart, 'part', opts).length === 0 &&
    compareBodies(r.body, o.scope, q.body, x.scope, WHERE.requestBody, opts).length === 0
  );
}

/** The response side of `scenarioChanges`: the older answer accepts every newer answer. */
function responseChanges(o: Scenario, n: Scenario, opts: CompareOptions = {}): Change[] {
  const out = compareHeaders(o.response.headers, o.scope, n.response.headers, n.scope, WHERE.responseHeader, opts).map((d) => toChange(d, 'response'));
  if (opts.stopAtFirst && out.length > 0) return out;
  for (const d of compareBodies(o.response.body, o.scope, n.response.body, n.scope, WHERE.responseBody, opts)) out.push(toChange(d, 'response'));
  return out;
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
