import { AccordError } from '../errors';
import { messageText } from '../http/message-text';
import { readBoundedBody } from '../http/read-body';
import { request } from '../http/undici';
import { WSDL_FETCH_LIMITS } from '../limits';
import type { Document } from '@xmldom/xmldom';
import { lineOf, parseDom, NS } from './dom';
import { rewriteLocations, serializeDocument } from './locations';

/**
 * A WSDL served by URL and every document it imports, includes or redefines (JAX-WS's and CXF's
 * `?xsd=1`, WCF's `?xsd=xsd0` and `?wsdl=wsdl0`, relative paths), fetched and written as files of one
 * folder with their references pointing at each other: what `accord import wsdl <URL>` writes beside
 * the contract and what `accord proxy` types a recording by. The importer then reads local files only.
 *
 * Bounded (WSDL_FETCH_LIMITS, or the caller's): documents, bytes of each, bytes in all, time for all.
 * Only http and https; only the WSDL's origin unless `origins` allows more; a redirect is followed only
 * within the origins allowed; `headers` (credentials) go to the WSDL's own origin only, never to
 * another one, even an allowed one. A document that cannot be fetched (another origin, an error
 * status, not XML) is not a failure of the set: its reference is left as its absolute URL and listed
 * in `notFetched`, for the caller to refuse or accept (`--allow-unresolved`).
 */

export interface FetchLimits {
  /** Documents fetched, the WSDL included. */
  documents: number;
  /** Bytes of one document. */
  documentBytes: number;
  /** Bytes of all the documents together. */
  totalBytes: number;
  /** Milliseconds for all of them together. */
  totalMs: number;
  /** Redirects followed for one document (within the origins allowed). */
  redirects: number;
}

export interface FetchOptions {
  limits?: Partial<FetchLimits>;
  /** Further origins (`https://host:port`) documents may be fetched from. */
  origins?: string[];
  /** Headers sent with each GET to the WSDL's own origin (never to another). */
  headers?: Record<string, string>;
  /** How a URL is named in what is said (the proxy names the service's, not its own). */
  shown?: (url: string) => string;
}

export interface FetchedFile {
  /** A safe file name (no folder), unique in the set: `Service.wsdl`, `Service_xsd1.xsd`. */
  name: string;
  /** Where it was fetched from (after redirects). */
  url: string;
  text: string;
}

/** A reference that was not fetched: written as its absolute URL, and why. */
export interface NotFetched {
  /** The location as the document wrote it. */
  location: string;
  /** The absolute URL it names (undefined when it names none). */
  url?: string;
  /** The file (of the set) that references it, and the line. */
  from: string;
  line?: number;
  reason: string;
}

/** A WSDL and the documents it imports, as files of one folder: `files[0]` is the WSDL. */
export interface WsdlSet {
  files: FetchedFile[];
  notFetched: NotFetched[];
}

/**
 * The WSDL at `url` and what it imports (see above). `{ why }` when the set cannot be had at all:
 * the WSDL itself not fetched, or a bound passed (documents, bytes in all, time).
 */
export async function fetchWsdlSet(url: string, options: FetchOptions = {}): Promise<WsdlSet | { why: string }> {
  const limits: FetchLimits = { ...WSDL_FETCH_LIMITS, ...options.limits };
  const shown = options.shown ?? ((u: string) => u);
  let root: URL;
  try {
    root = new URL(url);
  } catch {
    return { why: `${shown(url)} is not a URL` };
  }
  if (root.protocol !== 'http:' && root.protocol !== 'https:') return { why: `${shown(url)}: only http and https URLs are fetched` };
  if (root.username || root.password) return { why: 'a URL with a user name or password is not fetched (give credentials with --header)' };
  root.hash = '';
  const origin = root.origin;
  const allowed = new Set([origin, ...(options.origins ?? []).map(originOf)]);
  const deadline = Date.now() + limits.totalMs;
  // Each document's file name, by its URL; a document that could not be fetched is taken out again.
  const names = new Map<string, string>([[root.href, fileName(root, 'wsdl', new Set())]]);
  const taken = new Set([...names.values()].map((n) => n.toLowerCase()));
  const queue = [root.href];
  const fetched: { key: string; url: string; doc: Document }[] = [];
  const refs: (Omit<NotFetched, 'reason'> & { url: string })[] = [];
  const notFetched: NotFetched[] = [];
  const failed = new Map<string, string>();
  let total = 0;
  // First every document is fetched (breadth first), each once: the same document imported twice, and cycles, end by themselves.
  while (queue.length > 0) {
    const at = queue.shift()!;
    const name = names.get(at)!;
    const left = deadline - Date.now();
    if (left <= 0) return { why: `${shown(url)} and what it imports were not fetched within ${limits.totalMs / 1000} s` };
    const room = limits.totalBytes - total;
    const got = await fetchDocument(at, {
      timeoutMs: left,
      maxBytes: Math.min(limits.documentBytes, room),
      allowed,
      origin,
      headers: options.headers,
      redirects: limits.redirects,
    });
    if ('why' in got) {
      if (room < limits.documentBytes && got.tooBig) return { why: `${shown(url)} and what it imports are more than ${limits.totalBytes} bytes` };
      const why = got.why.split(at).join(shown(at));
      if (at === root.href) return { why };
      failed.set(at, why);
      continue;
    }
    total += Buffer.byteLength(got.text);
    let doc: Document;
    try {
      doc = parseDom(got.text, shown(got.url));
    } catch (e) {
      if (!(e instanceof AccordError)) throw e;
      if (at === root.href) return { why: e.describe() };
      failed.set(at, `not XML (${e.message})`);
      continue;
    }
    let tooMany = false;
    rewriteLocations(doc, {
      address: () => undefined,
      reference: (value, el) => {
        const line = lineOf(el);
        let target: URL;
        try {
          target = new URL(value.trim(), got.url);
        } catch {
          notFetched.push({ location: value, from: name, line, reason: 'neither a URL nor a path' });
          return undefined;
        }
        target.hash = '';
        const key = target.href;
        if (target.protocol !== 'http:' && target.protocol !== 'https:') {
          notFetched.push({ location: value, url: key, from: name, line, reason: `a ${target.protocol} URL: only http and https are fetched` });
        } else if (!allowed.has(target.origin)) {
          notFetched.push({
            location: value,
            url: key,
            from: name,
            line,
            reason: `another origin than the WSDL's (${target.origin}): not fetched unless allowed with --allow-origin ${target.origin}`,
          });
        } else if (!names.has(key)) {
          if (names.size >= limits.documents) {
            tooMany = true;
            return undefined;
          }
          const local = fileName(target, el.namespaceURI === NS.xsd || target.pathname.toLowerCase().endsWith('.xsd') ? 'xsd' : 'wsdl', taken);
          taken.add(local.toLowerCase());
          names.set(key, local);
          queue.push(key);
        }
        refs.push({ location: value, url: key, from: name, line });
        return undefined;
      },
    });
    if (tooMany) return { why: `${shown(url)} imports more than ${limits.documents} documents` };
    fetched.push({ key: at, url: got.url, doc });
  }
  for (const [key, why] of failed) {
    names.delete(key);
    for (const r of refs) if (r.url === key) notFetched.push({ ...r, reason: why });
  }
  // Then each is written with its references pointing at the files of the set, or at the absolute URL of what was not fetched.
  const files: FetchedFile[] = fetched.map(({ key, url: from, doc }) => {
    rewriteLocations(doc, {
      address: () => undefined,
      reference: (value) => {
        let target: URL;
        try {
          target = new URL(value.trim(), from);
        } catch {
          return undefined;
        }
        target.hash = '';
        return names.get(target.href) ?? target.href;
      },
    });
    return { name: names.get(key)!, url: from, text: serializeDocument(doc) };
  });
  return { files, notFetched };
}

function originOf(s: string): string {
  try {
    return new URL(s).origin;
  } catch {
    return s;
  }
}

/**
 * A safe file name for a document fetched from `url`: its last path segment without its extension, then
 * its query's letters and digits (`Service?xsd=1` → `Service_xsd1.xsd`), only `[A-Za-z0-9._-]`, never
 * starting with a dot, at most 80 characters, unique among `taken` (`-2`, `-3`, … added).
 */
export function fileName(url: URL, ext: 'wsdl' | 'xsd', taken: Set<string>): string {
  const segment = decodeSafely(
    url.pathname
      .split('/')
      .filter((s) => s !== '')
      .pop() ?? '',
  );
  const stem = segment.replace(/\.[^.]*$/, '');
  const query = url.search
    .slice(1)
    .split('&')
    .map((kv) => kv.replace(/[^A-Za-z0-9]/g, ''))
    .filter((kv) => kv !== '' && kv.toLowerCase() !== 'wsdl' && kv.toLowerCase() !== 'singlewsdl');
  let base = [stem, ...query]
    .join('_')
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^[._-]+/, '')
    .slice(0, 80);
  if (base === '') base = ext === 'wsdl' ? 'service' : 'schema';
  let name = `${base}.${ext}`;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}.${ext}`;
  return name;
}

function decodeSafely(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

interface DocumentFetch {
  timeoutMs: number;
  maxBytes: number;
  /** Origins a redirect may lead to. */
  allowed: Set<string>;
  /** The WSDL's origin: the only one `headers` are sent to. */
  origin: string;
  headers?: Record<string, string>;
  redirects: number;
}

/**
 * One document by GET: its text (decompressed, decoded as its Content-Type or XML declaration says)
 * and the URL it came from, or why not in a few words (not there, too slow, too big, redirected away).
 */
export async function fetchDocument(url: string, o: DocumentFetch): Promise<{ text: string; url: string } | { why: string; tooBig?: boolean }> {
  const signal = AbortSignal.timeout(Math.max(1, o.timeoutMs));
  let at = url;
  try {
    for (let hop = 0; ; hop++) {
      const own = new URL(at).origin === o.origin;
      const headers = { accept: 'text/xml, application/xml, */*', ...(own ? o.headers : undefined) };
      const answer = await request(at, { method: 'GET', headers, signal });
      if (answer.statusCode >= 300 && answer.statusCode < 400 && answer.headers.location !== undefined) {
        answer.body.resume();
        const to = new URL(String(answer.headers.location), at);
        to.hash = '';
        if (!o.allowed.has(to.origin)) return { why: `${url} redirects to another origin (${to.origin}): not followed` };
        if (to.protocol !== 'http:' && to.protocol !== 'https:') return { why: `${url} redirects to ${to.protocol} URL: not followed` };
        if (hop >= o.redirects) return { why: `${url} redirects more than ${o.redirects} times` };
        at = to.href;
        continue;
      }
      if (answer.statusCode !== 200) {
        answer.body.resume();
        return { why: `${url} answered ${answer.statusCode}` };
      }
      const tooBig = new AccordError('ACCORD_ERR_LIMIT', `${url} is longer than ${o.maxBytes} bytes`);
      const bytes = await readBoundedBody(answer.body, o.maxBytes, () => tooBig);
      const read = messageText(bytes, String(answer.headers['content-type'] ?? 'text/xml'), answer.headers['content-encoding'] as string | undefined, o.maxBytes);
      return 'problem' in read ? { why: `${url}: ${read.problem}` } : { text: read.text, url: at };
    }
  } catch (e) {
    if (e instanceof AccordError) return { why: e.message, tooBig: true };
    return { why: signal.aborted ? `${url} did not answer within ${Math.round(o.timeoutMs / 100) / 10} s` : `${url}: ${(e as Error).message}` };
  }
}
