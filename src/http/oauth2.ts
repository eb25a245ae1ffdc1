import type { Dispatcher } from 'undici';
import { request } from './undici';
import { AccordError } from '../errors';
import { MAX_TOKEN_RESPONSE_BYTES } from '../limits';
import { excerpt } from '../printable';
import { readBoundedBody } from './read-body';
import { redactSecrets, shownUrl } from './redact';

/** OAuth2 client credentials (RFC 6749 4.4): where the token comes from and who asks for it. */
export interface OAuth2Options {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Several scopes separated by spaces. */
  scope?: string;
  /** Asked for by Auth0, Okta and others to name the API the token is for. */
  audience?: string;
  /** `basic` (default): the id and secret in an Authorization header (RFC 6749 2.3.1); `body`: in the form. */
  clientAuth?: 'basic' | 'body';
}

/** A token is renewed this long before it expires (or halfway through its life, when that is shorter). */
export const TOKEN_EXPIRY_SKEW_MS = 30_000;

/**
 * The access token of one client, fetched when first needed and reused until it is about to
 * expire; requests in flight meanwhile wait for the same fetch. A token request that fails is not
 * repeated: every request that needs the token fails with the same one line, which names the token
 * URL and the status, never the client secret.
 */
export class OAuth2Tokens {
  private current?: { token: string; renewAt: number };
  private pending?: Promise<string>;
  private failure?: AccordError;
  /** Token requests sent (for tests and diagnostics). */
  requests = 0;

  constructor(
    private readonly options: OAuth2Options,
    private readonly send: { dispatcher?: Dispatcher; timeoutMs: number },
  ) {}

  async token(now: () => number = Date.now): Promise<string> {
    if (this.failure) throw this.failure;
    if (this.current && now() < this.current.renewAt) return this.current.token;
    this.pending ??= this.fetch(now).finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async fetch(now: () => number): Promise<string> {
    const o = this.options;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (o.scope) form.set('scope', o.scope);
    if (o.audience) form.set('audience', o.audience);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (o.clientAuth === 'body') {
      form.set('client_id', o.clientId);
      form.set('client_secret', o.clientSecret);
    } else {
      // RFC 6749 2.3.1: each part form-encoded before base64.
      headers.authorization = `Basic ${Buffer.from(`${formEncode(o.clientId)}:${formEncode(o.clientSecret)}`).toString('base64')}`;
    }
    // The token URL as a message may show it (no user name or password, no `client_secret=` value), the secret nowhere.
    const fail = (why: string) => new AccordError('ACCORD_ERR_HTTP', redactSecrets(`OAuth2 token request to ${shownUrl(o.tokenUrl)} failed: ${why}`, [o.clientSecret]));
    const started = now();
    this.requests++;
    try {
      const res = await request(o.tokenUrl, {
        method: 'POST',
        headers,
        body: form.toString(),
        signal: AbortSignal.timeout(this.send.timeoutMs),
        headersTimeout: this.send.timeoutMs,
        bodyTimeout: this.send.timeoutMs,
        dispatcher: this.send.dispatcher,
      });
      const body = (await readBoundedBody(res.body, MAX_TOKEN_RESPONSE_BYTES, () => fail(`the answer is larger than ${MAX_TOKEN_RESPONSE_BYTES} bytes`))).toString('utf8');
      const json = parseJson(body);
      if (res.statusCode < 200 || res.statusCode > 299) {
        // `error` is one of RFC 6749's codes (invalid_client, invalid_scope…): safe and useful to show.
        const code = typeof json?.error === 'string' && /^[\x20-\x7e]{1,64}$/.test(json.error) ? ` (${json.error})` : '';
        throw fail(`status ${res.statusCode}${code}`);
      }
      const token = json?.access_token;
      if (typeof token !== 'string' || token === '' || /[\r\n\0]/.test(token))
        throw fail(`status ${res.statusCode} but the answer has no access_token (expected JSON such as {"access_token": "…", "expires_in": 3600})`);
      const life = typeof json!.expires_in === 'number' ? json!.expires_in * 1000 : Number(json!.expires_in) * 1000;
      // No expires_in: the token serves the whole run.
      const renewAt = Number.isFinite(life) && life > 0 ? started + life - Math.min(TOKEN_EXPIRY_SKEW_MS, life / 2) : Infinity;
      this.current = { token, renewAt };
      return token;
    } catch (e) {
      const err = e instanceof AccordError ? e : fail(networkReason(e, this.send.timeoutMs));
      this.failure = err;
      throw err;
    }
  }
}

function formEncode(s: string): string {
  return new URLSearchParams({ s }).toString().slice(2);
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function networkReason(e: unknown, timeoutMs: number): string {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND') return 'host not found';
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return `no answer within ${timeoutMs} ms`;
  return excerpt(code ?? err.message ?? String(e), 200);
}
