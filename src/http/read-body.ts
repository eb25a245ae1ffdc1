import type { Readable } from 'node:stream';

/**
 * The one reader of a body under a byte limit: a request a server reads, an answer a client reads,
 * a document the proxy rewrites. Read from events, not `for await`: an async iterator costs several
 * promises a chunk, and under Jest (whose AsyncLocalStorage hooks every promise) promises are a
 * measurable part of a scenario's CPU time; `readBody` itself takes no promise at all, so a server's
 * hot path can call it too.
 */

/** How a bounded read ended: the whole body (`complete`), or at the first byte past the limit. */
export interface BodyRead {
  /** The whole body; past the limit, what `past: 'pause'` read (the chunk that passed the limit too), else empty. */
  bytes: Buffer;
  complete: boolean;
}

/**
 * What becomes of a body past the limit:
 * - `destroy`: it is destroyed (a client's answer, nothing more of it is wanted);
 * - `drain`: it is read on to its end and dropped, so the connection lives to carry an answer (a server's 413);
 * - `pause`: it is paused where it is, and the rest is left to the caller (the proxy streams it on).
 */
export type PastLimit = 'destroy' | 'drain' | 'pause';

const EMPTY = Buffer.alloc(0);

/**
 * Reads `body` and calls `done` once: with the whole body when it ends within `max` bytes, at the
 * first byte past `max` with `complete: false` (the body then treated as `past` says), or with the
 * stream's error. A body of one chunk is handed on as it came, not copied.
 */
export function readBody(body: Readable, max: number, past: PastLimit, done: (error: Error | undefined, read?: BodyRead) => void): void {
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  let settled = false;
  const settle = (error: Error | undefined, read?: BodyRead): void => {
    if (settled) return;
    settled = true;
    done(error, read);
  };
  const collected = (): Buffer => (more ? Buffer.concat(more, size) : (first ?? EMPTY));
  const onData = (chunk: Buffer | string): void => {
    if (settled) return;
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += b.length;
    if (size > max) {
      if (past === 'pause') {
        (more ??= first ? [first] : []).push(b);
        body.off('data', onData);
        body.off('end', onEnd);
        body.pause();
        return settle(undefined, { bytes: collected(), complete: false });
      }
      first = more = undefined;
      if (past === 'destroy') {
        body.off('data', onData);
        body.destroy();
      }
      return settle(undefined, { bytes: EMPTY, complete: false });
    }
    if (!first) first = b;
    else (more ??= [first]).push(b);
  };
  const onEnd = (): void => {
    const bytes = collected();
    first = more = undefined;
    settle(undefined, { bytes, complete: true });
  };
  body.on('data', onData);
  body.once('end', onEnd);
  body.on('error', (e: Error) => settle(e));
}

/** `readBody` as a promise: the whole body or what was read when it passed `max` (`destroy` or `pause`). */
export function readBodyUpTo(body: Readable, max: number, past: 'destroy' | 'pause'): Promise<BodyRead> {
  return new Promise((resolve, reject) => readBody(body, max, past, (error, read) => (error ? reject(error) : resolve(read!))));
}

/** A whole body, refused with `tooLarge()` one byte past `max` (the stream is destroyed then). */
export function readBoundedBody(body: Readable, max: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    readBody(body, max, 'destroy', (error, read) => {
      if (error) reject(error);
      else if (read!.complete) resolve(read!.bytes);
      else reject(tooLarge());
    }),
  );
}
