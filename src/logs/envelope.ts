import type { XmlElement } from '../xml/tree';
import { elementChildren } from '../xml/tree';
import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from '../xml/bookkeeping';

const ENVELOPE_START = /<(?:([A-Za-z_][\w.-]*):)?Envelope(?=[\s>/])/g;

export interface EnvelopeStart {
  index: number;
  /** The root's name as written, `soapenv:Envelope`: its closing tag ends the message. */
  qname: string;
}

/** Where the next SOAP envelope starts in a piece of text, if anywhere. */
export function findEnvelopeStart(text: string, from = 0): EnvelopeStart | undefined {
  // Most log lines hold no envelope: a plain search says so faster than the expression.
  if (text.indexOf('Envelope', from) < 0) return undefined;
  ENVELOPE_START.lastIndex = from;
  const m = ENVELOPE_START.exec(text);
  if (!m) return undefined;
  return { index: m.index, qname: m[1] ? `${m[1]}:Envelope` : 'Envelope' };
}

/**
 * Collects an envelope that may span several lines, until its closing tag.
 * Only the text added since the last look is searched, so a long message costs
 * linear time; the size is capped by the caller's limit.
 */
export class EnvelopeCapture {
  private text = '';
  /**
   * The last characters of `text`, as long as the closing tag: where a tag cut by a line break may begin.
   * Each push searches only these and the new piece; searching `text` itself made V8 flatten the whole
   * message, joined line by line, on every line of a pretty-printed one.
   */
  private tail = '';
  private readonly close: string;

  constructor(
    readonly qname: string,
    readonly maxChars: number,
  ) {
    this.close = `</${qname}`;
  }

  get length(): number {
    return this.text.length;
  }

  /** Adds text; done when the closing tag is in it (`rest`: what follows the tag), or too large. */
  push(piece: string, separator: string): { done: boolean; rest: string; tooLarge: boolean } {
    const before = this.text.length;
    const added = (before > 0 ? separator : '') + piece;
    this.text += added;
    if (this.text.length > this.maxChars) return { done: false, rest: '', tooLarge: true };
    // `window` is text from `offset` on: the tail kept and what was just added.
    const window = this.tail + added;
    const offset = before - this.tail.length;
    let from = 0;
    for (;;) {
      const i = window.indexOf(this.close, from);
      if (i < 0) break;
      let j = i + this.close.length;
      while (j < window.length && /\s/.test(window[j])) j++;
      if (window[j] === '>') {
        const end = j + 1;
        this.text = this.text.slice(0, offset + end);
        return { done: true, rest: window.slice(end), tooLarge: false };
      }
      from = i + 1;
    }
    this.tail = window.length > this.close.length ? window.slice(window.length - this.close.length) : window;
    return { done: false, rest: '', tooLarge: false };
  }

  value(): string {
    return this.text;
  }
}

/** The words that say which way a message went, nearest to the message first. */
const HINT = /\b(request|response|req|resp|fault)\b/gi;

/** `Received request [` → request; `Sent response [` → response; nothing said → undefined. */
export function directionHint(context: string): 'request' | 'response' | undefined {
  let last: string | undefined;
  for (const m of context.matchAll(HINT)) last = m[1].toLowerCase();
  if (!last) return undefined;
  return last === 'request' || last === 'req' ? 'request' : 'response';
}

export interface SoapParts {
  version?: '1.1' | '1.2';
  header?: XmlElement;
  body?: XmlElement;
  /** The single element inside Body: the operation (request) or result (response). */
  operation?: XmlElement;
  fault: boolean;
}

export const SOAP11 = SOAP11_ENVELOPE;
export const SOAP12 = SOAP12_ENVELOPE;

export function soapParts(root: XmlElement): SoapParts {
  const parts: SoapParts = { fault: false };
  if (root.local !== 'Envelope') return parts;
  const decl = root.prefix ? `xmlns:${root.prefix}` : 'xmlns';
  const ns = root.attributes.find((a) => a.name === decl)?.value;
  if (ns === SOAP11) parts.version = '1.1';
  else if (ns === SOAP12) parts.version = '1.2';
  for (const c of elementChildren(root)) {
    if (c.local === 'Header') parts.header = c;
    else if (c.local === 'Body') parts.body = c;
  }
  if (parts.body) {
    parts.operation = elementChildren(parts.body)[0];
    parts.fault = parts.operation?.local === 'Fault';
  }
  return parts;
}

/** `getPetRequest`, `getPet` and `getPetResponse` all pair under `getPet`. */
export function operationKey(local: string): string {
  return local.replace(/(Request|Response|Result|Req|Resp|Input|Output)$/, '') || local;
}
