import type { ExampleRow, Scenario } from '../../contract/model';
import type { ParsedBody } from '../../http/body';
import type { BodyKind } from '../../pattern/generate/index';
import type { FixedExample } from '../answer/example-files';
import type { RequiredNode } from './prefilter';
import type { RowTemplate } from '../answer/response-template';
import type { XmlTemplate } from '../answer/template';
import type { Answerable } from '../answer/respond';
import type { SoapVersion } from '../answer/soap-version';

/** A scenario as the stub serves it, and the table the stub looks routes up in (built by routes.ts). */
export interface Route extends Answerable {
  scenario: Scenario;
  method: string;
  /** `/ws` for a path without parameters (looked up by key); undefined otherwise. */
  literalPath?: string;
  /** What the request body must be, to tell "malformed XML" from "no match". */
  requestKind?: BodyKind;
  /** The SOAP version of the request's envelope: a request in the other version's envelope is not this scenario's (dispatch.ts). */
  soap?: SoapVersion;
  /** Nodes every matching XML body has: requests without them skip the full match (prefilter.ts). */
  required?: RequiredNode;
  rows: { row: ExampleRow; scenario: Scenario }[];
  /** A `@fault` scenario: it answers only a request one of its examples (rows, files) names, never as the plain match. */
  examplesOnly: boolean;
  /** Example files for this scenario: tried before the rows, answered as given. */
  fixed: FixedExample[];
  responseKind?: BodyKind;
  /** Compiled XML response bodies, one per Examples row (key undefined: no row); absent where the core generator is used. */
  templates: Map<ExampleRow | undefined, XmlTemplate>;
  /** Examples rows whose response cells hold `{{…}}` placeholders (response-template.ts); absent when none do. */
  rowTemplates?: Map<ExampleRow, RowTemplate>;
  /** Sent unless the contract declares its own Content-Type response header. */
  contentType?: string;
  /** From the scenario's place: with the request's key, it seeds the values of the answer (respond.ts requestRandom). */
  seed: number;
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
  /** The literal path groups worth indexing by body (route-index.ts), built with the table. */
  bodyIndex: Map<readonly Route[], BodyNarrowing>;
  /** method → routes whose path has typed parameters. */
  parameterised: Map<string, Route[]>;
  /**
   * Example files with a `state` rule (scenario-state.ts), in load order: whether one answers
   * depends on the scope's state, so they are kept out of `fixed` (and the dispatch memo) and
   * tried after the expectations.
   */
  stateful?: { route: Route; example: FixedExample }[];
}

/** The routes of a path a request's body may match, in contract order; undefined: all of them (built by route-index.ts). */
export interface BodyNarrowing {
  candidates(body: ParsedBody): readonly Route[] | undefined;
}
