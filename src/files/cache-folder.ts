import { lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * accord's on-disk cache folder, shared by what it remembers between runs (Gherkin ASTs, the
 * CLI's compiled code). Like Jest's own cache it lives in the temp folder, one per user
 * (`<tmp>/accord-cache-<uid>`); `ACCORD_CACHE_DIR` moves it, `ACCORD_CACHE=0` turns it off.
 * A folder that is not a real directory owned by this user and closed to others is never used:
 * another user could plant entries there. Only node: modules here: the CLI's start-up loads this
 * file before anything else.
 */
let folder: string | null | undefined;

/** The folder in use, or null when caching is off or the folder is unsafe. Decided once per process. */
export function cacheFolder(): string | null {
  if (folder !== undefined) return folder;
  const off = process.env.ACCORD_CACHE === '0' || process.env.ACCORD_CACHE === 'false';
  folder = off ? null : usableFolder(process.env.ACCORD_CACHE_DIR || path.join(tmpdir(), `accord-cache-${uid() ?? 'user'}`));
  return folder;
}

/**
 * The folder, created if missing, when it is a real directory of this user
 * that nobody else can write, inside folders nobody else can rename it out of;
 * else null. Each folder above it must be owned by this user or root and not
 * writable by others, unless sticky (/tmp): in a folder others may write, the
 * cache folder could be renamed away and replaced by theirs between two runs.
 */
export function usableFolder(dir: string): string | null {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return null;
    const me = uid();
    if (me === undefined) return dir;
    if (st.uid !== me || (st.mode & 0o022) !== 0) return null;
    return safeAncestors(realpathSync(dir), me) ? dir : null;
  } catch {
    // Read-only file system, no temp folder: no cache.
    return null;
  }
}

function safeAncestors(real: string, me: number): boolean {
  for (let p = path.dirname(real); ; p = path.dirname(p)) {
    const st = lstatSync(p);
    const sticky = (st.mode & 0o1000) !== 0;
    if (st.uid !== me && st.uid !== 0) return false;
    if ((st.mode & 0o022) !== 0 && !sticky) return false;
    if (path.dirname(p) === p) return true;
  }
}

function uid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/**
 * Writes one entry: to a private name first, then renamed, so concurrent processes (Jest
 * workers, stubs started side by side) never read half a file. Then keeps at most `keep` entries
 * ending in `suffix`, removing the oldest. A failure leaves no file: a cache is never required.
 */
export function writeCacheEntry(entry: string, data: string | Uint8Array, suffix: string, keep: number): void {
  const temp = `${entry}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temp, data, { mode: 0o600 });
    renameSync(temp, entry);
    prune(path.dirname(entry), suffix, keep);
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // Nothing was written.
    }
  }
}

/** Keeps the folder bounded: an editor saving a contract a thousand times leaves a thousand texts. */
function prune(dir: string, suffix: string, keep: number): void {
  const names = readdirSync(dir).filter((n) => n.endsWith(suffix));
  if (names.length <= keep) return;
  const aged = names.map((n) => ({ n, t: mtime(path.join(dir, n)) })).sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, names.length - Math.floor(keep * 0.8))) {
    try {
      unlinkSync(path.join(dir, n));
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

function mtime(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** cyrb53 (public domain): a fast 53-bit string hash with good spread, for entry names (not node:crypto: loading it costs a start 4 ms). */
export function hash53(s: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
