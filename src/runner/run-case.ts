import { scenarioHeading, type TestCase } from '../contract/model';
import { AccordError } from '../errors';
import { buildRequest } from '../http/build-request';
import { requestUrl, send, type SendOptions } from '../http/client';
import { matchResponse } from '../http/match-response';
import type { HttpRequest, HttpResponse } from '../http/message';
import { formatMismatches, type Mismatch } from '../pattern/match/mismatch';
import { printable, printableBody } from '../printable';
import { shownUrl } from '../http/redact';
import { DEFAULT_REDACTION, headerLines, type Redaction } from './redact';
import { fromRowCell, matchRowResponse, STUB_VALUES_HINT } from './row-values';
import { prepareOutgoing } from './soap-extras';
import { shownPath } from './error-display';
import type { WsRunnerConfig } from './ws-config';

export interface RunOptions extends SendOptions {
  baseUrl: string;
  seed?: number;
  /** Headers added to the request over the contract's (credentials, API keys); may fetch a token. */
  addHeaders?: () => Promise<Record<string, string>>;
  /** WS-Security and the other SOAP settings (ws-config.ts). */
  ws?: WsRunnerConfig;
  /** Send this request instead of a generated one (a consumer's example, replayed as recorded); given the generated one to fill gaps from. */
  replay?: (built: HttpRequest) => HttpRequest;
}

export interface CaseResult {
  testCase: TestCase;
  passed: boolean;
  request?: HttpRequest;
  /** The request line's target as sent: the base URL's path prefix, the contract's path, the query. */
  target?: string;
  response?: HttpResponse;
  mismatches: Mismatch[];
  /** Could not get an answer at all (refused, timed out, bad contract data). */
  error?: string;
}

/** Builds the request, sends it, matches the answer. Never throws for a user's mistake. */
export async function runCase(tc: TestCase, options: RunOptions): Promise<CaseResult> {
  let request: HttpRequest | undefined;
  let target: string | undefined;
  try {
    const generated = buildRequest(tc, options.seed ?? 0);
    const built = options.replay ? options.replay(generated) : generated;
    request = options.addHeaders ? { ...built, headers: { ...built.headers, ...(await options.addHeaders()) } } : built;
    const url = requestUrl(options.baseUrl, request);
    target = url.pathname + url.search;
    const out = prepareOutgoing(tc, request, options.ws, { url: url.href });
    request = out.shown;
    const response = await send(options.baseUrl, out.request, options);
    // An Examples row's response cells, and those that echo the request, are what the answer must hold there (row-values.ts).
    const mismatches = tc.row ? matchRowResponse(tc, out.request, response) : matchResponse(tc.scenario, response);
    if (out.check) mismatches.push(...out.check(response));
    return { testCase: tc, passed: mismatches.length === 0, request, target, response, mismatches };
  } catch (e) {
    if (!(e instanceof AccordError)) throw e;
    return { testCase: tc, passed: false, request, target, mismatches: [], error: e.describe() };
  }
}

const MAX_SHOWN_BODY = 2000;

/**
 * The failure text a user reads: where, what differed, and what went over the wire; printable, since
 * most of it is the service's bytes, and with credentials hidden (redact.ts).
 */
export function formatCaseReport(r: CaseResult, baseUrl: string, redaction: Redaction = DEFAULT_REDACTION): string {
  const s = r.testCase.scenario;
  // The contract named from the project folder, not as an absolute path of the build machine; a base URL with a user
  // name or a credential-named query value is shown without them.
  const lines: string[] = scenarioHeading({ ...s, file: shownPath(s.file) }, { name: r.testCase.name, line: r.testCase.row?.line, at: shownUrl(baseUrl) });
  if (r.error) lines.push(`  ${r.error}`);
  lines.push(...formatMismatches(r.mismatches));
  if (fromRowCell(r.mismatches)) lines.push(`  ${STUB_VALUES_HINT}`);
  if (r.request && r.target) {
    lines.push('', 'Request sent:', `  ${r.request.method} ${r.target}`);
    lines.push(...headerLines(r.request.headers, redaction));
    if (r.request.body) lines.push(indent(printableBody(r.request.body, undefined, MAX_SHOWN_BODY)));
  }
  if (r.response) {
    lines.push('', 'Response received:', `  ${r.response.status}`);
    const ct = r.response.headers['content-type'];
    if (ct) lines.push(`  content-type: ${ct}`);
    if (r.response.body) lines.push(indent(printableBody(r.response.body, r.response.binary, MAX_SHOWN_BODY)));
  }
  const hint = doubledPathHint(r, shownUrl(baseUrl));
  if (hint) lines.push('', hint);
  return printable(redaction.text(lines.join('\n')));
}

/**
 * `ACCORD_BASE_URL=http://host/ws` with a contract `POST /ws`: accord appends the contract's path to
 * the base URL's, so the request went to /ws/ws and the service said 404 (or 405). Said when the
 * service did not find the path and the contract's path starts with the base URL's own path.
 */
export function doubledPathHint(r: CaseResult, baseUrl: string): string | undefined {
  if (!r.response || !r.request || (r.response.status !== 404 && r.response.status !== 405)) return undefined;
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    return undefined;
  }
  // The longest run of the base URL's last segments that the contract's path starts with: /gateway/ws + /ws/getPet.
  const baseSegments = base.pathname.split('/').filter((x) => x !== '');
  const ownSegments = r.request.path.split('/').filter((x) => x !== '');
  for (let n = Math.min(baseSegments.length, ownSegments.length); n > 0; n--) {
    const tail = baseSegments.slice(baseSegments.length - n);
    if (tail.every((x, i) => x === ownSegments[i])) {
      const repeated = `/${tail.join('/')}`;
      const kept = baseSegments.slice(0, baseSegments.length - n);
      const fixed = kept.length === 0 ? base.origin : `${base.origin}/${kept.join('/')}`;
      return `Hint: the base URL ${baseUrl} already ends with ${repeated}, and the contract's path ${r.request.path} starts with it: accord appends the contract's path to the base URL's, so the request went to ${r.target ?? r.request.path}. Set the base URL to ${fixed}.`;
    }
  }
  return undefined;
}

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
