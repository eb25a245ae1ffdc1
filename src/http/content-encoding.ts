import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

/**
 * A body as sent with `Content-Encoding: gzip | deflate | br` (RFC 9110 8.4), decompressed; never
 * past `maxBytes`, so a small compressed body cannot become gigabytes (a "zip bomb"). The `soap`
 * package's `forceGzip` compresses requests so, and a service answers so when the contract's
 * recorded headers ask for it (`Accept-Encoding: gzip`). `identity` and no header leave the bytes as
 * they are; an encoding accord does not know leaves them too (the body then shows as binary).
 * Returns the reason as text when the bytes do not decompress or grow past the limit.
 */
export function decodeContent(bytes: Buffer, contentEncoding: string | undefined, maxBytes: number): Buffer | { problem: string } {
  if (contentEncoding === undefined) return bytes;
  let out = bytes;
  // Codings are listed in the order they were applied: undone last first.
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  for (const coding of codings.reverse()) {
    const undo = UNDO[coding];
    if (!undo) return out;
    try {
      out = undo(out, maxBytes);
    } catch (e) {
      const tooBig = (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError;
      return { problem: tooBig ? `the ${coding} body decompresses to more than ${maxBytes} bytes` : `the body is not valid ${coding} (Content-Encoding: ${coding})` };
    }
  }
  return out;
}

const UNDO: Record<string, (b: Buffer, max: number) => Buffer> = {
  gzip: (b, max) => gunzipSync(b, { maxOutputLength: max }),
  'x-gzip': (b, max) => gunzipSync(b, { maxOutputLength: max }),
  // RFC 9110 says zlib-wrapped; some servers send raw deflate, which every browser also reads.
  deflate: (b, max) => ((b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0 ? inflateSync(b, { maxOutputLength: max }) : inflateRawSync(b, { maxOutputLength: max })),
  br: (b, max) => brotliDecompressSync(b, { maxOutputLength: max }),
};
