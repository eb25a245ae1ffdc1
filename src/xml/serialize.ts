import type { XmlElement } from './tree';

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const ATTR_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '"': '&quot;' };

const NEEDS_TEXT_ESCAPE = /[&<>]/;
const NEEDS_ATTR_ESCAPE = /[&<"]/;

// Most values need no escaping; testing first spares a replace (and a new string) per value.
/**
 * The XML declaration every SOAP stack here writes before an envelope (CXF, .NET, Axis, PHP, spyne):
 * accord's stub writes it too, since some clients (soap4r) cannot read an envelope without one when
 * Content-Type names a charset. Stub answers are always UTF-8.
 */
export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

export function escapeText(s: string): string {
  return NEEDS_TEXT_ESCAPE.test(s) ? s.replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]) : s;
}

export function escapeAttribute(s: string): string {
  return NEEDS_ATTR_ESCAPE.test(s) ? s.replace(/[&<"]/g, (c) => ATTR_ESCAPES[c]) : s;
}

/** Compact serialisation, no pretty-printing: what goes on the wire. */
export function serializeXml(el: XmlElement): string {
  const parts: string[] = [];
  write(el, parts);
  return parts.join('');
}

function write(el: XmlElement, out: string[]): void {
  out.push('<', el.name);
  for (const a of el.attributes) out.push(' ', a.name, '="', escapeAttribute(a.value), '"');
  if (el.children.length === 0) {
    out.push('/>');
    return;
  }
  out.push('>');
  for (const c of el.children) {
    if (c.type === 'text') out.push(escapeText(c.value));
    else write(c, out);
  }
  out.push('</', el.name, '>');
}
