import { Agent, request } from 'undici';
import { AccordError } from '../errors';
import { messageText } from './message-text';
import { isBinary } from '../printable';
import { pathWithQuery, type HttpRequest, type HttpResponse } from './message';
import { readBoundedBody } from './read-body';

export interface SendOptions {
  timeoutMs?: number;
  /** Largest response body read; more is a failure, not a hang or a memory spike. */
  maxBodyBytes?: number;
  dispatcher?: Agent;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BODY = 10 * 1024 * 1024;

/**
 * Where a request goes: its path under the base URL's own path, so a service behind
 * http://host/prefix gets /prefix/ws for the contract's /ws.
 */
export function requestUrl(baseUrl: string, req: Pick<HttpRequest, 'path' | 'query'>): URL {
  try {
    return new URL(pathWithQuery(req).replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  } catch {
    throw new AccordError('ACCORD_ERR_USAGE', `base URL "${baseUrl}" is not a valid URL (set ACCORD_BASE_URL, e.g. http://127.0.0.1:8080)`);
  }
}

/** Sends one request; every way it can fail comes back as an AccordError with a plain sentence. */
export async function send(baseUrl: string, req: HttpRequest, options: SendOptions = {}): Promise<HttpResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const url = requestUrl(baseUrl, req);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await request(url, {
      method: req.method as 'GET',
      headers: req.headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body,
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

function describeNetworkError(e: unknown, origin: string, timeoutMs: number): string {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  if (code === 'ECONNREFUSED') return `connection refused by ${origin}: is the service running? (set ACCORD_BASE_URL to its address)`;
  if (code === 'ENOTFOUND') return `host of ${origin} not found`;
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return `no answer from ${origin} within ${timeoutMs} ms (set ACCORD_TIMEOUT_MS to wait longer)`;
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `connection to ${origin} closed before a complete answer`;
  return `request to ${origin} failed: ${code ?? err.message ?? String(e)}`;
}
