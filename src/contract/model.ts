import { formatLocation } from '../errors';
import type { Pattern, Scope } from '../pattern/types';

/** The methods a contract's request line may name. */
export const HTTP_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE']);

/** The Examples column that holds a whole request body (Specmatic's name for it). */
export const REQUEST_BODY_COLUMN = '(REQUEST-BODY)';

/** The contract as plain data: what the runner, the stub and the compatibility check read. */
export interface Contract {
  file: string;
  name: string;
  line: number;
  scenarios: Scenario[];
  /** Steps accord reads but does not act on (openapi/wsdl wrappers, value/export/fact/fixture). */
  notes: ContractNote[];
  /** Mistakes that do not stop a test (an Examples column that names nothing): each edge that runs the contract prints them once. */
  warnings?: ContractWarning[];
}

export interface ContractWarning {
  line: number;
  message: string;
}

export interface ContractNote {
  line: number;
  keyword: string;
  text: string;
}

/** `Given fact userId 10`: a state the provider must be in for the scenario (src/runner/states.ts). */
export interface ScenarioFact {
  kind: 'fact' | 'fixture';
  name: string;
  value?: string;
  line: number;
}

export interface PathSegment {
  /** Literal text of the segment, or the parameter's name. */
  name: string;
  pattern?: Pattern;
}

export interface QueryParam {
  name: string;
  pattern: Pattern;
  /** Must be sent: a scenario narrowed to an Examples row whose cell gives it (contract/narrow-row.ts). Declared ones are otherwise optional. */
  required?: boolean;
}

export interface HeaderSpec {
  name: string;
  optional: boolean;
  pattern: Pattern;
  line: number;
}

export interface FormField {
  name: string;
  pattern: Pattern;
  line: number;
}

export interface RequestSpec {
  method: string;
  /** The path as written: `/pets/(petid:number)`. */
  path: string;
  segments: PathSegment[];
  query: QueryParam[];
  headers: HeaderSpec[];
  body?: Pattern;
  formFields: FormField[];
  parts: FormField[];
  line: number;
}

export interface ResponseSpec {
  status: number;
  headers: HeaderSpec[];
  body?: Pattern;
  line: number;
}

export interface ExampleRow {
  line: number;
  values: ReadonlyMap<string, string>;
  /** The tags of its `Examples:` block (`@stub-values`), when it has any. */
  tags?: readonly string[];
}

export interface Scenario {
  file: string;
  feature: string;
  name: string;
  line: number;
  tags: string[];
  wip: boolean;
  scope: Scope;
  request: RequestSpec;
  response: ResponseSpec;
  examples: ExampleRow[];
  /** `fact` and `fixture` steps (the Background's first), for the provider's states module; absent when none. */
  facts?: ScenarioFact[];
  /** Set when accord reads the scenario but cannot run it (a Kafka message contract). */
  unsupported?: string;
  /** The `kafka-message` step's text of such a scenario, kept so the contract can be written back. */
  kafka?: string;
}

/** `POST /pets/(id:number)`: a request's endpoint as users see it in every report. */
export function endpointText(r: Pick<RequestSpec, 'method' | 'path'>): string {
  return `${r.method} ${r.path}`;
}

/** `POST /pets/(id:number) -> 200`: a scenario's API as the runner, the stub and the compatibility check show it. */
export function apiText(s: Pick<Scenario, 'request' | 'response'>): string {
  return `${endpointText(s.request)} -> ${s.response.status}`;
}

/** `Scenario "name" (file:line)` and `API: …`: how every report (runner, stub, validate) names the scenario it speaks of. */
export function scenarioHeading(s: Scenario, o: { name?: string; line?: number; at?: string } = {}): [string, string] {
  return [`Scenario "${o.name ?? s.name}" (${formatLocation({ file: s.file, line: o.line ?? s.line })})`, `API: ${apiText(s)}${o.at ? ` at ${o.at}` : ''}`];
}

/** One runnable case: a scenario, with one Examples row when it has any. */
export interface TestCase {
  scenario: Scenario;
  row?: ExampleRow;
  /** Test name: the scenario's, with the row's values when it has one. */
  name: string;
  /** Set when the case is declared but not run, with the reason (a fault scenario with no example that triggers it). */
  notRun?: string;
}

/**
 * The tag of a SOAP fault scenario (`accord import wsdl` writes one per `wsdl:fault`). Its request is
 * the operation's ordinary one, so only an example says which request gets the fault: the stub
 * answers it only for an Examples row or example file of its own, and the runner runs it only with
 * an Examples row.
 */
export const FAULT_TAG = '@fault';

export function isFaultScenario(s: Pick<Scenario, 'tags'>): boolean {
  return s.tags.some((t) => t.toLowerCase() === FAULT_TAG);
}

/**
 * An Examples row's response cells are what the stub answers and, in the provider's run, what the
 * provider must answer. This tag (on the Feature, a Rule, the Scenario Outline or its `Examples:`
 * block) makes them the stub's answers only, checked by type in the provider's run:
 * `@stub-values` for every column, `@stub-values:city,name` for those columns.
 */
export const STUB_VALUES_TAG = '@stub-values';

/** The columns whose response cells are the stub's only, by the `@stub-values` tags of a row's scenario and Examples block: all of them, or those named. */
export function stubValueColumns(tags: readonly string[]): 'all' | ReadonlySet<string> {
  const named = new Set<string>();
  for (const t of tags) {
    const lower = t.toLowerCase();
    if (lower === STUB_VALUES_TAG) return 'all';
    if (!lower.startsWith(`${STUB_VALUES_TAG}:`)) continue;
    for (const c of t.slice(STUB_VALUES_TAG.length + 1).split(',')) if (c.trim() !== '') named.add(c.trim());
  }
  return named;
}

/** Why the runner declares a fault scenario without Examples rows but does not run it. */
export const FAULT_WITHOUT_EXAMPLE = 'fault scenario without an example that triggers it';

export type { Pattern, Scope };
