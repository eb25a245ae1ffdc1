import type { Scenario } from '../contract/model';
import { deref } from '../pattern/compare/index';
import { WHERE } from '../pattern/match/mismatch';
import { contentSlots, effectiveElement } from '../pattern/resolve';
import type { Pattern, Scope, XmlElementPattern } from '../pattern/types';
import type { FindingLocation, ScenarioDiff } from './model';

/**
 * The line a finding points at: the changed node in the newer contract when
 * it is there (or its nearest ancestor that is, for a node that was removed),
 * else in the older contract. CI annotations then land on the line a reviewer
 * has to look at, not only on the scenario's first line.
 */
export function locateFinding(path: string, d: ScenarioDiff): FindingLocation {
  // A status that changed points at the newer scenario's status line.
  const newer = d.newer ?? (path === WHERE.responseStatus ? d.candidates[0] : undefined);
  if (newer) {
    const n = lineIn(newer, path);
    if (n.exact || !d.older) return { version: 'newer', line: n.line };
    const o = lineIn(d.older, path);
    // A node gone from the newer version: its parent there, and the line it had in the older version.
    return o.exact ? { version: 'newer', line: n.line, olderLine: o.line } : { version: 'newer', line: n.line };
  }
  return { version: 'older', line: lineIn(d.older, path).line };
}

interface Found {
  line: number;
  /** The whole path was found (not only an ancestor). */
  exact: boolean;
}

function lineIn(s: Scenario, path: string): Found {
  const space = path.indexOf(' ');
  const where = space < 0 ? path : path.slice(0, space);
  const rest = space < 0 ? '' : path.slice(space + 1);
  switch (where) {
    case WHERE.requestHeader:
      return headerLine(s.request.headers, rest, s.request.line);
    case WHERE.responseHeader:
      return headerLine(s.response.headers, rest, s.response.line);
    case WHERE.requestBody:
      return bodyLine(s.request.body, s.scope, rest, s.request.line);
    case WHERE.responseBody:
      return bodyLine(s.response.body, s.scope, rest, s.response.line);
    case WHERE.responseStatus:
      return { line: s.response.line, exact: true };
    case WHERE.requestPath:
    case WHERE.requestQuery:
    case WHERE.requestFormField:
    case WHERE.requestPart:
      return { line: s.request.line, exact: true };
    default:
      return { line: s.line, exact: where === '' };
  }
}

function headerLine(headers: readonly { name: string; line: number }[], name: string, fallback: number): Found {
  const h = headers.find((x) => x.name.toLowerCase() === name.toLowerCase());
  return h ? { line: h.line, exact: true } : { line: fallback, exact: false };
}

/** An XML path (`Envelope/Body/getPetRequest/id`, `.../@attr`, `item[*]`) walked by local names through refs and types. */
function bodyLine(body: Pattern | undefined, scope: Scope, rest: string, fallback: number): Found {
  if (!body) return { line: fallback, exact: false };
  const root = deref(body, scope).p;
  if (root.kind !== 'xml' || rest === '') return { line: fallback, exact: rest === '' };
  const names = rest.split('/').map(withoutIndex);
  let el: XmlElementPattern = root;
  let line = root.line ?? fallback;
  if (names[0] !== el.local) return { line, exact: false };
  for (const name of names.slice(1)) {
    if (name.startsWith('@')) return { line, exact: effectiveElement(el, scope).attributes.some((a) => a.local === name.slice(1)) };
    const next = childNamed(el, name, scope);
    if (!next) return { line, exact: false };
    el = next;
    if (el.line !== undefined) line = el.line;
  }
  return { line, exact: true };
}

function childNamed(el: XmlElementPattern, name: string, scope: Scope): XmlElementPattern | undefined {
  for (const slot of contentSlots(effectiveElement(el, scope).content, scope)) {
    if (slot.kind === 'element' && slot.pattern.local === name) return slot.pattern;
  }
  return undefined;
}

/** `item[*]` → `item`. */
function withoutIndex(name: string): string {
  const open = name.lastIndexOf('[');
  return open > 0 && name.endsWith(']') ? name.slice(0, open) : name;
}
