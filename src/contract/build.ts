import type { Background, Feature, GherkinDocument, Scenario as GherkinScenario, Step, TableRow } from '@cucumber/messages';
import { AccordError, CompositeAccordError, throwGathered } from '../errors';
import { patternFromText } from '../pattern/body';
import { jsonPatternFromValue } from '../pattern/json-pattern';
import { nodeTypeNames, parsePlaceholder, referencedNames } from '../pattern/placeholder';
import { LayeredMap } from '../pattern/layered-map';
import { followRefs } from '../pattern/resolve';
import { isScalarName, SCALAR_NAMES } from '../pattern/scalars';
import type { JsonField, Pattern, ScalarType, XmlElementPattern } from '../pattern/types';
import { closest } from '../suggest';
import { checkExamples, unusedColumns } from './check-examples';
import { notAContract } from './gherkin';
import {
  HTTP_METHODS,
  type Contract,
  type ContractNote,
  type ContractWarning,
  type ExampleRow,
  type FormField,
  type HeaderSpec,
  type Scenario,
  type ScenarioFact,
  type Scope,
} from './model';
import { parseRequestPath } from './path';
import { KAFKA_KEYWORD, NOTED_KEYWORDS, STEP_KEYWORDS } from './keywords';

const KEYWORDS = ['<METHOD> <path>', ...STEP_KEYWORDS];
/** Noted steps whose presence means Examples columns may name places accord does not see. */
const COLUMNS_READ_ELSEWHERE = new Set(['openapi', 'wsdl', 'fixture']);

interface Located<T> {
  value: T;
  line: number;
}

/** What the steps so far say; the Background's draft is the start of every scenario's. */
interface Draft {
  /** Types declared here; `inherited` holds the Background's, never copied. */
  types: Map<string, Located<Pattern>>;
  inherited: ReadonlyMap<string, Located<Pattern>>;
  method?: Located<string>;
  path?: string;
  requestHeaders: HeaderSpec[];
  responseHeaders: HeaderSpec[];
  requestBody?: Located<Pattern>;
  responseBody?: Located<Pattern>;
  status?: Located<number>;
  formFields: FormField[];
  parts: FormField[];
  kafka?: string;
  /** `fact` and `fixture` steps, the Background's first: what a provider sets up before the scenario runs. */
  facts: ScenarioFact[];
  /** A request line or status was written but is wrong: reported there, not again as missing. */
  badRequestLine?: boolean;
  badStatus?: boolean;
}

function emptyDraft(): Draft {
  return { types: new Map(), inherited: new Map(), requestHeaders: [], responseHeaders: [], formFields: [], parts: [], facts: [] };
}

/** A scenario starts from the Background: its types are looked up through, the rest copied (it is small). */
function startFrom(d: Draft): Draft {
  return {
    ...d,
    types: new Map(),
    inherited: d.types,
    requestHeaders: [...d.requestHeaders],
    responseHeaders: [...d.responseHeaders],
    formFields: [...d.formFields],
    parts: [...d.parts],
    facts: [...d.facts],
  };
}

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

function applySteps(draft: Draft, owner: Background | GherkinScenario, at: (line: number, err: unknown) => void, notes: ContractNote[]): void {
  for (const step of owner.steps) {
    try {
      applyStep(draft, step, notes);
    } catch (e) {
      at(step.location.line, e);
    }
  }
}

function syntax(message: string, line?: number): AccordError {
  return new AccordError('ACCORD_ERR_CONTRACT_SYNTAX', message, line === undefined ? {} : { line });
}

/** Parses a pattern from a step, moving errors inside a docstring to the docstring's own lines. */
function patternArgument(step: Step, inline: string, what: string): Pattern {
  if (inline.trim() === '' && !step.docString && step.dataTable) return objectFromTable(step.dataTable.rows);
  const text = inline.trim() !== '' ? inline : step.docString?.content;
  if (text === undefined || text.trim() === '') throw syntax(`${what} needs a value: a placeholder such as (number), a type (Name), XML, JSON or a """ block`);
  try {
    // XML nodes count their lines from the text's first line; the model keeps lines of the file, so a report can point at a node.
    const first = inline.trim() !== '' ? step.location.line - 1 : (step.docString?.location.line ?? step.location.line);
    return atFileLines(patternFromText(text), first + leadingLines(text));
  } catch (e) {
    if (e instanceof AccordError && inline.trim() === '' && step.docString && e.location.line !== undefined) {
      throw new AccordError(e.code, `${what}: ${e.message}`, { line: step.docString.location.line + e.location.line, column: e.location.column });
    }
    if (e instanceof AccordError) throw new AccordError(e.code, `${what}: ${e.message}`);
    throw e;
  }
}

/** Blank lines before the text: the parser reads it trimmed. */
function leadingLines(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length && text.charCodeAt(i) <= 32; i++) if (text[i] === '\n') n++;
  return n;
}

function atFileLines(p: Pattern, offset: number): Pattern {
  if (p.kind !== 'xml') return p;
  const walk = (el: XmlElementPattern): void => {
    if (el.line !== undefined) el.line += offset;
    for (const c of el.content) if (c.kind === 'xml') walk(c);
  };
  walk(p);
  return p;
}

function applyStep(draft: Draft, step: Step, notes: ContractNote[]): void {
  const line = step.location.line;
  const text = step.text.trim();
  const space = text.search(/\s/);
  const written = space < 0 ? text : text.slice(0, space);
  const rest = space < 0 ? '' : text.slice(space + 1).trim();
  // Specmatic reads the first word whatever its case (`Type`, `Response-body`, `STATUS`, `get`), and
  // real contracts rely on it; a method is sent as HTTP spells it, in upper case.
  const method = written.toUpperCase();
  const word = written.toLowerCase();

  if (HTTP_METHODS.has(method)) return applyRequestLine(draft, method, rest, line);
  switch (word) {
    case 'status':
      return applyStatus(draft, rest, line);
    case 'request-body':
      draft.requestBody = { value: patternArgument(step, rest, 'request-body'), line };
      return;
    case 'response-body':
      draft.responseBody = { value: patternArgument(step, rest, 'response-body'), line };
      return;
    case 'request-header':
    case 'response-header':
      return applyHeader(draft, word, rest, line);
    case 'type':
    case 'json':
    case 'pattern':
      return applyTypeDeclaration(draft, step, word, rest);
    case 'enum':
      return applyEnum(draft, rest, line);
    case 'form-field':
    case 'request-part':
      return applyFormField(draft, word, rest, line);
    case KAFKA_KEYWORD:
      draft.kafka = rest;
      return;
    case 'fact':
    case 'fixture':
      draft.facts.push(factOf(word, rest, line));
      return applyOtherKeyword(word, written, rest, line, notes);
    default:
      // `PSOT /library`: reported here as a misspelt method, not again as a missing request line.
      if (rest.startsWith('/')) draft.badRequestLine = true;
      return applyOtherKeyword(word, written, rest, line, notes);
  }
}

function applyRequestLine(draft: Draft, method: string, rest: string, line: number): void {
  // Marked bad until the path parses, so that a broken request line is not reported again as missing.
  draft.badRequestLine = true;
  if (!rest) throw syntax(`${method} needs a path, e.g. "When ${method} /pets/(id:number)"`);
  parseRequestPath(rest);
  draft.badRequestLine = false;
  draft.method = { value: method, line };
  draft.path = rest;
}

function applyStatus(draft: Draft, rest: string, line: number): void {
  // As with the request line: a wrong status is reported here, not again as missing.
  draft.badStatus = true;
  if (!/^\d{3}$/.test(rest) || Number(rest) < 100 || Number(rest) > 599) throw syntax(`status must be an HTTP status code from 100 to 599, found "${rest}"`);
  draft.badStatus = false;
  draft.status = { value: Number(rest), line };
}

/** A later header of the same name (in any case) replaces the earlier one: a scenario's replaces the Background's. */
function applyHeader(draft: Draft, word: 'request-header' | 'response-header', rest: string, line: number): void {
  // `\s+(\S.*)`, not `\s+(.*)`: spaces can then be taken only one way; with both a run of them was split n ways (quadratic, docs/security.md).
  const m = /^(\S+)(?:\s+(\S.*))?$/.exec(rest);
  if (!m) throw syntax(`${word} needs a name and a value, e.g. "${word} X-Id (number)"`);
  const optional = m[1].endsWith('?');
  const name = optional ? m[1].slice(0, -1) : m[1];
  const pattern = m[2] ? (parsePlaceholder(m[2]) ?? { kind: 'literal' as const, value: m[2].trim() }) : ({ kind: 'scalar', type: 'string' } as Pattern);
  const list = word === 'request-header' ? draft.requestHeaders : draft.responseHeaders;
  const i = list.findIndex((h) => h.name.toLowerCase() === name.toLowerCase());
  const spec = { name, optional, pattern, line };
  if (i >= 0) list[i] = spec;
  else list.push(spec);
}

/** `type`, `json` and `pattern` all declare a named type. */
function applyTypeDeclaration(draft: Draft, step: Step, word: string, rest: string): void {
  const line = step.location.line;
  const m = /^([A-Za-z_][\w.-]*)(?:\s+([\s\S]*))?$/.exec(rest);
  if (!m) throw syntax(`${word} needs a name, e.g. "${word} Pet" followed by its definition`);
  const name = m[1];
  if (isScalarName(name)) throw syntax(`"${name}" is a built-in type and cannot be redefined`);
  // Declared first as (anything) so that a broken definition is reported once, not again at every use.
  draft.types.set(name, { value: { kind: 'scalar', type: 'anything' }, line });
  const inline = (m[2] ?? '').trim() !== '' || step.docString !== undefined;
  // `type NotFound` with no value and no table is an empty JSON object (Specmatic's reading; used for `{}` bodies).
  const pattern = inline ? patternArgument(step, m[2] ?? '', `type ${name}`) : objectFromTable(step.dataTable?.rows ?? []);
  draft.types.set(name, { value: pattern, line });
}

function applyEnum(draft: Draft, rest: string, line: number): void {
  const m = /^([A-Za-z_][\w.-]*)\s+\(([\w-]+)(\??)\)\s+values\s+(\S.*)$/.exec(rest);
  if (!m) throw syntax('enum needs a name, a base type and values, e.g. "enum Status (string) values available,sold"');
  if (m[3]) throw syntax(`enum ${m[1]}: the base type (${m[2]}?) cannot be nullable; to make a value nullable use the enum as (${m[1]}?)`);
  if (!isScalarName(m[2])) throw syntax(`enum ${m[1]}: unknown base type (${m[2]})`);
  const values = enumValues(m[4]);
  if (values === undefined) throw syntax(`enum ${m[1]}: values [...] must be a JSON array of strings, e.g. ["", "A B"]`);
  if (m[2] === 'number') {
    const bad = values.find((v) => Number.isNaN(Number(v)));
    if (bad) throw syntax(`enum ${m[1]} is (number) but "${bad}" is not a number`);
  }
  draft.types.set(m[1], { value: { kind: 'enum', name: m[1], base: m[2] as ScalarType, values }, line });
}

function applyFormField(draft: Draft, word: 'form-field' | 'request-part', rest: string, line: number): void {
  const m = /^(\S+)\s+(\S.*)$/.exec(rest);
  if (!m) throw syntax(`${word} needs a name and a value, e.g. "${word} count (number)"`);
  const value = m[2].trim();
  // request-part name @file [content-type]: the file's content, not a pattern.
  const pattern: Pattern = value.startsWith('@') ? { kind: 'scalar', type: 'string' } : (parsePlaceholder(value.split(/\s+/)[0]) ?? { kind: 'literal', value });
  (word === 'form-field' ? draft.formFields : draft.parts).push({ name: m[1], pattern, line });
}

/** `fact userId 10`, `fact name "Jane Doe"`, `fixture cleanDatabase`: a name, and the rest of the line as its value (quotes taken off). */
function factOf(kind: 'fact' | 'fixture', rest: string, line: number): ScenarioFact {
  const space = rest.search(/\s/);
  const name = space < 0 ? rest : rest.slice(0, space);
  let value = space < 0 ? '' : rest.slice(space + 1).trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  return value === '' ? { kind, name, line } : { kind, name, value, line };
}

/** A keyword accord reads but does not act on is kept as a note; any other is a mistake, with the nearest keyword as a hint. */
function applyOtherKeyword(word: string, written: string, rest: string, line: number, notes: ContractNote[]): void {
  if (NOTED_KEYWORDS.has(word)) {
    notes.push({ line, keyword: word, text: rest });
    return;
  }
  // `PSOT /library`: a word before a path can only have been a method.
  const near = rest.startsWith('/') ? closest(written, [...HTTP_METHODS]) : closest(word, [...STEP_KEYWORDS, ...HTTP_METHODS]);
  throw syntax(`keyword "${written}" not recognised${near ? ` (did you mean "${near}"?)` : ''}; a step starts with one of: ${KEYWORDS.join(', ')}`);
}

function objectFromTable(rows: readonly TableRow[]): Pattern {
  // A row "| ... |  |" leaves the object open to further keys.
  const open = rows.some((r) => r.cells[0]?.value.trim() === '...');
  const fields: JsonField[] = rows
    .filter((r) => r.cells[0]?.value.trim() !== '...')
    .map((r) => {
      if (r.cells.length !== 2) throw syntax(`a type table has two columns (key | type), found ${r.cells.length}`, r.location.line);
      const raw = r.cells[0].value.trim();
      const optional = raw.endsWith('?');
      const key = optional ? raw.slice(0, -1) : raw;
      const cell = r.cells[1].value.trim();
      let pattern: Pattern;
      try {
        pattern = cell.startsWith('{') || cell.startsWith('[') ? jsonPatternFromValue(JSON.parse(cell)) : jsonPatternFromValue(cell);
      } catch (e) {
        if (e instanceof AccordError) throw new AccordError(e.code, e.message, { line: r.location.line });
        throw syntax(`not a valid value: ${cell}`, r.location.line);
      }
      return { key, optional, pattern };
    });
  return { kind: 'object', fields, open };
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
      rows.push({ line: r.location.line, values });
    }
  }
  return rows;
}

/**
 * An enum's values: `a,b,c` (trimmed, empty ones dropped), or a JSON array of
 * strings (`["", "A B", "x,y"]`) for values a plain list cannot carry: the
 * empty value, commas, spaces at either end. Undefined for a malformed array.
 */
export function enumValues(text: string): string[] | undefined {
  const t = text.trim();
  if (t.startsWith('[') && t.endsWith(']')) {
    try {
      const parsed: unknown = JSON.parse(t);
      if (Array.isArray(parsed) && parsed.every((v) => typeof v === 'string')) return parsed as string[];
    } catch {
      // not JSON: fall through to undefined
    }
    return undefined;
  }
  return t
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
