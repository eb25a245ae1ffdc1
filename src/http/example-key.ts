import { createHash } from 'node:crypto';

/**
 * What makes two examples (Specmatic's `{"http-request", "http-response"}` JSON shape, as example
 * files, exported expectations and consumer examples are written) the same example: the request
 * and the response normalised. Header names are case-free, query parameters and JSON keys
 * unordered, and an XML body's indentation (white space between a `>` and the next `<`) is not
 * part of the message. Other keys (`name`, `scenario`, `consumer`) are notes, not the example.
 */
export function exampleKey(example: unknown): string {
  const o = record(example);
  const req = record(o['http-request']);
  const res = record(o['http-response']);
  const target = typeof req.path === 'string' ? req.path : '';
  const q = target.indexOf('?');
  const query: [string, string][] = q < 0 ? [] : [...new URLSearchParams(target.slice(q + 1))];
  for (const [k, v] of Object.entries(record(req.query))) query.push([k, String(v)]);
  const canonical = {
    request: {
      method: typeof req.method === 'string' ? req.method.toUpperCase() : '',
      path: q < 0 ? target : target.slice(0, q),
      query: query.sort((a, b) => (a[0] + '\0' + a[1] < b[0] + '\0' + b[1] ? -1 : 1)),
      headers: headers(req.headers),
      body: body(req.body),
    },
    response: { status: res.status ?? null, headers: headers(res.headers), body: body(res.body) },
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

function record(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function headers(v: unknown): [string, string][] {
  return Object.entries(record(v))
    .map(([k, x]): [string, string] => [k.toLowerCase(), String(x)])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function body(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') return sorted(v);
  const text = v.trim();
  if (text.startsWith('<')) return withoutIndentation(text);
  if (text.startsWith('{') || text.startsWith('[')) {
    try {
      return sorted(JSON.parse(text));
    } catch {
      return text;
    }
  }
  return text;
}

/** JSON with object keys in order, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are one body. */
function sorted(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sorted).join(',')}]`;
  if (typeof v === 'object' && v !== null)
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sorted((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** White space between `>` and `<` dropped: a loop over the characters (no regular expression sees the body). */
function withoutIndentation(xml: string): string {
  let out = '';
  let pending = '';
  let afterTag = false;
  for (const c of xml) {
    if (afterTag && (c === ' ' || c === '\n' || c === '\r' || c === '\t')) {
      pending += c;
      continue;
    }
    if (c !== '<') out += pending;
    pending = '';
    out += c;
    afterTag = c === '>';
  }
  return out + pending;
}
