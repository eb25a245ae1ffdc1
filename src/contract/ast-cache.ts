import { lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GherkinDocument } from '@cucumber/messages';
import { FILE_LIMITS, readInputBytes } from '../files';
import { gherkinVersion, parseGherkin } from './gherkin';

/**
 * The Gherkin stage of parsing, remembered on disk: the AST of a contract text
 * is stored under a hash of (cache format, accord version, Gherkin version,
 * text), with the text itself, and used only when the text is equal (so a
 * hash collision costs a parse, never a wrong AST). A process that meets the same text again (the stub started again,
 * every Jest worker, the next test run) skips loading and running the Gherkin
 * parser, about 40 ms of a stub's start. The AST is plain JSON; building the
 * contract from it stays pure and runs every time.
 *
 * Like Jest's own cache it lives in the temp folder, one per user
 * (`<tmp>/accord-cache-<uid>`); `ACCORD_CACHE_DIR` moves it, `ACCORD_CACHE=0`
 * turns it off. A folder that is not a real directory owned by this user and
 * closed to others is never used (another user could plant ASTs there). Any
 * failure to read or write falls back to parsing: the cache can make accord
 * faster, never wrong or broken. Only texts that parse are stored.
 */
const FORMAT = 1;
/** Entries kept; beyond this the oldest are removed when a new one is written. */
const MAX_ENTRIES = 1000;

interface Entry {
  format: number;
  text: string;
  doc: GherkinDocument;
}

let keyPrefix: string | undefined;
let folder: string | null | undefined;

export function cachedGherkin(text: string, file: string, dir: string | null = cacheFolder()): GherkinDocument {
  if (dir === null) return parseGherkin(text, file);
  const entry = path.join(dir, `${key(text)}.json`);
  const hit = read(entry, text);
  if (hit) return hit;
  const doc = parseGherkin(text, file);
  write(dir, entry, text, doc);
  return doc;
}

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
    // Read-only file system, no temp folder: parse every time.
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
 * A file name for the text. Not node:crypto: loading it costs a stub 4 ms of
 * its start, and the text stored in the entry already rules out collisions.
 */
function key(text: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- accord's own version: a new release never reads an older release's ASTs
  keyPrefix ??= `${FORMAT}\0${(require('../../package.json') as { version: string }).version}\0${gherkinVersion()}\0`;
  return `${hash53(keyPrefix + text).toString(36)}-${text.length.toString(36)}`;
}

/** cyrb53 (public domain): a fast 53-bit string hash with good spread. */
function hash53(s: string): number {
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

function read(entry: string, text: string): GherkinDocument | undefined {
  try {
    const parsed = JSON.parse(readInputBytes(entry, { what: 'cache entry', limit: FILE_LIMITS.cacheEntryBytes }).toString('utf8')) as Entry;
    if (parsed?.format === FORMAT && parsed.text === text && parsed.doc && typeof parsed.doc === 'object') return parsed.doc;
  } catch {
    // Missing (the usual miss), half-written by a crashed process, or unreadable: parse instead.
  }
  return undefined;
}

function write(dir: string, entry: string, text: string, doc: GherkinDocument): void {
  // Written to a private name, then renamed: concurrent Jest workers never read half a file.
  const temp = `${entry}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify({ format: FORMAT, text, doc } satisfies Entry), { mode: 0o600 });
    renameSync(temp, entry);
    prune(dir);
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // Nothing was written.
    }
  }
}

/** Keeps the folder bounded: an editor saving a contract a thousand times leaves a thousand texts. */
function prune(dir: string): void {
  const names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  if (names.length <= MAX_ENTRIES) return;
  const aged = names.map((n) => ({ n, t: mtime(path.join(dir, n)) })).sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, names.length - Math.floor(MAX_ENTRIES * 0.8))) {
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
