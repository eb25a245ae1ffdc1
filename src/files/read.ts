import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, statSync, type Stats } from 'node:fs';
import { AccordError } from '../errors';
import { excerpt } from '../printable';
import { FILE_LIMITS } from '../limits';
import { decodeXml, utf16Of } from './decode';

/**
 * The one way accord reads an input file. Only regular files are read: a
 * FIFO, a device (/dev/zero, /dev/urandom), a socket or a folder is refused by
 * name. The file is opened non-blocking, so opening a FIFO never waits for a
 * writer, and checked again on the opened descriptor (the path may have been
 * swapped meanwhile). What is read is counted as it is read and stops at the
 * limit plus one byte: /proc files report a size of 0, so the size on disk is
 * never trusted.
 */
export interface InputFile {
  /** What the file is, for messages: "contract", "WSDL", "example file". */
  what: string;
  /** Most bytes accepted (see FILE_LIMITS). */
  limit: number;
  /** The path as the user gave it, for messages (default: the path read). */
  shown?: string;
}

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** The bytes of a regular file, at most `limit` of them. */
export function readInputBytes(file: string, input: InputFile): Buffer {
  const shown = shownPath(input.shown ?? file);
  let fd: number;
  try {
    // Refused before opening where possible: opening some devices has effects of its own.
    refuseIrregular(statSync(file), shown, input.what);
    fd = openSync(file, OPEN_FLAGS);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      const target = danglingTarget(file);
      if (target !== undefined) throw new AccordError('ACCORD_ERR_IO', `${shown} is a symlink to ${excerpt(target, 300)}, which does not exist`, {}, { cause: e });
    }
    throw e instanceof AccordError ? e : ioError(e, shown, input.what);
  }
  try {
    const st = fstatSync(fd);
    refuseIrregular(st, shown, input.what);
    return readBounded(fd, st.size, input.limit, shown, input.what);
  } catch (e) {
    throw e instanceof AccordError ? e : ioError(e, shown, input.what);
  } finally {
    closeSync(fd);
  }
}

/** A text file (UTF-8) as a string: a binary or UTF-16 file is refused with one line saying so. */
export function readInputText(file: string, input: InputFile): string {
  return decodeText(readInputBytes(file, input), shownPath(input.shown ?? file), input.what);
}

/**
 * An XML file (a message, an example, a WSDL) as text, in the encoding its byte order mark or XML
 * declaration names (decodeXml): recorded answers of older services are ISO-8859-1, .NET exports UTF-16.
 * Binary content is refused; `nulOnly` leaves other control characters to the XML parser, which says where.
 */
export function readInputXml(file: string, input: InputFile, options: { nulOnly?: boolean } = {}): string {
  return decodeXmlText(readInputBytes(file, input), shownPath(input.shown ?? file), input.what, options);
}

/** Bytes of an XML document as text (see readInputXml). */
export function decodeXmlText(bytes: Buffer, shown: string, what: string, options: { nulOnly?: boolean } = {}): string {
  if (!utf16Of(bytes)) refuseBinary(bytes, shown, what, options);
  return decodeXml(bytes);
}

/** Bytes that should be UTF-8 text (a file, a git blob) as a string; binary content is refused. */
export function decodeText(bytes: Buffer, shown: string, what: string): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new AccordError('ACCORD_ERR_IO', `${shown} is UTF-16 text; save the ${what} as UTF-8`);
  }
  refuseBinary(bytes, shown, what);
  return bytes.toString('utf8');
}

/** Refuses bytes that text never holds in its first FILE_LIMITS.sniffBytes. */
export function refuseBinary(bytes: Uint8Array, shown: string, what: string, options: { nulOnly?: boolean } = {}): void {
  const head = bytes.subarray(0, FILE_LIMITS.sniffBytes);
  const at = options.nulOnly ? head.indexOf(0) : binaryOffset(head);
  if (at >= 0) throw binaryError(shown, what, at, bytes[at]);
}

export function binaryError(shown: string, what: string, offset: number, byte: number): AccordError {
  const name = byte === 0 ? 'a NUL byte' : `control character 0x${byte.toString(16).padStart(2, '0')}`;
  return new AccordError('ACCORD_ERR_IO', `${shown} is binary (byte ${offset} is ${name}), not a ${what}`);
}

/** Offset of the first byte that text never holds (NUL, or the ninth C0 control other than tab, line ends, form feed and escape), or -1. */
export function binaryOffset(buf: Uint8Array): number {
  let controls = 0;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    if (b === 0) return i;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) {
      controls++;
      if (controls > 8) return i;
    }
  }
  return -1;
}

/** What a file is when it is not a regular file ("a named pipe (FIFO)"), or undefined for a regular file. */
export function irregularKind(st: Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

export function refuseIrregular(st: Stats, shown: string, what: string): void {
  const kind = irregularKind(st);
  if (kind) throw new AccordError('ACCORD_ERR_IO', `${shown} is ${kind}, not a ${what}: accord reads only regular files`);
}

function readBounded(fd: number, size: number, limit: number, shown: string, what: string): Buffer {
  // The size is a hint only: /proc files say 0, a growing file says too little.
  let buf = Buffer.allocUnsafe(Math.min(limit + 1, Math.max(size + 1, 64 * 1024)));
  let total = 0;
  for (;;) {
    if (total === buf.length) {
      const bigger = Buffer.allocUnsafe(Math.min(limit + 1, buf.length * 2));
      buf.copy(bigger, 0, 0, total);
      buf = bigger;
    }
    const n = readSync(fd, buf, total, buf.length - total, null);
    if (n === 0) break;
    total += n;
    if (total > limit) throw limitError(shown, what, limit);
  }
  return buf.subarray(0, total);
}

export function limitError(shown: string, what: string, limit: number): AccordError {
  return new AccordError('ACCORD_ERR_LIMIT', `${shown} is larger than ${formatBytes(limit)}, the limit for a ${what}`);
}

/** "16 MB (16777216 bytes)". */
export function formatBytes(n: number): string {
  const mb = n / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB (${n} bytes)` : `${n} bytes`;
}

/** An operating-system error as one line that names the file once, without an errno dump. */
export function ioError(e: unknown, shown: string, what = 'file'): AccordError {
  const code = (e as NodeJS.ErrnoException)?.code;
  const say = (message: string) => new AccordError('ACCORD_ERR_IO', message, {}, { cause: e });
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return say(`no such file: ${shown}`);
    case 'EISDIR':
      return say(`${shown} is a folder, not a ${what}`);
    case 'EACCES':
    case 'EPERM':
      return say(`permission denied: ${shown}`);
    case 'ELOOP':
      return say(`${shown} is a symlink that points to itself in a loop`);
    case 'ENAMETOOLONG':
      return say(`the path is too long: ${shown}`);
    case 'EAGAIN':
      return say(`${shown} cannot be read without waiting: accord reads only regular files`);
    default:
      return say(`cannot read ${shown}: ${code ?? (e as Error)?.message ?? String(e)}`);
  }
}

/** Whether the path itself is a symbolic link (false when it does not exist or cannot be looked at). */
export function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function danglingTarget(file: string): string | undefined {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/** A path fit for a message: control characters escaped, a very long one cut. */
export function shownPath(file: string): string {
  return excerpt(file, 300);
}
