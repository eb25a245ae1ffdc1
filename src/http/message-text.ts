import { decodeContent } from './content-encoding';
import { bodyText } from './content-type';
import { isXop, unpackXop } from './xop';

/** A message body as accord matches it, or why it cannot be read. */
export type MessageText = { text: string; contentType: string | undefined; bytes: Buffer; xop: boolean } | { problem: string };

/**
 * The one way a body that arrived (a service's answer, a request to the stub, traffic through the
 * proxy) becomes the text that is matched: decompressed (`Content-Encoding`, never past `maxBytes`),
 * an MTOM/XOP message read as the envelope it stands for (with that envelope's Content-Type), then
 * decoded by its byte order mark, charset or XML declaration.
 */
export function messageText(received: Buffer, contentType: string | undefined, contentEncoding: string | undefined, maxBytes: number): MessageText {
  const bytes = decodeContent(received, contentEncoding, maxBytes);
  if (!Buffer.isBuffer(bytes)) return bytes;
  // Inlined, the parts grow by base64's third: 4/3 of the limit holds any message within it that names each part once.
  const xop = isXop(contentType) ? unpackXop(bytes, contentType!, Math.ceil((maxBytes * 4) / 3) + 4) : undefined;
  if (xop && 'problem' in xop) return xop;
  if (xop) return { text: xop.text, contentType: xop.contentType, bytes, xop: true };
  return { text: bodyText(bytes, contentType), contentType, bytes, xop: false };
}
