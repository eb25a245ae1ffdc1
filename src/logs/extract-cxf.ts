import { AccordError } from '../errors';
import { EnvelopeCapture, findEnvelopeStart } from './envelope';
import { BlockExtractor, type Feed, RECORD_START } from './extractor';
import type { LoggedMessage } from './message';
import type { LogLine } from './read-log';

/**
 * Apache CXF's logging, both generations:
 *
 * - `LoggingInInterceptor`/`LoggingOutInterceptor` (org.apache.cxf.interceptor):
 *   a heading ending "Inbound Message" or "Outbound Message", a dashed rule,
 *   `ID:`, `Address:`, `Response-Code:`, `Encoding:`, `Http-Method:`,
 *   `Content-Type:`, `Headers:`, `Messages:`, `Payload:` lines and a closing
 *   rule of 38 dashes. The ID pairs a request with its response.
 * - `LoggingFeature` (org.apache.cxf.ext.logging): a heading ending REQ_IN,
 *   REQ_OUT, RESP_IN, RESP_OUT, FAULT_IN or FAULT_OUT, then indented
 *   `Address:`, `HttpMethod:`, `ResponseCode:`, `ExchangeId:`, `Headers:`,
 *   `Payload:` lines. The ExchangeId pairs them.
 */
const LEGACY_HEADING = /(Inbound|Outbound) Message\s*$/;
const EXT_HEADING = /\b(REQ_IN|REQ_OUT|RESP_IN|RESP_OUT|FAULT_IN|FAULT_OUT)\s*$/;

/**
 * Can this line end in a heading? Both headings end in "e", "N" or "T" before any blank space. Asked before
 * their expressions, which, anchored only at the end, were tried from every position of every line (the most
 * of the split and extract time of an import).
 */
function mayBeHeading(text: string): boolean {
  const c = text.charCodeAt(text.length - 1);
  return c === 0x65 /* e */ || c === 0x4e /* N */ || c === 0x54 /* T */ || !(c > 0x20 && c < 0x7f);
}

function isHeading(text: string): boolean {
  return mayBeHeading(text) && (LEGACY_HEADING.test(text) || EXT_HEADING.test(text));
}

const RULE = /^-{20,}\s*$/;
const LEGACY_FIELD = /^(ID|Address|Response-Code|Encoding|Http-Method|Content-Type|Headers|Messages|Payload):\s?(.*)$/;
const EXT_FIELD = /^\s+(Address|HttpMethod|Content-Type|ResponseCode|ExchangeId|ServiceName|PortName|PortTypeName|FullContentFile|Headers|Payload):\s?(.*)$/;

interface Block {
  kind: 'legacy' | 'ext';
  line: number;
  /** ext: from the heading; legacy: decided by the fields. */
  type?: string;
  fields: Map<string, string>;
  /** Lines of the payload so far (legacy: until the closing rule). */
  payload?: string[];
  payloadChars: number;
  /** ext: an XML payload over several lines is read until its envelope closes. */
  capture?: EnvelopeCapture;
  payloadLine: number;
  sawRule: boolean;
  /** Too large: read on to the closing rule, keeping nothing. */
  discard?: boolean;
}

export class CxfExtractor extends BlockExtractor<Block> {
  begin(l: LogLine, _context: string): boolean {
    if (!mayBeHeading(l.text)) return false;
    const legacy = LEGACY_HEADING.exec(l.text);
    if (legacy) {
      this.current = { kind: 'legacy', line: l.line, fields: new Map(), payloadChars: 0, payloadLine: 0, sawRule: false, type: legacy[1] };
      return true;
    }
    const ext = EXT_HEADING.exec(l.text);
    if (ext) {
      this.current = { kind: 'ext', line: l.line, type: ext[1], fields: new Map(), payloadChars: 0, payloadLine: 0, sawRule: false };
      return true;
    }
    return false;
  }

  feed(l: LogLine): Feed {
    const b = this.current!;
    if (l.overlong) {
      this.fail(b, `the CXF ${b.kind === 'ext' ? b.type : `${b.type} Message`} block has a line longer than ${this.limits.maxLineChars} characters`, l.line);
      return 'done';
    }
    return b.kind === 'legacy' ? this.feedLegacy(b, l) : this.feedExt(b, l);
  }

  private feedLegacy(b: Block, l: LogLine): Feed {
    if (b.payload) {
      if (RULE.test(l.text) && l.text.trim().length >= 30) {
        if (b.discard) this.current = undefined;
        else this.finish(b, b.payload.join('\n'));
        return 'done';
      }
      if (isHeading(l.text)) {
        this.fail(b, 'the CXF block ends without its closing line of dashes: the payload is cut short', b.payloadLine);
        return 'reoffer';
      }
      return this.addPayloadLine(b, l.text) ? 'more' : 'done';
    }
    if (RULE.test(l.text)) {
      if (!b.sawRule && b.fields.size === 0) {
        b.sawRule = true;
        return 'more';
      }
      this.sink.skipped('CXF blocks without a payload');
      this.current = undefined;
      return 'done';
    }
    const f = LEGACY_FIELD.exec(l.text);
    if (f) {
      if (f[1] === 'Payload') {
        b.payload = [];
        b.payloadLine = l.line;
        return this.addPayloadLine(b, f[2]) ? 'more' : 'done';
      }
      b.fields.set(f[1], f[2]);
      return 'more';
    }
    if (isHeading(l.text) || (b.fields.size === 0 && !b.sawRule)) {
      // A heading with no block after it ("Inbound Message" in some other sentence): not CXF's.
      this.current = undefined;
      if (b.fields.size > 0) this.sink.skipped('CXF blocks without a payload');
      return 'reoffer';
    }
    return 'more';
  }

  private feedExt(b: Block, l: LogLine): Feed {
    if (b.capture) {
      if (RECORD_START.test(l.text)) {
        this.fail(b, `the CXF ${b.type} payload ends before its envelope closes: the message is cut short`, b.payloadLine);
        return 'reoffer';
      }
      return this.capture(b, b.capture, l.text);
    }
    const f = EXT_FIELD.exec(l.text);
    if (!f) {
      this.sink.skipped('CXF blocks without a payload');
      this.current = undefined;
      return 'reoffer';
    }
    if (f[1] !== 'Payload') {
      b.fields.set(f[1], f[2]);
      return 'more';
    }
    b.payloadLine = l.line;
    const start = findEnvelopeStart(f[2]);
    if (!start || f[2].slice(0, start.index).trim() !== '') {
      // Not a SOAP envelope (JSON from a JAX-RS endpoint, or plain XML): the payload is this line.
      this.finish(b, f[2]);
      return 'done';
    }
    b.capture = new EnvelopeCapture(start.qname, this.limits.maxMessageChars);
    return this.capture(b, b.capture, f[2].slice(start.index));
  }

  /** One more piece of an ext payload's envelope: done when it closes or grows too large. */
  private capture(b: Block, capture: EnvelopeCapture, text: string): Feed {
    const r = capture.push(text, '\n');
    if (r.tooLarge) {
      this.fail(b, `the CXF ${b.type} payload is larger than ${this.limits.maxMessageChars} characters`, b.payloadLine);
      return 'done';
    }
    if (r.done) {
      this.finish(b, capture.value());
      return 'done';
    }
    return 'more';
  }

  private addPayloadLine(b: Block, text: string): boolean {
    if (b.discard) return true;
    b.payloadChars += text.length + 1;
    if (b.payloadChars > this.limits.maxMessageChars) {
      this.sink.problem(new AccordError('ACCORD_ERR_LOG', `the CXF payload is larger than ${this.limits.maxMessageChars} characters`, { file: this.file, line: b.payloadLine }));
      b.discard = true;
      b.payload = [];
      return true;
    }
    b.payload!.push(text);
    return true;
  }

  eof(): void {
    const b = this.current;
    if (!b) return;
    if (b.discard) {
      this.current = undefined;
      return;
    }
    if (b.payload || b.capture) {
      this.fail(b, 'the log ends inside this CXF block: the payload is cut short', b.payloadLine || b.line);
      return;
    }
    if (b.kind === 'ext') {
      this.current = undefined;
      this.sink.skipped('CXF blocks without a payload');
      return;
    }
    this.fail(b, 'the log ends inside this CXF block, before its payload', b.line);
  }

  private fail(_b: Block, message: string, line: number): void {
    this.current = undefined;
    this.sink.problem(new AccordError('ACCORD_ERR_LOG', message, { file: this.file, line }));
  }

  /** pathOf, remembered for the last address: a service's calls log the same one again and again, and parsing it as a URL each time was a tenth of reading the blocks. */
  private addressParts(address: string): { path?: string; query?: [string, string][] } {
    if (this.lastAddress?.address !== address) this.lastAddress = { address, parts: pathOf(address) };
    const { path, query } = this.lastAddress.parts;
    return path === undefined ? {} : { path, query: query && query.map(([k, v]) => [k, v]) };
  }

  private lastAddress?: { address: string; parts: { path?: string; query?: [string, string][] } };

  private finish(b: Block, payload: string): void {
    this.current = undefined;
    const truncated = b.fields.get('Messages');
    if (truncated && /truncated/i.test(truncated)) {
      this.sink.problem(
        new AccordError(
          'ACCORD_ERR_LOG',
          `CXF cut this payload short (${truncated.trim().replace(/^\((.*)\)$/, '$1')}); raise the logging interceptor's limit to log whole messages`,
          { file: this.file, line: b.payloadLine },
        ),
      );
      return;
    }
    const f = b.fields;
    let direction: 'request' | 'response';
    if (b.kind === 'ext') direction = b.type!.startsWith('REQ') ? 'request' : 'response';
    else direction = f.has('Response-Code') ? 'response' : 'request';
    const address = f.get('Address');
    const statusText = f.get('Response-Code') ?? f.get('ResponseCode');
    const id = b.kind === 'ext' ? f.get('ExchangeId') : f.get('ID');
    const m: LoggedMessage = {
      direction,
      shape: 'cxf',
      body: payload,
      at: { file: this.file, line: b.payloadLine },
      id: id?.trim() || undefined,
      method: (f.get('Http-Method') ?? f.get('HttpMethod'))?.trim() || undefined,
    };
    if (address) Object.assign(m, this.addressParts(address.trim()));
    if (statusText && /^\d{3}$/.test(statusText.trim())) m.status = Number(statusText.trim());
    const soapAction = soapActionHeader(f.get('Headers') ?? '');
    if (soapAction !== undefined) m.headers = { soapaction: soapAction };
    this.sink.message(m);
  }
}

/** `http://host:8080/ws/pets?x=1` → `/ws/pets` and its query. */
export function pathOf(address: string): { path?: string; query?: [string, string][] } {
  try {
    const u = new URL(address, 'http://localhost');
    // `hs: https://…` parses as a URL of scheme "hs" with an opaque path: not an address to write.
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.pathname.startsWith('/')) return {};
    return { path: u.pathname, query: [...u.searchParams] };
  } catch {
    return {};
  }
}

/**
 * A header from Java's map rendering: `{SOAPAction=["urn:x"], content-type=[text/xml]}`
 * (LoggingInInterceptor, values in lists) or `{SOAPAction="urn:x", Accept=text/xml}` (LoggingFeature).
 */
export function soapActionHeader(headers: string): string | undefined {
  // The listed form wins wherever it is, else the first plain one. Scanned by hand after each `name=`: the
  // expression `name=\[([^\]]*)\]` ran from every `name=[` to the end of a line without `]` (quadratic).
  const key = /(?:^|[{,\s])SOAPAction=/gi;
  let plain: string | undefined;
  for (let m = key.exec(headers); m; m = key.exec(headers)) {
    const from = m.index + m[0].length;
    plain ??= plainValue(headers, from);
    if (headers[from] !== '[') continue;
    const close = headers.indexOf(']', from);
    // No `]` after this one: none after any later one either.
    if (close < 0) break;
    return headers.slice(from + 1, close).trim();
  }
  return plain;
}

/** `"quoted"` (quotes kept) or up to the next `,` or `}`. */
function plainValue(headers: string, from: number): string {
  if (headers[from] === '"') {
    const close = headers.indexOf('"', from + 1);
    if (close >= 0) return headers.slice(from, close + 1).trim();
  }
  let end = from;
  while (end < headers.length && headers[end] !== ',' && headers[end] !== '}') end++;
  return headers.slice(from, end).trim();
}
