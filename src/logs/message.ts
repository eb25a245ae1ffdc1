import type { Location } from '../errors';

/** The shapes of log accord reads; each has its own extractor. */
export type LogShape = 'cxf' | 'line' | 'pretty' | 'har';

/** One HTTP message found in a log: a request or a response, with where it was found. */
export interface LoggedMessage {
  direction: 'request' | 'response';
  shape: LogShape;
  /** The body as logged (an XML envelope or a JSON document). */
  body: string;
  /** Where the message starts: file and line. */
  at: Required<Pick<Location, 'file' | 'line'>>;
  /** Correlation id from the log (CXF ID / ExchangeId), scoped to the file. */
  id?: string;
  method?: string;
  /** Request path from the logged address, without the query string. */
  path?: string;
  query?: [string, string][];
  status?: number;
  /** Header names in lower case: only those accord writes into contracts. */
  headers?: Record<string, string>;
  /** No words in the log said which way it went: the body decides (a Fault or a *Response element is a response). */
  unhinted?: boolean;
  /** Set on a response that carries its own request (Spring-WS "Sent response [..] for request [..]"). */
  echo?: LoggedMessage;
}
