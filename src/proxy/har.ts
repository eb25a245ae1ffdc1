import type { IncomingHttpHeaders } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { messageText } from '../http/message-text';
import { isSecretHeader, maskCardNumbers, REDACTED, redactQuery } from '../http/redact';
import { PROXY_LIMITS } from '../limits';
import { DEFAULT_LOG_LIMITS } from '../logs/limits';

/*
 * What `accord proxy` records: each body as far as it is kept (Recorder), and each exchange as a
 * HAR 1.2 entry, bounded (PROXY_LIMITS), in the form `accord import log` reads back.
 */

export interface HarBody {
  mimeType: string;
  text: string;
  /** Set when only the first bytes of the body were recorded. */
  _truncated?: true;
  comment?: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; httpVersion: string; headers: { name: string; value: string }[]; postData?: HarBody };
  response: { status: number; statusText: string; httpVersion: string; headers: { name: string; value: string }[]; content: HarBody & { size: number } };
}

/** What `accord import log` reads of one HAR entry. */
export const HAR_ENTRY_CHARS = DEFAULT_LOG_LIMITS.maxHarEntryChars;

/** One exchange as it was forwarded, with both bodies as far as they were kept. */
export interface Forwarded {
  started: number;
  method: string;
  /** The path and query asked for, as the client named it. */
  path: string;
  requestHeaders: IncomingHttpHeaders;
  sent: Recorder;
  status: number;
  responseHeaders: Record<string, string | string[] | undefined>;
  got: Recorder;
}

/** The recorded exchanges: at most `maxExchanges`, and PROXY_LIMITS.recordedBytes of bodies in all; the others counted. */
export class HarRecording {
  readonly entries: HarEntry[] = [];
  private bytes = 0;
  dropped = 0;
  /** Off: later exchanges are neither recorded nor counted. */
  on = true;

  constructor(
    private readonly maxExchanges: number,
    /** The target's origin: the URLs recorded are the client's paths on it. */
    private readonly origin: string,
    private readonly recordLimit: number,
  ) {}

  add(x: Forwarded): void {
    if (!this.on) return;
    if (this.entries.length >= this.maxExchanges || this.bytes + x.sent.kept + x.got.kept > PROXY_LIMITS.recordedBytes) {
      this.dropped++;
      return;
    }
    this.bytes += x.sent.kept + x.got.kept;
    this.entries.push(fitted(harEntry(x, this.origin, this.recordLimit), x));
  }

  har(): { log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] } } {
    return { log: { version: '1.2', creator: { name: 'accord proxy', version: '1' }, entries: this.entries } };
  }

  /** The HAR document as JSON text, an entry at a time (the whole could pass the longest string V8 makes). */
  *text(): Iterable<string> {
    yield '{"log": {"version": "1.2", "creator": {"name": "accord proxy", "version": "1"}, "entries": [\n';
    for (let i = 0; i < this.entries.length; i++) yield `${i === 0 ? '' : ',\n'}${JSON.stringify(this.entries[i], null, 1)}`;
    yield '\n]}}\n';
  }
}

function harEntry(x: Forwarded, origin: string, recordLimit: number): HarEntry {
  const contentType = String(x.responseHeaders['content-type'] ?? '');
  return {
    startedDateTime: new Date(x.started).toISOString(),
    time: Date.now() - x.started,
    request: {
      method: x.method,
      // The URL the client asked for, as the contract will name it: the target's prefix is the service's business.
      url: `${origin}${redactQuery(x.path)}`,
      httpVersion: 'HTTP/1.1',
      headers: headerList(x.requestHeaders),
      ...(x.sent.seen > 0 ? { postData: asRecorded(x.sent, String(x.requestHeaders['content-type'] ?? ''), x.requestHeaders['content-encoding'], recordLimit) } : {}),
    },
    response: {
      status: x.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: headerList(x.responseHeaders),
      content: { size: x.got.seen, ...asRecorded(x.got, contentType, x.responseHeaders['content-encoding'] as string | undefined, recordLimit) },
    },
  };
}

/** Headers as HAR lists them, a credential's value recorded as `***`. */
function headerList(h: IncomingHttpHeaders | Record<string, string | string[] | undefined>): { name: string; value: string }[] {
  return Object.entries(h).flatMap(([name, v]) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((value) => ({ name, value: isSecretHeader(name) ? REDACTED : value }))));
}

/** A body recorded as accord matches it: decompressed, an MTOM/XOP message as its envelope, in its own encoding; card numbers masked. */
function asRecorded(r: Recorder, type: string, coding: string | undefined, recordLimit: number): HarBody {
  const bytes = r.bytes();
  const read = r.truncated ? undefined : messageText(bytes, type, coding, recordLimit);
  const decoded = !read || 'problem' in read ? { mimeType: type, text: bytes.toString('utf8') } : { mimeType: read.contentType ?? type, text: read.text };
  const body: HarBody = { mimeType: decoded.mimeType, text: maskCardNumbers(decoded.text).text };
  if (r.truncated) {
    body._truncated = true;
    body.comment = `accord proxy recorded only the first ${r.kept} of ${r.seen}${r.ended ? '' : ' or more'} bytes`;
  }
  return body;
}

/** Escaped as JSON, two bodies of control characters could outgrow what the importer reads of one entry, and lose the call: cut them to fit. */
function fitted(entry: HarEntry, x: Forwarded): HarEntry {
  if (x.sent.kept + x.got.kept > HAR_ENTRY_CHARS / 8 && JSON.stringify(entry).length > HAR_ENTRY_CHARS) {
    for (const body of [entry.request.postData, entry.response.content]) {
      if (!body) continue;
      body.text = body.text.slice(0, HAR_ENTRY_CHARS / 16);
      body._truncated = true;
      body.comment = `accord proxy recorded this body cut: escaped as JSON, the whole entry was larger than the ${HAR_ENTRY_CHARS} characters accord import log reads of one`;
    }
  }
  return entry;
}

/** Passes every byte through; keeps the first `limit` of them. */
export class Recorder extends Transform {
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
