import { AccordError } from '../errors';
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
  const stack: { open: '{' | '['; key?: string }[] = [];
  let inString = false;
  let escape = false;
  let str = '';
  let lastKey: string | undefined;
  let line = 1;
  let entriesDepth = -1;
  let entry: { parts: string[]; size: number; line: number; tooLarge: boolean; from: number } | undefined;
  let entries = 0;
  let sawLog = false;

  const finishEntry = (text: string, at: number) => {
    entries++;
    const read = readJson(text);
    if ('problem' in read) {
      sink.problem(new AccordError('ACCORD_ERR_JSON', `this HAR entry is ${read.problem}`, { file, line: at }));
      return;
    }
    const value = read.value;
    harEntry(file, at, value, sink, include);
  };

  for await (const chunk of chunks) {
    if (entry) entry.from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === '\n') line++;
      if (inString) {
        if (escape) escape = false;
        else if (c === '\\') escape = true;
        else if (c === '"') inString = false;
        else if (str.length < 64) str += c;
        continue;
      }
      switch (c) {
        case '"':
          inString = true;
          str = '';
          break;
        case ':':
          lastKey = str;
          break;
        case ',':
          lastKey = undefined;
          break;
        case '{':
        case '[': {
          const parent = stack[stack.length - 1];
          const key = parent?.open === '{' ? lastKey : undefined;
          if (stack.length === 1 && key === 'log' && c === '{') sawLog = true;
          stack.push({ open: c, key });
          lastKey = undefined;
          if (c === '[' && key === 'entries' && stack.length === 3 && stack[1].key === 'log') entriesDepth = stack.length;
          else if (c === '{' && entriesDepth > 0 && stack.length === entriesDepth + 1) {
            entry = { parts: [], size: 0, line, tooLarge: false, from: i };
          }
          break;
        }
        case '}':
        case ']': {
          const top = stack.pop();
          if (!top || (top.open === '{') !== (c === '}')) {
            throw new AccordError('ACCORD_ERR_JSON', `the HAR file is not valid JSON: unexpected "${c}"`, { file, line });
          }
          if (entry && c === '}' && stack.length === entriesDepth) {
            const piece = chunk.slice(entry.from, i + 1);
            const e = entry;
            entry = undefined;
            if (e.tooLarge || e.size + piece.length > limits.maxHarEntryChars) {
              sink.problem(new AccordError('ACCORD_ERR_LIMIT', `this HAR entry is larger than ${limits.maxHarEntryChars} characters; it is not read`, { file, line: e.line }));
            } else finishEntry(e.parts.join('') + piece, e.line);
          }
          if (c === ']' && stack.length === entriesDepth - 1) entriesDepth = -1;
          break;
        }
        default:
          break;
      }
    }
    if (entry) {
      const piece = chunk.slice(entry.from);
      entry.size += piece.length;
      if (entry.size > limits.maxHarEntryChars) {
        entry.tooLarge = true;
        entry.parts = [];
      } else entry.parts.push(piece);
    }
  }
  if (stack.length > 0 || inString) throw new AccordError('ACCORD_ERR_LOG', 'the HAR file is cut short: its JSON never closes', { file, line });
  if (!sawLog) throw new AccordError('ACCORD_ERR_LOG', 'not a HAR file: no "log" object', { file, line: 1 });
  return { lines: line, entries };
}

interface HarHeader {
  name: string;
  value: string;
}

function harEntry(file: string, line: number, value: unknown, sink: ExtractSink, include: readonly string[]): void {
  const e = value as { request?: Record<string, unknown>; response?: Record<string, unknown> };
  const req = e?.request as { method?: string; url?: string; headers?: HarHeader[]; postData?: { mimeType?: string; text?: string } } | undefined;
  const res = e?.response as { status?: number; headers?: HarHeader[]; content?: { mimeType?: string; text?: string; encoding?: string } } | undefined;
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
  const request: LoggedMessage = {
    direction: 'request',
    shape: 'har',
    body: requestBody,
    at,
    method: req.method.toUpperCase(),
    path,
    query,
    ...(soapAction !== undefined ? { headers: { soapaction: soapAction } } : {}),
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
