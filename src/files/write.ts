import { closeSync, constants, lstatSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { AccordError } from '../errors';
import { irregularKind, shownPath } from './read';

/**
 * The one way accord writes an output file (`import wsdl -o`, `import log -o`).
 * It never writes through a symlink: a link, dangling or not, would put the
 * file wherever the link points (a link planted in a shared folder could point
 * at the user's ~/.bashrc). An existing file or link is replaced only with
 * --force, and then the link itself is replaced by the file, never followed.
 * FIFOs, devices and folders are never written.
 */
export interface OutputFile {
  /** Overwrite an existing file, or replace a symlink with the file. */
  force?: boolean;
  /** The path as the user gave it, for messages. */
  shown?: string;
  /** Permissions of a new file (default 0o666, less the umask): 0o600 for a file that may hold secrets. */
  mode?: number;
  /** The option that names another place to write, for messages (default `--output`; `accord proxy` has `--out` and `--har`). */
  elsewhere?: string;
}

/** Refuses before any work is done when writing `file` would be refused; see writeOutputFile. */
export function checkOutputFile(file: string, out: OutputFile): void {
  const shown = shownPath(out.shown ?? file);
  let st;
  try {
    st = lstatSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw writeError(e, shown);
  }
  if (st.isSymbolicLink()) {
    if (!out.force)
      throw usage(
        `${shown} is a symlink; accord does not write through links (use --force to replace the link itself with the file, or ${out.elsewhere ?? '--output'} to write elsewhere)`,
      );
    return;
  }
  const kind = irregularKind(st);
  if (kind) throw usage(`${shown} is ${kind}; accord writes only regular files`);
  if (!out.force) throw usage(`${shown} exists; use --force to overwrite it or ${out.elsewhere ?? '--output'} to write elsewhere`);
}

/**
 * Writes `text` to `file`. A new file is created exclusively (O_EXCL with
 * O_NOFOLLOW: a link planted between the check and the write is refused, not
 * followed). With --force the text goes to a private file beside it first and
 * is renamed over the old file or link, which replaces the entry itself.
 */
export function writeOutputFile(file: string, text: string | Iterable<string>, out: OutputFile): void {
  checkOutputFile(file, out);
  const shown = shownPath(out.shown ?? file);
  let exists = true;
  try {
    lstatSync(file);
  } catch {
    exists = false;
  }
  if (!exists) {
    writeNew(file, text, shown, out.mode);
    return;
  }
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  writeNew(temp, text, shown, out.mode);
  try {
    renameSync(temp, file);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // Not there: nothing to clean.
    }
    throw writeError(e, shown);
  }
}

/** `text` may come in pieces (a HAR of hundreds of MB is never one string). */
function writeNew(file: string, text: string | Iterable<string>, shown: string, mode = 0o666): void {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw usage(`${shown} appeared while accord was writing it; nothing written`);
    throw writeError(e, shown);
  }
  try {
    for (const piece of typeof text === 'string' ? [text] : text) {
      const bytes = Buffer.from(piece, 'utf8');
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
    }
  } catch (e) {
    throw writeError(e, shown);
  } finally {
    closeSync(fd);
  }
}

function usage(message: string): AccordError {
  return new AccordError('ACCORD_ERR_USAGE', message);
}

function writeError(e: unknown, shown: string): AccordError {
  const code = (e as NodeJS.ErrnoException)?.code;
  const why =
    code === 'ENOENT' || code === 'ENOTDIR'
      ? 'its folder does not exist'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'ENOSPC'
          ? 'the disk is full'
          : (code ?? (e as Error)?.message ?? String(e));
  return new AccordError('ACCORD_ERR_IO', `cannot write ${shown}: ${why}`, {}, { cause: e });
}
