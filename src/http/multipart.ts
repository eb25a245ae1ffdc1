import { MAX_MIME_PARTS } from '../limits';

/*
 * The one reader of multipart bodies (RFC 2046): MTOM/XOP messages (multipart/related, xop.ts) and
 * forms (multipart/form-data, match-multipart.ts). Bytes in, parts as bytes out, at most
 * MAX_MIME_PARTS of them, in one linear pass (each part's headers are searched within the part).
 */

export interface MimePart {
  headers: Map<string, string>;
  id: string | undefined;
  content: Buffer;
}

/**
 * The parts between `--boundary` lines (RFC 2046), as bytes: an attachment is binary. Undefined when
 * there is no delimiter or more than MAX_MIME_PARTS parts; `closed` says whether the closing
 * delimiter came (without it, the parts that came whole are kept). One linear pass.
 */
export function splitMultipart(bytes: Buffer, boundary: string): { parts: MimePart[]; closed: boolean } | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  let at = bytes.indexOf(delimiter);
  if (at < 0) return undefined;
  const parts: MimePart[] = [];
  for (;;) {
    let from = at + delimiter.length;
    if (bytes[from] === 0x2d && bytes[from + 1] === 0x2d) return { parts, closed: true }; // the closing delimiter
    from = skipLine(bytes, from);
    const next = bytes.indexOf(delimiter, from);
    if (next < 0) return { parts, closed: false }; // no closing delimiter: what came whole is kept
    // The CRLF before a delimiter belongs to the delimiter.
    let end = next;
    if (bytes[end - 1] === 0x0a) end--;
    if (bytes[end - 1] === 0x0d) end--;
    const blank = headerEnd(bytes, from, end);
    const headers = new Map<string, string>();
    for (const line of bytes.subarray(from, blank.headers).toString('utf8').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const id = headers.get('content-id');
    parts.push({ headers, id: id === undefined ? undefined : stripAngles(id), content: bytes.subarray(blank.content, Math.max(end, blank.content)) });
    if (parts.length > MAX_MIME_PARTS) return undefined;
    at = next;
  }
}

function skipLine(bytes: Buffer, from: number): number {
  const nl = bytes.indexOf(0x0a, from);
  return nl < 0 ? bytes.length : nl + 1;
}

/** Where a part's headers end (its first empty line) and its content starts. */
function headerEnd(bytes: Buffer, from: number, end: number): { headers: number; content: number } {
  // Searched within the part only: a search to the end of the message for each of a thousand parts was quadratic.
  const part = bytes.subarray(from, end);
  const crlf = part.indexOf('\r\n\r\n');
  const lf = part.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf <= lf)) return { headers: from + crlf, content: from + crlf + 4 };
  if (lf >= 0) return { headers: from + lf, content: from + lf + 2 };
  // No headers at all: the part starts with its content.
  return { headers: from, content: from };
}

/** A Content-ID without its angle brackets. */
export function stripAngles(id: string): string {
  const t = id.trim();
  return t.startsWith('<') && t.endsWith('>') ? t.slice(1, -1) : t;
}
