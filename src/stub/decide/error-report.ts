import { endpointText, scenarioHeading } from '../../contract/model';
import { AccordError } from '../../errors';
import type { ParsedBody } from '../../http/body';
import { closeness } from '../../http/closeness';
import { formatMismatches, WHERE } from '../../pattern/match/mismatch';
import type { Attempt } from './dispatch';
import type { Route, RouteTable } from './route';

/**
 * The plain-text bodies of the stub's own errors. The 400 report uses the
 * wording of the Jest failures (`Scenario "…" (file:line)`, then
 * `PATH: expected …, found …`) so a user reads one language everywhere.
 */

const MAX_DETAILED = 5;

export function noMatchReport(requestLine: string, attempts: Attempt[], body: ParsedBody): string {
  const malformed = malformedBody(attempts, body);
  if (malformed) {
    const names = attempts.map((a) => `"${a.route.scenario.name}"`).join(', ');
    return `accord stub: the body of ${requestLine} is not well-formed ${malformed}\nThe scenarios served there expect ${malformed.startsWith('XML') ? 'an XML' : 'a JSON'} body: ${names}\n`;
  }
  const ranked = attempts
    .map((a) => ({ a, closeness: closeness(a.mismatches, WHERE.requestBody) }))
    .sort((x, y) => y.closeness - x.closeness || x.a.mismatches.length - y.a.mismatches.length);
  const best = ranked[0].closeness;
  const near = ranked.filter((r) => r.closeness === best).slice(0, MAX_DETAILED);
  const far = ranked.filter((r) => !near.includes(r));
  const lines = [`accord stub: no scenario matches ${requestLine}`, ''];
  for (const { a } of near) {
    const s = a.route.scenario;
    lines.push(...scenarioHeading(s));
    lines.push(...formatMismatches(a.mismatches, '  ', true));
    lines.push('');
  }
  if (far.length > 0) lines.push(`Also served at this path, further from this request: ${far.map((r) => `"${r.a.route.scenario.name}"`).join(', ')}`, '');
  return lines.join('\n');
}

/** "XML (1:12: unexpected close tag)" when every scenario wanted one kind of body and it does not parse. */
function malformedBody(attempts: Attempt[], body: ParsedBody): string | undefined {
  const kinds = new Set(attempts.map((a) => a.route.requestKind));
  if (kinds.size !== 1) return undefined;
  const kind = [...kinds][0];
  if (kind !== 'xml' && kind !== 'json') return undefined;
  const parsed = kind === 'xml' ? body.asXml() : body.asJson();
  if (!(parsed instanceof AccordError)) return undefined;
  const where = parsed.location.line !== undefined ? `line ${parsed.location.line}, column ${parsed.location.column ?? 0}: ` : '';
  const what = body.text.trim() === '' ? 'the body is empty' : `${where}${parsed.message}`;
  return `${kind === 'xml' ? 'XML' : 'JSON'} (${what})`;
}

export function unknownPathReport(requestLine: string, allowed: string[], table: RouteTable): string {
  const head =
    allowed.length > 0 ? `accord stub: ${requestLine} is not served; this path is served for ${allowed.join(', ')}` : `accord stub: no scenario is served at ${requestLine}`;
  return `${head}\nServed:\n${servedEndpoints(table.routes)
    .map((e) => `  ${e}`)
    .join('\n')}\n${asksForWsdl(requestLine) ? WSDL_HINT : ''}`;
}

/**
 * A client that reads the WSDL at start (zeep, the `soap` package, .NET) pointed at a stub of `.spec`
 * files with no SOAP scenario to export a WSDL from, or asking for a document only a WSDL stub has
 * (`?singleWsdl`, `?xsd=…`): a bare 405 does not say why.
 */
const WSDL_HINT =
  "A stub serves ?wsdl only for a .wsdl file it was started from (accord stub service.wsdl), at that WSDL's address paths, or for the SOAP scenarios of its .spec files (the WSDL accord export wsdl writes, at ?wsdl); this request names none. Ask for ?wsdl, start the stub from the WSDL, or load the WSDL from a file in the client and point its address at the stub.\n";

/** `GET /ws?wsdl`, `?WSDL`, `?singleWsdl`, `?xsd=…`: what SOAP clients ask a service for. No regex: the line is the request's. */
function asksForWsdl(requestLine: string): boolean {
  if (!requestLine.startsWith('GET ')) return false;
  const q = requestLine.indexOf('?');
  if (q < 0) return false;
  const query = requestLine.slice(q + 1).toLowerCase();
  return query === 'wsdl' || query.startsWith('wsdl&') || query.startsWith('wsdl=') || query.startsWith('singlewsdl') || query.startsWith('xsd=');
}

/** Distinct `METHOD /path` pairs, in contract order. */
export function servedEndpoints(routes: readonly Route[]): string[] {
  return [...new Set(routes.map((r) => endpointText(r.scenario.request)))];
}
