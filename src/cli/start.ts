import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';
import { cacheFolder, hash53, writeCacheEntry } from '../files/cache-folder';
import { FILE_LIMITS } from '../limits';

/**
 * Loads the bundled CLI (`dist/accord-cli.js`, one esbuild file of ~750 KB) the way Node's own
 * loader would, but with V8's code cache: compiling the bundle and the functions a command runs
 * took a stub 20-40 ms of its start on every run; with the cache V8 reads them back in 2-4 ms.
 * Node 20 has no compile cache of its own (`module.enableCompileCache` came with 22.1).
 *
 * The cache is an entry in accord's cache folder (files/cache-folder.ts: private to the user,
 * `ACCORD_CACHE=0` turns it off), one per command (the stub's holds what the stub compiled),
 * named by a hash of the bundle's path, size and modification time, the command, and this
 * Node.js's version and platform. V8 itself refuses data made by another V8 or with other flags,
 * and checks the source's length; the name covers an edit that keeps the length. An entry is
 * written at the end of a run that found none usable. Any failure reading or writing it loads the
 * bundle as if there were no cache: the cache can make accord faster, never break it.
 */
const SUFFIX = '.v8';
/** Entries kept: one per command and build; beyond this the oldest go. */
const MAX_ENTRIES = 40;

interface Cli {
  main(): void;
}

export function loadCli(file: string, command: string | undefined): Cli {
  const source = readFileSync(file, 'utf8');
  const dir = cacheFolder();
  const entry = dir === null ? undefined : path.join(dir, `cli-${entryKey(file, command)}${SUFFIX}`);
  const cached = entry === undefined ? undefined : readEntry(entry);
  // The wrapper Node's loader puts around a CommonJS module, on the first line so line numbers stay.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, { filename: file, cachedData: cached });
  const module = { exports: {} as Cli };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
  if (entry !== undefined && (cached === undefined || script.cachedDataRejected)) {
    // At the end of the run, so the entry holds every function the command compiled, not only the top level.
    process.once('exit', () => writeCacheEntry(entry, script.createCachedData(), SUFFIX, MAX_ENTRIES));
  }
  return module.exports;
}

function entryKey(file: string, command: string | undefined): string {
  const st = statSync(file);
  // A command name as typed; anything else (an option, a typo) shares one entry.
  const name = command !== undefined && command.length <= 30 && [...command].every((c) => (c >= 'a' && c <= 'z') || c === '-') && command[0] !== '-' ? command : '-';
  return `${name}-${hash53([file, st.size, st.mtimeMs, name, process.version, process.arch, process.platform].join('\0')).toString(36)}`;
}

/**
 * The entry's bytes when it is a regular file of a sane size; undefined otherwise (missing is the usual case).
 * Not files/read.ts (the one reader of input files): loading it and what it needs costs a start more than it
 * saves, and an entry in the private cache folder is no user input; opened the same careful way all the same.
 */
function readEntry(entry: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(entry, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || st.size === 0 || st.size > FILE_LIMITS.cacheEntryBytes) return undefined;
    const data = Buffer.allocUnsafe(st.size);
    let read = 0;
    while (read < st.size) {
      const n = readSync(fd, data, read, st.size - read, null);
      if (n === 0) return undefined;
      read += n;
    }
    return data;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
