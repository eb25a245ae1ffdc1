import type { Contract, Scenario } from '../contract/model';
import { checkAnswer, driftLine, hideMismatch } from '../http/drift';
import type { HttpRequest } from '../http/message';
import { messageText } from '../http/message-text';
import { bodySecrets, isSecretHeader, REDACTED, redactBody, redactQuery, redactSecrets, requestSecrets } from '../http/redact';
import { PROXY_LIMITS } from '../limits';
import { type Mismatch, WHERE } from '../pattern/match/mismatch';
import { printable } from '../printable';
import type { ProxiedExchange } from './proxy';

/**
 * `accord proxy --check`: every exchange the proxy passed on is checked against the contracts
 * (http/drift.ts, the check the stub's pass-through makes), after its answer has gone, on the copy
 * the proxy recorded, one exchange per turn of the event loop: traffic is never held or changed.
 * An exchange that breaks the contract is a finding, told at once in one printable line and kept
 * (at most PROXY_LIMITS.findings) with the exchange attached, redacted as a recording is and more:
 * credential headers, query values and body nodes hidden, card numbers masked.
 */
export interface DriftFinding {
  /** The exchange's number, from 1, in the order their answers ended. */
  exchange: number;
  /** When the request arrived (ISO 8601). */
  time: string;
  /** `drift`: the answer breaks the scenario the request fits; `unknown-request`: no scenario accepts the request. */
  kind: 'drift' | 'unknown-request';
  scenario?: { name: string; file: string; line: number };
  /** The line told as it happened. */
  line: string;
  /** At most 50. */
  mismatches: Mismatch[];
  request: { method: string; path: string; headers: Record<string, string>; body: string; bodyCut?: true };
  response: { status: number; headers: Record<string, string>; body: string; bodyCut?: true };
}

export interface DriftSummary {
  /** Exchanges the proxy passed on. */
  exchanges: number;
  /** Of them, checked and found to keep the contract. */
  fitted: number;
  /** Checked and found to break it (findings kept, and any past the limit). */
  broken: number;
  /** Not checked: a body recorded cut (over PROXY_LIMITS.recordedBodyBytes), or more waiting than PROXY_LIMITS.pendingChecks. */
  unchecked: number;
  findings: DriftFinding[];
}

export class DriftWatch {
  private readonly scenarios: Scenario[];
  private readonly queue: { x: ProxiedExchange; n: number }[] = [];
  private scheduled = false;
  private readonly summary: DriftSummary = { exchanges: 0, fitted: 0, broken: 0, unchecked: 0, findings: [] };

  constructor(
    contracts: readonly Contract[],
    private readonly tell: (line: string) => void,
  ) {
    this.scenarios = contracts.flatMap((c) => c.scenarios.filter((s) => !s.unsupported));
  }

  /** Takes an exchange (the proxy's onExchange); checks it later. */
  readonly add = (x: ProxiedExchange): void => {
    const n = ++this.summary.exchanges;
    if (!x.request.complete || !x.response.complete || this.queue.length >= PROXY_LIMITS.pendingChecks) {
      this.summary.unchecked++;
      return;
    }
    this.queue.push({ x, n });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.next);
    }
  };

  /** Checks what is still waiting, and returns the summary. */
  finish(): DriftSummary {
    while (this.queue.length > 0) this.checkOne();
    return this.summary;
  }

  private readonly next = (): void => {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    this.checkOne();
    if (this.queue.length > 0) {
      this.scheduled = true;
      setImmediate(this.next);
    }
  };

  private checkOne(): void {
    const { x, n } = this.queue.shift()!;
    try {
      this.check(x, n);
    } catch (e) {
      // A bug in accord must not end the proxy, which serves traffic: the exchange is counted as not checked.
      this.summary.unchecked++;
      this.tell(`accord proxy: could not check exchange ${n} (${x.method} ${redactQuery(x.path)}): ${(e as Error).message}`);
    }
  }

  private check(x: ProxiedExchange, n: number): void {
    const max = PROXY_LIMITS.recordedBodyBytes;
    const reqText = messageText(x.request.bytes, header(x.request.headers['content-type']), header(x.request.headers['content-encoding']), max);
    const resText = messageText(x.response.bytes, header(x.response.headers['content-type']), header(x.response.headers['content-encoding']), max);
    const q = x.path.indexOf('?');
    const request: HttpRequest = {
      method: x.method.toUpperCase(),
      path: q < 0 ? x.path : x.path.slice(0, q),
      query: q < 0 ? [] : [...new URLSearchParams(x.path.slice(q + 1))],
      headers: flat(x.request.headers),
      body: 'problem' in reqText ? '' : reqText.text,
    };
    const responseHeaders = flat(x.response.headers);
    const check =
      'problem' in resText
        ? ({ verdict: 'unreadable', mismatches: [{ path: WHERE.responseBody, expected: 'a body accord can read', actual: resText.problem }] } as const)
        : checkAnswer(this.scenarios, request, { status: x.response.status, headers: responseHeaders, body: resText.text });
    if (check.verdict === 'fits') {
      this.summary.fitted++;
      return;
    }
    this.summary.broken++;
    // The request's credentials (headers, cookies, query values, credential-named body nodes) hidden by value
    // in all that is shown of the finding, in whatever encoding the service echoed them (http/redact.ts).
    const secrets = [...requestSecrets(request.headers, request.query), ...bodySecrets(request.body)];
    const shown = (text: string) => redactSecrets(text, secrets);
    const requestLine = `${request.method} ${redactQuery(x.path)}`;
    const line = printable(
      shown(
        check.verdict === 'unreadable'
          ? `drift: ${requestLine}: ${check.mismatches[0].path}: expected a body accord can read, found ${check.mismatches[0].actual}`
          : driftLine(check, requestLine),
      ),
      { multiline: false },
    );
    this.tell(line);
    if (this.summary.findings.length >= PROXY_LIMITS.findings) return;
    const scenario = check.verdict === 'drift' ? check.scenario : undefined;
    this.summary.findings.push({
      exchange: n,
      time: new Date(x.started).toISOString(),
      kind: check.verdict === 'unknown-request' ? 'unknown-request' : 'drift',
      scenario: scenario && { name: scenario.name, file: scenario.file, line: scenario.line },
      line,
      mismatches: check.mismatches.map((m) => {
        const h = hideMismatch(m);
        return { ...h, actual: shown(h.actual) };
      }),
      request: { method: request.method, path: shown(redactQuery(x.path)), headers: hidden(request.headers, shown), ...kept('problem' in reqText ? '' : reqText.text, shown) },
      response: { status: x.response.status, headers: hidden(responseHeaders, shown), ...kept('problem' in resText ? '' : resText.text, shown) },
    });
  }
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}

function flat(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function hidden(h: Record<string, string>, shown: (text: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k] = isSecretHeader(k) ? REDACTED : shown(v);
  return out;
}

/** A body as a finding keeps it: redacted, then cut at PROXY_LIMITS.findingBodyChars. */
function kept(text: string, shown: (text: string) => string): { body: string; bodyCut?: true } {
  const body = shown(redactBody(text));
  return body.length > PROXY_LIMITS.findingBodyChars ? { body: body.slice(0, PROXY_LIMITS.findingBodyChars), bodyCut: true } : { body };
}
