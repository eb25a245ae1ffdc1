import { AccordError } from '../errors';
import { directionHint, EnvelopeCapture, findEnvelopeStart } from './envelope';
import { BlockExtractor, type Feed, RECORD_START } from './extractor';
import type { LoggedMessage } from './message';
import type { LogLine } from './read-log';

/**
 * SOAP envelopes written into an ordinary log: on one line after a timestamp
 * and a level (Spring-WS MessageTracing, most hand-written logging), or
 * pretty-printed over several lines after such a line. The words before the
 * envelope ("Received request [", "Response:") say which way it went.
 *
 * Spring-WS writes "Sent response [<r/>] for request [<q/>]": the second
 * envelope is the request again, and pairs the two without guessing.
 */
interface Open {
  capture: EnvelopeCapture;
  line: number;
  context: string;
  lines: number;
  /** A response waiting for the echo of its request on the same line. */
  echoFor?: LoggedMessage;
}

export class EnvelopeExtractor extends BlockExtractor<Open> {
  private held?: LoggedMessage;

  begin(l: LogLine, context: string): boolean {
    const start = findEnvelopeStart(l.text);
    if (!start) return false;
    if (l.overlong) {
      this.sink.problem(
        new AccordError('ACCORD_ERR_LOG', `this line is longer than ${this.limits.maxLineChars} characters; the envelope on it is not read`, { file: this.file, line: l.line }),
      );
      return true;
    }
    const before = cleanContext(l.text.slice(0, start.index));
    this.startAt(l, start.index, start.qname, before.trim() === '' ? context : before);
    return true;
  }

  private startAt(l: LogLine, index: number, qname: string, context: string, echoFor?: LoggedMessage): void {
    this.current = { capture: new EnvelopeCapture(qname, this.limits.maxMessageChars), line: l.line, context, lines: 1, echoFor };
    this.push(l, l.text.slice(index));
  }

  /** Adds text to the open envelope; finishes it (and looks for another on the same line) when it closes. */
  private push(l: LogLine, text: string): void {
    const o = this.current!;
    const r = o.capture.push(text, '\n');
    if (r.tooLarge) {
      this.current = undefined;
      this.releaseHeld();
      this.sink.problem(new AccordError('ACCORD_ERR_LOG', `the envelope is larger than ${this.limits.maxMessageChars} characters`, { file: this.file, line: o.line }));
      return;
    }
    if (!r.done) return;
    this.current = undefined;
    const m = this.toMessage(o);
    if (o.echoFor) {
      o.echoFor.echo = m;
      this.releaseHeld();
    } else if (m.direction === 'response' && /\bfor\s+request\b/i.test(r.rest) && findEnvelopeStart(r.rest)) {
      this.held = m;
    } else {
      this.sink.message(m);
    }
    const next = findEnvelopeStart(r.rest);
    if (!next) {
      this.releaseHeld();
      return;
    }
    const between = cleanContext(r.rest.slice(0, next.index));
    const echo = this.held && /\bfor\s+request\b/i.test(between) ? this.held : undefined;
    // Text after the first envelope on this line: offsets are within `rest`.
    this.startAt({ ...l, text: r.rest }, next.index, next.qname, between, echo);
  }

  private releaseHeld(): void {
    if (this.held) this.sink.message(this.held);
    this.held = undefined;
  }

  private toMessage(o: Open): LoggedMessage {
    const direction = directionHint(o.context);
    return {
      direction: direction ?? 'request',
      shape: o.lines > 1 ? 'pretty' : 'line',
      body: unescapeJson(o.capture.value()),
      at: { file: this.file, line: o.line },
      ...(direction ? {} : { unhinted: true }),
    } as LoggedMessage;
  }

  feed(l: LogLine): Feed {
    const o = this.current!;
    if (l.overlong) {
      this.current = undefined;
      this.releaseHeld();
      this.sink.problem(new AccordError('ACCORD_ERR_LOG', `the envelope has a line longer than ${this.limits.maxLineChars} characters`, { file: this.file, line: o.line }));
      return 'done';
    }
    if (RECORD_START.test(l.text)) {
      this.current = undefined;
      this.releaseHeld();
      this.sink.problem(truncated(this.file, o, `a new log record starts at line ${l.line} before it closes`));
      return 'reoffer';
    }
    o.lines++;
    this.push(l, l.text);
    return this.current ? 'more' : 'done';
  }

  eof(): void {
    const o = this.current;
    this.current = undefined;
    this.releaseHeld();
    if (o) this.sink.problem(truncated(this.file, o, 'the log ends before it closes'));
  }
}

function truncated(file: string, o: Open, why: string): AccordError {
  return new AccordError('ACCORD_ERR_LOG', `truncated envelope: <${o.capture.qname}> opened here is never closed (${why})`, { file, line: o.line });
}

/**
 * JSON-lines logs (logstash, ECS, bunyan) carry the envelope inside a JSON
 * string: `xmlns:soap=\"http://…\"`. Such text is read back as the string it
 * encodes; anything else is left as it is.
 */
export function unescapeJson(text: string): string {
  if (!/=\\"/.test(text)) return text;
  try {
    const value: unknown = JSON.parse(`"${text}"`);
    return typeof value === 'string' ? value : text;
  } catch {
    return text;
  }
}

/**
 * The words before an envelope, without an XML declaration or a bracket.
 * Scanned by hand: `/<\?xml[^>]*\?>/g` searched from every `<?xml` to the next `>`
 * again and again, and `/[[\s]+$/` from every space of a run to its end, both
 * quadratic on a long log line.
 */
export function cleanContext(text: string): string {
  let out = '';
  let from = 0;
  let gt = -1;
  for (let at = text.indexOf('<?xml'); at >= 0; at = text.indexOf('<?xml', at + 1)) {
    // The first `>` at or after `at`, kept while it is still ahead.
    if (gt < at) gt = text.indexOf('>', at);
    if (gt < 0) break;
    if (at < from || text.charCodeAt(gt - 1) !== 0x3f /* ? */ || gt - 1 < at + 5) continue;
    out += text.slice(from, at);
    from = gt + 1;
  }
  out += text.slice(from);
  let end = out.length;
  while (end > 0 && (out[end - 1] === '[' || /\s/.test(out[end - 1]))) end--;
  return out.slice(0, end);
}
