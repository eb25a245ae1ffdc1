import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * What the stub answers to bytes that are not HTTP. Node's own answer destroys the
 * connection at once, so a valid request pipelined before the malformed one in the same
 * packet lost its response. Here the requests already read are answered first, in order,
 * then the malformed one gets its 400 and the connection closes.
 */
export interface MalformedGuard {
  /**
   * Called by the server's request listener for every request: a push, and no listener of its
   * own (a second 'request' listener made Node copy the listener list on every request); only
   * a malformed request looks at what is still being answered.
   */
  track(req: IncomingMessage, res: ServerResponse): void;
  /** Takes over the server's answer to a malformed request. */
  attach(server: Server): void;
}

export function malformedGuard(graceMs: number): MalformedGuard {
  const open = new WeakMap<Duplex, Connection>();
  const track = (req: IncomingMessage, res: ServerResponse): void => {
    let c = open.get(req.socket);
    if (!c) open.set(req.socket, (c = { answering: [] }));
    const a = c.answering;
    // Answers leave in order: when the newest is sent, so are all before it.
    if (a.length > 0 && a[a.length - 1].res.writableFinished) a.length = 0;
    a.push({ req, res });
  };
  const attach = (server: Server): void => {
    answerClientErrors(server, open, graceMs);
  };
  return { track, attach };
}

function answerClientErrors(server: Server, open: WeakMap<Duplex, Connection>, graceMs: number): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const c = open.get(socket) ?? { answering: [] };
    open.set(socket, c);
    // A broken parser reports again for every later packet: the first report decides.
    if (c.refuse || c.refused) return;
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    c.refuse = () => {
      c.refuse = undefined;
      c.refused = true;
      if (!socket.writable) return void socket.destroy();
      const text = `accord stub: ${describe(status, err.code)}\n`;
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
      );
    };
    // A request time-out means the request in flight will never end: answered now.
    if (!waiting(c) || status === 408) return c.refuse();
    for (const { res } of c.answering) {
      res.once('close', () => {
        if (!waiting(c)) c.refuse?.();
      });
    }
    // The requests before it end soon (their bytes have all arrived); if not, the connection goes.
    setTimeout(() => {
      if (c.refuse) socket.destroy();
    }, graceMs).unref();
  });
}

/**
 * Whether requests read whole are still being answered. One cut short by the fault (a body
 * shorter than its Content-Length, then the client's end) never will be: it is not waited for.
 */
function waiting(c: Connection): boolean {
  for (const { req, res } of c.answering) if (req.complete && !res.writableFinished && !res.destroyed) return true;
  return false;
}

interface Connection {
  /** Requests read on this connection, oldest first; dropped when a later one arrives after all of them were answered. */
  answering: { req: IncomingMessage; res: ServerResponse }[];
  /** Set once a malformed request is read: sends its 400 when the earlier ones are answered. */
  refuse?: () => void;
  refused?: boolean;
}

function describe(status: number, code: string | undefined): string {
  if (status === 431) return 'request headers too large (over the limit of 16 KB)';
  if (status === 408) return 'request not received in time';
  // The parser's code names the fault (HPE_INVALID_METHOD, …); the bytes themselves are not echoed.
  return `malformed HTTP request${code && /^HPE_[A-Z_]+$/.test(code) ? ` (${code})` : ''}`;
}
