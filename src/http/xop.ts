import { bodyText, parseMediaType } from './content-type';
import { splitMultipart, stripAngles } from './multipart';

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

/** A message whose Includes would make the envelope longer than the caller allows (one large part named many times). */
export interface XopRefused {
  problem: string;
}

const XOP_NS = 'http://www.w3.org/2004/08/xop/include';

export function isXop(contentType: string | undefined): boolean {
  if (contentType === undefined || !/^\s*multipart\/related\s*;/i.test(contentType)) return false;
  return parseMediaType(contentType)?.params.get('type')?.toLowerCase() === 'application/xop+xml';
}

/**
 * `maxChars` bounds the envelope with its values inline: a message names each part once, so
 * 4/3 of the body limit (base64's growth) holds any honest message, while one large part named by
 * thousands of Includes would otherwise make gigabytes from a megabyte.
 */
export function unpackXop(bytes: Buffer, contentType: string, maxChars = Number.MAX_SAFE_INTEGER): XopMessage | XopRefused | undefined {
  const media = parseMediaType(contentType);
  const boundary = media?.params.get('boundary');
  if (!media || !boundary) return undefined;
  const parts = splitMultipart(bytes, boundary)?.parts;
  if (parts === undefined || parts.length === 0) return undefined;
  const start = media.params.get('start');
  const root = (start !== undefined && parts.find((p) => p.id === stripAngles(start))) || parts[0]!;
  const rootType = root.headers.get('content-type');
  const text = bodyText(root.content, rootType);
  const byId = new Map(parts.filter((p) => p !== root && p.id !== undefined).map((p) => [p.id!, p.content]));
  const envelopeType = media.params.get('start-info') ?? (rootType ? parseMediaType(rootType)?.params.get('type') : undefined) ?? 'text/xml';
  const action = media.params.get('action');
  const inlined = inlineIncludes(text, byId, maxChars);
  if (inlined === undefined) {
    return { problem: `MTOM/XOP message refused: with its parts inline (each xop:Include replaced by its part's base64) it would be longer than ${maxChars} characters` };
  }
  return {
    text: inlined,
    contentType: action !== undefined && !/;\s*action\s*=/i.test(envelopeType) ? `${envelopeType}; action="${action}"` : envelopeType,
  };
}

/**
 * Each `<xop:Include href="cid:…"/>` (any prefix bound to the XOP namespace) replaced by the base64 of
 * the part it names. An Include naming no part is left as it is, so the mismatch shows it.
 * Undefined when the result would pass `maxChars`. Linear in the text: each prefix's declaration is
 * looked for once, each part encoded once, whatever the number of Includes.
 */
function inlineIncludes(text: string, parts: Map<string, Buffer>, maxChars: number): string | undefined {
  if (!text.includes(XOP_NS)) return text;
  // `[^<>]*` stops at the next tag: linear on hostile text.
  const include = /<(?:([A-Za-z_][\w.-]*):)?Include(\s[^<>]*?)(?:\/>|>\s*<\/(?:[A-Za-z_][\w.-]*:)?Include\s*>)/g;
  const declared = new Map<string, boolean>();
  const encoded = new Map<Buffer, string>();
  const out: string[] = [];
  let size = text.length;
  let last = 0;
  for (let m = include.exec(text); m !== null; m = include.exec(text)) {
    const [whole, prefix, attributes] = m as unknown as [string, string | undefined, string];
    if (!attributes.includes(XOP_NS) && !declaredXop(text, prefix, declared)) continue;
    const href = /\shref\s*=\s*(["'])cid:([^"'<>]*)\1/.exec(attributes)?.[2];
    const content = href === undefined ? undefined : (parts.get(href) ?? parts.get(safeDecode(href)));
    if (content === undefined) continue;
    let base64 = encoded.get(content);
    if (base64 === undefined) encoded.set(content, (base64 = content.toString('base64')));
    size += base64.length - whole.length;
    if (size > maxChars) return undefined;
    out.push(text.slice(last, m.index), base64);
    last = m.index + whole.length;
  }
  out.push(text.slice(last));
  return out.join('');
}

/** Whether the document declares `prefix` (or the default namespace) as XOP's; remembered per prefix. */
function declaredXop(text: string, prefix: string | undefined, seen: Map<string, boolean>): boolean {
  const key = prefix ?? '';
  let found = seen.get(key);
  if (found === undefined) {
    const declaration = prefix === undefined ? 'xmlns=' : `xmlns:${prefix}=`;
    found = text.includes(`${declaration}"${XOP_NS}"`) || text.includes(`${declaration}'${XOP_NS}'`);
    seen.set(key, found);
  }
  return found;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
