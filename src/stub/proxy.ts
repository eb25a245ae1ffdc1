import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { AccordError } from '../errors';
import { HIDDEN, isCredentialHeader } from '../http/credentials';
import { messageText } from '../http/message-text';
import { readBoundedBody } from '../http/read-body';
import { DEFAULT_MAX_BODY_BYTES } from './server';

/**
 * `accord proxy`: a recording proxy. Every request is forwarded to the target, its answer
 * returned as it came, and the pair recorded as a HAR entry (HTTP Archive 1.2), so that on
 * stop the traffic goes through the same pipeline as `accord import log` (typing, merging,
 * redaction, the check that every call fits). The recording is kept in memory, bounded by
 * the number of exchanges; bodies are bounded like the stub's.
 */
export interface ProxyOptions {
  /** The real service: `http://host:port` (a path prefix is kept). */
  target: string;
  port?: number;
  host?: string;
  maxBodyBytes?: number;
  /** Exchanges kept; later ones are forwarded but not recorded (and counted). */
  maxExchanges?: number;
  log?: (line: string) => void;
}

export interface RunningProxy {
  url: string;
  /** The recorded traffic as a HAR document. */
  har(): { log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] } };
  /** Exchanges forwarded but not recorded (over maxExchanges). */
  readonly dropped: number;
  close(): Promise<void>;
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; httpVersion: string; headers: { name: string; value: string }[]; postData?: { mimeType: string; text: string } };
  response: { status: number; statusText: string; httpVersion: string; headers: { name: string; value: string }[]; content: { size: number; mimeType: string; text: string } };
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length']);

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  let target: URL;
  try {
    target = new URL(options.target);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new AccordError('ACCORD_ERR_USAGE', `--target must be an http:// or https:// URL, found "${options.target}"`);
  }
  const prefix = target.pathname.endsWith('/') ? target.pathname.slice(0, -1) : target.pathname;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxExchanges = options.maxExchanges ?? 10_000;
  const entries: HarEntry[] = [];
  let dropped = 0;
  const server = createServer((req, res) => {
    void forward(req, res).catch((e: unknown) => {
      options.log?.(`accord proxy: ${req.method} ${req.url}: ${(e as Error).message}`);
      if (!res.headersSent) {
        const text = `accord proxy: could not reach ${target.origin}: ${(e as Error).message}\n`;
        res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
        res.end(text);
      } else res.destroy();
    });
  });

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const body = await readBoundedBody(req, maxBody, () => new Error(`request body larger than ${maxBody} bytes`));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const url = `${target.origin}${prefix}${req.url ?? '/'}`;
    const answer = await request(url, { method: (req.method ?? 'GET') as 'GET', headers, body: body.length > 0 ? body : undefined });
    const bytes = Buffer.from(await answer.body.arrayBuffer());
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
    out['content-length'] = String(bytes.length);
    res.writeHead(answer.statusCode, out);
    res.end(bytes);
    if (entries.length >= maxExchanges) {
      dropped++;
      return;
    }
    // A recording is written to disk and shared: credentials (Authorization, Cookie, Set-Cookie…) are kept out of it.
    const list = (h: Record<string, string | string[] | undefined>) =>
      Object.entries(h).flatMap(([name, v]) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((value) => ({ name, value: isCredentialHeader(name) ? HIDDEN : value }))));
    // Recorded as accord matches it: decompressed, an MTOM/XOP message as its envelope, in its own encoding.
    const asRecorded = (bytes: Buffer, type: string, coding: string | undefined) => {
      const read = messageText(bytes, type, coding, maxBody);
      return 'problem' in read ? { mimeType: type, text: bytes.toString('utf8') } : { mimeType: read.contentType ?? type, text: read.text };
    };
    const sent = asRecorded(body, headers['content-type'] ?? '', headers['content-encoding']);
    const answered = asRecorded(bytes, String(answer.headers['content-type'] ?? ''), answer.headers['content-encoding'] as string | undefined);
    entries.push({
      startedDateTime: new Date(started).toISOString(),
      time: Date.now() - started,
      request: {
        method: req.method ?? 'GET',
        // The URL the client asked for, as the contract will name it: the target's prefix is the service's business.
        url: `${target.origin}${req.url ?? '/'}`,
        httpVersion: 'HTTP/1.1',
        headers: list(req.headers),
        ...(body.length > 0 ? { postData: sent } : {}),
      },
      response: {
        status: answer.statusCode,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        headers: list(answer.headers),
        content: { size: bytes.length, ...answered },
      },
    });
  }

  const host = options.host ?? '127.0.0.1';
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new AccordError('ACCORD_ERR_USAGE', `cannot listen on ${host}:${options.port ?? 0}: ${e.code === 'EADDRINUSE' ? 'the port is in use' : e.message}`)),
    );
    server.listen(options.port ?? 0, host, () => resolve((server.address() as AddressInfo).port));
  });
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    har: () => ({ log: { version: '1.2', creator: { name: 'accord proxy', version: '1' }, entries } }),
    get dropped() {
      return dropped;
    },
    close: () =>
      (closing ??= new Promise((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      })),
  };
}
