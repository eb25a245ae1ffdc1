import { MAX_MIME_PARTS } from '../limits';
import { bodyText, parseMediaType } from './content-type';

/**
 * MTOM/XOP (W3C XOP 1.0, SOAP MTOM): a SOAP message sent as `multipart/related; type="application/xop+xml"`,
 * its envelope in the root part and each optimised `base64Binary` value in a part of its own, referred
 * to by `<xop:Include href="cid:…"/>`. WCF with MTOM encoding sends every message so, binary or not,
 * CXF and the `soap` package when told to. What the contract describes is the envelope with the values
 * inline (XOP's own definition of the message), so that is what is matched: the root part's text, each
 * Include replaced by the base64 of its part, and the Content-Type the envelope would have had
 * (`start-info`, with the multipart's `action`). Undefined when the body is not such a message.
 */
export interface XopMessage {
  text: string;
  contentType: string;
}

const XOP_NS = 'http://www.w3.org/2004/08/xop/include';

export function isXop(contentType: string | undefined): boolean {
  if (contentType === undefined || !/^\s*multipart\/related\s*;/i.test(contentType)) return false;
  return parseMediaType(contentType)?.params.get('type')?.toLowerCase() === 'application/xop+xml';
}

export function unpackXop(bytes: Buffer, contentType: string): XopMessage | undefined {
  const media = parseMediaType(contentType);
  const boundary = media?.params.get('boundary');
  if (!media || !boundary) return undefined;
  const parts = splitRelated(bytes, boundary);
  if (parts === undefined || parts.length === 0) return undefined;
  const start = media.params.get('start');
  const root = (start !== undefined && parts.find((p) => p.id === stripAngles(start))) || parts[0]!;
  const rootType = root.headers.get('content-type');
  const text = bodyText(root.content, rootType);
  const byId = new Map(parts.filter((p) => p !== root && p.id !== undefined).map((p) => [p.id!, p.content]));
  const envelopeType = media.params.get('start-info') ?? (rootType ? parseMediaType(rootType)?.params.get('type') : undefined) ?? 'text/xml';
  const action = media.params.get('action');
  return {
    text: inlineIncludes(text, byId),
    contentType: action !== undefined && !/;\s*action\s*=/i.test(envelopeType) ? `${envelopeType}; action="${action}"` : envelopeType,
  };
}

interface Part {
  headers: Map<string, string>;
  id: string | undefined;
  content: Buffer;
}

/** The parts between `--boundary` lines (RFC 2046), as bytes: an attachment is binary. Undefined when there are none. */
function splitRelated(bytes: Buffer, boundary: string): Part[] | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  let at = bytes.indexOf(delimiter);
  if (at < 0) return undefined;
  const parts: Part[] = [];
  for (;;) {
    let from = at + delimiter.length;
    if (bytes[from] === 0x2d && bytes[from + 1] === 0x2d) break; // the closing delimiter
    from = skipLine(bytes, from);
    const next = bytes.indexOf(delimiter, from);
    if (next < 0) break; // no closing delimiter: what came whole is kept
    // The CRLF before a delimiter belongs to the delimiter.
    let end = next;
    if (bytes[end - 1] === 0x0a) end--;
    if (bytes[end - 1] === 0x0d) end--;
    const blank = headerEnd(bytes, from, end);
    const headers = new Map<string, string>();
    for (const line of bytes.subarray(from, blank.headers).toString('latin1').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const id = headers.get('content-id');
    parts.push({ headers, id: id === undefined ? undefined : stripAngles(id), content: bytes.subarray(blank.content, Math.max(end, blank.content)) });
    if (parts.length > MAX_MIME_PARTS) return undefined;
    at = next;
  }
  return parts;
}

function skipLine(bytes: Buffer, from: number): number {
  const nl = bytes.indexOf(0x0a, from);
  return nl < 0 ? bytes.length : nl + 1;
}

/** Where a part's headers end (its first empty line) and its content starts. */
function headerEnd(bytes: Buffer, from: number, end: number): { headers: number; content: number } {
  const crlf = bytes.indexOf('\r\n\r\n', from);
  const lf = bytes.indexOf('\n\n', from);
  if (crlf >= 0 && crlf < end && (lf < 0 || crlf <= lf)) return { headers: crlf, content: crlf + 4 };
  if (lf >= 0 && lf < end) return { headers: lf, content: lf + 2 };
  // No headers at all: the part starts with its content.
  return { headers: from, content: from };
}

function stripAngles(id: string): string {
  const t = id.trim();
  return t.startsWith('<') && t.endsWith('>') ? t.slice(1, -1) : t;
}

/**
 * Each `<xop:Include href="cid:…"/>` (any prefix bound to the XOP namespace) replaced by the base64 of
 * the part it names. An Include naming no part is left as it is, so the mismatch shows it.
 */
function inlineIncludes(text: string, parts: Map<string, Buffer>): string {
  if (!text.includes(XOP_NS)) return text;
  // `[^<>]*` stops at the next tag: linear on hostile text.
  return text.replace(/<(?:([A-Za-z_][\w.-]*):)?Include(\s[^<>]*?)(?:\/>|>\s*<\/(?:[A-Za-z_][\w.-]*:)?Include\s*>)/g, (whole, prefix: string | undefined, attributes: string) => {
    if (!boundToXop(text, prefix, attributes)) return whole;
    const href = /\shref\s*=\s*(["'])cid:([^"'<>]*)\1/.exec(attributes)?.[2];
    const content = href === undefined ? undefined : (parts.get(href) ?? parts.get(safeDecode(href)));
    return content === undefined ? whole : content.toString('base64');
  });
}

function boundToXop(text: string, prefix: string | undefined, attributes: string): boolean {
  const declaration = prefix === undefined ? 'xmlns=' : `xmlns:${prefix}=`;
  return attributes.includes(XOP_NS) || text.includes(`${declaration}"${XOP_NS}"`) || text.includes(`${declaration}'${XOP_NS}'`);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
