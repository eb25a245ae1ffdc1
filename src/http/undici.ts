import type { Agent as AgentClass, Dispatcher, EnvHttpProxyAgent as EnvHttpProxyAgentClass } from 'undici';

/**
 * The parts of undici accord sends with, each loaded from its own module. `require('undici')`
 * loads all of undici (fetch, WebSocket, EventSource, caches, mocks: ~110 modules, ~95 ms of
 * CPU), and the runner paid it once per Jest worker, the CLI once per start, for one function
 * and two classes. undici is pinned to one version in package.json, so these paths do not move
 * under us; __tests__/http/undici.test.ts checks they are undici's own. As undici's index does,
 * the request API (`request`, `connect`…) is put on every dispatcher: the proxy agent connects
 * through its client with it.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
Object.assign((require('undici/lib/dispatcher/dispatcher') as { prototype: object }).prototype, require('undici/lib/api') as object);
export const Agent = require('undici/lib/dispatcher/agent') as typeof AgentClass;
export const EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent') as typeof EnvHttpProxyAgentClass;
const apiRequest = (require('undici/lib/api') as { request: unknown }).request as (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
const { getGlobalDispatcher } = require('undici/lib/global') as { getGlobalDispatcher(): Dispatcher };
const { parseURL } = require('undici/lib/core/util') as { parseURL(url: string | URL): URL };
/* eslint-enable @typescript-eslint/no-require-imports */

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & Partial<Pick<Dispatcher.RequestOptions, 'method'>> & { dispatcher?: Dispatcher };

/** undici's `request(url, options)`, as its index.js builds it (for a URL without `options.path`). */
export function request(url: string | URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = parseURL(url);
  const { dispatcher = getGlobalDispatcher() } = options;
  return apiRequest.call(dispatcher, {
    ...options,
    origin: u.origin,
    path: u.search ? `${u.pathname}${u.search}` : u.pathname,
    method: options.method || (options.body ? 'PUT' : 'GET'),
  } as Dispatcher.RequestOptions);
}
