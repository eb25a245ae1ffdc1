import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { Agent, request } from '../http/undici';
import type { Scenario } from '../contract/model';
import { checkAnswer, driftLine, hideMismatch, type AnswerCheck } from '../http/drift';
import { forwardedHeaders, parseTarget, targetUrl, type ForwardTarget } from '../http/forward';
import type { HttpRequest } from '../http/message';
import { messageText } from '../http/message-text';
import { readBodyUpTo } from '../http/read-body';
import { isCredentialName, isSecretHeader, REDACTED, redactQuery, redactSecrets, requestSecrets } from '../http/redact';
import { STUB_LIMITS } from '../limits';
import { WHERE, type Mismatch } from '../pattern/match/mismatch';
import { printable } from '../printable';
import { refOf } from './admin/expectations';
import type { Journal } from './admin/journal';

/**
 * The stub's pass-through (`accord stub --passthrough URL`): a request that fits a scenario but that
 * no expectation or example answers is sent to the real service instead of being answered with a
 * generated message. The service's answer goes back to the client as it came (status, headers,
 * bytes) and is checked against the contract (http/drift.ts); an answer that does not fit is
 * drift, reported in the journal and in the log, one line.
 *
 * Bounded like the stub: the answer is read up to the stub's body limit (past it: 502), the whole
 * call up to `timeoutMs` (past it: 504), a service that cannot be reached is a 502 that names it;
 * each in one line and a journal entry. Only the configured service is called (http/forward.ts:
 * origin-form paths under its prefix, never the Host header); hop-by-hop headers stay here. The
 * journal keeps the request with its credential headers and query values hidden, since they were
 * real ones sent to a real service.
 */
export interface PassThroughSettings {
  /** The real service: `http://host:port`, with a path prefix if it has one. */
  target: string;
  /** How long one call to it may take, headers and body (default STUB_LIMITS.passThroughMs). */
  timeoutMs?: number;
}

/** The raw request as it came (the stub matches its decoded text): what is sent on. */
export interface RawRequest {
  bytes: Buffer | undefined;
  contentType: string | undefined;
}

export class PassThrough {
  private readonly to: ForwardTarget;
  private readonly timeoutMs: number;
  private readonly agent = new Agent({ connections: 64 });

  constructor(
    settings: PassThroughSettings,
    private readonly maxBodyBytes: number,
  ) {
    this.to = parseTarget(settings.target, 'passThrough');
    this.timeoutMs = settings.timeoutMs ?? STUB_LIMITS.passThroughMs;
  }

  get target(): string {
    return `${this.to.origin}${this.to.prefix}`;
  }

  /**
   * Answers `res` with the service's answer and journals it; never rejects (every failure is an answer). `scenario`
   * is the one the request fits, checked first; `others` the rest that are served.
   */
  async forward(
    req: IncomingMessage,
    res: ServerResponse,
    raw: RawRequest,
    asked: HttpRequest,
    scenario: Scenario,
    others: readonly Scenario[],
    journal: Journal,
    log: (line: string) => void,
  ): Promise<void> {
    // What is shown of the exchange (the log line, the journal's report and drift) has the request's credentials
    // hidden by value, in every encoding the service may have echoed them in (http/redact.ts).
    const secrets = requestSecrets(req.headers, asked.query);
    const shown = (text: string) => redactSecrets(text, secrets);
    const line = shown(`${asked.method} ${redactQuery(req.url ?? '/')}`);
    const record = (status: number | undefined, extra: { report?: string; drift?: Mismatch[]; scenario?: Scenario }) =>
      journal.record(hidden(asked), {
        status,
        answeredBy: 'pass-through',
        scenario: refOf(extra.scenario ?? scenario),
        report: extra.report,
        drift: extra.drift?.map((m) => ({ ...m, actual: shown(m.actual) })),
      });
    const fail = (status: number, why: string) => {
      const report = printable(`accord stub: pass-through: ${why}`, { multiline: false });
      log(`${line} -> ${status} ${report}`);
      record(status, { report });
      if (!res.headersSent) {
        const body = `${report}\n`;
        res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
        res.end(body);
      } else res.destroy();
    };
    const at = targetUrl(this.to, req.url ?? '/');
    if ('refused' in at) return fail(400, at.refused);
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, this.timeoutMs);
    // A client that goes away ends the call to the service too.
    const gone = () => abort.abort();
    res.once('close', gone);
    let answer: Dispatcher.ResponseData;
    let bytes: Buffer;
    try {
      const headers = forwardedHeaders(req.headers);
      if (raw.contentType !== undefined) headers['content-type'] = raw.contentType;
      answer = await request(at.url, {
        method: asked.method as Dispatcher.HttpMethod,
        headers,
        body: raw.bytes && raw.bytes.length > 0 ? raw.bytes : undefined,
        signal: abort.signal,
        dispatcher: this.agent,
      });
      const read = await readAtMost(answer.body, this.maxBodyBytes, Number(answer.headers['content-length'] ?? NaN));
      if (read === undefined) return fail(502, `the answer of ${this.target} is larger than ${this.maxBodyBytes} bytes (the stub's body limit; raise it with --max-body-bytes)`);
      bytes = read;
    } catch (e) {
      if (res.destroyed && !timedOut) return record(undefined, { report: 'accord stub: pass-through: the client went away' });
      if (timedOut) return fail(504, `${this.target} did not answer within ${this.timeoutMs} ms`);
      return fail(502, `could not reach ${this.target}: ${reason(e)}`);
    } finally {
      clearTimeout(timer);
      res.off('close', gone);
    }
    const out = forwardedHeaders(answer.headers);
    out['content-length'] = String(bytes.length);
    res.writeHead(answer.statusCode, out);
    res.end(bytes);
    // Checked once the answer is on its way: the client does not wait for the check.
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
    const text = messageText(bytes, flat['content-type'], flat['content-encoding'], this.maxBodyBytes);
    const check: AnswerCheck =
      'problem' in text
        ? { verdict: 'drift', scenario, mismatches: [{ path: WHERE.responseBody, expected: 'a body accord can read', actual: text.problem }] }
        : checkAnswer([scenario, ...others], asked, { status: answer.statusCode, headers: flat, body: text.text });
    if (check.verdict === 'fits') return record(answer.statusCode, { scenario: check.scenario });
    const report = printable(shown(driftLine(check, line)), { multiline: false });
    log(report);
    record(answer.statusCode, { report, drift: check.mismatches.map(hideMismatch) });
  }

  close(): Promise<void> {
    return this.agent.destroy().catch(() => undefined);
  }
}

/** The request as the journal keeps it: credential headers and query values hidden (they were sent to a real service). */
function hidden(r: HttpRequest): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) headers[k] = isSecretHeader(k) ? REDACTED : v;
  return { ...r, headers, query: r.query.map(([k, v]) => [k, isSecretHeader(k) || isCredentialName(k) ? REDACTED : v]) };
}

/** The whole body, or undefined once it passes `max` bytes (the rest is not read). */
async function readAtMost(body: Dispatcher.ResponseData['body'], max: number, declared: number): Promise<Buffer | undefined> {
  if (declared > max) {
    body.destroy();
    return undefined;
  }
  const read = await readBodyUpTo(body, max, 'destroy');
  return read.complete ? read.bytes : undefined;
}

/** Why a call failed, in the words of the system (`connect ECONNREFUSED 127.0.0.1:9`), not a stack. */
function reason(e: unknown): string {
  const err = e as { message?: string; code?: string; cause?: { message?: string; code?: string } };
  const inner = err.cause?.message ?? err.message ?? String(e);
  return inner.split('\n')[0];
}
