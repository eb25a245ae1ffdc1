import { constants, createReadStream, promises as fsp, type ReadStream } from 'node:fs';
import { AccordError } from '../errors';
import { ioError, refuseIrregular, shownPath } from './read';

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
