import type { IncomingHttpHeaders } from 'node:http';
import type { HttpResponse } from '../../http/message';

/**
 * The last answer a scope gave, kept so that the same request sent again (byte for byte: method,
 * target, the headers an answer can depend on, body) is answered without decoding, parsing,
 * keying or looking anything up: a load test, a poller, a test suite's fixed calls. It is the
 * answer the memos (memo.ts, the expectations' kept answers) would give anyway, found one step
 * earlier; the journal still records the request and an expectation still counts its use.
 *
 * Only what the memos keep is repeated (a pure function of the request: no `{{sequence}}`, `now`
 * or header in a template, no delay, fault, named state, WS-Security, pass-through or MTOM), and
 * only while what chose it stands: the same route table (a reload starts afresh) and the same
 * expectations (any added, removed or used up, or a reset, starts afresh).
 */
export interface Repeatable<J, E> {
  /** What chose the answer: the route table, and the scope's expectations (their version). */
  readonly table: object;
  readonly version: number;
  readonly method: string;
  readonly url: string;
  /** The body's bytes as they came (a copy), undefined for none. */
  readonly bytes: Buffer | undefined;
  /** The headers an answer can depend on (Content-Type, Content-Encoding, those contracts and expectations name), and their values. */
  readonly names: readonly string[];
  readonly values: readonly (string | string[] | undefined)[];
  /** What the journal records of the request (its decoded text, path and query) and of the answer. */
  readonly request: { readonly method: string; readonly path: string; readonly query: [string, string][]; readonly body: string };
  readonly journal: J;
  readonly answer: HttpResponse;
  /** The expectation that answered, whose use is counted again. */
  readonly expectation?: E;
}

export class Repeat<J, E> {
  private last: Repeatable<J, E> | undefined;

  /** The kept answer when this request is the last one again, byte for byte, and nothing that chose its answer has changed. */
  find(table: object, version: number, method: string | undefined, url: string, bytes: Buffer | undefined, headers: IncomingHttpHeaders): Repeatable<J, E> | undefined {
    const last = this.last;
    if (last === undefined || last.table !== table || last.version !== version || last.url !== url || last.method !== method) return undefined;
    if (bytes === undefined ? last.bytes !== undefined : last.bytes === undefined || !bytes.equals(last.bytes)) return undefined;
    const { names, values } = last;
    for (let i = 0; i < names.length; i++) if (headers[names[i]] !== values[i]) return undefined;
    return last;
  }

  /**
   * Keeps an answer for the request (whose `bytes` are copied: a socket's buffer is not ours to
   * keep). `names()` is asked only when the table or the expectations changed since the last one kept.
   */
  keep(entry: Omit<Repeatable<J, E>, 'values' | 'bytes' | 'names'>, names: () => readonly string[], bytes: Buffer | undefined, headers: IncomingHttpHeaders): void {
    const last = this.last;
    const read = last !== undefined && last.table === entry.table && last.version === entry.version ? last.names : names();
    const values = new Array<string | string[] | undefined>(read.length);
    for (let i = 0; i < read.length; i++) values[i] = headers[read[i]];
    const { table, version, method, url, request, journal, answer, expectation } = entry;
    this.last = { table, version, method, url, bytes: bytes && copyOf(bytes), names: read, values, request, journal, answer, expectation };
  }

  clear(): void {
    this.last = undefined;
  }
}

/** A copy of the bytes (Buffer.from(buffer) takes the generic array-like path: ~1 µs for a SOAP request against ~0.1 µs here). */
function copyOf(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafe(bytes.length);
  bytes.copy(copy);
  return copy;
}
