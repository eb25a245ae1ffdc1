import type { ExampleRow } from '../../contract/model';
import type { ParsedBody } from '../../http/body';
import type { FixedExample } from '../answer/example-files';
import { matchRequest, pathFits } from '../../http/match-request';
import { SOAP11_ENVELOPE, SOAP12_ENVELOPE, type HttpRequest } from '../../http/message';
import { type Mismatch, SHOWN_MISMATCHES, WHERE } from '../../pattern/match/mismatch';
import { mayMatch } from './prefilter';
import type { Route, RouteTable } from './route';
import { NOT_SOAP, soapVersionOfBody, type SoapVersion } from '../answer/soap-version';
import { literalKey } from './build-routes';

/** How one scenario saw a request that it did not accept (its first COMPARED_MISMATCHES mismatches or so). */
export interface Attempt {
  route: Route;
  mismatches: Mismatch[];
}

export type Outcome =
  | { kind: 'matched'; route: Route; row?: ExampleRow; fixed?: FixedExample }
  /** No scenario has this path (404), or not with this method (405: `allowed` lists the methods that are served). */
  | { kind: 'unknown-path'; allowed: string[] }
  | { kind: 'no-match'; attempts: Attempt[] };

/**
 * Picks the scenario that answers a request. Only scenarios on the request's
 * method and path are compared (a map lookup for literal paths); the first
 * scenario with an example (example file, then Examples row) for exactly this
 * request wins, else the first scenario that matches and is not a fault scenario
 * (which answers only its examples). Mismatches are kept only
 * to explain a 400; on the happy path nothing else is allocated.
 */
export function dispatch(table: RouteTable, req: HttpRequest, segments: string[], body: ParsedBody): Outcome {
  let method = req.method.toUpperCase();
  // HEAD is GET without the body (RFC 9110) unless a contract says otherwise; Node drops the body.
  if (method === 'HEAD' && !table.literal.has('HEAD') && !table.parameterised.has('HEAD')) method = 'GET';
  const asked = method === req.method ? req : { ...req, method };
  const literal = table.literal.get(method)?.get(literalKey(segments)) ?? NONE;
  const all = candidates(table, method, segments, literal);
  const narrowed = table.bodyIndex.get(literal)?.candidates(body);
  if (narrowed) {
    // Only routes the body may match (route-index.ts); when none of them does, every route is compared for the report.
    const routes = all === literal ? narrowed : [...narrowed, ...all.slice(literal.length)];
    const outcome = pick(routes, asked, body, segments);
    if (outcome.kind === 'matched') return outcome;
  }
  const outcome = pick(all, asked, body, segments);
  if (outcome.kind === 'matched' || outcome.attempts.length > 0) return outcome;
  return { kind: 'unknown-path', allowed: allowedMethods(table, segments) };
}

/** The first route that matches (or a later one with an example for exactly this request); else every route's mismatches. */
function pick(routes: readonly Route[], asked: HttpRequest, body: ParsedBody, segments: string[]): Extract<Outcome, { kind: 'matched' | 'no-match' }> {
  const attempts: Attempt[] = [];
  let skipped: Route[] | undefined;
  let first: Route | undefined;
  let faults: Attempt[] | undefined;
  let version: SoapVersion | typeof NOT_SOAP | undefined;
  for (let i = 0; i < routes.length; i++) {
    const route = routes[i];
    // Once a scenario has matched, only later ones with examples are still of interest (see below).
    if (first && route.fixed.length === 0 && route.rows.length === 0) continue;
    if (route.soap !== undefined && route.soap !== (version ??= soapVersionOfBody(body))) {
      // A SOAP 1.2 client may send a SOAPAction header too (zeep, SOAP::Lite): the envelope says which scenario is meant.
      if (!first && version !== NOT_SOAP) (route.examplesOnly ? (faults ??= []) : attempts).push({ route, mismatches: [otherVersion(route.soap, version)] });
      if (version !== NOT_SOAP) continue;
    }
    if (!mayMatch(route.required, body)) {
      if (!first) (skipped ??= []).push(route);
      continue;
    }
    const m = matchRequest(route.scenario, asked, body, segments, COMPARED_MISMATCHES);
    if (!m.endpoint) continue;
    if (m.mismatches.length === 0) {
      for (const f of route.fixed) {
        if (matchRequest(f.scenario, asked, body, segments, 1).mismatches.length === 0) return { kind: 'matched', route, fixed: f };
      }
      for (const r of route.rows) {
        if (matchRequest(r.scenario, asked, body, segments, 1).mismatches.length === 0) return { kind: 'matched', route, row: r.row };
      }
      if (route.examplesOnly) {
        (faults ??= []).push({ route, mismatches: [NO_FAULT_EXAMPLE] });
        continue;
      }
      // A later scenario (another contract for the same operation) may have an example for exactly this request.
      first ??= route;
      if (!laterExamples(routes, i)) return { kind: 'matched', route: first };
      continue;
    }
    // A fault scenario's request is its operation's: the report shows the operation's scenario only.
    if (!first) (route.examplesOnly ? (faults ??= []) : attempts).push({ route, mismatches: m.mismatches });
  }
  if (first) return { kind: 'matched', route: first };
  // Only now, for the report, are the skipped scenarios compared in full.
  for (const route of skipped ?? []) {
    if (!route.examplesOnly) attempts.push({ route, mismatches: matchRequest(route.scenario, asked, body, segments, COMPARED_MISMATCHES).mismatches });
  }
  // Only fault scenarios took the request: they say why they do not answer it.
  return { kind: 'no-match', attempts: attempts.length === 0 && faults ? faults : attempts };
}

const NONE: readonly Route[] = [];

function otherVersion(expected: SoapVersion, actual: SoapVersion): Mismatch {
  const uri = (v: SoapVersion) => (v === '1.1' ? SOAP11_ENVELOPE : SOAP12_ENVELOPE);
  return { path: `${WHERE.requestBody} Envelope`, expected: `a SOAP ${expected} envelope (${uri(expected)})`, actual: `a SOAP ${actual} envelope (${uri(actual)})` };
}

/** Why a fault scenario did not answer a request it matches (reported only when no other scenario is served there). */
const NO_FAULT_EXAMPLE: Mismatch = {
  path: 'SCENARIO',
  expected: 'a request one of its examples names (a @fault scenario answers only an Examples row or example file of its own)',
  actual: 'a request none of its examples names',
};

/**
 * A 400 shows a scenario's first SHOWN_MISMATCHES mismatches; one more tells that there are
 * more. Comparing a wrong body further only cost time and memory (a 10 MB body: seconds).
 */
export const COMPARED_MISMATCHES = SHOWN_MISMATCHES + 1;

function laterExamples(routes: readonly Route[], i: number): boolean {
  for (let k = i + 1; k < routes.length; k++) if (routes[k].fixed.length > 0 || routes[k].rows.length > 0) return true;
  return false;
}

function candidates(table: RouteTable, method: string, segments: string[], literal: readonly Route[]): readonly Route[] {
  const parameterised = table.parameterised.get(method);
  if (!parameterised) return literal;
  // Literal paths first: `/pets/search` is more specific than `/pets/(id:string)`.
  return [...literal, ...parameterised.filter((r) => pathFits(r.scenario.request.segments, segments))];
}

function allowedMethods(table: RouteTable, segments: string[]): string[] {
  const methods = new Set<string>();
  for (const r of table.routes) if (pathFits(r.scenario.request.segments, segments)) methods.add(r.method);
  return [...methods];
}
