import { endpointText, type Contract, type Scenario } from '../contract/model';
import { ParsedBody } from '../http/body';
import { matchRequest, splitPath } from '../http/match-request';
import { matchResponse } from '../http/match-response';
import type { HttpRequest, HttpResponse } from '../http/message';
import { type Mismatch, WHERE } from '../pattern/match/mismatch';
import type { DecodedMessage } from './decode';
import type { Exchange } from './pair';
import { readExchanges, type ImportLogOptions } from './import-log';

/** A logged request as the HTTP request accord's matchers read. */
export function toHttpRequest(m: DecodedMessage, pathOverride?: string): HttpRequest {
  const soap = m.format === 'xml';
  return {
    method: (m.method ?? 'POST').toUpperCase(),
    path: soap && pathOverride ? pathOverride : (m.path ?? (soap ? '/ws' : '/')),
    query: soap && pathOverride ? [] : (m.query ?? []),
    headers: { ...(m.headers ?? {}) },
    body: m.body,
  };
}

export function toHttpResponse(m: DecodedMessage): HttpResponse {
  return { status: m.status ?? (m.fault ? 500 : 200), headers: {}, body: m.body };
}

export interface ExchangeCheck {
  /** The scenario that accepts both the request and the response, if any. */
  scenario?: Scenario;
  /** When none does: the mismatches against the scenario whose endpoint fits best. */
  mismatches: Mismatch[];
  /** When none does: the first scenario that takes the request (its answer being what does not fit). */
  requestFits?: Scenario;
}

/**
 * A logged body as the matchers read it, holding the tree decoding made: parsing every body again
 * repeated the largest part of the work. Decoding read the body trimmed, so a body with blank space around
 * it (where an XML declaration after it would not parse as is) is left to be parsed as it is.
 */
function parsedBody(m: DecodedMessage): ParsedBody {
  if (m.body.trim().length !== m.body.length) return new ParsedBody(m.body);
  return new ParsedBody(m.body, m.format === 'xml' ? { xml: m.xml } : m.format === 'json' ? { json: m.json } : undefined);
}

/**
 * Does some scenario of the contract accept this logged request and its response? The first that does, in
 * contract order; with `first`, that one is tried before the others (for a caller that asks only whether some
 * scenario accepts, a guess at the one that will).
 */
export function checkExchange(contract: Contract, x: Exchange, pathOverride?: string, first?: Scenario): ExchangeCheck {
  const req = toHttpRequest(x.request, pathOverride);
  const res = toHttpResponse(x.response);
  const body = parsedBody(x.request);
  const resBody = parsedBody(x.response);
  const segments = splitPath(req.path);
  if (first) {
    const r = matchRequest(first, req, body, segments);
    if (r.endpoint && r.mismatches.length === 0 && matchResponse(first, res, resBody).length === 0) return { scenario: first, mismatches: [] };
  }
  let best: Mismatch[] | undefined;
  let requestFits: Scenario | undefined;
  for (const s of contract.scenarios) {
    const r = matchRequest(s, req, body, segments);
    if (!r.endpoint) continue;
    if (r.mismatches.length === 0) requestFits ??= s;
    const mismatches = [...r.mismatches, ...(r.mismatches.length === 0 ? matchResponse(s, res, resBody) : [])];
    if (mismatches.length === 0) return { scenario: s, mismatches: [] };
    if (!best || mismatches.length < best.length) best = mismatches;
  }
  return { mismatches: best ?? [{ path: WHERE.requestPath, expected: 'a scenario for this endpoint', actual: endpointText(req) }], requestFits };
}

export interface UnmatchedCall {
  at: { file: string; line: number };
  mismatches: Mismatch[];
  /** The call's SOAP operation (its request's, else its answer's) and the status it was answered with. */
  operation?: string;
  status?: number;
  /** The name of the first scenario that takes the call's request, when one does (its answer being what does not fit). */
  requestScenario?: string;
}

/** Reads the logs again and checks every request/response pair against the contract. */
export async function verifyLogs(contract: Contract, files: string[], options: ImportLogOptions = {}): Promise<UnmatchedCall[]> {
  const bad: UnmatchedCall[] = [];
  // The scenario that last accepted a call of the same method and operation is tried first: on a path that
  // serves many operations (every SOAP operation on POST /ws), matching each call against the scenarios of
  // other operations before its own was most of a check pass. Kept for as many keys as there are scenarios (a
  // guess: a wrong one costs one match more, and a hostile log of ever-new names cannot grow the table).
  const accepted = new Map<string, Scenario>();
  await readExchanges(
    files,
    (x) => {
      const key = `${x.request.method ?? ''} ${x.request.operation ?? ''}`;
      const r = checkExchange(contract, x, options.path, accepted.get(key));
      if (!r.scenario)
        bad.push({
          at: x.request.at,
          mismatches: r.mismatches,
          operation: x.request.operation ?? x.response.operation,
          status: x.response.status ?? (x.response.fault ? 500 : 200),
          ...(r.requestFits ? { requestScenario: r.requestFits.name } : {}),
        });
      else if (accepted.has(key) || accepted.size < contract.scenarios.length) accepted.set(key, r.scenario);
    },
    options,
  );
  return bad;
}
