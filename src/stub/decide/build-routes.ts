import { validateHeaderName } from 'node:http';
import { isTemplateCell } from '../../contract/check-examples';
import { isFaultScenario, type Contract, type ExampleRow, type Scenario } from '../../contract/model';
import { AccordError, formatLocation, throwGathered } from '../../errors';
import { contentTypeFor } from '../../http/content-type';
import { bodyKind } from '../../pattern/generate/index';
import { createRandom, seedFrom } from '../../pattern/random';
import { resolve } from '../../pattern/resolve';
import type { XmlElementPattern } from '../../pattern/types';
import { soapVersionOfPattern } from '../answer/soap-version';
import { loadExampleFiles } from '../answer/example-files';
import { narrowToRow } from '../answer/example-rows';
import { requiredNodes } from './prefilter';
import type { Route, RouteTable } from './route';
import { respond } from '../answer/respond';
import { BodyIndex } from './body-index';
import { compileRowTemplate } from '../answer/response-template';
import { compileXmlTemplate, type XmlTemplate } from '../answer/template';

/**
 * Everything the hot path needs about one scenario, worked out once at start-up:
 * where it is served, which body kind it reads, its Examples rows as narrowed
 * scenarios, the Content-Type of its answer and its own random stream.
 */

export function buildRoutes(contracts: readonly Contract[]): RouteTable {
  const table: RouteTable = { routes: [], notServed: [], literal: new Map(), parameterised: new Map(), bodyIndex: new Map() };
  const errors: AccordError[] = [];
  for (const contract of contracts) {
    const fixed = loadExampleFiles(contract, errors);
    for (const s of contract.scenarios) {
      if (s.unsupported) {
        table.notServed.push({ scenario: s, reason: s.unsupported });
        continue;
      }
      const badHeader = s.response.headers.find((h) => !isHeaderName(h.name));
      if (badHeader) {
        // Node would throw on every answer: said once at start-up instead.
        table.notServed.push({ scenario: s, reason: `its response header name "${badHeader.name}" is not valid HTTP (a token: letters, digits and !#$%&'*+-.^_\`|~)` });
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
      try {
        compileRowTemplates(route);
      } catch (e) {
        if (!(e instanceof AccordError)) throw e;
        errors.push(e);
        continue;
      }
      route.fixed = fixed.filter((f) => f.owner === s && !f.state);
      for (const f of fixed) if (f.owner === s && f.state) (table.stateful ??= []).push({ route, example: f });
      table.routes.push(route);
      if (route.literalPath !== undefined) {
        const byPath = getOrSet(table.literal, route.method, () => new Map<string, Route[]>());
        getOrSet(byPath, route.literalPath, () => []).push(route);
      } else {
        getOrSet(table.parameterised, route.method, () => []).push(route);
      }
    }
  }
  for (const byPath of table.literal.values()) {
    for (const routes of byPath.values()) {
      const index = BodyIndex.of(routes);
      if (index) table.bodyIndex.set(routes, index);
    }
  }
  throwGathered(errors);
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
    soap: soapVersionOfPattern(r.body, s.scope),
    required: requiredNodes(r.body, s.scope),
    rows: mostGivenFirst(s.examples).map((row) => ({ row, scenario: narrowToRow(s, row) })),
    examplesOnly: isFaultScenario(s),
    fixed: [],
    responseKind,
    templates: responseKind === 'xml' ? compileTemplates(s) : new Map(),
    contentType,
    seed: seedFrom(`${s.file}:${s.line}`),
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

/** Rows with `{{…}}` cells: compiled and checked now, so a template that can never fit stops the stub from starting. */
function compileRowTemplates(route: Route): void {
  for (const { row, scenario } of route.rows) {
    const t = compileRowTemplate(route.scenario, scenario, row);
    if (t) (route.rowTemplates ??= new Map()).set(row, t);
  }
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

function isHeaderName(name: string): boolean {
  try {
    validateHeaderName(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The rows in the order the stub tries them: those that give more values first, in their order
 * otherwise. An empty cell leaves a query parameter out, so `| gadget | |` also matches the
 * request of `| gadget | XYZ |`; tried first, the row that gives `name=XYZ` answers its own request.
 */
function mostGivenFirst(rows: readonly ExampleRow[]): ExampleRow[] {
  // `{{…}}` cells constrain no request, so they do not count.
  const given = (r: ExampleRow) => [...r.values.values()].filter((v) => v !== '' && !isTemplateCell(v)).length;
  return rows
    .map((row, i) => ({ row, i, n: given(row) }))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .map((x) => x.row);
}
