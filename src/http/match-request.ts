import { endpointText, type PathSegment, type Scenario } from '../contract/model';
import { decodePercent } from '../contract/path';
import { matchText } from '../pattern/match/index';
import { append, at, type Mismatch, WHERE } from '../pattern/match/mismatch';
import { noteOpaqueRead } from '../pattern/match/probe';
import type { ParsedBody } from './body';
import { parseMediaType } from './content-type';
import { hideCredential } from './credentials';
import { matchBody } from './match-body';
import { matchForm } from './match-form';
import { matchMultipart } from './match-multipart';
import type { HttpRequest } from './message';

export interface RequestMatch {
  /** Method and path fit: the scenario is about this endpoint. */
  endpoint: boolean;
  mismatches: Mismatch[];
}

/**
 * How a request differs from a scenario's request (the stub asks this of every scenario).
 * With a `limit`, the body is compared only until about that many mismatches are found.
 */
export function matchRequest(s: Scenario, req: HttpRequest, body: ParsedBody, pathSegments: string[], limit = Infinity): RequestMatch {
  const r = s.request;
  if (r.method !== req.method.toUpperCase() || !pathFits(r.segments, pathSegments)) {
    return { endpoint: false, mismatches: [{ path: WHERE.requestPath, expected: endpointText(r), actual: endpointText(req) }] };
  }
  const out: Mismatch[] = [];
  r.segments.forEach((seg, i) => {
    if (seg.pattern) append(out, matchText(seg.pattern, pathSegments[i], s.scope, at(WHERE.requestPath, seg.name)));
  });
  const declared = new Set(r.query.map((q) => q.name));
  for (const q of r.query) {
    const v = req.query.find(([k]) => k === q.name);
    if (v) append(out, matchText(q.pattern, v[1], s.scope, at(WHERE.requestQuery, q.name)));
    else if (q.required) out.push({ path: at(WHERE.requestQuery, q.name), expected: `query parameter ${q.name}`, actual: 'no such query parameter' });
  }
  for (const [k] of req.query) {
    if (!declared.has(k)) out.push({ path: at(WHERE.requestQuery, k), expected: 'no such query parameter', actual: `unexpected query parameter "${k}"` });
  }
  for (const h of r.headers) {
    const value = req.headers[h.name.toLowerCase()];
    if (value === undefined) {
      if (!h.optional) out.push({ path: at(WHERE.requestHeader, h.name), expected: `header ${h.name}`, actual: 'no such header' });
      continue;
    }
    if (h.name.toLowerCase() === 'content-type' && h.pattern.kind === 'literal' && sameMediaType(String(h.pattern.value ?? ''), value)) continue;
    const mismatches = matchText(h.pattern, value, s.scope, at(WHERE.requestHeader, h.name));
    // SOAPAction is a quoted string by SOAP 1.1, but clients send it quoted and bare alike.
    if (mismatches.length > 0 && h.name.toLowerCase() === 'soapaction' && matchText(h.pattern, requote(value), s.scope).length === 0) continue;
    append(out, hideCredential(h.name, mismatches));
  }
  append(out, matchBody(r.body, body, s.scope, WHERE.requestBody, Math.max(1, limit - out.length)));
  // Form fields and parts are read from the body's text, not its elements.
  if (r.formFields.length > 0 || r.parts.length > 0) noteOpaqueRead();
  if (r.formFields.length > 0) append(out, matchForm(r.formFields, body.text, s.scope));
  if (r.parts.length > 0) append(out, matchMultipart(r.parts, body.text, req.headers['content-type'], s.scope));
  return { endpoint: true, mismatches: out };
}

function requote(v: string): string {
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : `"${v}"`;
}

/** Literal segments equal and the same number of segments: parameter types are checked as mismatches. */
export function pathFits(want: readonly PathSegment[], segments: readonly string[]): boolean {
  if (want.length !== segments.length) return false;
  for (let i = 0; i < want.length; i++) if (!want[i].pattern && want[i].name !== segments[i]) return false;
  return true;
}

/** A request path's segments, percent-decoded (a segment that does not decode is kept as sent). */
export function splitPath(path: string): string[] {
  const out: string[] = [];
  // The stub splits every request: no decoding attempted when there is nothing to decode (the usual case).
  const decode = path.includes('%');
  for (const x of path.split('/')) {
    if (x !== '') out.push(decode ? decodePercent(x) : x);
  }
  return out;
}

/**
 * A Content-Type written literally in a contract (`application/soap+xml; charset=utf-8;
 * action="urn:x"`, as the WSDL importer writes for SOAP 1.2) matches the same media type
 * however a client spells it: case of the type and of parameter names, parameter order,
 * spaces, quotes. Every parameter of the contract must be there with its value (charset
 * compared without case, and it may be left out, as may SOAP 1.2's optional `action`: the
 * body names the operation then); extra parameters are accepted.
 */
export function sameMediaType(expected: string, actual: string): boolean {
  const e = parseMediaType(expected);
  const a = parseMediaType(actual);
  if (!e || !a || e.type !== a.type) return false;
  for (const [k, v] of e.params) {
    const got = a.params.get(k);
    if (k === 'charset') {
      if (got !== undefined && got.toLowerCase() !== v.toLowerCase()) return false;
    } else if (k === 'action' && got === undefined && e.type === 'application/soap+xml') {
      // SOAP 1.2's action parameter is optional (RFC 3902; SOAP 1.2 part 2, 6.5): providers dispatch on the Body.
      continue;
    } else if (got !== v) return false;
  }
  return true;
}
