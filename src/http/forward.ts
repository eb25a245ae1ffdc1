import type { IncomingHttpHeaders } from 'node:http';
import { AccordError } from '../errors';
import { quoted } from '../printable';

/**
 * Passing a request on to one configured service (`accord proxy`, the stub's pass-through): the
 * target as a base URL, the only place a request may be sent, and the headers that may travel.
 */

/** A service requests are passed to: its origin and path prefix (no trailing `/`). */
export interface ForwardTarget {
  url: URL;
  origin: string;
  prefix: string;
}

/** The target named by `option` (`--target`, `--passthrough`): an http(s) URL with a host, a port and a path prefix, nothing else. */
export function parseTarget(text: string, option: string): ForwardTarget {
  const parsed = URL.canParse(text) ? new URL(text) : undefined;
  if (parsed && (parsed.username || parsed.password)) {
    // Said without them: an error line ends up in a terminal and a CI log.
    parsed.username = parsed.password = '';
    throw new AccordError(
      'ACCORD_ERR_USAGE',
      `${option} must not hold a user name or password (found in ${quoted(parsed.href)}): a request passed on keeps its own Authorization header`,
    );
  }
  const base = parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && !parsed.search && !parsed.hash;
  if (!parsed || !base) {
    throw new AccordError('ACCORD_ERR_USAGE', `${option} must be an http:// or https:// URL (a host, a port and a path prefix, no query), found ${quoted(text)}`);
  }
  const url: URL = parsed;
  return { url, origin: url.origin, prefix: url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname };
}

/** A runner's base URL (ACCORD_BASE_URL, already checked to be http(s) with a host) as the one place its requests go. */
export function baseTarget(baseUrl: string): ForwardTarget {
  const url = new URL(baseUrl);
  return { url, origin: url.origin, prefix: url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname };
}

/**
 * The URL to ask the target for a request target (`req.url`, a runner's path and query), or why it
 * is refused. The one join of a base URL and a path, for the runner, the consumers' replay, the
 * stub's pass-through and the proxy: the path is appended to the target's origin and prefix as text,
 * never resolved as a reference (`//host`, `/\host` and `/https:host` are paths on the target). A
 * request must name a path (origin-form, so an absolute URI, `*` or an authority cannot name another
 * host; the Host header is never read); its dot segments may not climb above the prefix, counted as
 * a service that decodes the path might see it (`%2e%2e`, `%2f` and `%5c` decoded, twice encoded
 * too, `\` a separator, a segment's `;parameters` dropped: `..;x` is `..` to Tomcat), so every URL
 * is the target's origin and prefix followed by the request's path.
 */
export function targetUrl(t: ForwardTarget, raw: string): { url: string; path: string } | { refused: string } {
  if (!raw.startsWith('/')) return { refused: `forwards only to ${t.origin}${t.prefix}: a request must name a path starting with "/"` };
  const q = raw.indexOf('?');
  const p = q < 0 ? raw : raw.slice(0, q);
  if (climbs(p)) return { refused: `a path may not climb above ${t.prefix || '/'} of the target ("/../")` };
  let u: URL;
  try {
    u = new URL(`http://proxy.invalid${raw}`);
  } catch {
    return { refused: 'the request target is not a valid path' };
  }
  if (u.host !== 'proxy.invalid') return { refused: 'the request target names another host' };
  const path = `${u.pathname}${u.search}`;
  const url = `${t.origin}${t.prefix}${path}`;
  // Checked again on the URL as built: only the target's origin, only under its prefix.
  const built = URL.canParse(url) ? new URL(url) : undefined;
  if (!built || built.origin !== t.origin || !(t.prefix === '' || built.pathname === t.prefix || built.pathname.startsWith(`${t.prefix}/`))) {
    return { refused: 'the request target leaves the target service' };
  }
  return { url, path };
}

/** Percent-decoding rounds a path is looked at through: `%252e%252e` is `..` to a service that decodes twice. */
const DECODE_ROUNDS = 3;

/** Whether `path` (no query) climbs above its root to a service that decodes it, splits it on `/` or `\\`, or drops `;parameters`. */
function climbs(path: string): boolean {
  let seen = path;
  for (let i = 0; i < DECODE_ROUNDS && seen.includes('%'); i++) seen = seen.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  let depth = 0;
  for (const seg of seen.slice(1).split(/[/\\]/)) {
    const semi = seg.indexOf(';');
    const s = semi < 0 ? seg : seg.slice(0, semi);
    // An empty segment is not a level: a service may fold `//` into `/`.
    if (s === '..') depth--;
    else if (s !== '.' && s !== '') depth++;
    if (depth < 0) return true;
  }
  return false;
}

/** Hop-by-hop (RFC 9110 §7.6.1, and the older ones still sent), plus what undici sets itself (`host`) or refuses (`expect`). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'expect',
]);

/** Headers to pass on: all but hop-by-hop ones and those the Connection header names. */
export function forwardedHeaders(h: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const named = new Set(
    String(h.connection ?? '')
      .split(',')
      .map((n) => n.trim().toLowerCase())
      .filter((n) => n !== ''),
  );
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP_BY_HOP.has(k) && !named.has(k)) out[k] = v;
  return out;
}
