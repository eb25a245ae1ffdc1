import { AccordError } from '../errors';
import { PROXY_LIMITS } from '../limits';
import { findEnvelopeStart } from './envelope';
import type { ExtractSink } from './extractor';
import type { LogLimits } from './limits';
import type { LoggedMessage } from './message';
import { pathOf } from './extract-cxf';
import { readJson } from '../json/parse';

/** A HAR file starts with an object whose first key is "log". */
export function looksLikeHar(head: string): boolean {
  return /^\s*\{\s*"log"\s*:/.test(head);
}

/**
 * Reads a HAR file as a stream: a small scanner follows strings and nesting,
 * and each element of `log.entries` is cut out and parsed on its own, so the
 * file is never held whole and one entry is bounded in size.
 */
export async function scanHar(
  file: string,
  chunks: AsyncIterable<string>,
  sink: ExtractSink,
  limits: LogLimits,
  include: readonly string[] = [],
): Promise<{ lines: number; entries: number }> {
  const scanner = new HarScanner(file, sink, limits, include);
  for await (const chunk of chunks) scanner.feed(chunk);
  return scanner.end();
}

/** An entry of `log.entries` being cut out: the parts of earlier chunks, and where it starts in this one. */
interface OpenEntry {
  parts: string[];
  size: number;
  line: number;
  tooLarge: boolean;
  from: number;
}

/** The scanner's state between chunks: the open objects and arrays, the string being read, the entry being cut out. */
class HarScanner {
  private readonly stack: { open: '{' | '['; key?: string }[] = [];
  private inString = false;
  private escape = false;
  private str = '';
  private lastKey: string | undefined;
  private line = 1;
  private entriesDepth = -1;
  private entry: OpenEntry | undefined;
  private entries = 0;
  private sawLog = false;

  constructor(
    private readonly file: string,
    private readonly sink: ExtractSink,
    private readonly limits: LogLimits,
    private readonly include: readonly string[],
  ) {}

  feed(chunk: string): void {
    if (this.entry) this.entry.from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === '\n') this.line++;
      if (this.inString) this.stringChar(c);
      else if (c === '"') {
        this.inString = true;
        this.str = '';
      } else if (c === ':') this.lastKey = this.str;
      else if (c === ',') this.lastKey = undefined;
      else if (c === '{' || c === '[') this.open(c, i);
      else if (c === '}' || c === ']') this.close(c, chunk, i);
    }
    this.carry(chunk);
  }

  end(): { lines: number; entries: number } {
    if (this.stack.length > 0 || this.inString) throw new AccordError('ACCORD_ERR_LOG', 'the HAR file is cut short: its JSON never closes', { file: this.file, line: this.line });
    if (!this.sawLog) throw new AccordError('ACCORD_ERR_LOG', 'not a HAR file: no "log" object', { file: this.file, line: 1 });
    return { lines: this.line, entries: this.entries };
  }

  /** Inside a string: only its first 64 characters are kept (enough to know a key). */
  private stringChar(c: string): void {
    if (this.escape) this.escape = false;
    else if (c === '\\') this.escape = true;
    else if (c === '"') this.inString = false;
    else if (this.str.length < 64) this.str += c;
  }

  private open(c: '{' | '[', i: number): void {
    const stack = this.stack;
    const parent = stack[stack.length - 1];
    const key = parent?.open === '{' ? this.lastKey : undefined;
    if (stack.length === 1 && key === 'log' && c === '{') this.sawLog = true;
    stack.push({ open: c, key });
    this.lastKey = undefined;
    if (c === '[' && key === 'entries' && stack.length === 3 && stack[1].key === 'log') this.entriesDepth = stack.length;
    else if (c === '{' && this.entriesDepth > 0 && stack.length === this.entriesDepth + 1) {
      this.entry = { parts: [], size: 0, line: this.line, tooLarge: false, from: i };
    }
  }

  private close(c: '}' | ']', chunk: string, i: number): void {
    const top = this.stack.pop();
    if (!top || (top.open === '{') !== (c === '}')) {
      throw new AccordError('ACCORD_ERR_JSON', `the HAR file is not valid JSON: unexpected "${c}"`, { file: this.file, line: this.line });
    }
    if (this.entry && c === '}' && this.stack.length === this.entriesDepth) {
      const e = this.entry;
      this.entry = undefined;
      const piece = chunk.slice(e.from, i + 1);
      if (e.tooLarge || e.size + piece.length > this.limits.maxHarEntryChars) {
        this.sink.problem(
          new AccordError('ACCORD_ERR_LIMIT', `this HAR entry is larger than ${this.limits.maxHarEntryChars} characters; it is not read`, { file: this.file, line: e.line }),
        );
      } else this.finishEntry(e.parts.join('') + piece, e.line);
    }
    if (c === ']' && this.stack.length === this.entriesDepth - 1) this.entriesDepth = -1;
  }

  /** The part of an open entry in this chunk is kept for the next, unless the entry is already too large. */
  private carry(chunk: string): void {
    const entry = this.entry;
    if (!entry) return;
    const piece = chunk.slice(entry.from);
    entry.size += piece.length;
    if (entry.size > this.limits.maxHarEntryChars) {
      entry.tooLarge = true;
      entry.parts = [];
    } else entry.parts.push(piece);
  }

  private finishEntry(text: string, at: number): void {
    this.entries++;
    const read = readJson(text);
    if ('problem' in read) {
      this.sink.problem(new AccordError('ACCORD_ERR_JSON', `this HAR entry is ${read.problem}`, { file: this.file, line: at }));
      return;
    }
    harEntry(this.file, at, read.value, this.sink, this.include);
  }
}

interface HarHeader {
  name: string;
  value: string;
}

function harEntry(file: string, line: number, value: unknown, sink: ExtractSink, include: readonly string[]): void {
  const e = value as { request?: Record<string, unknown>; response?: Record<string, unknown> };
  const req = e?.request as { method?: string; url?: string; headers?: HarHeader[]; postData?: { mimeType?: string; text?: string; _truncated?: unknown } } | undefined;
  const res = e?.response as { status?: number; headers?: HarHeader[]; content?: { mimeType?: string; text?: string; encoding?: string; _truncated?: unknown } } | undefined;
  if (!req || typeof req.method !== 'string' || typeof req.url !== 'string' || !res || typeof res.status !== 'number') {
    sink.skipped('HAR entries without a request and a response');
    return;
  }
  if (include.length > 0 && !include.some((prefix) => req.url!.startsWith(prefix))) {
    sink.skipped('HAR entries outside --include', hostOf(req.url));
    return;
  }
  if (res.status === 0) {
    sink.skipped('HAR entries whose request got no response (status 0)');
    return;
  }
  // `accord proxy` records only the first bytes of a long body (PROXY_LIMITS.recordedBodyBytes) and marks it: typing a
  // body from its beginning would write a contract for a message nobody sent, so the call is left out and counted.
  if (req.postData?._truncated === true || res.content?._truncated === true) {
    sink.skipped(`HAR entries with a body recorded only in part (longer than the ${PROXY_LIMITS.recordedBodyBytes / 1024 / 1024} MiB accord proxy records of a body)`);
    return;
  }
  const requestBody = typeof req.postData?.text === 'string' ? req.postData.text : '';
  let responseBody = typeof res.content?.text === 'string' ? res.content.text : '';
  if (res.content?.encoding === 'base64' && responseBody) responseBody = Buffer.from(responseBody, 'base64').toString('utf8');
  const requestMime = (str(req.postData?.mimeType) ?? headerOf(req.headers, 'content-type') ?? '').toLowerCase();
  const responseMime = (str(res.content?.mimeType) ?? headerOf(res.headers, 'content-type') ?? '').toLowerCase();

  const soap = findEnvelopeStart(requestBody) !== undefined;
  if (!soap && requestBody.trim() !== '' && !isJsonMime(requestMime) && !looksJson(requestBody)) {
    sink.skipped('HAR entries whose request body is neither SOAP nor JSON', mimeName(requestMime));
    return;
  }
  if (!soap && (responseBody.trim() === '' ? !isJsonMime(requestMime) : !isJsonMime(responseMime) && !looksJson(responseBody))) {
    sink.skipped('HAR entries that are neither SOAP nor JSON', mimeName(responseMime));
    return;
  }
  const at = { file, line };
  const { path, query } = pathOf(req.url);
  const soapAction = headerOf(req.headers, 'soapaction');
  // SOAP 1.2 carries its action in the media type, which a contract imported from a WSDL declares: kept for the check.
  const contentType = soap ? headerOf(req.headers, 'content-type') : undefined;
  const headers = { ...(soapAction !== undefined ? { soapaction: soapAction } : {}), ...(contentType !== undefined ? { 'content-type': contentType } : {}) };
  const request: LoggedMessage = {
    direction: 'request',
    shape: 'har',
    body: requestBody,
    at,
    method: req.method.toUpperCase(),
    path,
    query,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
  const response: LoggedMessage = { direction: 'response', shape: 'har', body: responseBody, at, status: res.status, echo: request };
  sink.message(response);
}

function mimeName(mime: string): string {
  return mime.split(';')[0].trim() || 'no content type';
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'not a URL';
  }
}

function headerOf(headers: HarHeader[] | undefined, name: string): string | undefined {
  if (!Array.isArray(headers)) return undefined;
  const value = headers.find((h) => typeof h?.name === 'string' && h.name.toLowerCase() === name)?.value;
  return typeof value === 'string' ? value : undefined;
}

/** A HAR field that should be a string, or undefined when the recording holds something else there. */
function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function isJsonMime(m: string): boolean {
  return /[/+]json\b/.test(m);
}

function looksJson(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}
