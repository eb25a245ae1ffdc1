import { promises as fsp } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { AccordError } from '../errors';
import { binaryOffset, FILE_LIMITS, openInputStream, shownPath } from '../files';
import { DEFAULT_LOG_LIMITS, type LogLimits } from './limits';

export interface LogLine {
  text: string;
  /** 1-based line number in the (decompressed) file. */
  line: number;
  /** The line was longer than the limit: `text` holds only its beginning. */
  overlong: boolean;
}

/**
 * A log's text as a stream of chunks: gzip is inflated, a UTF-8 or UTF-16LE
 * byte-order mark is honoured, and binary content is refused up front with the
 * offset of the first byte that gave it away. Nothing is ever read whole.
 */
export async function* readLogText(real: string, limits: LogLimits = DEFAULT_LOG_LIMITS, file = real, onRead?: ReadProgress): AsyncGenerator<string> {
  const stdin = real === STDIN;
  // Only a regular file, or standard input by its name "-": a FIFO or device path (/dev/zero, /dev/stdin) is refused.
  // For progress only: the file is regular, so its size on disk is what will be read (before inflating). Taken before opening, so nothing can fail between opening and the try below that closes.
  const size = stdin ? undefined : (await fsp.stat(real).catch(() => undefined))?.size;
  const raw = stdin ? process.stdin : await openInputStream(real, { what: 'log', shown: file });
  const source: AsyncIterable<Buffer> = raw;
  let total = 0;
  let first = true;
  let decoder: InstanceType<typeof TextDecoder> | undefined;
  let sniffed = 0;
  let inflated = 0;
  let gzip = false;
  try {
    for await (const chunk of peekGzip(source, (isGzip) => {
      gzip = isGzip;
    })) {
      let buf = chunk as Buffer;
      total += buf.length;
      // Bytes as read are inflated bytes for gzip, which a file size cannot be compared with.
      onRead?.(total, gzip ? undefined : size);
      if (gzip) {
        inflated += buf.length;
        if (inflated > limits.maxInflatedBytes)
          throw new AccordError('ACCORD_ERR_LIMIT', `inflates to more than ${limits.maxInflatedBytes} bytes; refusing to read further`, { file });
      }
      if (first) {
        first = false;
        if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) {
          decoder = new TextDecoder('utf-16le');
          buf = buf.subarray(2);
        } else if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) {
          throw new AccordError('ACCORD_ERR_LOG', 'the log is UTF-16 big-endian; convert it to UTF-8 first (iconv -f UTF-16BE -t UTF-8)', { file, line: 1 });
        } else {
          decoder = new TextDecoder('utf-8', { ignoreBOM: false });
        }
      }
      if (decoder!.encoding === 'utf-8' && sniffed < FILE_LIMITS.sniffBytes) {
        const bad = binaryOffset(buf.subarray(0, FILE_LIMITS.sniffBytes - sniffed));
        if (bad >= 0) throw binaryError(file, sniffed + bad, gzip);
        sniffed += buf.length;
      }
      const text = decoder!.decode(buf, { stream: true });
      if (text) yield text;
    }
    if (decoder) {
      const rest = decoder.decode();
      if (rest) yield rest;
    }
    // Counted, not taken from the size on disk: /proc files say 0 and hold text.
    if (total === 0) throw new AccordError('ACCORD_ERR_LOG', 'the log is empty', { file });
  } catch (e) {
    if (e instanceof AccordError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR')
      throw new AccordError('ACCORD_ERR_LOG', `the gzip-compressed log is damaged or cut short (${(e as Error).message})`, { file });
    throw new AccordError('ACCORD_ERR_IO', `cannot read log: ${code ?? (e as Error).message}`, { file });
  } finally {
    // Waits for the descriptor to be closed, so a caller that stops early leaves nothing open behind it.
    if (!stdin && !raw.closed) await new Promise((done) => raw.once('close', done).destroy());
  }
}

/** The file name that stands for standard input. */
export const STDIN = '-';

/** Logs that can be read only once (standard input): the CLI cannot re-read them to check. Every other log is a regular file. */
export function readableTwice(file: string): boolean {
  return file !== STDIN;
}

/** How far reading has come: bytes so far and, when known, how many there are. */
export type ReadProgress = (bytes: number, size: number | undefined) => void;

/** Passes chunks through, inflating them when the stream starts with the gzip magic bytes. */
async function* peekGzip(source: AsyncIterable<Buffer>, onDetect: (gzip: boolean) => void): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  const head = await it.next();
  if (head.done) return;
  const isGzip = head.value.length >= 2 && head.value[0] === 0x1f && head.value[1] === 0x8b;
  onDetect(isGzip);
  const rest: AsyncIterable<Buffer> = {
    [Symbol.asyncIterator]: () => {
      let sentHead = false;
      return {
        next: async () => {
          if (!sentHead) {
            sentHead = true;
            return { done: false, value: head.value };
          }
          return it.next();
        },
      };
    },
  };
  if (!isGzip) {
    yield* rest;
    return;
  }
  const gunzip = createGunzip();
  const feed = (async () => {
    for await (const b of rest) if (!gunzip.write(b)) await new Promise((r) => gunzip.once('drain', r));
    gunzip.end();
  })();
  feed.catch((e) => gunzip.destroy(e as Error));
  yield* gunzip as AsyncIterable<Buffer>;
  await feed;
}

function binaryError(file: string, offset: number, gzip: boolean): AccordError {
  return new AccordError(
    'ACCORD_ERR_LOG',
    `${shownPath(file)} is binary (byte ${offset}${gzip ? ' after gzip inflation' : ''} is a control character), not a text log; accord reads text logs, gzip-compressed text logs and HAR files`,
  );
}

/**
 * Lines of a text stream, numbered from 1, without their line ending, in batches: the lines each
 * chunk completes (one await per chunk, not per line: per-line async iteration was a tenth of an
 * import's CPU). A line longer than the limit is cut (and flagged), and its remainder skipped
 * without being held, so one enormous line never fills memory.
 */
export async function* splitLines(chunks: AsyncIterable<string>, maxLineChars = DEFAULT_LOG_LIMITS.maxLineChars): AsyncGenerator<LogLine[]> {
  let partial = '';
  let overlong = false;
  let line = 1;
  for await (const chunk of chunks) {
    const batch: LogLine[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', start);
      if (nl < 0) {
        if (!overlong) {
          partial += chunk.slice(start);
          if (partial.length > maxLineChars) {
            partial = partial.slice(0, 256);
            overlong = true;
          }
        }
        break;
      }
      let text = overlong ? partial : partial + chunk.slice(start, nl);
      if (!overlong && text.length > maxLineChars) {
        text = text.slice(0, 256);
        overlong = true;
      }
      if (text.endsWith('\r')) text = text.slice(0, -1);
      batch.push({ text, line, overlong });
      line++;
      partial = '';
      overlong = false;
      start = nl + 1;
    }
    if (batch.length > 0) yield batch;
  }
  if (partial !== '' || overlong) yield [{ text: partial.endsWith('\r') ? partial.slice(0, -1) : partial, line, overlong }];
}
