import type { Dispatcher } from 'undici';
import { createDispatcher } from '../http/client';
import { OAuth2Tokens } from '../http/oauth2';
import type { RunnerConfig } from './config';
import { redaction, type Redaction } from './redact';

/**
 * What every request of a run shares: the connections (client certificate, CA, proxy), the
 * headers the configuration adds (credentials, API keys, tenant ids), the OAuth2 token cache, and
 * what reports hide. One per worker and configuration, so a token serves every test file of the worker.
 */
export class Session {
  readonly dispatcher: Dispatcher;
  readonly redaction: Redaction;
  private readonly oauth2?: OAuth2Tokens;
  private readonly tokens = new Set<string>();

  constructor(
    private readonly cfg: RunnerConfig,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.dispatcher = createDispatcher(cfg.tls, env);
    if (cfg.auth?.type === 'oauth2') this.oauth2 = new OAuth2Tokens(cfg.auth, { dispatcher: this.dispatcher, timeoutMs: cfg.timeoutMs });
    const secrets = cfg.secrets ?? [];
    this.redaction = redaction(cfg.secretHeaders, () => (this.tokens.size === 0 ? secrets : [...secrets, ...this.tokens]));
  }

  /** The headers added to each request; fetches (or reuses) the OAuth2 token. */
  headers = async (): Promise<Record<string, string>> => {
    const out: Record<string, string> = { ...this.cfg.headers };
    const auth = this.cfg.auth;
    if (auth?.type === 'basic') out.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
    else if (auth?.type === 'bearer') out.authorization = `Bearer ${auth.token}`;
    else if (this.oauth2) {
      const token = await this.oauth2.token();
      this.tokens.add(token);
      out.authorization = `Bearer ${token}`;
    }
    return out;
  };

  /** Closed by a runtime that does not serve a whole worker, when its file is done. */
  closed = false;

  close(): Promise<void> {
    this.closed = true;
    return this.dispatcher.close();
  }
}

/** Which configurations may share a session: the same credentials, certificates and proxy settings. */
export function sessionKey(cfg: RunnerConfig, env: NodeJS.ProcessEnv = process.env): string {
  const proxy = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY'].map((v) => env[v] ?? '');
  return JSON.stringify([cfg.auth, cfg.headers, cfg.tls, cfg.timeoutMs, proxy], (_k, v: unknown) =>
    v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer' ? Buffer.from((v as { data: number[] }).data).toString('base64') : v,
  );
}
