import type { FormField, HeaderSpec, PathSegment, QueryParam, RequestSpec } from '../contract/model';
import { Comparer, deref, run, type CompareOptions, type Difference } from '../pattern/compare/index';
import { elementsIntersect, intersects } from '../pattern/compare/intersect';
import { describePattern } from '../pattern/describe';
import { bodyKind } from '../pattern/generate/index';
import { effectiveElement } from '../pattern/resolve';
import type { Pattern, Scope } from '../pattern/types';

/*
 * The parts of an HTTP request or response, compared the way accord's
 * matchers read them (match-request.ts, match-response.ts, match-body.ts).
 * In each function A is the side that accepts and B the side that produces.
 */

function prefixed(where: string, ds: Difference[]): Difference[] {
  return ds.map((d) => ({ ...d, path: d.path ? `${where} ${d.path}` : where }));
}

/**
 * Bodies, as the HTTP matcher reads them: XML, JSON or text by the pattern's
 * form. No pattern accepts any body; `where` is "REQUEST.BODY" or "RESPONSE.BODY".
 */
export function compareBodies(a: Pattern | undefined, aScope: Scope, b: Pattern | undefined, bScope: Scope, where: string, opts: CompareOptions = {}): Difference[] {
  if (!a) return [];
  if (!b) return [{ kind: 'type', target: 'value', path: where, a: describePattern(a), b: 'any body (none declared)', narrower: true }];
  const ka = bodyKind(a, aScope);
  const kb = bodyKind(b, bScope);
  const c = new Comparer(aScope, bScope, opts.stopAtFirst, opts.stopAtFirst);
  if (ka === 'text') {
    const ar = deref(a, aScope).p;
    if (ar.kind === 'scalar' && (ar.type === 'string' || ar.type === 'anything')) return [];
  }
  if (ka !== kb) {
    const ar = deref(a, aScope);
    const br = deref(b, bScope);
    return [{ kind: 'type', target: 'value', path: where, a: bodyWords(ar.p), b: bodyWords(br.p), narrower: false }];
  }
  if (ka === 'xml') {
    // `(Envelope?)` as a whole body: an empty body is then allowed too.
    let ar = deref(a, aScope);
    let br = deref(b, bScope);
    const aOptional = ar.p.kind === 'optional';
    if (ar.p.kind === 'optional') ar = deref(ar.p.inner, aScope);
    if (br.p.kind === 'optional') {
      if (!aOptional) return [{ kind: 'optional', target: 'node', path: where, a: 'required', b: 'optional' }];
      br = deref(br.p.inner, bScope);
    }
    if (ar.p.kind !== 'xml' || br.p.kind !== 'xml') return [{ kind: 'type', target: 'value', path: where, a: bodyWords(ar.p), b: bodyWords(br.p), narrower: false }];
    const ae = ar.p;
    const be = br.p;
    const aLocal = effectiveElement(ae, aScope).local;
    const bLocal = effectiveElement(be, bScope).local;
    if (aLocal !== bLocal) return [{ kind: 'type', target: 'value', path: where, a: `an XML document <${aLocal}>`, b: `an XML document <${bLocal}>`, narrower: false }];
    run(c, () => c.element(ae, ar.name, be, br.name, aLocal));
  } else run(c, () => c.value(a, b, '', ka === 'json' ? 'json' : 'text'));
  return prefixed(where, c.differences);
}

function bodyWords(p: Pattern): string {
  return p.kind === 'xml' ? `an XML document <${p.local}>` : describePattern(p);
}

/**
 * Header sets: A's matcher checks only the headers it declares, so B's extra
 * headers never matter; a header A requires must always be in B.
 */
export function compareHeaders(a: readonly HeaderSpec[], aScope: Scope, b: readonly HeaderSpec[], bScope: Scope, where: string, opts: CompareOptions = {}): Difference[] {
  const out: Difference[] = [];
  const c = new Comparer(aScope, bScope, opts.stopAtFirst, opts.stopAtFirst);
  for (const ah of a) {
    const bh = b.find((h) => h.name.toLowerCase() === ah.name.toLowerCase());
    const at = `${where} ${ah.name}`;
    if (!bh) {
      if (!ah.optional) out.push({ kind: 'missing', target: 'header', path: at, name: ah.name, a: `header ${ah.name} ${describePattern(ah.pattern)}`, b: 'no such header' });
      continue;
    }
    if (bh.optional && !ah.optional) out.push({ kind: 'optional', target: 'header', path: at, name: ah.name, a: 'required', b: 'optional' });
    if (opts.stopAtFirst && out.length > 0) return out;
    run(c, () => c.value(ah.pattern, bh.pattern, at, 'text'));
    if (opts.stopAtFirst && c.differences.length > 0) return c.differences;
  }
  return [...out, ...c.differences];
}

/** Query parameters: all optional; a parameter A does not declare is rejected by A. */
export function compareQuery(a: readonly QueryParam[], aScope: Scope, b: readonly QueryParam[], bScope: Scope, where: string, opts: CompareOptions = {}): Difference[] {
  const c = new Comparer(aScope, bScope, opts.stopAtFirst, opts.stopAtFirst);
  const out: Difference[] = [];
  for (const bq of b) {
    const aq = a.find((q) => q.name === bq.name);
    const at = `${where} ${bq.name}`;
    if (!aq)
      out.push({ kind: 'unexpected', target: 'query', path: at, name: bq.name, a: 'no such query parameter', b: `query parameter ${bq.name} ${describePattern(bq.pattern)}` });
    else run(c, () => c.value(aq.pattern, bq.pattern, at, 'text'));
    if (opts.stopAtFirst && out.length + c.differences.length > 0) break;
  }
  return [...out, ...c.differences];
}

/**
 * Form fields (`form-field`) or multipart parts (`request-part`): the matcher
 * wants every declared one and no other, so each side's set must contain the
 * other's; shared ones compare by type. `what` names them in reports.
 */
export function compareFields(
  a: readonly FormField[],
  aScope: Scope,
  b: readonly FormField[],
  bScope: Scope,
  where: string,
  what: 'form field' | 'part',
  opts: CompareOptions = {},
): Difference[] {
  const c = new Comparer(aScope, bScope, opts.stopAtFirst, opts.stopAtFirst);
  const out: Difference[] = [];
  for (const af of a) {
    if (b.some((f) => f.name === af.name)) continue;
    out.push({ kind: 'missing', target: 'field', path: `${where} ${af.name}`, name: af.name, a: `${what} ${af.name} ${describePattern(af.pattern)}`, b: `no such ${what}` });
  }
  for (const bf of b) {
    const af = a.find((f) => f.name === bf.name);
    const at = `${where} ${bf.name}`;
    if (!af) out.push({ kind: 'unexpected', target: 'field', path: at, name: bf.name, a: `no such ${what}`, b: `${what} ${bf.name} ${describePattern(bf.pattern)}` });
    else run(c, () => c.value(af.pattern, bf.pattern, at, 'text'));
    if (opts.stopAtFirst && out.length + c.differences.length > 0) break;
  }
  return [...out, ...c.differences];
}

/** Do two paths name the same endpoint: same length, equal literal segments (a parameter may face anything)? */
export function samePathShape(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((s, i) => s.pattern !== undefined || b[i].pattern !== undefined || s.name === b[i].name);
}

/** Path segments of two paths of the same shape: each of B's segment values must be accepted by A's. */
export function comparePath(a: readonly PathSegment[], aScope: Scope, b: readonly PathSegment[], bScope: Scope, where: string, opts: CompareOptions = {}): Difference[] {
  if (!samePathShape(a, b))
    return [{ kind: 'type', target: 'value', path: where, a: `/${a.map((s) => s.name).join('/')}`, b: `/${b.map((s) => s.name).join('/')}`, narrower: false }];
  const c = new Comparer(aScope, bScope, opts.stopAtFirst, opts.stopAtFirst);
  a.forEach((as, i) => {
    const bs = b[i];
    if (opts.stopAtFirst && c.differences.length > 0) return;
    const at = `${where} ${bs.pattern ? bs.name : as.name}`;
    const ap: Pattern = as.pattern ?? { kind: 'literal', value: as.name };
    const bp: Pattern = bs.pattern ?? { kind: 'literal', value: bs.name };
    if (!as.pattern && !bs.pattern) return;
    run(c, () => c.value(ap, bp, at, 'text'));
  });
  return c.differences;
}

/**
 * Can one request fit both A and B (each read in its own scope)? The method and path shape, every
 * path segment, every header both declare (one that only one side declares is ignored by the other),
 * the form fields and parts (each side wants exactly its own), and the bodies. Leans to "yes" where
 * it cannot tell (pattern/compare/intersect.ts).
 */
export function requestsOverlap(a: RequestSpec, aScope: Scope, b: RequestSpec, bScope: Scope): boolean {
  if (a.method !== b.method || !samePathShape(a.segments, b.segments)) return false;
  for (let i = 0; i < a.segments.length; i++) {
    const as = a.segments[i];
    const bs = b.segments[i];
    if (!as.pattern && !bs.pattern) continue;
    if (!intersects(as.pattern ?? { kind: 'literal', value: as.name }, aScope, bs.pattern ?? { kind: 'literal', value: bs.name }, bScope, 'text')) return false;
  }
  for (const ah of a.headers) {
    const bh = b.headers.find((h) => h.name.toLowerCase() === ah.name.toLowerCase());
    if (!bh || (ah.optional && bh.optional)) continue;
    if (!intersects(ah.pattern, aScope, bh.pattern, bScope, 'text')) return false;
  }
  if (!fieldsOverlap(a.formFields, aScope, b.formFields, bScope) || !fieldsOverlap(a.parts, aScope, b.parts, bScope)) return false;
  return bodiesOverlap(a.body, aScope, b.body, bScope);
}

function fieldsOverlap(a: readonly FormField[], aScope: Scope, b: readonly FormField[], bScope: Scope): boolean {
  if (a.length !== b.length) return false;
  return a.every((af) => {
    const bf = b.find((f) => f.name === af.name);
    return bf !== undefined && intersects(af.pattern, aScope, bf.pattern, bScope, 'text');
  });
}

/** Bodies as the HTTP matcher reads them: no pattern takes any body; XML against JSON never meets. */
export function bodiesOverlap(a: Pattern | undefined, aScope: Scope, b: Pattern | undefined, bScope: Scope): boolean {
  if (!a || !b) return true;
  const ka = bodyKind(a, aScope);
  const kb = bodyKind(b, bScope);
  if (ka === 'text' || kb === 'text') return true;
  if (ka !== kb) return false;
  if (ka === 'json') return intersects(a, aScope, b, bScope, 'json');
  let ar = deref(a, aScope).p;
  let br = deref(b, bScope).p;
  if (ar.kind === 'optional' && br.kind === 'optional') return true; // both take an empty body
  if (ar.kind === 'optional') ar = deref(ar.inner, aScope).p;
  if (br.kind === 'optional') br = deref(br.inner, bScope).p;
  if (ar.kind !== 'xml' || br.kind !== 'xml') return true;
  return elementsIntersect(ar, aScope, br, bScope);
}
