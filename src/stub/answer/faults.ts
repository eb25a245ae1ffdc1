import { AccordError } from '../../errors';
import { ParsedBody } from '../../http/body';
import { matchRequest, splitPath } from '../../http/match-request';
import { SOAP12_ENVELOPE, type HttpRequest, type HttpResponse } from '../../http/message';
import { WHERE } from '../../pattern/match/mismatch';
import { createRandom } from '../../pattern/random';
import { elementChildren } from '../../xml/tree';
import { XML_DECLARATION } from '../../xml/serialize';
import { respond, type Answerable } from './respond';
import { isProbeMismatch } from './typed-request';
import { NOT_SOAP, soapVersionOfBody, type SoapVersion } from './soap-version';

/**
 * Ways an answer can go wrong on purpose, for testing a client's error handling:
 * - `connection-reset`: the connection is reset (TCP RST) without an answer;
 * - `empty-response`: the connection is closed without a byte of answer;
 * - `malformed-body`: the contract's status and headers, the body cut off half way (not well-formed);
 * - `soap-fault`: the contract's own SOAP Fault scenario for the operation when it has one, else
 *   a plain SOAP Fault envelope (soap:Server / env:Receiver) of the request's SOAP version, status 500.
 */
export const FAULT_KINDS = ['connection-reset', 'empty-response', 'malformed-body', 'soap-fault'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Milliseconds, or a random wait from `min` to `max` milliseconds. */
export type Delay = number | { min: number; max: number };

/** Longest wait accepted (a minute): a delay is for timeouts in tests, not for holding connections. */
const MAX_DELAY_MS = 60_000;

export function checkDelay(d: unknown, bad: (why: string) => Error): Delay {
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= MAX_DELAY_MS;
  if (ok(d)) return d;
  if (typeof d === 'object' && d !== null && ok((d as { min?: unknown }).min) && ok((d as { max?: unknown }).max)) {
    const { min, max } = d as { min: number; max: number };
    if (min <= max) return { min, max };
  }
  throw bad(`is not a number of milliseconds from 0 to ${MAX_DELAY_MS} or {"min", "max"} with min <= max`);
}

export function delayOf(d: Delay | undefined): number {
  if (d === undefined) return 0;
  if (typeof d === 'number') return d;
  return d.min + Math.random() * (d.max - d.min);
}

/** Reads `--delay 200` or `--delay 100-500`. */
export function parseDelay(text: string): Delay {
  const dash = text.indexOf('-');
  const value = dash < 0 ? Number(text) : { min: Number(text.slice(0, dash)), max: Number(text.slice(dash + 1)) };
  return checkDelay(value, (why) => new AccordError('ACCORD_ERR_USAGE', `--delay "${text}" ${why}`));
}

/**
 * The answer a `soap-fault` expectation gives: the contract's fault scenario that takes this
 * request (a scenario whose answer is an Envelope with a Fault in its Body), the one `faultName`
 * names when the operation has several (else the first), or a standard fault envelope when the
 * contract declares none. Worked out once, when the expectation is set; a name that names none
 * of the request's faults is an AccordError listing those it has.
 */
export function soapFaultAnswer<R extends Answerable & { soap?: SoapVersion }>(
  routes: readonly R[],
  request: HttpRequest,
  owner: Answerable,
  faultName?: string,
): { response: HttpResponse; route?: R } {
  const body = new ParsedBody(request.body);
  const segments = splitPath(request.path);
  const version = soapVersionOfBody(body);
  const faults = routes.filter((route) => {
    // The fault of the request's SOAP version (1.1 and 1.2 may be served on one path).
    if (version !== NOT_SOAP && route.soap !== undefined && route.soap !== version) return false;
    if (!isFaultRoute(route)) return false;
    const m = matchRequest(route.scenario, request, body, segments);
    // A header the expectation leaves out (SOAPAction) is the contract's business, as in fit-example.ts.
    // A typed expectation's probe value (typed-request.ts) stands for any value of its type: its scenario was fitted by type already.
    return m.endpoint && m.mismatches.every((x) => (x.actual === 'no such header' && x.path.startsWith(`${WHERE.requestHeader} `)) || isProbeMismatch(x));
  });
  if (faultName !== undefined) {
    const route = faults.find((r) => namesFault(r.scenario.name, faultName));
    if (route) return { response: respond(route, undefined, createRandom(route.seed)), route };
    const known = faults.map((r) => JSON.stringify(r.scenario.name));
    throw new AccordError(
      'ACCORD_ERR_USAGE',
      `expectation refused: "faultName" ${JSON.stringify(faultName)} names no SOAP fault of this request; ` +
        (known.length
          ? `its fault scenarios: ${known.join(', ')} (a scenario's name, or the wsdl:fault name after "fault" in it)`
          : 'the contract declares no fault scenario for it'),
    );
  }
  if (faults.length > 0) return { response: respond(faults[0], undefined, createRandom(faults[0].seed)), route: faults[0] };
  const soap12 = request.body.includes(SOAP12_ENVELOPE) || (request.body === '' && (owner.contentType ?? '').startsWith('application/soap+xml'));
  return { response: standardFault(soap12) };
}

/** A fault scenario by its name, or by the wsdl:fault name the importer ends it with (`getPet fault notFound`). */
function namesFault(scenario: string, name: string): boolean {
  return scenario === name || scenario.endsWith(` fault ${name}`);
}

function isFaultRoute(route: Answerable): boolean {
  if (route.responseKind !== 'xml') return false;
  const sample = new ParsedBody(respond(route, undefined, createRandom(0)).body).asXml();
  if (sample instanceof AccordError || sample.local !== 'Envelope') return false;
  const soapBody = elementChildren(sample).find((c) => c.local === 'Body');
  return soapBody !== undefined && elementChildren(soapBody)[0]?.local === 'Fault';
}

function standardFault(soap12: boolean): HttpResponse {
  const body = soap12
    ? `${XML_DECLARATION}<env:Envelope xmlns:env="${SOAP12_ENVELOPE}"><env:Body><env:Fault><env:Code><env:Value>env:Receiver</env:Value></env:Code>` +
      `<env:Reason><env:Text xml:lang="en">Fault set by an accord stub expectation</env:Text></env:Reason></env:Fault></env:Body></env:Envelope>`
    : `${XML_DECLARATION}<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode>` +
      `<faultstring>Fault set by an accord stub expectation</faultstring></soap:Fault></soap:Body></soap:Envelope>`;
  return { status: 500, headers: { 'content-type': soap12 ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8' }, body };
}

/** The first half of the body: its start says what it is, its end is missing, so no parser accepts it. */
export function malformed(r: HttpResponse): HttpResponse {
  const body = r.body === '' ? '<' : r.body.slice(0, Math.max(1, Math.floor(r.body.length / 2)));
  return { ...r, body };
}
