import type { Feature, GherkinDocument, Scenario as GherkinScenario } from '@cucumber/messages';
import { AccordError, CompositeAccordError, throwGathered } from '../errors';
import { nodeTypeNames, referencedNames } from '../pattern/placeholder';
import { LayeredMap } from '../pattern/layered-map';
import { followRefs } from '../pattern/resolve';
import { SCALAR_NAMES } from '../pattern/scalars/index';
import type { Pattern, XmlElementPattern } from '../pattern/types';
import { closest } from '../suggest';
import { checkExamples, unusedColumns } from './check-examples';
import { notAContract } from './gherkin';
import { type Contract, type ContractNote, type ContractWarning, type ExampleRow, type Scenario, type Scope } from './model';
import { parseRequestPath } from './path';
import { applySteps, emptyDraft, startFrom, syntax, type Draft } from './steps';

/*
 * Stage 2b, assembly: the drafts the step readers (steps.ts) made, the Background's first, checked and
 * turned into the contract's scenarios (types resolved, parts required, Examples rows read).
 */

/** Noted steps whose presence means Examples columns may name places accord does not see. */
const COLUMNS_READ_ELSEWHERE = new Set(['openapi', 'wsdl', 'fixture']);

/** Stage 2: Gherkin AST to the contract model. Every error found is reported, each with its line. */
export interface BuildOptions {
  /**
   * Check Examples cells against the places their columns name (default true). The
   * compatibility check turns it off: Examples are not part of the promise, and an
   * older version in git history must still be comparable.
   */
  checkExamples?: boolean;
}

export function buildContract(doc: GherkinDocument, file: string, options: BuildOptions = {}): Contract {
  const errors: AccordError[] = [];
  const notes: ContractNote[] = [];
  const feature = doc.feature;
  if (!feature) throw notAContract(file);

  const at = (line: number, err: unknown): void => {
    if (err instanceof CompositeAccordError) {
      for (const e of err.errors) at(line, e);
      return;
    }
    if (err instanceof AccordError) {
      // Errors that carry a line already point at the right place (inside a docstring or a table).
      const own = err.location.line !== undefined;
      errors.push(new AccordError(err.code, err.message, { file, line: own ? err.location.line : line, column: own ? err.location.column : undefined }, { details: err.details }));
      return;
    }
    throw err;
  };

  const background = emptyDraft();
  const scenarios: Scenario[] = [];
  // Tags on the Feature (and on a Rule) belong to every scenario under it, as in Gherkin: `@WIP` on the Feature puts all of it in progress.
  const featureTags = feature.tags.map((t) => t.name);
  const children = feature.children.flatMap((c) => {
    if (!c.rule) return [{ child: c, tags: featureTags }];
    const tags = [...featureTags, ...c.rule.tags.map((t) => t.name)];
    return c.rule.children.map((child) => ({ child, tags }));
  });
  for (const { child } of children) {
    if (child.background) applySteps(background, child.background, at, notes);
  }
  // Unknown types already reported (line and name): a Background's type is checked with every scenario.
  const reported = new Set<string>();
  const warnings: ContractWarning[] = [];
  const backgroundPatterns = new Map<string, Pattern>();
  for (const [k, v] of background.types) backgroundPatterns.set(k, v.value);
  for (const { child, tags } of children) {
    if (!child.scenario) continue;
    const gs = child.scenario;
    const draft = startFrom(background);
    applySteps(draft, gs, at, notes);
    const scenario = finishScenario(draft, gs, tags, feature.name, file, at, backgroundPatterns, options.checkExamples ?? true, reported, warnings);
    if (scenario) scenarios.push(scenario);
  }
  if (!children.some(({ child }) => child.scenario)) errors.push(noScenarios(feature, file));
  throwGathered(errors);
  const contract: Contract = { file, name: feature.name, line: feature.location.line, scenarios, notes };
  // A wrapper of an OpenAPI/WSDL file, or rows that feed fixtures: its columns name what accord does not read, so none is reported.
  if (warnings.length > 0 && !notes.some((n) => COLUMNS_READ_ELSEWHERE.has(n.keyword))) contract.warnings = warnings;
  return contract;
}

/**
 * A Feature with nothing to test, serve or compare is a mistake, reported the same way by every
 * command. Often a misspelt "Scenario:": Gherkin then reads the scenario as the Feature's description.
 */
function noScenarios(feature: Feature, file: string): AccordError {
  const described = feature.description.trim() !== '';
  const hint = described
    ? '; the lines under it are read as its description, so check how "Scenario:" is spelt there'
    : ': add one, e.g. "Scenario: <name>" with a request and a status';
  return new AccordError('ACCORD_ERR_CONTRACT_SYNTAX', `Feature "${feature.name}" has no scenarios${hint}`, { file, line: feature.location.line });
}

function finishScenario(
  draft: Draft,
  gs: GherkinScenario,
  inheritedTags: readonly string[],
  feature: string,
  file: string,
  at: (line: number, err: unknown) => void,
  backgroundPatterns: ReadonlyMap<string, Pattern>,
  examplesChecked: boolean,
  reported: Set<string>,
  warnings: ContractWarning[],
): Scenario | undefined {
  const line = gs.location.line;
  const tags = [...new Set([...inheritedTags, ...gs.tags.map((t) => t.name)])];
  const examples = exampleRows(gs);
  const scope = scenarioScope(draft, backgroundPatterns);

  // What every scenario has, whatever its request and response.
  const identity: ScenarioIdentity = { file, feature, name: gs.name, line, tags, wip: hasWip(tags), scope, examples };

  if (draft.kafka !== undefined && !draft.method) return kafkaScenario(identity, draft.kafka);
  // Both checks run whatever the first finds: every mistake in the scenario is reported at once.
  const complete = reportMissingParts(draft, gs, at);
  const typesKnown = checkTypeReferences(draft, gs.name, at, reported);
  if (!complete || !typesKnown) return undefined;

  const scenario = assembleScenario(identity, draft);
  const problems = examplesChecked ? checkExamples(scenario) : [];
  for (const p of problems) at(p.line, new AccordError('ACCORD_ERR_CONTRACT_TYPE', p.message));
  if (examplesChecked) warnings.push(...unusedColumns(scenario, headerLines(gs)));
  return problems.length === 0 ? scenario : undefined;
}

type ScenarioIdentity = Pick<Scenario, 'file' | 'feature' | 'name' | 'line' | 'tags' | 'wip' | 'scope' | 'examples'>;

/** The scenario's own types over the Background's; the Background's map alone when it declares none. */
function scenarioScope(draft: Draft, backgroundPatterns: ReadonlyMap<string, Pattern>): Scope {
  const own = new Map<string, Pattern>();
  for (const [k, v] of draft.types) own.set(k, v.value);
  return { types: own.size === 0 ? backgroundPatterns : new LayeredMap(own, backgroundPatterns) };
}

/** A Kafka message contract is kept (to be written back and reported as unsupported), not run. */
function kafkaScenario(identity: ScenarioIdentity, kafka: string): Scenario {
  const line = identity.line;
  return {
    ...identity,
    request: { method: 'KAFKA', path: '', segments: [], query: [], headers: [], formFields: [], parts: [], line },
    response: { status: 0, headers: [], line },
    unsupported: `a Kafka message contract (kafka-message ${kafka}); accord runs HTTP scenarios only`,
    kafka,
  };
}

/** Reports a missing name, request line or status (unless the step that was written is already reported as wrong); false when one is missing. */
function reportMissingParts(draft: Draft, gs: GherkinScenario, at: (line: number, err: unknown) => void): boolean {
  const line = gs.location.line;
  let ok = true;
  if (!gs.name.trim()) {
    at(line, syntax('a scenario needs a name: "Scenario: <name>"'));
    ok = false;
  }
  if (!draft.method || draft.path === undefined) {
    if (!draft.badRequestLine) at(line, syntax(`scenario "${gs.name}" has no request line: add e.g. "When POST /ws" here or in the Background`));
    ok = false;
  }
  if (!draft.status) {
    if (!draft.badStatus) at(line, syntax(`scenario "${gs.name}" has no status: add e.g. "Then status 200" here or in the Background`));
    ok = false;
  }
  return ok;
}

/** Every pattern the scenario uses, with the line to report an unknown type in it at. */
function typeUses(draft: Draft): [Pattern, number][] {
  const uses: [Pattern, number][] = [];
  if (draft.requestBody) uses.push([draft.requestBody.value, draft.requestBody.line]);
  if (draft.responseBody) uses.push([draft.responseBody.value, draft.responseBody.line]);
  for (const h of [...draft.requestHeaders, ...draft.responseHeaders, ...draft.formFields, ...draft.parts]) uses.push([h.pattern, h.line]);
  if (draft.path) {
    try {
      const { segments, query } = parseRequestPath(draft.path);
      for (const s of segments) if (s.pattern) uses.push([s.pattern, draft.method!.line]);
      for (const q of query) uses.push([q.pattern, draft.method!.line]);
    } catch {
      /* reported when the step was read */
    }
  }
  return uses;
}

/**
 * Every type named anywhere this scenario can reach must exist, and a specmatic_type must name an
 * XML node type. Each type is followed once, so a type used many times is reported once. False when
 * anything was reported.
 */
function checkTypeReferences(draft: Draft, scenarioName: string, at: (line: number, err: unknown) => void, reported: Set<string>): boolean {
  let ok = true;
  const checked = new Set<string>();
  const typeOf = (name: string) => draft.types.get(name) ?? draft.inherited.get(name);
  const walk = (p: Pattern, useLine: number, owner?: string): void => {
    for (const name of referencedNames(p)) {
      if (checked.has(name)) continue;
      checked.add(name);
      const t = typeOf(name);
      if (!t) {
        ok = false;
        // At the node that names it; a type of the Background is reported once, not once per scenario.
        const line = nodeLineNaming(p, name) ?? useLine;
        const key = `${line}\0${name}`;
        if (reported.has(key)) continue;
        reported.add(key);
        const near = closest(name, [...SCALAR_NAMES, ...draft.types.keys(), ...draft.inherited.keys()], name.length <= 4 ? 1 : 2);
        const where = owner === undefined ? `scenario "${scenarioName}"` : `type ${owner}`;
        const hint = near === undefined ? '' : ` (did you mean (${near})?)`;
        at(line, new AccordError('ACCORD_ERR_CONTRACT_TYPE', `unknown type (${name}) in ${where}${hint}: declare it with "type ${name} ..." in the scenario or the Background`));
        continue;
      }
      walk(t.value, t.line, name);
    }
    if (!nodeTypesAreXml(p, useLine, typeOf, scenarioName, at)) ok = false;
  };
  for (const [p, l] of typeUses(draft)) walk(p, l);
  return ok;
}

/** The line of the innermost XML node whose own attributes or text name `name`; undefined outside XML. */
function nodeLineNaming(p: Pattern, name: string): number | undefined {
  if (p.kind !== 'xml' || !referencedNames(p).has(name)) return undefined;
  const children: XmlElementPattern[] = [];
  for (const c of p.content) {
    if (c.kind === 'xml') children.push(c);
    else if (c.kind === 'xml-any') children.push(...(c.elements ?? []));
    else if (c.kind === 'xml-choice') {
      for (const o of c.options) for (const x of o) if (x.kind === 'xml') children.push(x);
    }
  }
  for (const c of children) {
    const line = nodeLineNaming(c, name);
    if (line !== undefined) return line;
  }
  return p.line;
}

/**
 * specmatic_type must name an XML node type (it failed only when a test or the stub got there).
 * `(T)` as element content may name any type: a node type stands as nodes, another as the text.
 */
function nodeTypesAreXml(
  p: Pattern,
  useLine: number,
  typeOf: (name: string) => { value: Pattern } | undefined,
  scenarioName: string,
  at: (line: number, err: unknown) => void,
): boolean {
  let ok = true;
  for (const name of nodeTypeNames(p)) {
    const kind = resolvedKind(name, typeOf);
    if (kind === undefined || kind === 'xml') continue;
    at(
      useLine,
      new AccordError(
        'ACCORD_ERR_CONTRACT_TYPE',
        `specmatic_type="${name}" names a type that is not an XML node in scenario "${scenarioName}": declare ${name} as XML, e.g. "type ${name} <node>...</node>"`,
      ),
    );
    ok = false;
  }
  return ok;
}

/** Called only once the request line and status are known to be there. */
function assembleScenario(identity: ScenarioIdentity, draft: Draft): Scenario {
  const { segments, query } = parseRequestPath(draft.path!);
  return {
    ...identity,
    request: {
      method: draft.method!.value,
      path: draft.path!,
      segments,
      query,
      headers: draft.requestHeaders,
      body: draft.requestBody?.value,
      formFields: draft.formFields,
      parts: draft.parts,
      line: draft.method!.line,
    },
    ...(draft.facts.length > 0 ? { facts: draft.facts } : {}),
    response: { status: draft.status!.value, headers: draft.responseHeaders, body: draft.responseBody?.value, line: draft.status!.line },
  };
}

/** The kind a type name finally stands for, following aliases (`type A (B)`); undefined when unknown or circular. */
function resolvedKind(name: string, typeOf: (name: string) => { value: Pattern } | undefined): Pattern['kind'] | undefined {
  const f = followRefs({ kind: 'ref', name }, (n) => typeOf(n)?.value);
  return f.error ? undefined : f.p.kind;
}

function hasWip(tags: string[]): boolean {
  return tags.some((t) => t.toLowerCase() === '@wip');
}

/** The line of each row's table header, in the order of exampleRows. */
function headerLines(gs: GherkinScenario): number[] {
  return gs.examples.flatMap((ex) => (ex.tableHeader ? ex.tableBody.map(() => ex.tableHeader!.location.line) : []));
}

function exampleRows(gs: GherkinScenario): ExampleRow[] {
  const rows: ExampleRow[] = [];
  for (const ex of gs.examples) {
    if (!ex.tableHeader) continue;
    const header = ex.tableHeader.cells.map((c) => c.value.trim());
    for (const r of ex.tableBody) {
      const values = new Map<string, string>();
      r.cells.forEach((c, i) => {
        const v = c.value.trim();
        // ($auth.token): a value exported by another contract; accord generates one of the declared type instead.
        if (/^\(\$[\w.]+\)$/.test(v)) return;
        values.set(header[i], v);
      });
      const tags = ex.tags.map((t) => t.name);
      rows.push(tags.length > 0 ? { line: r.location.line, values, tags } : { line: r.location.line, values });
    }
  }
  return rows;
}
