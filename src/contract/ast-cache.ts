import path from 'node:path';
import type { GherkinDocument } from '@cucumber/messages';
import { FILE_LIMITS, readInputBytes } from '../files';
import { cacheFolder, hash53, writeCacheEntry } from '../files/cache-folder';
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
 * It lives in accord's cache folder (files/cache-folder.ts: per user, private,
 * `ACCORD_CACHE_DIR` moves it, `ACCORD_CACHE=0` turns it off). Any
 * failure to read or write falls back to parsing: the cache can make accord
 * faster, never wrong or broken. Only texts that parse are stored.
 */
// 2: a text whose description holds a misspelt keyword no longer parses (gherkin-hints.ts).
const FORMAT = 2;
/** Entries kept; beyond this the oldest are removed when a new one is written. */
const MAX_ENTRIES = 1000;

interface Entry {
  format: number;
  text: string;
  doc: GherkinDocument;
}

let keyPrefix: string | undefined;

export function cachedGherkin(text: string, file: string, dir: string | null = cacheFolder()): GherkinDocument {
  if (dir === null) return parseGherkin(text, file);
  const entry = path.join(dir, `${key(text)}.json`);
  const hit = read(entry, text);
  if (hit) return hit;
  const doc = parseGherkin(text, file);
  write(entry, text, doc);
  return doc;
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

function read(entry: string, text: string): GherkinDocument | undefined {
  try {
    const parsed = JSON.parse(readInputBytes(entry, { what: 'cache entry', limit: FILE_LIMITS.cacheEntryBytes }).toString('utf8')) as Entry;
    if (parsed?.format === FORMAT && parsed.text === text && parsed.doc && typeof parsed.doc === 'object') return parsed.doc;
  } catch {
    // Missing (the usual miss), half-written by a crashed process, or unreadable: parse instead.
  }
  return undefined;
}

function write(entry: string, text: string, doc: GherkinDocument): void {
  writeCacheEntry(entry, JSON.stringify({ format: FORMAT, text, doc } satisfies Entry), '.json', MAX_ENTRIES);
}
