import type { Scenario } from '../contract/model';
import { endpointText } from '../contract/model';
import { formatMismatch, SHOWN_MISMATCHES, type Mismatch, WHERE } from '../pattern/match/mismatch';
import { ParsedBody } from './body';
import { matchRequest, splitPath } from './match-request';
import { matchResponse } from './match-response';
import type { HttpRequest, HttpResponse } from './message';
import { isCredentialName, maskCardNumbers, REDACTED } from './redact';

/**
 * Does a real service's answer keep the contract? The one check behind the stub's pass-through and
 * `accord proxy --check`: the answer fits when some scenario that accepts the request (the one the
 * caller names first, then the others in contract order) also accepts the answer, so a service
 * answering a SOAP Fault its contract describes is not drift. Pure: no I/O, no clock.
 */
export type AnswerCheck =
  /** A scenario accepts both the request and the answer. */
  | { verdict: 'fits'; scenario: Scenario }
  /** The request fits `scenario`, the answer fits no scenario that accepts the request: the mismatches against `scenario`. */
  | { verdict: 'drift'; scenario: Scenario; mismatches: Mismatch[] }
  /** No scenario accepts the request (the client broke the contract, or the contract does not cover it). */
  | { verdict: 'unknown-request'; mismatches: Mismatch[] };

export function checkAnswer(scenarios: readonly Scenario[], req: HttpRequest, res: HttpResponse, bodies: { request?: ParsedBody; response?: ParsedBody } = {}): AnswerCheck {
  const reqBody = bodies.request ?? new ParsedBody(req.body);
  const resBody = bodies.response ?? new ParsedBody(res.body);
  const segments = splitPath(req.path);
  let first: { scenario: Scenario; mismatches: Mismatch[] } | undefined;
  let closest: Mismatch[] | undefined;
  const seen = new Set<Scenario>();
  for (const s of scenarios) {
    if (seen.has(s)) continue;
    seen.add(s);
    const r = matchRequest(s, req, reqBody, segments, SHOWN_MISMATCHES + 1);
    if (!r.endpoint) continue;
    if (r.mismatches.length > 0) {
      if (!closest || r.mismatches.length < closest.length) closest = r.mismatches;
      continue;
    }
    const mismatches = matchResponse(s, res, resBody);
    if (mismatches.length === 0) return { verdict: 'fits', scenario: s };
    first ??= { scenario: s, mismatches: mismatches.slice(0, SHOWN_MISMATCHES) };
  }
  if (first) return { verdict: 'drift', ...first };
  return {
    verdict: 'unknown-request',
    mismatches: (closest ?? [{ path: WHERE.requestPath, expected: 'a scenario for this endpoint', actual: endpointText(req) }]).slice(0, SHOWN_MISMATCHES),
  };
}

/**
 * The one line that reports a check that did not fit: `drift: POST /ws "Get a pet": RESPONSE.BODY …: expected …, found …`
 * (and how many more mismatches). Card numbers a found value quotes are masked; the caller makes it printable.
 */
export function driftLine(check: Exclude<AnswerCheck, { verdict: 'fits' }>, requestLine: string): string {
  const m = check.mismatches[0] && hideMismatch(check.mismatches[0]);
  const more = check.mismatches.length > 1 ? ` (and ${check.mismatches.length - 1} more)` : '';
  const what = check.verdict === 'drift' ? `drift: ${requestLine} "${check.scenario.name}"` : `drift: ${requestLine} fits no scenario`;
  return maskCardNumbers(`${what}: ${m ? formatMismatch(m) : 'does not fit the contract'}${more}`).text;
}

/**
 * A mismatch as a report of real traffic may show it: the found value of a credential-named node (`…/Password`,
 * `@token`) hidden, card numbers masked. Its path and what the contract expected are the contract's.
 */
export function hideMismatch(m: Mismatch): Mismatch {
  const last = m.path.slice(Math.max(m.path.lastIndexOf('/'), m.path.lastIndexOf(' '), m.path.lastIndexOf('.'), m.path.lastIndexOf('@')) + 1);
  return { path: m.path, expected: m.expected, actual: isCredentialName(last) ? REDACTED : maskCardNumbers(m.actual).text };
}
