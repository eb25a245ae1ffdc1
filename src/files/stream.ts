import { constants, createReadStream, promises as fsp, type ReadStream } from 'node:fs';
import { AccordError } from '../errors';
import { decodeText, decodeXmlText, ioError, limitError, refuseIrregular, shownPath } from './read';

/**
 * A regular file opened for streaming (logs, which may be far larger than
 * memory): the same checks as readInputBytes, on the opened descriptor. The
 * caller bounds what it keeps; a regular file ends.
 */
export async function openInputStream(file: string, input: { what: string; shown?: string; highWaterMark?: number }): Promise<ReadStream> {
  const shown = shownPath(input.shown ?? file);
  let handle: fsp.FileHandle | undefined;
  try {
    refuseIrregular(await fsp.stat(file), shown, input.what);
    handle = await fsp.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
    refuseIrregular(await handle.stat(), shown, input.what);
  } catch (e) {
    await handle?.close();
    throw e instanceof AccordError ? e : ioError(e, shown, input.what);
  }
  return createReadStream('', { fd: handle, highWaterMark: input.highWaterMark ?? 64 * 1024 });
}

/**
 * A stream read whole as UTF-8 text (standard input given as "-"), counted as it comes and refused one
 * byte past `limit`: a pipe has no size to check first, and a binary one is refused as a file would be.
 */
export async function readStreamText(stream: NodeJS.ReadableStream, input: { what: string; limit: number; shown: string; xml?: boolean }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > input.limit) {
      if ('destroy' in stream && typeof stream.destroy === 'function') stream.destroy();
      throw limitError(input.shown, input.what, input.limit);
    }
    chunks.push(b);
  }
  return (input.xml ? decodeXmlText : decodeText)(Buffer.concat(chunks), input.shown, input.what);
}
