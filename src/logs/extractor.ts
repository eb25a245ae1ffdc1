import type { AccordError } from '../errors';
import type { LoggedMessage } from './message';
import type { LogLimits } from './limits';
import type { LogLine } from './read-log';

/** Where extractors put what they find. */
export interface ExtractSink {
  message(m: LoggedMessage): void;
  /** A message was recognised but cannot be used (truncated, too large): always reported with its place. */
  problem(e: AccordError): void;
  /** Something recognised and deliberately left out (a CXF block without payload, a HAR entry for an image); `detail` sub-counts it. */
  skipped(reason: string, detail?: string): void;
}

export type Feed = 'more' | 'done' | 'reoffer';

/**
 * One log shape's reader. The scanner offers each line to the idle extractors
 * in turn; one that takes it gets the following lines until it is done.
 * 'reoffer' means done, and the line just fed belongs to someone else.
 */
export interface TextExtractor {
  begin(l: LogLine, context: string): boolean;
  readonly busy: boolean;
  feed(l: LogLine): Feed;
  /** The log ended while busy. */
  eof(): void;
}

/** Lines that start a new log record: a date, a time, a level or a java.util.logging header. */
export const RECORD_START =
  /^(\d{4}-\d{2}-\d{2}[ T]\d|\[\d{4}-\d{2}-\d{2}|\[?\d{2}:\d{2}:\d{2}|[A-Z][a-z]{2} \d{1,2}, \d{4} |(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|SEVERE|FINE|FINER|FINEST)\b)/;

/**
 * What the text extractors share: where they report, the limits they keep, and
 * "busy" meaning a block of type S is open and the following lines belong to it.
 */
export abstract class BlockExtractor<S> implements TextExtractor {
  /** The block being read; undefined between blocks. */
  protected current?: S;

  constructor(
    protected readonly file: string,
    protected readonly sink: ExtractSink,
    protected readonly limits: LogLimits,
  ) {}

  get busy(): boolean {
    return this.current !== undefined;
  }

  abstract begin(l: LogLine, context: string): boolean;
  abstract feed(l: LogLine): Feed;
  abstract eof(): void;
}
