import { SOAP11_ENVELOPE, SOAP12_ENVELOPE } from '../xml/bookkeeping';

/** HTTP messages as plain data. Header names are lower-case. */
export interface HttpRequest {
  method: string;
  /** Path without the query string, percent-encoded as sent. */
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body: string;
  /** The bytes to send instead of `body` (an MTOM message, whose parts are binary); `body` is then the envelope, for reports. */
  rawBody?: Buffer;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body's bytes, kept only when they are not UTF-8 text (gzip, an image): reports show them as hex, never as text. */
  binary?: Uint8Array;
}

export { SOAP11_ENVELOPE, SOAP12_ENVELOPE };

export function pathWithQuery(req: Pick<HttpRequest, 'path' | 'query'>): string {
  if (req.query.length === 0) return req.path;
  return `${req.path}?${req.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
}
