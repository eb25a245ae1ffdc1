import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * `--cors`: a browser app under development usually runs on another origin
 * than the stub, and the browser then asks first (a preflight OPTIONS) and
 * reads answers only when they allow its origin. Off by default: a stub for
 * back-end tests should answer exactly what the contract says.
 */
export function allowOrigin(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
  res.setHeader('access-control-expose-headers', '*');
  res.setHeader('vary', 'Origin');
}

export function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

/** Any method and headers are allowed: what is actually served is decided by the contracts, request by request. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, {
    'access-control-allow-methods': req.headers['access-control-request-method'] ?? '*',
    'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
    'access-control-max-age': '600',
  });
  res.end();
}
