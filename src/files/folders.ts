import { lstatSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { AccordError } from '../errors';
import { CONSUMER_EXAMPLE_LIMITS } from '../limits';
import { shownPath } from './read';

/** accord's own folder under a project root: pulled contracts (`consumes/`), exported consumer examples. */
export const CACHE_DIR = '.accord';
/** Where a consumer's tests export their expectations as example files (`ACCORD_EXPORT_EXAMPLES=1`), under the project root. */
export const EXPORT_DIR = path.join(CACHE_DIR, 'consumer-examples');

/**
 * Folders accord writes files into under a root it owns (`.accord/consumer-examples/` of a
 * project, `consumers/<name>/` of a shared repository's checkout). Each part is read with
 * lstat from the root down, so no link is ever followed out of the root: a folder that is a
 * symlink is refused, not entered, whoever planted it (a committed `consumers/billing -> /home`).
 */

/** Whether `rel` goes up and out (a folder named `..x` stays). */
export function leavesFolder(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}

/** `root/rel`, each missing folder made (with `make`), each existing one checked to be a real folder; its path. */
export function folderInside(root: string, rel: string, make = true): string {
  const norm = path.normalize(rel);
  if (leavesFolder(norm)) throw usage(`${shownPath(rel)} leaves ${shownPath(root)}`);
  let at = root;
  for (const part of norm === '.' ? [] : norm.split(path.sep)) {
    at = path.join(at, part);
    let st;
    try {
      st = lstatSync(at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      if (!make) return at;
      try {
        mkdirSync(at);
        continue;
      } catch (made) {
        // Another process (a parallel Jest worker exporting too) made it first: checked like any other.
        if ((made as NodeJS.ErrnoException).code !== 'EEXIST') throw made;
        st = lstatSync(at);
      }
    }
    if (st.isSymbolicLink()) throw usage(`${shownPath(at)} is a symlink: accord never writes through a link`);
    if (!st.isDirectory()) throw usage(`${shownPath(at)} is not a folder`);
  }
  return at;
}

/** Removes the regular file `root/rel` (a link is removed, never followed); the folders above are checked first. */
export function removeInside(root: string, rel: string): void {
  folderInside(root, path.dirname(rel), false);
  unlinkSync(path.join(root, rel));
}

/**
 * The regular files under `root/rel` whose names end with `suffix`, as paths relative to `root`
 * with `/` separators, sorted; symlinks are left out (never followed), and the walk is bounded by
 * CONSUMER_EXAMPLE_LIMITS (more files is an error naming the folder). A missing folder has none.
 */
export function filesInside(root: string, rel: string, suffix: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(path.join(root, dir));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw e;
    }
    for (const name of names.sort()) {
      const child = dir === '' ? name : `${dir}/${name}`;
      const st = lstatSync(path.join(root, child));
      if (st.isDirectory()) {
        if (depth >= CONSUMER_EXAMPLE_LIMITS.depth) throw limit(`${shownPath(path.join(root, child))} is more than ${CONSUMER_EXAMPLE_LIMITS.depth} folders deep`);
        if (name !== '.git') walk(child, depth + 1);
      } else if (st.isFile() && name.endsWith(suffix)) {
        if (out.length >= CONSUMER_EXAMPLE_LIMITS.files) throw limit(`${shownPath(path.join(root, rel))} holds more than ${CONSUMER_EXAMPLE_LIMITS.files} example files`);
        out.push(child);
      }
    }
  };
  const start = path.normalize(rel);
  if (leavesFolder(start)) throw usage(`${shownPath(rel)} leaves ${shownPath(root)}`);
  // The folders down to the start are checked like the ones written: none may be a link.
  const top = folderInside(root, start, false);
  const st = lstatSync(top, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return [];
  walk(start === '.' ? '' : start.split(path.sep).join('/'), 0);
  return out;
}

function usage(message: string): AccordError {
  return new AccordError('ACCORD_ERR_USAGE', message);
}

function limit(message: string): AccordError {
  return new AccordError('ACCORD_ERR_LIMIT', message);
}
