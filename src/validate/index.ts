import type { Contract, Scenario } from '../contract/model';
import { scenarioHeading } from '../contract/model';
import { AccordError } from '../errors';
import { ParsedBody } from '../http/body';
import { closeness } from '../http/closeness';
import { matchBody } from '../http/match-body';
import { bodyKind } from '../pattern/generate/index';
import { formatMismatches, type Mismatch, WHERE } from '../pattern/match/mismatch';
import { lookupType, resolve } from '../pattern/resolve';
import type { Pattern, Scope, XmlContent } from '../pattern/types';
import { closest } from '../suggest';

/**
 * `accord validate`: one message (a request, or a response with `response`) against the bodies
 * of a contract's scenarios, matched as the stub matches a request body and the runner a
 * response body. Only the body is checked: a message file has no method, path or headers.
 */
export interface ValidateOptions {
  response?: boolean;
  /** Only the scenarios of this name, or whose SOAP operation (the element in the Body) has this local name. */
  operation?: string;
  /** How the message is named in errors: its file, or `<stdin>`. */
  source?: string;
}

export interface Attempt {
  scenario: Scenario;
  mismatches: Mismatch[];
}

export interface Verdict {
  side: 'request' | 'response';
  /** The scenarios the message fits, in contract order. */
  fits: Scenario[];
  /** Every scenario tried, closest first. */
  attempts: Attempt[];
}

/** Scenarios reported in full when the message fits none; the rest are named. */
const MAX_DETAILED = 5;

/** Throws an AccordError (usage or input) when there is nothing to match against or the message does not parse. */
export function validateMessage(contract: Contract, text: string, o: ValidateOptions = {}): Verdict {
  const side = o.response ? 'response' : 'request';
  const where = o.response ? WHERE.responseBody : WHERE.requestBody;
  const candidates = candidatesFor(contract, side, o.operation);
  const body = new ParsedBody(text);
  refuseUnparsed(candidates, side, body, o.source ?? '<message>');
  const attempts = candidates.map((s) => ({ scenario: s, mismatches: matchBody(bodyOf(s, side), body, s.scope, where) }));
  const fits = attempts.filter((a) => a.mismatches.length === 0).map((a) => a.scenario);
  const ranked = attempts
    .map((a, i) => ({ a, i, c: closeness(a.mismatches, where) }))
    .sort((x, y) => y.c - x.c || x.a.mismatches.length - y.a.mismatches.length || x.i - y.i)
    .map((r) => r.a);
  return { side, fits, attempts: ranked };
}

/** The report: which scenario(s) the message fits, or for the closest ones why not. */
export function formatVerdict(v: Verdict, source: string, contractName: string): string {
  const as = `as a ${v.side}`;
  if (v.fits.length > 0) {
    const lines = [`${source} fits ${v.fits.length === 1 ? 'a scenario' : `${v.fits.length} scenarios`} of ${contractName} ${as}:`];
    for (const s of v.fits) lines.push(...scenarioHeading(s).map((l) => `  ${l}`));
    return `${lines.join('\n')}\n`;
  }
  const lines = [`${source} fits no scenario of ${contractName} ${as}`, ''];
  const near = v.attempts.slice(0, MAX_DETAILED);
  for (const a of near) lines.push(...scenarioHeading(a.scenario), ...formatMismatches(a.mismatches), '');
  const far = v.attempts.slice(MAX_DETAILED);
  if (far.length > 0) lines.push(`Also tried, further from this message: ${far.map((a) => `"${a.scenario.name}"`).join(', ')}`, '');
  return lines.join('\n');
}

function bodyOf(s: Scenario, side: 'request' | 'response'): Pattern | undefined {
  return side === 'request' ? s.request.body : s.response.body;
}

function candidatesFor(contract: Contract, side: 'request' | 'response', operation: string | undefined): Scenario[] {
  // A scenario with no body on this side would fit any message: it says nothing about one.
  const withBody = contract.scenarios.filter((s) => !s.unsupported && bodyOf(s, side) !== undefined);
  if (withBody.length === 0) throw new AccordError('ACCORD_ERR_USAGE', `no scenario of ${contract.file} has a ${side} body to validate against`);
  if (operation === undefined) return withBody;
  const named = withBody.filter((s) => s.name === operation || soapOperation(s, side) === operation);
  if (named.length > 0) return named;
  const names = [...new Set(withBody.flatMap((s) => [s.name, soapOperation(s, side) ?? []].flat()))];
  const guess = closest(operation, names);
  throw new AccordError(
    'ACCORD_ERR_USAGE',
    `--operation "${operation}" names no scenario or SOAP operation of ${contract.file}${guess ? ` (did you mean "${guess}"?)` : ''}`,
    {},
    { details: [`known: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}`] },
  );
}

/**
 * A message that does not parse as the one kind of body every candidate expects is an input
 * error (exit 2, with its line and column), not a message that fits no scenario.
 */
function refuseUnparsed(candidates: readonly Scenario[], side: 'request' | 'response', body: ParsedBody, source: string): void {
  const kinds = new Set(candidates.map((s) => bodyKind(bodyOf(s, side)!, s.scope)));
  if (kinds.size !== 1) return;
  const kind = [...kinds][0];
  const parsed = kind === 'xml' ? body.asXml() : kind === 'json' ? body.asJson() : undefined;
  if (!(parsed instanceof AccordError)) return;
  if (body.text.trim() === '')
    throw new AccordError(parsed.code, `the message is empty; the scenarios expect ${kind === 'xml' ? 'an XML' : 'a JSON'} ${side} body`, { file: source });
  throw new AccordError(parsed.code, `not ${kind === 'xml' ? 'well-formed XML' : 'valid JSON'}: ${parsed.message}`, { ...parsed.location, file: source });
}

/** The local name of the element a SOAP Envelope's Body holds (the operation's wrapper), when the body is an envelope. */
function soapOperation(s: Scenario, side: 'request' | 'response'): string | undefined {
  const envelope = resolve(bodyOf(s, side)!, s.scope);
  // Types were checked when the contract was read; a ref that does not resolve here only means "no name".
  if (envelope.kind !== 'xml' || envelope.local !== 'Envelope') return undefined;
  const soapBody = envelope.content.find((c) => c.kind === 'xml' && c.local === 'Body');
  if (!soapBody || soapBody.kind !== 'xml') return undefined;
  for (const c of soapBody.content) {
    const el = elementOf(c, s.scope);
    if (el) return el;
  }
  return undefined;
}

function elementOf(c: XmlContent, scope: Scope): string | undefined {
  try {
    if (c.kind === 'xml') return c.local;
    // A choice or a wildcard as the Body's content names no one element.
    if (c.kind === 'xml-choice' || c.kind === 'xml-any') return undefined;
    const p = c.kind === 'xml-ref' ? lookupType(c.name, scope) : resolve(c.pattern, scope);
    return p.kind === 'xml' ? p.local : undefined;
  } catch (e) {
    // An unknown type is reported when the message is matched; here it only means "no name".
    if (e instanceof AccordError) return undefined;
    throw e;
  }
}
