import { connect as tlsConnect, rootCertificates, type ConnectionOptions } from 'node:tls';
import { isIP } from 'node:net';
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
  if (!PROXY_VARIABLES.some((v) => env[v])) return remember(new Agent(options), connect);
  // Through a proxy the service's TLS is `requestTls`; the proxy's own (an https:// proxy) trusts the same CA.
  const read = (name: string) => env[name.toLowerCase()] || env[name] || undefined;
  return remember(
    new EnvHttpProxyAgent({
      ...options,
      httpProxy: read('HTTP_PROXY'),
      httpsProxy: read('HTTPS_PROXY'),
      noProxy: read('NO_PROXY') ?? '',
      requestTls: connect,
      ...(tls.ca !== undefined && { proxyTls: { ca: connect.ca } }),
    }),
    connect,
    true,
  );
}

/** The TLS options each dispatcher connects with, so a connection the server closed can be tried again to learn why. */
const tlsOptions = new WeakMap<Dispatcher, { connect: ConnectionOptions; proxied: boolean }>();

function remember(dispatcher: Dispatcher, connect: ConnectionOptions, proxied = false): Dispatcher {
  tlsOptions.set(dispatcher, { connect, proxied });
  return dispatcher;
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
    const known = options.dispatcher ? tlsOptions.get(options.dispatcher) : undefined;
    const hasCert = known?.connect.cert !== undefined || known?.connect.pfx !== undefined;
    let why = describeNetworkError(e, url.origin, timeoutMs, hasCert);
    if (url.protocol === 'https:' && closedEarly(e)) why = (await tlsRefusal(url, options.dispatcher, timeoutMs)) ?? why;
    throw new AccordError('ACCORD_ERR_HTTP', why, {}, { cause: e });
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

function closedEarly(e: unknown): boolean {
  const err = e as { code?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET';
}

/**
 * Why an HTTPS server hung up before answering, when the TLS layer says: with TLS 1.3 a server's
 * refusal of the client certificate (none, or from a CA it does not trust) arrives after the
 * handshake, as an alert undici does not read before it sees the connection end. One more
 * connection with the same certificates, sending nothing, reads the alert or sees the silent
 * close that Node's own servers give. Not through a proxy (the tunnel is undici's), bounded in time.
 */
async function tlsRefusal(url: URL, dispatcher: Dispatcher | undefined, timeoutMs: number): Promise<string | undefined> {
  const known = dispatcher ? tlsOptions.get(dispatcher) : undefined;
  if (known?.proxied) return undefined;
  const connect = known?.connect ?? {};
  const hasCert = connect.cert !== undefined || connect.pfx !== undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const outcome = await new Promise<{ code?: string; closed?: boolean } | undefined>((resolve) => {
    const socket = tlsConnect({ ...connect, host, port: Number(url.port || 443), ...(isIP(host) === 0 && { servername: host }), ALPNProtocols: ['http/1.1'] });
    const done = (r: { code?: string; closed?: boolean } | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done(undefined), Math.min(timeoutMs, TLS_PROBE_MS));
    socket.on('error', (err: NodeJS.ErrnoException) => done({ code: err.code }));
    socket.on('data', () => done(undefined));
    socket.on('end', () => done({ closed: true }));
  });
  if (!outcome) return undefined;
  if (outcome.code) return tlsProblem(outcome.code, url.origin, hasCert);
  if (outcome.closed) {
    return hasCert
      ? `${url.origin} closed the TLS connection in or right after the handshake, before any answer: it most likely refused the client certificate (not signed by a CA it trusts, expired, or not for client use)`
      : `${url.origin} closed the TLS connection in or right after the handshake, before any answer: it most likely requires a client certificate, and none was given (tls.cert and tls.key, or tls.pfx)`;
  }
  return undefined;
}

/** How long the second connection that asks the TLS layer why may take. */
const TLS_PROBE_MS = 5_000;

/** The TLS layer's reason, from Node's and OpenSSL's error codes, in words with the code. */
function tlsProblem(code: string, origin: string, hasCert: boolean): string | undefined {
  const alert = /^ERR_SSL_(?:SSLV3|TLSV1|TLSV13)_ALERT_([A-Z_]+)$/.exec(code)?.[1];
  if (alert !== undefined) {
    const name = alert.toLowerCase();
    const said: Record<string, string> = {
      certificate_required: 'it requires a client certificate, and none was given (tls.cert and tls.key, or tls.pfx)',
      unknown_ca: 'it does not trust the CA that signed the client certificate',
      bad_certificate: hasCert ? 'it refused the client certificate' : 'it requires a client certificate, and none was given (tls.cert and tls.key, or tls.pfx)',
      certificate_expired: 'the client certificate has expired',
      certificate_revoked: 'the client certificate is revoked',
      certificate_unknown: 'it refused the client certificate',
      unsupported_certificate: 'it cannot use the client certificate (key usage or type)',
      handshake_failure: 'no protocol version or cipher both sides accept, or a client certificate it requires',
      protocol_version: 'no TLS version both sides accept',
      access_denied: 'it denies this client',
    };
    return `TLS: ${origin} refused the connection (alert ${name}): ${said[name] ?? 'see the alert name'}`;
  }
  return serverCertificateProblem(code, origin);
}

function serverCertificateProblem(code: string, origin: string): string | undefined {
  switch (code) {
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return `TLS: the certificate of ${origin} is not signed by a CA accord trusts (${code}): give its CA bundle as tls.ca`;
    case 'CERT_HAS_EXPIRED':
      return `TLS: the certificate of ${origin} has expired (${code})`;
    case 'CERT_NOT_YET_VALID':
      return `TLS: the certificate of ${origin} is not valid yet (${code}): check the clocks`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `TLS: the certificate of ${origin} is not for host ${new URL(origin).hostname} (${code}): use a host name it names`;
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
      return `TLS: ${origin} does not answer TLS (${code}): is it http://?`;
    default:
      return undefined;
  }
}

function describeNetworkError(e: unknown, origin: string, timeoutMs: number, hasCert: boolean): string {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  if (code === 'ECONNREFUSED')
    return `connection refused by ${origin}: is the service running? (${givenBy('--base-url') ? 'is --base-url its address?' : 'set ACCORD_BASE_URL to its address'})`;
  if (code === 'ENOTFOUND') return `host of ${origin} not found`;
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return `no answer from ${origin} within ${timeoutMs} ms (${givenBy('--timeout') ? 'give a longer --timeout' : 'set ACCORD_TIMEOUT_MS'} to wait longer)`;
  }
  const tls = code !== undefined ? tlsProblem(code, origin, hasCert) : undefined;
  if (tls !== undefined) return tls;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `connection to ${origin} closed before a complete answer`;
  return `request to ${origin} failed: ${code ?? err.message ?? String(e)}`;
}
