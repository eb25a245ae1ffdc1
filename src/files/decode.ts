/**
 * The text of an XML document's bytes, found as XML 1.0 (appendix F) and RFC 7303 (section 3)
 * say: a byte order mark first; then the charset the transport declared (a Content-Type
 * parameter); then the encoding the XML declaration names; else UTF-8. UTF-16 without a byte
 * order mark is told by its first character, `<` (.NET exports). Older Java and PHP services
 * answer in ISO-8859-1 or windows-1252, so `Café` reads as `Café`, not as a replacement character.
 * A label Node does not know is read as UTF-8. Text that is not XML (JSON, plain text) goes
 * through the same steps: only the declaration step needs `<?xml` at the start.
 */
export function decodeXml(bytes: Uint8Array, charset?: string): string {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const b0 = buf[0];
  const b1 = buf[1];
  // The usual case, kept to one look at two bytes: UTF-8 declared or nothing declared, no mark, no declaration.
  if ((charset === undefined || isUtf8(charset)) && b0 !== 0xef && b0 !== 0xfe && b0 !== 0xff && b0 !== 0 && !(b0 === 0x3c && (b1 === 0x3f || b1 === 0))) {
    return buf.toString('utf8');
  }
  if (b0 === 0xef && b1 === 0xbb && buf[2] === 0xbf) return buf.subarray(3).toString('utf8');
  const utf16 = utf16Of(buf);
  if (utf16) return new TextDecoder(utf16.label).decode(buf.subarray(utf16.mark));
  const declared = charset ?? declaredEncoding(buf);
  if (declared !== undefined && !isUtf8(declared)) {
    const text = decodeAs(buf, declared);
    if (text !== undefined) return text;
  }
  return buf.toString('utf8');
}

/**
 * UTF-16 told by a byte order mark (`mark` bytes long), or without one by `<` with a zero byte beside it
 * (XML 1.0 appendix F, as .NET exports it): NUL bytes are then its text, not a sign of binary.
 */
export function utf16Of(b: Uint8Array): { label: 'utf-16le' | 'utf-16be'; mark: number } | undefined {
  if (b[0] === 0xff && b[1] === 0xfe) return { label: 'utf-16le', mark: 2 };
  if (b[0] === 0xfe && b[1] === 0xff) return { label: 'utf-16be', mark: 2 };
  if (b[0] === 0x3c && b[1] === 0 && b[2] !== 0) return { label: 'utf-16le', mark: 0 };
  if (b[0] === 0 && b[1] === 0x3c) return { label: 'utf-16be', mark: 0 };
  return undefined;
}

/** The `encoding` of an XML declaration at the very start, read from its first 200 bytes. */
function declaredEncoding(buf: Buffer): string | undefined {
  return /^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(buf.subarray(0, 200).toString('latin1'))?.[1];
}

function decodeAs(buf: Buffer, label: string): string | undefined {
  try {
    return new TextDecoder(label.toLowerCase()).decode(buf);
  } catch {
    return undefined;
  }
}

function isUtf8(label: string): boolean {
  const l = label.toLowerCase();
  return l === 'utf-8' || l === 'utf8';
}
