import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Transform, pipeline, type Readable, type TransformCallback } from 'node:stream';
import type { Dispatcher } from 'undici';
import { Agent, request } from '../http/undici';
import { AccordError } from '../errors';
import { bodyText, parseMediaType } from '../http/content-type';
import { forwardedHeaders, parseTarget, targetUrl } from '../http/forward';
import { messageText } from '../http/message-text';
import { readBodyUpTo, readBoundedBody } from '../http/read-body';
import { isSecretHeader, maskCardNumbers, REDACTED, redactQuery } from '../http/redact';
import { PROXY_LIMITS } from '../limits';
import { DEFAULT_LOG_LIMITS } from '../logs/limits';
import { printable } from '../printable';

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

interface HarBody {
  mimeType: string;
  text: string;
  /** Set when only the first bytes of the body were recorded. */
  _truncated?: true;
  comment?: string;
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; httpVersion: string; headers: { name: string; value: string }[]; postData?: HarBody };
  response: { status: number; statusText: string; httpVersion: string; headers: { name: string; value: string }[]; content: HarBody & { size: number } };
}

/** What `accord import log` reads of one HAR entry. */
export const HAR_ENTRY_CHARS = DEFAULT_LOG_LIMITS.maxHarEntryChars;

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const to = parseTarget(options.target, '--target');
  const target = to.url;
  const prefix = to.prefix;
  const recordLimit = options.recordedBodyBytes ?? PROXY_LIMITS.recordedBodyBytes;
  const maxExchanges = options.maxExchanges ?? PROXY_LIMITS.exchanges;
  const grace = options.stopGraceMs ?? PROXY_LIMITS.stopGraceMs;
  const log = (line: string) => options.log?.(printable(line));
  const entries: HarEntry[] = [];
  let recordedBytes = 0;
  let dropped = 0;
  let cutOff = 0;
  let stopping = false;
  let recording = true;
  // Its own pool, so stopping can end every upstream connection at once.
  const agent = new Agent({ connections: 64 });
  const underWay = new Map<Promise<void>, AbortController>();

  // A client that sends its headers slowly cannot hold a connection for long; a body may stream for as long as it takes.
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 0 }, (req, res) => {
    if (stopping) {
      refuse(res, 503, 'accord proxy: stopping\n');
      return;
    }
    const abort = new AbortController();
    const done = forward(req, res, abort.signal)
      .catch((e: unknown) => {
        if (!abort.signal.aborted) log(`accord proxy: ${req.method} ${req.url}: ${(e as Error).message}`);
        if (!res.headersSent) refuse(res, 502, `accord proxy: could not reach ${target.origin}: ${(e as Error).message}\n`);
        else res.destroy();
      })
      .finally(() => underWay.delete(done));
    underWay.set(done, abort);
  });

  async function forward(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const started = Date.now();
    const at = targetUrl(to, req.url ?? '/');
    if ('refused' in at) {
      req.resume();
      refuse(res, 400, `accord proxy: ${at.refused}\n`);
      return;
    }
    const url = at.url;
    const document = req.method === 'GET' && isDocumentRequest(at.path);
    const headers = forwardedHeaders(req.headers);
    // A WSDL is rewritten as text: asked for without compression.
    if (document) headers['accept-encoding'] = 'identity';
    const sent = new Recorder(recordLimit);
    const declared = req.headers['transfer-encoding'] === undefined ? Number(req.headers['content-length'] ?? 0) : NaN;
    let body: Readable | Buffer | undefined;
    if (declared > 0 && declared <= recordLimit) {
      // A body of known, recordable size is read first and sent whole: a target that answers before reading it
      // (413 for a body over its limit) and closes still gets its answer through, which a stream being written does not.
      const whole = await readBoundedBody(req, declared, () => new Error('the request body is longer than its Content-Length'));
      sent.keep(whole);
      sent.ended = true;
      body = whole;
    } else if (declared > 0 || Number.isNaN(declared)) {
      body = pipeline(req, sent, () => undefined);
    } else req.resume();
    // A client that goes away ends the upstream request too (an endless answer is not read on for no one).
    const clientGone = () => {
      if (!res.writableFinished) abortWith();
    };
    const upstream = new AbortController();
    const abortWith = () => upstream.abort(new Error('the client went away or the proxy stopped'));
    signal.addEventListener('abort', abortWith, { once: true });
    res.once('close', clientGone);
    const answer = await request(url, {
      method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
      headers,
      body,
      signal: upstream.signal,
      dispatcher: agent,
    });
    const out = forwardedHeaders(answer.headers);
    const got = new Recorder(recordLimit);
    const contentType = String(answer.headers['content-type'] ?? '');
    if (document && !answer.headers['content-encoding'] && contentType.toLowerCase().includes('xml')) {
      const whole = await readBodyUpTo(answer.body, PROXY_LIMITS.documentBytes, 'pause');
      // Read in the charset it came in (ISO-8859-1 and UTF-16 WSDLs exist); written back as UTF-8, and said so.
      const text = whole.complete ? rewriteDocument(bodyText(whole.bytes, contentType), req) : undefined;
      if (text !== undefined) {
        const bytes = Buffer.from(text, 'utf8');
        out['content-length'] = String(bytes.length);
        out['content-type'] = `${parseMediaType(contentType)?.type ?? 'text/xml'}; charset=utf-8`;
        res.writeHead(answer.statusCode, out);
        res.end(bytes);
        // Recorded as the target sent it.
        got.keep(whole.bytes);
        got.ended = true;
      } else {
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
    } else {
      res.writeHead(answer.statusCode, out);
      await streamTo(
        pipeline(answer.body, got, () => undefined),
        res,
      );
    }
    res.off('close', clientGone);
    if (!res.writableFinished) got.cut();
    options.onExchange?.({
      started,
      method: req.method ?? 'GET',
      path: at.path,
      request: { headers: req.headers, bytes: sent.bytes(), complete: !sent.truncated },
      response: { status: answer.statusCode, headers: answer.headers, bytes: got.bytes(), complete: !got.truncated },
    });
    if (options.record === false || !recording) return;
    if (entries.length >= maxExchanges || recordedBytes + sent.kept + got.kept > PROXY_LIMITS.recordedBytes) {
      dropped++;
      return;
    }
    recordedBytes += sent.kept + got.kept;
    const list = (h: IncomingHttpHeaders | Record<string, string | string[] | undefined>) =>
      Object.entries(h).flatMap(([name, v]) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((value) => ({ name, value: isSecretHeader(name) ? REDACTED : value }))));
    // Recorded as accord matches it: decompressed, an MTOM/XOP message as its envelope, in its own encoding; card numbers masked.
    const asRecorded = (r: Recorder, type: string, coding: string | undefined): HarBody => {
      const bytes = r.bytes();
      const read = r.truncated ? undefined : messageText(bytes, type, coding, recordLimit);
      const decoded = !read || 'problem' in read ? { mimeType: type, text: bytes.toString('utf8') } : { mimeType: read.contentType ?? type, text: read.text };
      const body: HarBody = { mimeType: decoded.mimeType, text: maskCardNumbers(decoded.text).text };
      if (r.truncated) {
        body._truncated = true;
        body.comment = `accord proxy recorded only the first ${r.kept} of ${r.seen}${r.ended ? '' : ' or more'} bytes`;
      }
      return body;
    };
    const entry: HarEntry = {
      startedDateTime: new Date(started).toISOString(),
      time: Date.now() - started,
      request: {
        method: req.method ?? 'GET',
        // The URL the client asked for, as the contract will name it: the target's prefix is the service's business.
        url: `${target.origin}${redactQuery(at.path)}`,
        httpVersion: 'HTTP/1.1',
        headers: list(req.headers),
        ...(sent.seen > 0 ? { postData: asRecorded(sent, String(req.headers['content-type'] ?? ''), req.headers['content-encoding']) } : {}),
      },
      response: {
        status: answer.statusCode,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        headers: list(answer.headers),
        content: { size: got.seen, ...asRecorded(got, contentType, answer.headers['content-encoding'] as string | undefined) },
      },
    };
    // Escaped as JSON, two bodies of control characters could outgrow what the importer reads of one entry, and lose the call: cut them to fit.
    if (sent.kept + got.kept > HAR_ENTRY_CHARS / 8 && JSON.stringify(entry).length > HAR_ENTRY_CHARS) {
      for (const body of [entry.request.postData, entry.response.content]) {
        if (!body) continue;
        body.text = body.text.slice(0, HAR_ENTRY_CHARS / 16);
        body._truncated = true;
        body.comment = `accord proxy recorded this body cut: escaped as JSON, the whole entry was larger than the ${HAR_ENTRY_CHARS} characters accord import log reads of one`;
      }
    }
    entries.push(entry);
  }

  /** A WSDL or schema with its addresses and the imports on the target pointed at the proxy; undefined for anything else. */
  function rewriteDocument(text: string, req: IncomingMessage): string | undefined {
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
    // The address the client used (Host), as the stub does; anything odd in it falls back to the proxy's own.
    const host = req.headers.host;
    const base = host && /^[A-Za-z0-9.\-:[\]]{1,255}$/.test(host) ? `http://${host}` : running.url;
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

  const host = options.host ?? '127.0.0.1';
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new AccordError('ACCORD_ERR_USAGE', `cannot listen on ${host}:${options.port ?? 0}: ${e.code === 'EADDRINUSE' ? 'the port is in use' : e.message}`)),
    );
    server.listen(options.port ?? 0, host, () => resolve((server.address() as AddressInfo).port));
  });
  let closing: Promise<void> | undefined;
  const running: RunningProxy = {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    har: () => ({ log: { version: '1.2', creator: { name: 'accord proxy', version: '1' }, entries } }),
    *harText() {
      yield '{"log": {"version": "1.2", "creator": {"name": "accord proxy", "version": "1"}, "entries": [\n';
      for (let i = 0; i < entries.length; i++) yield `${i === 0 ? '' : ',\n'}${JSON.stringify(entries[i], null, 1)}`;
      yield '\n]}}\n';
    },
    get dropped() {
      return dropped;
    },
    get cutOff() {
      return cutOff;
    },
    stopRecording: () => {
      recording = false;
    },
    close: () =>
      (closing ??= (async () => {
        stopping = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Calls under way may finish (and be recorded) within the grace; then their upstream requests are aborted.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.allSettled([...underWay.keys()]), new Promise((resolve) => (timer = setTimeout(resolve, grace)))]);
        clearTimeout(timer);
        cutOff = underWay.size;
        for (const abort of underWay.values()) abort.abort();
        server.closeAllConnections();
        // Aborted calls end at once; one stuck reading a client that went silent is not waited for past another grace.
        await Promise.race([Promise.allSettled([...underWay.keys()]), new Promise((resolve) => setTimeout(resolve, grace).unref())]);
        await agent.destroy().catch(() => undefined);
        await closed;
      })()),
  };
  return running;
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

/** Passes every byte through; keeps the first `limit` of them. */
class Recorder extends Transform {
  private readonly chunks: Buffer[] = [];
  kept = 0;
  seen = 0;
  ended = false;
  private wasCut = false;

  constructor(private readonly limit: number) {
    super();
    this.once('finish', () => (this.ended = true));
  }

  get truncated(): boolean {
    return this.seen > this.kept || this.wasCut;
  }

  /** The body did not arrive whole (the client or the target went away): what was kept is not all there was. */
  cut(): void {
    if (!this.ended) this.wasCut = true;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }

  keep(chunk: Buffer): void {
    this.seen += chunk.length;
    if (this.kept < this.limit) {
      const part = chunk.length <= this.limit - this.kept ? chunk : chunk.subarray(0, this.limit - this.kept);
      this.chunks.push(Buffer.from(part));
      this.kept += part.length;
    }
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.keep(chunk);
    done(null, chunk);
  }
}
