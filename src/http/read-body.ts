import type { Readable } from 'node:stream';

/**
 * A whole body, refused with `tooLarge()` one byte past `max` (the stream is destroyed then).
 * Read from events, not `for await`: an async iterator costs several promises a chunk, and under
 * Jest (whose AsyncLocalStorage hooks every promise) promises are a measurable part of a
 * scenario's CPU time.
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
