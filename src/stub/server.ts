import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Scenario } from '../contract/model';
import { AccordError, internalErrorText } from '../errors';
import { ParsedBody } from '../http/body';
import { messageText } from '../http/message-text';
import { readBody as readBoundedStream } from '../http/read-body';
import { DEFAULT_MAX_BODY_BYTES, XML_SLICE } from '../limits';
import { looksLikeXml } from '../xml/parse';
import type { HttpRequest, HttpResponse } from '../http/message';
import { redactQuery } from '../http/redact';
import { inert, printable } from '../printable';
import { loadContracts, type ContractSource } from './contracts';
import { allowOrigin, answerPreflight, isPreflight } from './cors';
import { malformedGuard } from './answer/malformed';
import { decide, verboseLine, type Decision } from './decide/decide';
import type { NotServed, RouteTable } from './decide/route';
import { adminRefusal, answerAdmin, isAdminPath, type OnExpected } from './admin/api';
import { acceptedOf, handleOf, type Expectation, type ExpectationHandle, type ExpectationInput } from './admin/expectations';
import { checkDelay, malformed, type Delay, type FaultKind } from './answer/faults';
import type { CallFilter, JournalAnswer, JournalEntry, JournalRequest } from './admin/journal';
import { SCOPE_PREFIX, StubState, type ScopeState } from './admin/scope-state';
import type { Repeatable } from './decide/repeat';
import { stateName } from './answer/state-rule';
import { buildRoutes } from './decide/build-routes';
import { watchSources } from './watch';
import { writeTogether } from './written-together';
import type { StubWsSecurity, WsSecuritySettings } from './ws-security';
import { splitTarget } from '../http/target';
import { exported } from './client/connect';
import type { PassThrough, PassThroughSettings, RawRequest } from './pass-through';
import type { ClientCertificates, PresentedCertificate } from './client-certificates';

export interface StubOptions {
  /** `.spec` files, folders searched recursively for them, or parsed contracts. */
  contracts: ContractSource | readonly ContractSource[];
  /** 0 (the default) picks a free port; read it back from `url`. */
  port?: number;
  /** Default 127.0.0.1: a stub is for tests, not for the network. */
  host?: string;
  /** Log each request and the scenario that answered it. */
  verbose?: boolean;
  /** Where verbose lines, internal errors and what a WSDL given could not import go (default: stderr). */
  log?: (line: string) => void;
  /** Largest request body accepted; a bigger one gets 413. Default 10 MiB. */
  maxBodyBytes?: number;
  /**
   * Answer CORS preflights and allow every origin (for browser apps on another origin) on the
   * contracts' paths; never on the stub's own API (`/_accord/`, `/_specmatic/`). Default false.
   */
  cors?: boolean;
  /**
   * Host names (besides IP addresses, `localhost` and `host`) under which the stub's API answers,
   * for a stub reached by a name (a container's); a request with another `Host` gets 403, so a
   * web page cannot reach the API by DNS rebinding.
   */
  allowedHosts?: readonly string[];
  /**
   * Reload when a contract or example file under the sources changes. A change that does not
   * load leaves the previous version serving. Default false.
   */
  watch?: boolean;
  /** Told about every reload, by `watch` or `reload()`. */
  onReload?: (result: ReloadResult) => void;
  /** Only expectations and examples (example files, Examples rows) answer; any other request gets 400 saying why. Default false. */
  strict?: boolean;
  /**
   * Serve a WSDL that can be imported only in part (an import not loaded, a declaration found nowhere): its
   * nodes are (anything), which answer and accept any content; one warning line per such node. Default
   * false: such a WSDL is refused (ACCORD_ERR_WSDL), naming what was not loaded.
   */
  allowUnresolved?: boolean;
  /** Wait before every answer (an expectation's own delay replaces it): milliseconds, or `{ min, max }` for a random wait. */
  delayMs?: Delay;
  /**
   * Serve HTTPS: `true` with a self-signed certificate made at start-up (read it from
   * `certificate`, or GET /_accord/certificate), or your own `{ cert, key }` (PEM text).
   */
  tls?: true | { cert: string; key: string };
  /**
   * With `tls`: ask clients for a certificate signed by `ca` (PEM), `required` (default) or not
   * (client-certificates.ts). The journal's `clientCertificate` says which one each request came with.
   */
  clientCertificates?: ClientCertificates;
  /**
   * Check WS-Security (ws-security.ts): the users, trusted certificates and clock skew, and what
   * each scenario asks for beyond its own `@ws-security:…` tags. A request that fails gets a SOAP Fault.
   */
  wsSecurity?: WsSecuritySettings | StubWsSecurity;
  /**
   * Pass-through (pass-through.ts): a request that fits a scenario but that no expectation or example answers is sent to
   * this real service (`http://host:port`, or `{ target, timeoutMs }`), its answer returned as it came and checked
   * against the contract; an answer that breaks it is reported in the journal (`drift`) and the log. Nothing is
   * generated; a request that fits no scenario still gets the stub's 400/404.
   */
  passThrough?: string | PassThroughSettings;
  /**
   * Export each expectation set through the stub's HTTP API as a consumer example
   * (client/export-examples.ts), as connectStub exports a Jest test's: `true` for
   * `.accord/consumer-examples` under the working folder, or a folder. The consumer's name and the
   * test's title come with each expectation (its `consumer` and `test` keys), else `consumer`.
   * What `ACCORD_EXPORT_EXAMPLES=1 accord stub` sets, for a consumer whose tests are not Node's (zeep, JAX-WS, .NET).
   * An expectation connectStub exported already (it says so) is not written twice.
   */
  exportExamples?: boolean | string;
  /** The consumer's name noted in each exported example that does not give its own. */
  consumer?: string;
}

/** What a reload did: the new scenarios serving, or why the previous ones still are. */
export type ReloadResult = { ok: true; served: Scenario[]; notServed: NotServed[] } | { ok: false; error: AccordError };

export interface RunningStub {
  /** `http://127.0.0.1:41234`, or `https://…` with `tls`. */
  url: string;
  /** With `tls`: the certificate served (PEM), for a client to trust. */
  certificate?: string;
  port: number;
  /** Scenarios answered, in the order they are tried (after a reload, the new ones). */
  readonly served: Scenario[];
  /** Scenarios read but not served (Kafka messages, responses that cannot be generated), with why. */
  readonly notServed: NotServed[];
  /**
   * Reads the contract files again and serves the new version; requests already being answered
   * finish with the old one. If the files do not load, the old version keeps serving and the
   * result says why. Contracts given as parsed objects are kept as they are.
   */
  reload(): ReloadResult;
  /**
   * Sets an answer for requests that carry the given values, checked against the contract
   * first: throws an AccordError with the mismatches when it does not fit. Newest wins;
   * `times` makes it transient, and several transient ones answer in turn (a sequence).
   */
  expect(input: ExpectationInput): ExpectationHandle;
  /** Removes every expectation, empties the request journal, puts every state machine back in `Started` and starts `{{sequence}}` again at 1, of the root scope (call it between tests). */
  reset(): void;
  /** The root scope's named state machines (expectations' `state.name`) and the state each is in. */
  states(): { name: string; state: string }[];
  /** Puts one state machine (or, without a name, every one) back in `Started`; false when nothing names that machine. */
  resetState(name?: string): boolean;
  /** Puts a state machine in a state, as if an answer had moved it there (to start a test mid-story). */
  setState(name: string, state: string): void;
  /** The requests received, oldest first (at most the journal's size), with what answered each. */
  calls(filter?: CallFilter): JournalEntry[];
  /** Stops accepting connections and resolves when every connection is closed. Safe to call twice. */
  close(): Promise<void>;
}

/** A client that trickles a request for longer than this is cut off: the stub must never hang. */
const REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 10_000;
/** In-flight answers get this long after close() before their connections are cut. */
const CLOSE_GRACE_MS = 1_000;
const TEXT = 'text/plain; charset=utf-8';
const NO_BODY = new Set([204, 205, 304]);

/** Loads the contracts once, starts the server and resolves when it is listening. */
export async function startStub(options: StubOptions): Promise<RunningStub> {
  const sources = Array.isArray(options.contracts) ? options.contracts : [options.contracts as ContractSource];
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const write = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Log lines quote requests (a path, a header, a body): printable, so a client cannot write to the terminal of whoever reads the log,
  // and inert, so none is read as a CI runner's command.
  const log = (line: string) => write(inert(printable(line)));
  // Said at each load (start, and each reload with --watch): parts of a WSDL's contract are (anything).
  const warn = (line: string) => log(`accord stub: ${line}`);
  const state = new StubState(serveable(sources, warn, options.allowUnresolved), maxBodyBytes);
  const host = options.host ?? '127.0.0.1';
  const tls = tlsPair(options.tls, host);
  if (options.clientCertificates && !tls) throw new AccordError('ACCORD_ERR_USAGE', 'client certificates (clientCertificates, --tls-client-ca) need HTTPS: give tls too');
  const handler = makeHandler(state, {
    verbose: options.verbose ?? false,
    log,
    maxBodyBytes,
    cors: options.cors ?? false,
    allowedHosts: new Set([host, ...(options.allowedHosts ?? [])].map((h) => (h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h).toLowerCase())),
    strict: options.strict ?? false,
    wsdlFiles: sources.filter((x): x is string => typeof x === 'string' && x.toLowerCase().endsWith('.wsdl')),
    scheme: tls ? 'https' : 'http',
    certificate: tls?.cert,
    delay: options.delayMs === undefined ? undefined : checkDelay(options.delayMs, (why) => new AccordError('ACCORD_ERR_USAGE', `delayMs ${why}`)),
    wsSecurity: wsSecurityOf(options.wsSecurity),
    passThrough: passThroughOf(options.passThrough, maxBodyBytes),
    onExpected: exportOf(options),
    clientCertificates: options.clientCertificates !== undefined,
  });
  const timeouts = { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS };
  const guard = malformedGuard(HEADERS_TIMEOUT_MS);
  const listener: RequestListener = (req, res) => {
    guard.track(req, res);
    guarded(req, res, log, () => handler(req, res));
  };
  const server: Server = tls ? httpsServer(tls, options.clientCertificates, timeouts, listener, log) : createServer(timeouts, listener);
  guard.attach(server);
  const port = await listen(server, options.port ?? 0, host);
  const reload = (): ReloadResult => {
    let result: ReloadResult;
    try {
      state.table = serveable(sources, warn, options.allowUnresolved);
      result = { ok: true, served: state.table.routes.map((r) => r.scenario), notServed: state.table.notServed };
    } catch (e) {
      if (!(e instanceof AccordError)) throw e;
      result = { ok: false, error: e };
    }
    options.onReload?.(result);
    return result;
  };
  const watching = options.watch
    ? watchSources(
        sources.filter((s): s is string => typeof s === 'string'),
        () => {
          // Called from a timer: a bug while reloading is logged, and the previous version keeps serving.
          try {
            reload();
          } catch (e) {
            log(`accord stub: ${internalErrorText(e, { stack: true, during: 'reloading the contracts' })}`);
          }
        },
      )
    : undefined;
  let closing: Promise<void> | undefined;
  return {
    url: `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    certificate: tls?.cert,
    get served() {
      return state.table.routes.map((r) => r.scenario);
    },
    get notServed() {
      return state.table.notServed;
    },
    reload,
    expect: (input) => {
      const e = state.expect(input);
      const handle = handleOf(e, state.expectations);
      // ACCORD_EXPORT_EXAMPLES: an in-process stub's expectations are exported as connectStub's are.
      exported(input, acceptedOf(e));
      return handle;
    },
    reset: () => state.reset(),
    states: () => state.stateList(),
    resetState: (name) => state.resetState(name === undefined ? undefined : checkedName(name, 'state machine name')),
    setState: (name, to) => state.states.set(checkedName(name, 'state machine name'), checkedName(to, 'state')),
    calls: (filter) => state.journal.calls(filter),
    close: () => {
      watching?.close();
      return (closing ??= closeServer(server).then(() => handler.passThrough?.close()));
    },
  };
}

function checkedName(v: string, what: string): string {
  return stateName(v, what, (problem) => new AccordError('ACCORD_ERR_USAGE', `the ${problem}`));
}

function tlsPair(tls: StubOptions['tls'], host: string): { cert: string; key: string } | undefined {
  if (!tls) return undefined;
  if (tls !== true) return tls;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the certificate code is loaded only when asked for
  return (require('./tls') as typeof import('./tls')).selfSignedCertificate(host);
}

function wsSecurityOf(given: StubOptions['wsSecurity']): StubWsSecurity | undefined {
  if (given === undefined) return undefined;
  if (typeof (given as StubWsSecurity).refusal === 'function') return given as StubWsSecurity;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the WS-Security checker is loaded only when asked for
  return (require('./ws-security') as typeof import('./ws-security')).stubWsSecurity(given);
}

function passThroughOf(given: StubOptions['passThrough'], maxBodyBytes: number): PassThrough | undefined {
  if (given === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the HTTP client (undici) is loaded only for a pass-through
  const { PassThrough } = require('./pass-through') as typeof import('./pass-through');
  return new PassThrough(typeof given === 'string' ? { target: given } : given, maxBodyBytes);
}

function httpsServer(
  tls: { cert: string; key: string },
  clients: ClientCertificates | undefined,
  timeouts: { requestTimeout: number; headersTimeout: number },
  handler: RequestListener,
  log: (line: string) => void,
): Server {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:https (with tls and crypto) is loaded only for HTTPS: it cost every plain stub's start-up
    const { createServer: createHttpsServer } = require('node:https') as typeof import('node:https');
    if (!clients) return createHttpsServer({ ...timeouts, cert: tls.cert, key: tls.key }, handler);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for mutual TLS
    const mutual = require('./client-certificates') as typeof import('./client-certificates');
    const server = createHttpsServer({ ...timeouts, cert: tls.cert, key: tls.key, ...mutual.clientCertificateOptions(clients) }, handler);
    mutual.watchClientCertificates(server, clients, log);
    return server;
  } catch (e) {
    // OpenSSL's words for a file that is not a certificate or key, or a key that is not the certificate's.
    throw new AccordError('ACCORD_ERR_USAGE', `cannot serve HTTPS with this certificate and key: ${(e as Error).message}`, {}, { cause: e });
  }
}

/** The route table of the sources, refusing a set of contracts with nothing to serve. */
function serveable(sources: readonly ContractSource[], warn: (line: string) => void, allowUnresolved?: boolean): RouteTable {
  const table = buildRoutes(loadContracts(sources, warn, { allowUnresolved }));
  if (table.routes.length === 0) {
    throw new AccordError(
      'ACCORD_ERR_USAGE',
      'no scenario to serve: the contracts hold no HTTP scenario',
      {},
      { details: table.notServed.map((n) => `"${n.scenario.name}": ${n.reason}`) },
    );
  }
  return table;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      const why = e.code === 'EADDRINUSE' ? 'the port is in use (choose another with --port, or 0 for a free one)' : e.code === 'EACCES' ? 'permission denied' : e.message;
      reject(new AccordError('ACCORD_ERR_USAGE', `cannot listen on ${host}:${port}: ${why}`, {}, { cause: e }));
    });
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
  });
}

interface HandlerOptions {
  verbose: boolean;
  log: (line: string) => void;
  maxBodyBytes: number;
  cors: boolean;
  allowedHosts: ReadonlySet<string>;
  strict: boolean;
  delay?: Delay;
  /** WSDLs among the sources: served at `?wsdl` (wsdl-docs.ts). */
  wsdlFiles: string[];
  scheme: 'http' | 'https';
  certificate?: string;
  wsSecurity?: StubWsSecurity;
  passThrough?: PassThrough;
  /** With `exportExamples`: writes each expectation set through the API as a consumer example. */
  onExpected?: OnExpected;
  /** Clients are asked for certificates: the journal records each request's. */
  clientCertificates: boolean;
}

/** The writer of expectations set over the API, when exporting; undefined otherwise. */
function exportOf(options: StubOptions): OnExpected | undefined {
  if (options.exportExamples === undefined || options.exportExamples === false) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only a stub that exports loads the writer
  const ex = require('./client/export-examples') as typeof import('./client/export-examples');
  const cwd = process.cwd();
  const settings = ex.exportSettings(options.exportExamples, options.consumer, {}, cwd);
  if (!settings) return undefined;
  return (input, accepted, by) => {
    const outcome = ex.exportExpectation(input, accepted, by.consumer ? { ...settings, consumer: by.consumer } : settings, cwd, by.test);
    // Left out: one line saying why, so a consumer never believes a promise was published that was not.
    if ('omitted' in outcome) process.stderr.write(printable(ex.omittedLine(accepted, outcome.omitted, by.test)));
  };
}

function makeHandler(state: StubState, o: HandlerOptions) {
  // Whether answers may be repeated to the same request (decide/repeat.ts): not when every request is to be logged, delayed or checked (a replayed WS-Security nonce is refused).
  const repeats = !o.verbose && !o.wsSecurity && o.delay === undefined && !o.clientCertificates;
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    // The table as it is when the request arrives: a reload meanwhile does not change its answer.
    const table = state.table;
    const started = o.verbose ? performance.now() : 0;
    let scope: ScopeState = state;
    let admin = false;
    // One character test keeps scopes and the API off the cost of every ordinary request.
    if (req.url !== undefined && req.url.charCodeAt(1) === 95) {
      if (req.url.startsWith(SCOPE_PREFIX)) {
        const end = req.url.indexOf('/', SCOPE_PREFIX.length);
        try {
          scope = state.scope(req.url.slice(SCOPE_PREFIX.length, end < 0 ? undefined : end));
        } catch (e) {
          if (!(e instanceof AccordError)) throw e;
          // Every scope in use (STUB_LIMITS.scopes): a new one may be made once one is reset.
          return refuse(req, res, o, started, e.code === 'ACCORD_ERR_LIMIT' ? 503 : 400, e.describe());
        }
        // The rest is served as if sent to the root: `/_scope/a1/ws` is `/ws` of scope a1.
        req.url = end < 0 ? '/' : req.url.slice(end);
      }
      admin = isAdminPath(req.url);
      if (admin) {
        const refused = adminRefusal(req, o.allowedHosts);
        if (refused) return refuse(req, res, o, started, refused.status, refused.why, { connection: 'close' });
      }
    }
    if (o.cors && !admin) {
      allowOrigin(req, res);
      if (isPreflight(req)) {
        answerPreflight(req, res);
        if (o.verbose) o.log(`${req.method} ${redactQuery(req.url ?? '')} -> 204 CORS preflight`);
        return;
      }
    }
    const onBody = (bytes: Buffer | undefined): void => {
      if (repeats && !admin) {
        const again = scope.repeat.find(table, scope.expectations.version, req.method, req.url!, bytes, req.headers);
        if (again && scope.states.size === 0) return answerAgain(scope, req, res, again, o.log);
      }
      let text = '';
      if (bytes) {
        // Passed on as it came (compressed, MTOM), not as the text it is matched as.
        if (o.passThrough) rawRequests.set(req, { bytes, contentType: req.headers['content-type'] });
        const read = messageText(bytes, req.headers['content-type'], req.headers['content-encoding'], o.maxBodyBytes);
        if ('problem' in read) return undecodable(req, res, o, started, read.problem);
        // An MTOM/XOP request is matched (and journaled) as the envelope it stands for, with that envelope's Content-Type.
        if (read.xop) {
          req.headers['content-type'] = read.contentType;
          mtomRequests.add(req);
        }
        text = read.text;
      }
      if (admin) {
        // connectStub exports in the test's own process (with the test's title) and says so: not written twice.
        const onExpected = req.headers['x-accord-exported'] === undefined ? o.onExpected : undefined;
        return answerAdmin(scope, req.method ?? 'GET', req.url ?? '/', text, res, o.certificate, onExpected);
      }
      // ?wsdl: the WSDLs the stub was started from, or (a stub of .spec files) the one exported from its scenarios (answer/wsdl-docs.ts).
      if (req.method === 'GET' && (o.wsdlFiles.length > 0 || (req.url ?? '').includes('?')) && answerWsdl(req, res, o, table)) return;
      const body = new ParsedBody(text);
      if (text.length > XML_SLICE && looksLikeXml(text)) {
        // Parsed a slice per turn of the event loop: other clients are answered meanwhile.
        body.parseXmlAhead().then(
          () => guarded(req, res, o.log, () => serve(state, scope, table, req, res, body, o, started, false)),
          (e: unknown) => internalError(res, `${req.method} ${req.url ?? '/'}`, e, o.log),
        );
        return;
      }
      serve(state, scope, table, req, res, body, o, started, repeats && !mtomRequests.has(req) && bytes);
    };
    readBody(
      req,
      res,
      o.maxBodyBytes,
      () => tooLarge(req, res, o, started),
      (bytes) => guarded(req, res, o.log, () => onBody(bytes)),
    );
  };
  return Object.assign(handler, { passThrough: o.passThrough });
}

/**
 * Reads a request's body, at most `maxBytes`, and calls `onBody` with its bytes (undefined for none); past the
 * bound calls `tooLarge` once and drains the rest, so the 413 reaches the client. The one bounded reader
 * (http/read-body.ts, `drain`), called back rather than a promise per request: the stub's throughput is
 * measured against bare node:http.
 */
function readBody(req: IncomingMessage, res: ServerResponse, maxBytes: number, tooLarge: () => void, onBody: (bytes: Buffer | undefined) => void): void {
  if (Number(req.headers['content-length']) > maxBytes) return tooLarge();
  readBoundedStream(req, maxBytes, 'drain', (error, read) => {
    if (error || !read || res.writableEnded) return;
    if (!read.complete) return tooLarge();
    onBody(read.bytes.length > 0 ? read.bytes : undefined);
  });
}

/**
 * Runs a part of the answer to a request (the listener, a stream event, a timer): whatever it
 * throws is a bug in accord, answered 500 and logged, and never reaches the process (an uncaught
 * exception would end the stub for every other client).
 */
function guarded(req: IncomingMessage, res: ServerResponse, log: (line: string) => void, run: () => void): void {
  try {
    run();
  } catch (e) {
    internalError(res, `${req.method} ${req.url ?? '/'}`, e, log);
  }
}

function refuse(req: IncomingMessage, res: ServerResponse, o: HandlerOptions, started: number, status: number, why: string, headers: Record<string, string> = {}): void {
  send(res, status, `accord stub: ${why}\n`, headers);
  if (o.verbose) o.log(`${req.method} ${redactQuery(req.url ?? '')} -> ${status} ${why} (${(performance.now() - started).toFixed(2)} ms)`);
}

/**
 * Answers a request once its body is read: decide() works out who answers and with what (decide/decide.ts);
 * this records it in the journal, writes it, keeps it for the same request again and logs the line
 * rendered from it. `bytes`: the request's body as it came, when its answer may be kept for the same
 * request again (decide/repeat.ts); false when not.
 */
function serve(
  state: StubState,
  scope: ScopeState,
  table: RouteTable,
  req: IncomingMessage,
  res: ServerResponse,
  body: ParsedBody,
  o: HandlerOptions,
  started: number,
  bytes: Buffer | undefined | false,
): void {
  const url = req.url ?? '/';
  const request: JournalRequest = toHttpRequest(req, url, body.text);
  if (o.clientCertificates) request.clientCertificate = clientCertificateOf(req);
  const line = requestLine(request, url);
  let d: Decision<Expectation>;
  try {
    const served = { table, memo: state.memoFor(table), strict: o.strict, passThrough: o.passThrough !== undefined, delay: o.delay, wsSecurity: o.wsSecurity };
    d = decide({ request, url, line, body, mtom: mtomRequests.has(req) }, served, scope);
    if (d.kind === 'pass-through') return passOn(req, res, request, line, d.scenario, table, scope, o, started);
    scope.journal.record(request, d.entry);
    if (d.report) send(res, d.response.status, d.response.body, d.response.headers);
    else deliver(res, d.response, d.delayMs, o.log, d.fault, d.mtom);
  } catch (e) {
    internalError(res, line, e, o.log);
    if (o.verbose) o.log(`${line} -> ${res.statusCode} internal error (${(performance.now() - started).toFixed(2)} ms)`);
    return;
  }
  if (d.warn) o.log(d.warn);
  if (o.verbose) o.log(verboseLine(line, d, d.entry.status, performance.now() - started));
  if (d.repeat && bytes !== false) keepForRepeat(state, scope, table, req, request, url, bytes, d.entry, d.response, d.repeat.expectation);
}

/** A request only a scenario takes, sent on to the real service (pass-through.ts), which answers and journals it; the --verbose line once it has. */
function passOn(
  req: IncomingMessage,
  res: ServerResponse,
  request: HttpRequest,
  line: string,
  scenario: Scenario,
  table: RouteTable,
  scope: ScopeState,
  o: HandlerOptions,
  started: number,
): void {
  const passed = o.passThrough!;
  const others = table.routes.map((r) => r.scenario);
  const raw = rawRequests.get(req) ?? { bytes: undefined, contentType: undefined };
  // Every failure of the call is an answer already; what is left (a bug) is answered 500, never an unhandled rejection.
  passed
    .forward(req, res, raw, request, scenario, others, scope.journal, o.log)
    .then(() => {
      if (o.verbose) o.log(verboseLine(line, { kind: 'pass-through', scenario, said: `passed through to ${passed.target}` }, res.statusCode, performance.now() - started));
    })
    .catch((e: unknown) => internalError(res, line, e, o.log));
}

/** Keeps an answer for the same request again (decide/repeat.ts): one the Decision says may be repeated (no named state, no delay, fault or template of the request's time). */
function keepForRepeat(
  state: StubState,
  scope: ScopeState,
  table: RouteTable,
  req: IncomingMessage,
  request: HttpRequest,
  url: string,
  bytes: Buffer | undefined,
  said: JournalAnswer,
  answer: HttpResponse,
  expectation: Expectation | undefined,
): void {
  // What either memo reads of a request: the headers dispatch and the expectations read, and how the body was encoded.
  const names = () => {
    const read = [...scope.expectations.headerNames, 'content-encoding'];
    for (const h of state.memoFor(table).headerNames) if (!read.includes(h)) read.push(h);
    return read;
  };
  scope.repeat.keep({ table, version: scope.expectations.version, method: req.method!, url, request, journal: said, answer, expectation }, names, bytes, req.headers);
}

/** The same request again (decide/repeat.ts): its use counted, journaled, answered as the last time. */
function answerAgain(scope: ScopeState, req: IncomingMessage, res: ServerResponse, again: Repeatable<JournalAnswer, Expectation>, log: (line: string) => void): void {
  if (again.expectation) scope.expectations.use(again.expectation);
  const r = again.request;
  scope.journal.record({ method: r.method, path: r.path, query: r.query, headers: req.headers as Record<string, string>, body: r.body }, again.journal);
  deliver(res, again.answer, 0, log);
}

/** The bytes of each request as it came, kept only with a pass-through (which sends them on). */
const rawRequests = new WeakMap<IncomingMessage, RawRequest>();

/** Requests that came as MTOM/XOP: their answers go back the same way. */
const mtomRequests = new WeakSet<IncomingMessage>();

/** An answer as MTOM (its scenario's base64Binary values as parts), for a client that sent MTOM; undefined when it is not a SOAP envelope. */
function mtomAnswer(r: HttpResponse, scenario: Scenario): { status: number; headers: Record<string, string>; body: Buffer } | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the XOP writer is loaded only for an MTOM request
  const { base64Elements, packXop } = require('../http/xop-write') as typeof import('../http/xop-write');
  const packed = packXop(r.body, base64Elements(scenario.response.body, scenario.scope), r.headers['content-type'] ?? 'text/xml');
  return packed && { status: r.status, headers: { ...r.headers, 'content-type': packed.contentType }, body: packed.body };
}

/** Writes an answer (with the others decided in this turn of the event loop: written-together.ts), after its delay, or breaks it as the fault says; as MTOM when `mtomFor` (the answering scenario) is given. */
function deliver(res: ServerResponse, r: HttpResponse, delayMs: number, log: (line: string) => void, fault?: FaultKind, mtomFor?: Scenario): void {
  if (delayMs > 0) {
    const timer = setTimeout(() => guarded(res.req, res, log, () => deliver(res, r, 0, log, fault, mtomFor)), delayMs);
    // A client that gives up waiting frees the timer.
    res.once('close', () => clearTimeout(timer));
    return;
  }
  if (fault === 'connection-reset') return void res.socket?.resetAndDestroy();
  if (fault === 'empty-response') return void res.socket?.end();
  const sent = fault === 'malformed-body' ? malformed(r) : r;
  const mtom = mtomFor && !fault && !NO_BODY.has(sent.status) ? mtomAnswer(sent, mtomFor) : undefined;
  const failed = (e: unknown) => internalError(res, `${res.req.method} ${res.req.url ?? '/'}`, e, log);
  if (mtom) {
    mtom.headers['content-length'] = String(mtom.body.length);
    writeTogether(res, mtom.status, mtom.headers, mtom.body, failed);
  } else if (NO_BODY.has(sent.status)) {
    // These statuses carry no body by definition (RFC 9110), whatever the contract says.
    writeTogether(res, sent.status, sent.headers, undefined, failed);
  } else {
    // A known length spares the client chunked decoding and the server a write.
    sent.headers['content-length'] = String(Buffer.byteLength(sent.body));
    writeTogether(res, sent.status, sent.headers, sent.body, failed);
  }
}

/** The served WSDL documents of each generation of the table: read once, read again after a reload. */
const wsdlDocsOf = new WeakMap<object, import('./answer/wsdl-docs').WsdlDocs>();

/** The scenarios a stub of `.spec` files exports its `?wsdl` from: those it serves and those it does not (fault scenarios), in contract order. */
function exportedScenarios(table: RouteTable): Scenario[] {
  const all = new Set([...table.routes.map((r) => r.scenario), ...table.notServed.map((n) => n.scenario)]);
  const files = [...new Set([...all].map((s) => s.file))];
  return [...all].sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file) || a.line - b.line);
}

/** `?wsdl` / `?xsd=…` of a stub started from a WSDL; false when the request asks for neither. */
function answerWsdl(req: IncomingMessage, res: ServerResponse, o: HandlerOptions, table: object): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the DOM is loaded only for a stub of WSDLs
  const { WsdlDocs } = require('./answer/wsdl-docs') as typeof import('./answer/wsdl-docs');
  let doc: ReturnType<InstanceType<typeof WsdlDocs>['answer']>;
  try {
    let docs = wsdlDocsOf.get(table);
    if (!docs) wsdlDocsOf.set(table, (docs = new WsdlDocs(o.wsdlFiles, () => exportedScenarios(table as RouteTable))));
    // The address clients used (Host), so a stub in a container hands out an address that reaches it.
    doc = docs.answer(req.url ?? '/', `${o.scheme}://${req.headers.host ?? '127.0.0.1'}`);
  } catch (e) {
    if (!(e instanceof AccordError)) throw e;
    send(res, 500, `accord stub: cannot serve the WSDL: ${e.describe()}\n`);
    return true;
  }
  if (!doc) return false;
  if ('missing' in doc) send(res, 404, `accord stub: "${doc.missing}" is not a file the served WSDLs import from their own folder\n`);
  else {
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': String(Buffer.byteLength(doc.text)) });
    res.end(doc.text);
  }
  return true;
}

/** A request as a log line names it: credential-named query values (`access_token`) hidden. */
function requestLine(request: HttpRequest, url: string): string {
  return `${request.method} ${redactQuery(url)}`;
}

function internalError(res: ServerResponse, requestLine: string, e: unknown, log: (line: string) => void): void {
  // Contracts are checked at start-up, so this is a bug; the client still gets a clear answer, not a dropped socket.
  const during = `answering ${requestLine}`;
  try {
    log(`accord stub: ${internalErrorText(e, { stack: true, during })}`);
    if (!res.headersSent) {
      // A writeHead that threw may have named its status already ("200 OK").
      res.statusMessage = '';
      send(res, 500, `accord stub: ${internalErrorText(e, { during })}\n`);
    } else res.destroy();
  } catch {
    res.destroy();
  }
}

function tooLarge(req: IncomingMessage, res: ServerResponse, o: HandlerOptions, started: number): void {
  // Closing the connection is the only way to stop a client that is still sending.
  send(res, 413, `accord stub: request body larger than ${o.maxBodyBytes} bytes (the stub's limit; raise it with --max-body-bytes)\n`, { connection: 'close' });
  if (o.verbose) o.log(`${req.method} ${redactQuery(req.url ?? '')} -> 413 body over ${o.maxBodyBytes} bytes (${(performance.now() - started).toFixed(2)} ms)`);
}

function undecodable(req: IncomingMessage, res: ServerResponse, o: HandlerOptions, started: number, problem: string): void {
  send(res, 400, `accord stub: ${problem}\n`);
  if (o.verbose) o.log(`${req.method} ${redactQuery(req.url ?? '')} -> 400 ${problem} (${(performance.now() - started).toFixed(2)} ms)`);
}

/** The stub's own answers (400, 404, 405, 413, 500) quote the request; printable, since they are read on a terminal too. */
function send(res: ServerResponse, status: number, report: string, headers: Record<string, string> = {}): void {
  const text = printable(report);
  res.writeHead(status, { 'content-type': TEXT, 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

function clientCertificateOf(req: IncomingMessage): PresentedCertificate | null {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with mutual TLS, already by httpsServer
  return (require('./client-certificates') as typeof import('./client-certificates')).presented(req.socket as TLSSocket);
}

function toHttpRequest(req: IncomingMessage, target: string, body: string): HttpRequest {
  let url = target;
  // An absolute-form target (sent through a proxy) still names a path.
  if (!url.startsWith('/')) {
    try {
      const u = new URL(url);
      url = u.pathname + u.search;
    } catch {
      /* leave it: it matches no scenario and gets a 404 */
    }
  }
  const { path, query } = splitTarget(url);
  // Node already joins repeated request headers into one string (set-cookie, the exception, is a response header).
  const headers = req.headers as Record<string, string>;
  return { method: (req.method ?? 'GET').toUpperCase(), path, query, headers, body };
}
