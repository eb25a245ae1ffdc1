import type { Background, Scenario as GherkinScenario, Step, TableRow } from '@cucumber/messages';
import { AccordError } from '../errors';
import { patternFromText } from '../pattern/body';
import { jsonPatternFromValue } from '../pattern/json-pattern';
import { parsePlaceholder } from '../pattern/placeholder';
import { isScalarName } from '../pattern/scalars/index';
import type { JsonField, Pattern, ScalarType, XmlElementPattern } from '../pattern/types';
import { closest } from '../suggest';
import { HTTP_METHODS, type ContractNote, type FormField, type HeaderSpec, type ScenarioFact } from './model';
import { parseRequestPath } from './path';

/*
 * Stage 2a, the step readers: each step of a scenario (or its Background) read into a Draft, one reader
 * per keyword. The keyword list the did-you-mean hints suggest from (keywords.ts, gherkin-hints.ts) is
 * the readers' own keys, so a reader added here is suggested there. build.ts assembles the drafts.
 */

type StepReader = (draft: Draft, step: Step, rest: string, line: number) => void;

/** The readers of the step keywords a contract is built from, keyed by the keyword (read in any case). */
const STEP_READERS: ReadonlyMap<string, StepReader> = new Map<string, StepReader>([
  ['request-header', (d, _s, rest, line) => applyHeader(d, 'request-header', rest, line)],
  ['response-header', (d, _s, rest, line) => applyHeader(d, 'response-header', rest, line)],
  ['status', (d, _s, rest, line) => applyStatus(d, rest, line)],
  ['request-body', (d, s, rest, line) => void (d.requestBody = { value: patternArgument(s, rest, 'request-body'), line })],
  ['response-body', (d, s, rest, line) => void (d.responseBody = { value: patternArgument(s, rest, 'response-body'), line })],
  ['type', (d, s, rest) => applyTypeDeclaration(d, s, 'type', rest)],
  ['json', (d, s, rest) => applyTypeDeclaration(d, s, 'json', rest)],
  ['pattern', (d, s, rest) => applyTypeDeclaration(d, s, 'pattern', rest)],
  ['enum', (d, _s, rest, line) => applyEnum(d, rest, line)],
  ['form-field', (d, _s, rest, line) => applyFormField(d, 'form-field', rest, line)],
  ['request-part', (d, _s, rest, line) => applyFormField(d, 'request-part', rest, line)],
]);

/**
 * The words a step of a contract can start with (after Given/When/Then/And/But), besides an HTTP
 * method: the keys of the readers above, so the builder and the hints cannot drift apart.
 */
export const STEP_KEYWORDS: readonly string[] = [...STEP_READERS.keys()];

/** Read and kept, never acted on: see the README ("Steps accord reads but does not run"). */
export const NOTED_KEYWORDS: ReadonlySet<string> = new Set(['value', 'export', 'fact', 'fixture', 'openapi', 'wsdl']);

/** Read, reported as unsupported. */
export const KAFKA_KEYWORD = 'kafka-message';

const KEYWORDS = ['<METHOD> <path>', ...STEP_KEYWORDS];

export interface Located<T> {
  value: T;
  line: number;
}

/** What the steps so far say; the Background's draft is the start of every scenario's. */
export interface Draft {
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

export function emptyDraft(): Draft {
  return { types: new Map(), inherited: new Map(), requestHeaders: [], responseHeaders: [], formFields: [], parts: [], facts: [] };
}

/** A scenario starts from the Background: its types are looked up through, the rest copied (it is small). */
export function startFrom(d: Draft): Draft {
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

export function applySteps(draft: Draft, owner: Background | GherkinScenario, at: (line: number, err: unknown) => void, notes: ContractNote[]): void {
  for (const step of owner.steps) {
    try {
      applyStep(draft, step, notes);
    } catch (e) {
      at(step.location.line, e);
    }
  }
}

export function syntax(message: string, line?: number): AccordError {
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
  const read = STEP_READERS.get(word);
  if (read) return read(draft, step, rest, line);
  if (word === KAFKA_KEYWORD) {
    draft.kafka = rest;
    return;
  }
  if (word === 'fact' || word === 'fixture') draft.facts.push(factOf(word, rest, line));
  // `PSOT /library`: reported here as a misspelt method, not again as a missing request line.
  else if (rest.startsWith('/')) draft.badRequestLine = true;
  return applyOtherKeyword(word, written, rest, line, notes);
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
