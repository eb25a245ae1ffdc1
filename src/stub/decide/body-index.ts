import { AccordError } from '../../errors';
import type { ParsedBody } from '../../http/body';
import type { RequiredNode } from './prefilter';
import type { BodyNarrowing, Route } from './route';

/**
 * The routes of one endpoint filed by a node their request body must have, so that a request
 * looks only at the routes whose node it carries. A SOAP service imported from a WSDL is one
 * scenario per operation on one `POST /ws`; with a hundred operations, even the prefilter's
 * look-up per operation cost more than the match itself (28 µs against 11.6 µs per request).
 *
 * Each route is filed under one path of local names from its required nodes (prefilter.ts),
 * at most two levels below the root (`Envelope Body getPetRequest`): of the paths it has, the
 * one fewest other routes share. A request's body gives every path it has to that depth (a
 * handful), and the routes filed under them, plus those filed under nothing (no XML body, a
 * body of `(anything)`), in their contract order, are its candidates.
 *
 * Exact, not a heuristic: a route filed under a path the request lacks fails the prefilter
 * (mayMatch) for that request, so it is never the one that answers. Only which routes are
 * compared in full changes; dispatch still compares every route when none matches, for the report.
 */
export class BodyIndex implements BodyNarrowing {
  private constructor(
    private readonly filed: Map<string, Route[]>,
    /** Routes with no required node: candidates for every request. */
    private readonly unfiled: Route[],
    private readonly order: Map<Route, number>,
  ) {}

  /** An index for these routes (in contract order), or undefined when it would not narrow anything. */
  static of(routes: readonly Route[]): BodyIndex | undefined {
    if (routes.length < 2) return undefined;
    const pathsOf = routes.map((r) => (r.required ? requiredPaths(r.required) : []));
    const shared = new Map<string, number>();
    for (const paths of pathsOf) for (const p of paths) shared.set(p, (shared.get(p) ?? 0) + 1);
    const filed = new Map<string, Route[]>();
    const unfiled: Route[] = [];
    routes.forEach((route, i) => {
      const paths = pathsOf[i];
      if (paths.length === 0) return void unfiled.push(route);
      // The rarest path narrows most; among equals, the deepest (listed last) names the operation.
      let best = paths[0];
      for (const p of paths) if (shared.get(p)! <= shared.get(best)!) best = p;
      const list = filed.get(best);
      if (list) list.push(route);
      else filed.set(best, [route]);
    });
    if (filed.size < 2) return undefined;
    return new BodyIndex(filed, unfiled, new Map(routes.map((r, i) => [r, i])));
  }

  /** The routes that may match this body, in contract order; undefined when the body gives no way to narrow (not XML). */
  candidates(body: ParsedBody): readonly Route[] | undefined {
    const xml = body.asXml();
    if (xml instanceof AccordError) return undefined;
    let out: Route[] | undefined;
    let lists = 0;
    // A path is looked up once however often it occurs (a Body of 100,000 lines is one path).
    const seen = new Set<string>();
    const add = (path: string) => {
      const hit = this.filed.get(path);
      if (!hit || seen.has(path)) return;
      seen.add(path);
      lists++;
      out = out ? out.concat(hit) : hit;
    };
    add(xml.local);
    for (const c of xml.children) {
      if (c.type !== 'element') continue;
      const p1 = `${xml.local} ${c.local}`;
      add(p1);
      for (const g of c.children) if (g.type === 'element') add(`${p1} ${g.local}`);
    }
    if (this.unfiled.length > 0) {
      lists++;
      out = out ? out.concat(this.unfiled) : this.unfiled;
    }
    if (!out) return NONE;
    if (lists === 1) return out;
    // Several lists (a request with two operation elements, or unfiled routes): back in contract order.
    return out.sort((a, b) => this.order.get(a)! - this.order.get(b)!);
  }
}

const NONE: readonly Route[] = [];

/** Every path of local names from the root through required nodes, to two levels below it: the root, then each child and its children. */
function requiredPaths(root: RequiredNode): string[] {
  const out = [root.local];
  for (const c of root.children) {
    const p1 = `${root.local} ${c.local}`;
    out.push(p1);
    for (const g of c.children) out.push(`${p1} ${g.local}`);
  }
  return out;
}
