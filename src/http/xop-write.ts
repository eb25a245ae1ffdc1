import { randomBytes } from 'node:crypto';
import { MAX_MIME_PARTS, MTOM_SCAN_ELEMENTS } from '../limits';
import { contentSlots, effectiveElement, resolve } from '../pattern/resolve';
import type { NodeSlot } from '../pattern/resolve';
import type { Pattern, Scope, XmlElementPattern } from '../pattern/types';
import { parseXmlOrUndefined } from '../xml/parse';
import { serializeXml } from '../xml/serialize';
import { textOf, type XmlElement } from '../xml/tree';
import { soapParts } from './ws-security';

/**
 * MTOM/XOP out (the writer beside xop.ts's reader): a SOAP envelope sent as
 * `multipart/related; type="application/xop+xml"`, each base64Binary value the contract
 * declares moved into a part of its own as raw bytes and replaced by an `xop:Include`.
 * The envelope with the values inline is what XOP says the message is, so a reader
 * (accord's, WCF's, CXF's, zeep's) gets back exactly what the contract describes.
 */
const XOP = 'http://www.w3.org/2004/08/xop/include';

/** Local names of the elements whose content the pattern types as base64Binary (a bounded walk: each named type once). */
export function base64Elements(body: Pattern | undefined, scope: Scope): Set<string> {
  const out = new Set<string>();
  if (!body) return out;
  const seen = new Set<XmlElementPattern>();
  const visitElement = (p: XmlElementPattern) => {
    if (seen.has(p) || seen.size > MTOM_SCAN_ELEMENTS) return;
    seen.add(p);
    const e = effectiveElement(p, scope);
    for (const slot of contentSlots(e.content, scope)) {
      if (slot.kind === 'text') {
        const t = safeResolve(slot.pattern, scope);
        if (t?.kind === 'scalar' && t.type === 'base64Binary') out.add(p.local);
      } else visitSlot(slot);
    }
  };
  const visitSlot = (slot: NodeSlot) => {
    if (slot.kind === 'element') visitElement(slot.pattern);
    else if (slot.kind === 'choice') for (const option of slot.options) for (const s of option) visitSlot(s);
  };
  const root = safeResolve(body, scope);
  if (root?.kind === 'xml') visitElement(root);
  return out;
}

function safeResolve(p: Pattern, scope: Scope) {
  try {
    return resolve(p, scope);
  } catch {
    return undefined;
  }
}

export interface XopPacked {
  body: Buffer;
  contentType: string;
}

/**
 * The envelope as an MTOM message; undefined when it is not a SOAP envelope. `envelopeType` is the
 * Content-Type the envelope alone would have (`text/xml` or `application/soap+xml; action=…`).
 */
export function packXop(envelope: string, binary: ReadonlySet<string>, envelopeType: string): XopPacked | undefined {
  const root = parseXmlOrUndefined(envelope);
  if (!root) return undefined;
  const soap = soapParts(root);
  if (!soap) return undefined;
  const tag = randomBytes(8).toString('hex');
  const parts: { id: string; bytes: Buffer }[] = [];
  const walk = (el: XmlElement) => {
    for (const c of el.children) {
      if (c.type !== 'element') continue;
      const text = binary.has(c.local) && c.children.every((k) => k.type === 'text') ? textOf(c).replace(/\s+/g, '') : '';
      if (text !== '' && parts.length < MAX_MIME_PARTS - 1 && /^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
        const id = `${parts.length + 1}.${tag}@accord`;
        parts.push({ id, bytes: Buffer.from(text, 'base64') });
        c.children = [
          {
            type: 'element',
            name: 'xop:Include',
            prefix: 'xop',
            local: 'Include',
            attributes: [xmlns('xop', XOP), { name: 'href', prefix: '', local: 'href', value: `cid:${id}` }],
            children: [],
          },
        ];
      } else walk(c);
    }
  };
  if (soap.body) walk(soap.body);
  const media = envelopeType.split(';')[0]!.trim();
  const action = /;\s*action\s*=\s*"?([^";]*)"?/i.exec(envelopeType)?.[1];
  const boundary = `accord-mtom-${tag}`;
  const rootId = `root.${tag}@accord`;
  const chunks: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\nContent-Type: application/xop+xml; charset=UTF-8; type="${media}"${action ? `; action="${action}"` : ''}\r\n` +
        `Content-Transfer-Encoding: 8bit\r\nContent-ID: <${rootId}>\r\n\r\n${serializeXml(root)}\r\n`,
    ),
  ];
  for (const p of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <${p.id}>\r\n\r\n`),
      p.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const contentType = `multipart/related; type="application/xop+xml"; boundary="${boundary}"; start="<${rootId}>"; start-info="${media}"${action ? `; action="${action}"` : ''}`;
  return { body: Buffer.concat(chunks), contentType };
}

function xmlns(prefix: string, uri: string) {
  return { name: `xmlns:${prefix}`, prefix: 'xmlns', local: prefix, value: uri };
}
