import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { endpointText, type Contract, type Scenario } from '../contract/model';
import { AccordError, formatLocation } from '../errors';
import { FILE_LIMITS, readInputText } from '../files';
import { excerpt } from '../printable';
import { ParsedBody } from '../http/body';
import { matchRequest, splitPath } from '../http/match-request';
import { matchResponse } from '../http/match-response';
import type { HttpRequest, HttpResponse } from '../http/message';
import { patternFromText } from '../pattern/body';
import { formatMismatches, type Mismatch } from '../pattern/mismatch';
import type { Pattern } from '../pattern/types';
import { readJson } from '../json/parse';

/**
 * Example files, in Specmatic's layout: JSON files in `<contract>_examples/`
 * (or the older `<contract>_data/`) beside `<contract>.spec`, each
 *   { "http-request":  { "method", "path", "query"?, "headers"?, "body"? },
 *     "http-response": { "status", "headers"?, "body"? } }
 * A request that carries the example's values gets the example's response as
 * given. Each file is checked at start-up: its request must match a scenario
 * of its contract and its response must satisfy that scenario, or the stub
 * does not start (an example that silently never answers helps nobody).
 */
export interface FixedExample {
  file: string;
  /** The scenario it belongs to, narrowed so that only requests with the example's values match. */
  scenario: Scenario;
  owner: Scenario;
  response: HttpResponse;
}

export function exampleDirs(specFile: string): string[] {
  const base = specFile.replace(/\.(spec|wsdl)$/i, '');
  return [`${base}_examples`, `${base}_data`].filter((d) => existsSync(d) && statSync(d).isDirectory());
}

export function loadExampleFiles(contract: Contract, errors: AccordError[]): FixedExample[] {
  const out: FixedExample[] = [];
  for (const dir of exampleDirs(contract.file)) {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    for (const name of files) {
      const file = path.join(dir, name);
      try {
        out.push(loadOne(file, contract));
      } catch (e) {
        if (!(e instanceof AccordError)) throw e;
        errors.push(e);
      }
    }
  }
  return out;
}

interface RawExample {
  request: HttpRequest;
  response: HttpResponse;
  /** Header names and query names the example gives values for. */
  givenHeaders: [string, string][];
  givenBody: boolean;
}

function loadOne(file: string, contract: Contract): FixedExample {
  const ex = readExample(file);
  const body = new ParsedBody(ex.request.body);
  const segments = splitPath(ex.request.path);
  let closest: { s: Scenario; mismatches: Mismatch[] } | undefined;
  for (const s of contract.scenarios) {
    if (s.unsupported) continue;
    const m = matchRequest(s, ex.request, body, segments);
    if (!m.endpoint) continue;
    if (m.mismatches.length > 0) {
      if (!closest || m.mismatches.length < closest.mismatches.length) closest = { s, mismatches: m.mismatches };
      continue;
    }
    const wrong = matchResponse(s, ex.response);
    if (wrong.length > 0) throw invalid(file, `its response does not satisfy scenario "${s.name}" (${where(s)})`, wrong);
    return { file, scenario: narrow(s, ex, segments), owner: s, response: ex.response };
  }
  if (closest) throw invalid(file, `its request matches no scenario of ${contract.file}; closest is "${closest.s.name}" (${where(closest.s)})`, closest.mismatches);
  throw invalid(file, `no scenario of ${contract.file} is at ${endpointText(ex.request)}`, []);
}

/**
 * Headers an example may show but that do not pick it: transport details, and
 * Content-Type, whose parameters (charset) vary by client while the body itself
 * is compared. A scenario that declares one of them still has it checked.
 */
const IGNORED_HEADERS = new Set(['content-type', 'content-length', 'host', 'connection', 'transfer-encoding', 'accept-encoding', 'user-agent']);

/** The owning scenario, with the example's path, query, header and body values as literals. */
function narrow(s: Scenario, ex: RawExample, segments: string[]): Scenario {
  const literal = (value: string): Pattern => ({ kind: 'literal', value });
  const query = new Map(ex.request.query);
  const headers = s.request.headers.map((h) => {
    const v = ex.request.headers[h.name.toLowerCase()];
    return v === undefined ? h : { ...h, optional: false, pattern: literal(v) };
  });
  for (const [name, value] of ex.givenHeaders) {
    if (IGNORED_HEADERS.has(name) || headers.some((h) => h.name.toLowerCase() === name)) continue;
    headers.push({ name, optional: false, pattern: literal(value), line: s.request.line });
  }
  let body = s.request.body;
  if (ex.givenBody) {
    try {
      body = patternFromText(ex.request.body);
    } catch {
      body = literal(ex.request.body.trim());
    }
  }
  return {
    ...s,
    request: {
      ...s.request,
      segments: segments.map((name) => ({ name, pattern: literal(name) })),
      query: s.request.query.map((q) => (query.has(q.name) ? { ...q, pattern: literal(query.get(q.name)!) } : q)),
      headers,
      body,
    },
  };
}

function readExample(file: string): RawExample {
  const text = readInputText(file, { what: 'example file', limit: FILE_LIMITS.exampleBytes });
  const read = readJson(text);
  if ('problem' in read) throw new AccordError('ACCORD_ERR_JSON', `example file is ${excerpt(read.problem, 200)}`, { file });
  const json = read.value;
  const shape = (message: string) =>
    new AccordError(
      'ACCORD_ERR_USAGE',
      `example file ${message}; expected {"http-request": {"method", "path", "headers"?, "body"?}, "http-response": {"status", "headers"?, "body"?}}`,
      { file },
    );
  if (!isObject(json)) throw shape('is not a JSON object');
  const req = json['http-request'];
  const res = json['http-response'];
  if (!isObject(req) || typeof req.method !== 'string' || typeof req.path !== 'string' || !req.path.startsWith('/'))
    throw shape('has no valid "http-request" (method and a path starting with /)');
  if (!isObject(res) || typeof res.status !== 'number' || !Number.isInteger(res.status) || res.status < 100 || res.status > 599)
    throw shape('has no valid "http-response" (status from 100 to 599)');
  const q = req.path.indexOf('?');
  const query: [string, string][] = q < 0 ? [] : [...new URLSearchParams(req.path.slice(q + 1))];
  if (isObject(req.query)) for (const [k, v] of Object.entries(req.query)) query.push([k, String(v)]);
  const requestHeaders = stringRecord(req.headers);
  return {
    request: { method: req.method.toUpperCase(), path: q < 0 ? req.path : req.path.slice(0, q), query, headers: requestHeaders, body: bodyText(req.body) },
    response: { status: res.status, headers: stringRecord(res.headers), body: bodyText(res.body) },
    givenHeaders: Object.entries(requestHeaders),
    givenBody: req.body !== undefined,
  };
}

/** A body given as a JSON value is sent as JSON; a string as it is. */
function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

function stringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObject(v)) for (const [k, x] of Object.entries(v)) out[k.toLowerCase()] = String(x);
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function where(s: Scenario): string {
  return formatLocation({ file: s.file, line: s.line });
}

function invalid(file: string, message: string, mismatches: Mismatch[]): AccordError {
  return new AccordError('ACCORD_ERR_USAGE', `example file: ${message}`, { file }, { details: formatMismatches(mismatches, '') });
}
