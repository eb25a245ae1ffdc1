import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import { Agent, request } from '../http/undici';
import { AccordError } from '../errors';
import { bodyText, parseMediaType } from '../http/content-type';
import { forwardedHeaders, parseTarget, targetUrl, type ForwardTarget } from '../http/forward';
import { readBodyUpTo, readBoundedBody } from '../http/read-body';
import { PROXY_LIMITS } from '../limits';
import { printable } from '../printable';
import { HarRecording, Recorder, type Forwarded, type HarEntry } from './har';

/**
 * `accord proxy`: a recording proxy. Every request is forwarded to the target and its answer
 * streamed back as it comes, so neither side is held in memory whole; the pair is recorded as a
 * HAR entry (HTTP Archive 1.2), so that on stop the traffic goes through the same pipeline as
 * `accord import log` (typing, merging, redaction, the check that every call fits).
 *
 * What is recorded is bounded (PROXY_LIMITS): the first `recordedBodyBytes` of each body (a
 * longer body is passed on whole, recorded cut, and marked `_truncated` so the importer leaves
 * the call out rather than type a body it never saw whole), `recordedBytes` in all, `exchanges`
 * calls. Credential headers (Authorization, Cookie, Set-Cookie, session and token headers) are
 * recorded as `***` (as the runner hides them), card numbers in bodies masked.
 *
 * Only the target is ever called: a request must name a path (origin-form); its dot segments are
 * resolved and may not climb above the root, so every upstream URL is the target's origin and
 * path prefix followed by the request's path. Hop-by-hop headers, and those a `Connection` header
 * names, are not forwarded either way (RFC 9110 §7.6.1). A WSDL or schema fetched through the
 * proxy (`?wsdl`, `?xsd=`, `.wsdl`, `.xsd`) has its service addresses, and the imports that
 * point at the target, rewritten to the proxy, so a client built from it calls through the proxy.
 */
export interface ProxyOptions {
  /** The real service: `http://host:port` (a path prefix is kept). */
  target: string;
  port?: number;
  host?: string;
  /** Bytes of each body recorded (default PROXY_LIMITS.recordedBodyBytes). */
  recordedBodyBytes?: number;
  /** Exchanges kept; later ones are forwarded but not recorded (and counted). */
  maxExchanges?: number;
  /** How long calls under way get once close() is called, before their upstream requests are aborted. */
  stopGraceMs?: number;
  log?: (line: string) => void;
  /** Told about every exchange once its answer has been passed on, with the copy recorded of it (bounded as above): `--check`. */
  onExchange?: (x: ProxiedExchange) => void;
  /** Keep the HAR recording (default true); `--check` without `--out` does not. */
  record?: boolean;
}

/** One exchange as the proxy saw it: bodies as far as they were recorded (`complete` when whole). */
export interface ProxiedExchange {
  started: number;
  method: string;
  /** The path and query asked for, as the client named it. */
  path: string;
  request: { headers: IncomingHttpHeaders; bytes: Buffer; complete: boolean };
  response: { status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer; complete: boolean };
}

export interface RunningProxy {
  url: string;
  /** The recorded traffic as a HAR document. */
  har(): { log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] } };
  /** The same as JSON text, an entry at a time (the whole could pass the longest string V8 makes). */
  harText(): Iterable<string>;
  /** Exchanges forwarded but not recorded (over maxExchanges or the recorded bytes). */
  readonly dropped: number;
  /** Calls cut off by close(): still waiting on the target when the grace ran out. */
  readonly cutOff: number;
  /** Later calls are forwarded but not recorded (nor counted): what the proxy asks itself for as it stops (the WSDL). */
  stopRecording(): void;
  close(): Promise<void>;
}

/**
 * The WSDL at `url` and every schema or WSDL it imports from the same origin (JAX-WS's `?xsd=1`),
 * fetched by the importer's one fetcher (`wsdl/fetch.ts`) within PROXY_LIMITS.wsdlFetchMs and
 * wsdlDocuments, as files of one folder (`files[0]` the WSDL). An import that cannot be fetched means
 * no WSDL (`why`): the recorded values type better than (anything). `shown` names a URL in the reason
 * given (the service's, not the proxy's).
 */
export async function fetchWsdlSet(url: string, shown: (url: string) => string = (u) => u): Promise<{ files: { name: string; text: string }[] } | { why: string }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the fetcher (and its DOM) is loaded only when a WSDL is fetched
  const { fetchWsdlSet: fetchSet } = require('../wsdl/fetch') as typeof import('../wsdl/fetch');
  const got = await fetchSet(url, { shown, limits: { totalMs: PROXY_LIMITS.wsdlFetchMs, documents: PROXY_LIMITS.wsdlDocuments, documentBytes: PROXY_LIMITS.documentBytes } });
  if ('why' in got) return got;
  const first = got.notFetched.find((n) => n.url === undefined || new URL(n.url).origin === new URL(url).origin);
  if (first) return { why: first.reason };
  return { files: got.files };
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const to = parseTarget(options.target, '--target');
  const recordLimit = options.recordedBodyBytes ?? PROXY_LIMITS.recordedBodyBytes;
  const grace = options.stopGraceMs ?? PROXY_LIMITS.stopGraceMs;
  const log = (line: string) => options.log?.(printable(line));
  const recording = new HarRecording(options.maxExchanges ?? PROXY_LIMITS.exchanges, to.url.origin, recordLimit);
  // Its own pool, so stopping can end every upstream connection at once.
  const agent = new Agent({ connections: 64 });
  const via: Via = { to, agent, recordLimit, ownUrl: () => running.url };
  const underWay = new Map<Promise<void>, AbortController>();
  let stopping = false;
  let cutOff = 0;

  // A client that sends its headers slowly cannot hold a connection for long; a body may stream for as long as it takes.
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 0 }, (req, res) => {
    if (stopping) {
      refuse(res, 503, 'accord proxy: stopping\n');
      return;
    }
    const abort = new AbortController();
    const done = forward(via, req, res, abort.signal)
      .then((x) => {
        if (!x) return;
        options.onExchange?.(seenAs(x));
        if (options.record !== false) recording.add(x);
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) log(`accord proxy: ${req.method} ${req.url}: ${(e as Error).message}`);
        if (!res.headersSent) refuse(res, 502, `accord proxy: could not reach ${to.url.origin}: ${(e as Error).message}\n`);
        else res.destroy();
      })
      .finally(() => underWay.delete(done));
    underWay.set(done, abort);
  });

  const host = options.host ?? '127.0.0.1';
  const port = await listen(server, host, options.port ?? 0);
  let closing: Promise<void> | undefined;
  const running: RunningProxy = {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    har: () => recording.har(),
    harText: () => recording.text(),
    get dropped() {
      return recording.dropped;
    },
    get cutOff() {
      return cutOff;
    },
    stopRecording: () => {
      recording.on = false;
    },
    close: () =>
      (closing ??= (() => {
        stopping = true;
        return shutDown(server, underWay, agent, grace, (n) => (cutOff = n));
      })()),
  };
  return running;
}

/** What a call is forwarded through: the target, the upstream pool, how much of a body is kept, and the proxy's own address. */
interface Via {
  to: ForwardTarget;
  agent: UndiciAgent;
  recordLimit: number;
  ownUrl: () => string;
}

/**
 * One call: the request forwarded to the target, its answer passed back as it comes (a WSDL or
 * schema with its addresses pointed at the proxy), both bodies kept as far as the limit allows.
 * Undefined when the request was refused here.
 */
async function forward(via: Via, req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<Forwarded | undefined> {
  const started = Date.now();
  const at = targetUrl(via.to, req.url ?? '/');
  if ('refused' in at) {
    req.resume();
    refuse(res, 400, `accord proxy: ${at.refused}\n`);
    return undefined;
  }
  const document = req.method === 'GET' && isDocumentRequest(at.path);
  const headers = forwardedHeaders(req.headers);
  // A WSDL is rewritten as text: asked for without compression.
  if (document) headers['accept-encoding'] = 'identity';
  const sent = new Recorder(via.recordLimit);
  const body = await requestBody(req, sent, via.recordLimit);
  const upstream = endedWithClient(res, signal);
  const answer = await request(at.url, {
    method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
    headers,
    body,
    signal: upstream.signal,
    dispatcher: via.agent,
  });
  const got = new Recorder(via.recordLimit);
  await passBack(answer, res, got, document ? (text) => rewriteDocument(text, req, via) : undefined);
  upstream.done();
  if (!res.writableFinished) got.cut();
  return { started, method: req.method ?? 'GET', path: at.path, requestHeaders: req.headers, sent, status: answer.statusCode, responseHeaders: answer.headers, got };
}

/** The exchange as `onExchange` is told it. */
function seenAs(x: Forwarded): ProxiedExchange {
  return {
    started: x.started,
    method: x.method,
    path: x.path,
    request: { headers: x.requestHeaders, bytes: x.sent.bytes(), complete: !x.sent.truncated },
    response: { status: x.status, headers: x.responseHeaders, bytes: x.got.bytes(), complete: !x.got.truncated },
  };
}

/** The request body to send on: read whole when its size is known and recordable, else streamed through `sent`. */
async function requestBody(req: IncomingMessage, sent: Recorder, recordLimit: number): Promise<Readable | Buffer | undefined> {
  const declared = req.headers['transfer-encoding'] === undefined ? Number(req.headers['content-length'] ?? 0) : NaN;
  if (declared > 0 && declared <= recordLimit) {
    // A body of known, recordable size is read first and sent whole: a target that answers before reading it
    // (413 for a body over its limit) and closes still gets its answer through, which a stream being written does not.
    const whole = await readBoundedBody(req, declared, () => new Error('the request body is longer than its Content-Length'));
    sent.keep(whole);
    sent.ended = true;
    return whole;
  }
  if (declared > 0 || Number.isNaN(declared)) return pipeline(req, sent, () => undefined);
  req.resume();
  return undefined;
}

/** The upstream request's signal: a client that goes away, or the proxy stopping, ends it (an endless answer is not read on for no one). */
function endedWithClient(res: ServerResponse, stopped: AbortSignal): { signal: AbortSignal; done: () => void } {
  const upstream = new AbortController();
  const abortWith = () => upstream.abort(new Error('the client went away or the proxy stopped'));
  const clientGone = () => {
    if (!res.writableFinished) abortWith();
  };
  stopped.addEventListener('abort', abortWith, { once: true });
  res.once('close', clientGone);
  return { signal: upstream.signal, done: () => res.off('close', clientGone) };
}

/** The answer passed back to the client through `got`; a WSDL or schema read whole (within documentBytes) and rewritten by `rewrite`. */
async function passBack(answer: Dispatcher.ResponseData, res: ServerResponse, got: Recorder, rewrite: ((text: string) => string | undefined) | undefined): Promise<void> {
  const out = forwardedHeaders(answer.headers);
  const contentType = String(answer.headers['content-type'] ?? '');
  if (!rewrite || answer.headers['content-encoding'] || !contentType.toLowerCase().includes('xml')) {
    res.writeHead(answer.statusCode, out);
    return streamTo(
      pipeline(answer.body, got, () => undefined),
      res,
    );
  }
  const whole = await readBodyUpTo(answer.body, PROXY_LIMITS.documentBytes, 'pause');
  // Read in the charset it came in (ISO-8859-1 and UTF-16 WSDLs exist); written back as UTF-8, and said so.
  const text = whole.complete ? rewrite(bodyText(whole.bytes, contentType)) : undefined;
  if (text !== undefined) {
    const bytes = Buffer.from(text, 'utf8');
    out['content-length'] = String(bytes.length);
    out['content-type'] = `${parseMediaType(contentType)?.type ?? 'text/xml'}; charset=utf-8`;
    res.writeHead(answer.statusCode, out);
    res.end(bytes);
    // Recorded as the target sent it.
    got.keep(whole.bytes);
    got.ended = true;
    return;
  }
  res.writeHead(answer.statusCode, out);
  const rest = new PassThrough();
  rest.write(whole.bytes);
  if (whole.complete) rest.end();
  else pipeline(answer.body, rest, () => undefined);
  await streamTo(
    pipeline(rest, got, () => undefined),
    res,
  );
}

/** A WSDL or schema with its addresses and the imports on the target pointed at the proxy; undefined for anything else. */
function rewriteDocument(text: string, req: IncomingMessage, via: Via): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the DOM is loaded only when a WSDL passes through
  const docs = require('../wsdl/locations') as typeof import('../wsdl/locations');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- likewise
  const { parseDom } = require('../wsdl/dom') as typeof import('../wsdl/dom');
  let doc;
  try {
    doc = parseDom(text, 'the answer');
  } catch {
    return undefined;
  }
  const root = doc.documentElement?.localName;
  if (root !== 'definitions' && root !== 'description' && root !== 'schema') return undefined;
  const target = via.to.url;
  const prefix = via.to.prefix;
  // The address the client used (Host), as the stub does; anything odd in it falls back to the proxy's own.
  const host = req.headers.host;
  const base = host && /^[A-Za-z0-9.\-:[\]]{1,255}$/.test(host) ? `http://${host}` : via.ownUrl();
  const onTarget = (value: string): string | undefined => {
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      return undefined;
    }
    if (u.origin !== target.origin) return undefined;
    if (prefix && u.pathname !== prefix && !u.pathname.startsWith(`${prefix}/`)) return undefined;
    return `${base}${u.pathname.slice(prefix.length) || '/'}${u.search}`;
  };
  docs.rewriteLocations(doc, {
    // Every service address: the proxy stands for the service, whatever host name the service gives itself.
    address: (value) => {
      const to = onTarget(value);
      if (to !== undefined) return to;
      try {
        const u = new URL(value);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
        const p = prefix && (u.pathname === prefix || u.pathname.startsWith(`${prefix}/`)) ? u.pathname.slice(prefix.length) || '/' : u.pathname;
        return `${base}${p}${u.search}`;
      } catch {
        return undefined;
      }
    },
    // Imports on the target go through the proxy too; relative ones already do, other hosts are the client's business.
    reference: (value) => onTarget(value),
  });
  return docs.serializeDocument(doc);
}

/** The port the server listens on; a port it cannot take is a usage error. */
function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new AccordError('ACCORD_ERR_USAGE', `cannot listen on ${host}:${port}: ${e.code === 'EADDRINUSE' ? 'the port is in use' : e.message}`)),
    );
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * Stops the proxy: no new calls; those under way may finish (and be recorded) within `grace`, then
 * their upstream requests are aborted (`cutOff` is told how many were).
 */
async function shutDown(server: Server, underWay: Map<Promise<void>, AbortController>, agent: UndiciAgent, grace: number, cutOff: (n: number) => void): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled([...underWay.keys()]), new Promise((resolve) => (timer = setTimeout(resolve, grace)))]);
  clearTimeout(timer);
  cutOff(underWay.size);
  for (const abort of underWay.values()) abort.abort();
  server.closeAllConnections();
  // Aborted calls end at once; one stuck reading a client that went silent is not waited for past another grace.
  await Promise.race([Promise.allSettled([...underWay.keys()]), new Promise((resolve) => setTimeout(resolve, grace).unref())]);
  await agent.destroy().catch(() => undefined);
  await closed;
}

/** `?wsdl`, `?xsd=…`, `?singleWsdl`, `.wsdl`, `.xsd`: what clients fetch to learn the service. */
function isDocumentRequest(path: string): boolean {
  const q = path.indexOf('?');
  const p = (q < 0 ? path : path.slice(0, q)).toLowerCase();
  if (p.endsWith('.wsdl') || p.endsWith('.xsd')) return true;
  if (q < 0) return false;
  return path
    .slice(q + 1)
    .split('&')
    .some((kv) => /^(wsdl|xsd|singlewsdl)(=|$)/i.test(kv));
}

function refuse(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), connection: 'close' });
  res.end(text);
}

/** Pipes `from` into the client's response and resolves when it ends or either side fails. */
function streamTo(from: Readable, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    pipeline(from, res, (e) => (e && !res.writableFinished && !res.destroyed ? reject(e) : resolve()));
  });
}
