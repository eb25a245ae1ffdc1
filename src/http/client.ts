import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';
import { Agent, EnvHttpProxyAgent, request } from './undici';
import { AccordError } from '../errors';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT_MS } from '../limits';
import { baseTarget, targetUrl, type ForwardTarget } from './forward';
import { messageText } from './message-text';
import { isBinary, quoted } from '../printable';
import { pathWithQuery, type HttpRequest, type HttpResponse } from './message';
import { readBoundedBody } from './read-body';

export interface SendOptions {
  timeoutMs?: number;
  /** Largest response body read; more is a failure, not a hang or a memory spike. */
  maxBodyBytes?: number;
  dispatcher?: Dispatcher;
}

/** A client certificate (PEM `cert` + `key`, or PKCS#12 `pfx`, with its `passphrase`) and an extra CA bundle, as read from their files. */
export interface TlsFiles {
  cert?: string;
  key?: string;
  pfx?: Buffer;
  passphrase?: string;
  /** Trusted besides Node's own roots (a company CA, a test environment's self-signed one). */
  ca?: string;
}

const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];

/**
 * The connections accord sends through: kept alive and shared by the requests of a worker, with
 * the client certificate and CA bundle given, and through the proxy that HTTPS_PROXY/HTTP_PROXY
 * name, except for the hosts NO_PROXY lists (undici's EnvHttpProxyAgent reads them, in either case).
 */
export function createDispatcher(tls: TlsFiles = {}, env: NodeJS.ProcessEnv = process.env): Dispatcher {
  const connect = {
    ...(tls.cert !== undefined && { cert: tls.cert, key: tls.key }),
    ...(tls.pfx !== undefined && { pfx: tls.pfx }),
    ...(tls.passphrase !== undefined && { passphrase: tls.passphrase }),
    ...(tls.ca !== undefined && { ca: [...rootCertificates, tls.ca] }),
  };
  const options = { keepAliveTimeout: 2_000, connections: 16, connect };
  if (!PROXY_VARIABLES.some((v) => env[v])) return new Agent(options);
  // Through a proxy the service's TLS is `requestTls`; the proxy's own (an https:// proxy) trusts the same CA.
  const read = (name: string) => env[name.toLowerCase()] || env[name] || undefined;
  return new EnvHttpProxyAgent({
    ...options,
    httpProxy: read('HTTP_PROXY'),
    httpsProxy: read('HTTPS_PROXY'),
    noProxy: read('NO_PROXY') ?? '',
    requestTls: connect,
    ...(tls.ca !== undefined && { proxyTls: { ca: connect.ca } }),
  });
}

/**
 * Where a request goes: its path under the base URL's own path, so a service behind
 * http://host/prefix gets /prefix/ws for the contract's /ws. A path is only ever a path there
 * (forward.ts's one join): one that would name another host (`//host:port/x` resolved as a
 * reference) or climb above the base URL's path is refused, so credentials go only to the base URL.
 */
export function requestUrl(baseUrl: string, req: Pick<HttpRequest, 'path' | 'query'>): URL {
  let base: ForwardTarget;
  try {
    base = baseTarget(baseUrl);
  } catch {
    throw new AccordError(
      'ACCORD_ERR_USAGE',
      `base URL "${baseUrl}" is not a valid URL (${givenBy('--base-url') ? 'give --base-url' : 'set ACCORD_BASE_URL to'} one such as http://127.0.0.1:8080)`,
    );
  }
  const at = targetUrl(base, pathWithQuery(req));
  if ('refused' in at)
    throw new AccordError('ACCORD_ERR_USAGE', `request path ${quoted(req.path, 200)} refused: ${at.refused}; a request goes only to ${base.origin}${base.prefix}`);
  return new URL(at.url);
}

/** Sends one request; every way it can fail comes back as an AccordError with a plain sentence. */
export async function send(baseUrl: string, req: HttpRequest, options: SendOptions = {}): Promise<HttpResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const url = requestUrl(baseUrl, req);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await request(url, {
      method: req.method as 'GET',
      headers: req.headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : (req.rawBody ?? req.body),
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      dispatcher: options.dispatcher,
    });
    const received = await readBoundedBody(res.body, maxBody, () => new AccordError('ACCORD_ERR_HTTP', `response body is larger than ${maxBody} bytes`));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    const read = messageText(received, headers['content-type'], headers['content-encoding'], maxBody);
    if ('problem' in read) throw new AccordError('ACCORD_ERR_HTTP', `response: ${read.problem}`);
    if (read.xop) headers['content-type'] = read.contentType!;
    const response: HttpResponse = { status: res.statusCode, headers, body: read.text };
    if (!read.xop && isBinary(read.bytes)) response.binary = read.bytes;
    return response;
  } catch (e) {
    if (e instanceof AccordError) throw e;
    throw new AccordError('ACCORD_ERR_HTTP', describeNetworkError(e, url.origin, timeoutMs), {}, { cause: e });
  }
}

/**
 * Whether the user gave the setting as this option of `accord test` (which passes it on as an
 * ACCORD_* variable and says so in ACCORD_GIVEN_AS): the hint then names the option they typed,
 * not a variable they never set.
 */
function givenBy(option: string): boolean {
  return (process.env.ACCORD_GIVEN_AS ?? '').split(',').includes(option);
}

function describeNetworkError(e: unknown, origin: string, timeoutMs: number): string {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  if (code === 'ECONNREFUSED')
    return `connection refused by ${origin}: is the service running? (${givenBy('--base-url') ? 'is --base-url its address?' : 'set ACCORD_BASE_URL to its address'})`;
  if (code === 'ENOTFOUND') return `host of ${origin} not found`;
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return `no answer from ${origin} within ${timeoutMs} ms (${givenBy('--timeout') ? 'give a longer --timeout' : 'set ACCORD_TIMEOUT_MS'} to wait longer)`;
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `connection to ${origin} closed before a complete answer`;
  return `request to ${origin} failed: ${code ?? err.message ?? String(e)}`;
}
