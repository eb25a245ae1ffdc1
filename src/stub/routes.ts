import type { Contract, ExampleRow, Scenario } from '../contract/model';
import { AccordError, CompositeAccordError, formatLocation } from '../errors';
import { contentTypeFor } from '../http/content-type';
import { bodyKind, type BodyKind } from '../pattern/generate';
import { createRandom, seedFrom, type Random } from '../pattern/random';
import { resolve } from '../pattern/resolve';
import type { XmlElementPattern } from '../pattern/types';
import { loadExampleFiles, type FixedExample } from './example-files';
import { narrowToRow } from './examples';
import { requiredNodes, type RequiredNode } from './prefilter';
import { respond } from './respond';
import { compileXmlTemplate, type XmlTemplate } from './template';

/**
 * Everything the hot path needs about one scenario, worked out once at start-up:
 * where it is served, which body kind it reads, its Examples rows as narrowed
 * scenarios, the Content-Type of its answer and its own random stream.
 */
export interface Route {
  scenario: Scenario;
  method: string;
  /** `/ws` for a path without parameters (looked up by key); undefined otherwise. */
  literalPath?: string;
  /** What the request body must be, to tell "malformed XML" from "no match". */
  requestKind?: BodyKind;
  /** Nodes every matching XML body has: requests without them skip the full match (prefilter.ts). */
  required?: RequiredNode;
  rows: { row: ExampleRow; scenario: Scenario }[];
  /** Example files for this scenario: tried before the rows, answered as given. */
  fixed: FixedExample[];
  responseKind?: BodyKind;
  /** Compiled XML response bodies, one per Examples row (key undefined: no row); absent where the core generator is used. */
  templates: Map<ExampleRow | undefined, XmlTemplate>;
  /** Sent unless the contract declares its own Content-Type response header. */
  contentType?: string;
  /**
   * One stream per scenario for the life of the stub: answers vary from request
   * to request (like a real service's data) yet a fresh stub answers the same
   * sequence of requests with the same sequence of bodies.
   */
  rng: Random;
  /** `"Get a pet by id" (contracts/soap/api_pet_v1.spec:3)`: how logs name the scenario. */
  label: string;
}

export interface NotServed {
  scenario: Scenario;
  reason: string;
}

export interface RouteTable {
  routes: Route[];
  notServed: NotServed[];
  /** method → literal path → routes, in contract order. */
  literal: Map<string, Map<string, Route[]>>;
  /** method → routes whose path has typed parameters. */
  parameterised: Map<string, Route[]>;
}

export function buildRoutes(contracts: readonly Contract[]): RouteTable {
  const table: RouteTable = { routes: [], notServed: [], literal: new Map(), parameterised: new Map() };
  const errors: AccordError[] = [];
  for (const contract of contracts) {
    const fixed = loadExampleFiles(contract, errors);
    for (const s of contract.scenarios) {
      if (s.unsupported) {
        table.notServed.push({ scenario: s, reason: s.unsupported });
        continue;
      }
      let route: Route;
      try {
        route = buildRoute(s);
      } catch (e) {
        if (!(e instanceof AccordError)) throw e;
        table.notServed.push({ scenario: s, reason: e.message });
        continue;
      }
      route.fixed = fixed.filter((f) => f.owner === s);
      table.routes.push(route);
      if (route.literalPath !== undefined) {
        const byPath = getOrSet(table.literal, route.method, () => new Map<string, Route[]>());
        getOrSet(byPath, route.literalPath, () => []).push(route);
      } else {
        getOrSet(table.parameterised, route.method, () => []).push(route);
      }
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new CompositeAccordError(errors);
  return table;
}

function buildRoute(s: Scenario): Route {
  const r = s.request;
  const literal = r.segments.every((seg) => !seg.pattern);
  const responseKind = s.response.body ? bodyKind(s.response.body, s.scope) : undefined;
  let contentType: string | undefined;
  if (responseKind && !s.response.headers.some((h) => h.name.toLowerCase() === 'content-type')) {
    const root = resolve(s.response.body!, s.scope);
    contentType = contentTypeFor(responseKind, root.kind === 'xml' ? (root as XmlElementPattern) : undefined);
  }
  const route: Route = {
    scenario: s,
    method: r.method.toUpperCase(),
    literalPath: literal ? literalKey(r.segments.map((seg) => seg.name)) : undefined,
    requestKind: r.body ? bodyKind(r.body, s.scope) : undefined,
    required: requiredNodes(r.body, s.scope),
    rows: s.examples.map((row) => ({ row, scenario: narrowToRow(s, row) })),
    fixed: [],
    responseKind,
    templates: responseKind === 'xml' ? compileTemplates(s) : new Map(),
    contentType,
    rng: createRandom(seedFrom(`${s.file}:${s.line}`)),
    label: `"${s.name}" (${formatLocation({ file: s.file, line: s.line })})`,
  };
  // A response the contract cannot produce (a type that only recurses) is found now, not on a request.
  respond(route, undefined, createRandom(0));
  return route;
}

function compileTemplates(s: Scenario): Map<ExampleRow | undefined, XmlTemplate> {
  const out = new Map<ExampleRow | undefined, XmlTemplate>();
  for (const row of [undefined, ...s.examples]) {
    const t = compileXmlTemplate(s, row);
    if (t) out.set(row, t);
  }
  return out;
}

/** The lookup key for a request path: decoded segments, so `/ws/` and `/ws` are one path. */
export function literalKey(segments: readonly string[]): string {
  return '/' + segments.join('/');
}

function getOrSet<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}
