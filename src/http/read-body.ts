import type { Readable } from 'node:stream';

/**
 * A whole body, refused with `tooLarge()` one byte past `max` (the stream is destroyed then).
 * Read from events, not `for await`: an async iterator costs several promises a chunk, and under
 * Jest (whose AsyncLocalStorage hooks every promise) promises are a measurable part of a
 * scenario's CPU time.
 *
 * The one reader of a whole body for accord's clients (the runner, OAuth2, the proxy's replayed
 * request). The stub reads its requests in its own handler (stub/server.ts) on purpose: past the
 * limit it must keep the connection to answer 413 (this reader destroys the stream), it stops
 * collecting but never rejects, and it takes no promise per request on its hot path.
 */
export function readBoundedBody(body: Readable, max: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        body.destroy();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    body.once('end', () => resolve(Buffer.concat(chunks, size)));
    body.once('error', reject);
  });
}
