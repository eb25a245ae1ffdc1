import { isFaultScenario, type ExampleRow, type Scenario } from '../../contract/model';
import { AccordError } from '../../errors';
import type { ParsedBody } from '../../http/body';
import type { HttpRequest, HttpResponse } from '../../http/message';
import { answerAddressed, WSA } from '../../http/ws-addressing';
import { printable } from '../../printable';
import type { FixedExample } from '../answer/example-files';
import { delayOf, type Delay, type FaultKind } from '../answer/faults';
import { invalidHeader } from '../answer/fit-example';
import { fixedResponse, requestRandom, respond } from '../answer/respond';
import { answerFromTemplate, boundedRowAnswer, fillRow, type Counter, type ResponseTemplate, type RowTemplate } from '../answer/response-template';
import type { StateRule } from '../answer/state-rule';
import type { Outcome } from './dispatch';
import { refOf, type JournalAnswer, type JournalRequest } from './entry';
import { noMatchReport, unknownPathReport } from './error-report';
import { DispatchMemo, keepable, keyText, sameKey, type Choice, type RequestKey } from './memo';
import type { Route, RouteTable } from './route';
import { stateFilter, statefulExample, stuckReport, type ScenarioStates, type StateFilter } from './scenario-state';

/**
 * Who answers a request, and with what: worked out once, by decide(), from the request, what is
 * served and the scope's state. The server records `entry` in the journal, writes `response` (after
 * `delayMs`, broken as `fault` says, as MTOM for `mtom`), keeps it for the same request again when
 * `repeat` says so, and with --verbose logs the one line verboseLine() renders of it: the three
 * records of an answer read this one value (WireMock's split of deciding from rendering).
 */
export type Decision<E extends Expected = Expected> = Answered<E> | PassedThrough;

export interface Answered<E extends Expected = Expected> {
  /** What answered: an expectation, an example (file or Examples row), the scenario (generated), or nothing (`refused`: the stub's 4xx, a WS-Security fault). */
  kind: 'expectation' | 'example' | 'scenario' | 'refused';
  /** What the journal records of the answer. */
  entry: JournalAnswer;
  response: HttpResponse;
  /** The stub's own report (400, 404, 405, 409, a templated answer that cannot be made): sent as printable text/plain. */
  report?: true;
  delayMs: number;
  fault?: FaultKind;
  /** The scenario whose base64Binary values go as MTOM parts, for a request that came as MTOM. */
  mtom?: Scenario;
  /** What answered, as the --verbose line says it (after the status). */
  said: string;
  /** Said on the log whatever --verbose is (a templated answer refused by a bound). */
  warn?: string;
  /** The answer is a pure function of the request: it may be given again to the same request (repeat.ts), with the expectation's use counted. */
  repeat?: { expectation?: E };
}

/** A request no expectation or example answers, sent on to the real service (pass-through.ts), which answers and journals it. */
export interface PassedThrough {
  kind: 'pass-through';
  scenario: Scenario;
  said: string;
}

/** What decide() reads of an expectation (admin/expectations.ts holds them). */
export interface Expected {
  readonly id: string;
  readonly route: Route;
  readonly owner: Scenario;
  /** Undefined: generated from the route, a function of the request. */
  readonly response?: HttpResponse;
  /** The last answer given and the request key it was for. */
  answered?: { key: RequestKey; response: HttpResponse };
  readonly extraHeaders: Record<string, string>;
  readonly template?: ResponseTemplate;
  /** Answers left for a transient expectation; undefined for a permanent one. */
  readonly remaining?: number;
  readonly delay?: Delay;
  readonly fault?: FaultKind;
  readonly state?: StateRule;
  readonly faultScenario?: Scenario;
}

/** What decide() reads of a scope (admin/scope-state.ts is one): its expectations, named state and `{{sequence}}`. */
export interface DecideScope<E extends Expected> {
  readonly expectations: {
    readonly size: number;
    keyOf(req: HttpRequest, url: string, body: ParsedBody): RequestKey;
    take(req: HttpRequest, body: ParsedBody, key?: RequestKey, state?: StateFilter<E>): E | undefined;
    list(): E[];
  };
  readonly states: ScenarioStates;
  readonly sequence: Counter;
}

/** What is served, as the request found it: the table (and its memo of choices) and the options that change who answers. */
export interface Served {
  readonly table: RouteTable;
  readonly memo: DispatchMemo;
  /** Only expectations and examples answer. */
  readonly strict: boolean;
  /** A pass-through is set: a request only a scenario takes goes to the real service. */
  readonly passThrough: boolean;
  readonly delay?: Delay;
  /** The WS-Security check (ws-security.ts): a fault for a request the scenario that takes it refuses. */
  readonly wsSecurity?: { refusal(scenario: Scenario, body: ParsedBody): { fault: HttpResponse; said: string } | undefined };
}

/** The request as decide() reads it. */
export interface Asked {
  readonly request: JournalRequest;
  /** The target as sent (the memos' key). */
  readonly url: string;
  /** `POST /ws?x=1`, credentials in the query hidden: how reports and log lines name it. */
  readonly line: string;
  readonly body: ParsedBody;
  /** It came as MTOM/XOP: answered the same way, never repeated. */
  readonly mtom: boolean;
}

/**
 * Who answers: a WS-Security refusal (checked first, against the scenario that takes the request, so
 * a refused request uses up no expectation), an expectation, a stateful example file, a 409 when the
 * expectations wait for a state nothing reaches, then the table: pass-through, strict refusal, the
 * scenario (an example of it, or generated), or why nothing does (400, 404, 405). The scenario is
 * looked up once, also with WS-Security. Moves the scope's named state and counts the expectation's
 * use, as answering does; makes the answer.
 */
export function decide<E extends Expected>(asked: Asked, served: Served, scope: DecideScope<E>): Decision<E> {
  const { request, url, body } = asked;
  const { table, memo } = served;
  let outcome: ReturnType<DispatchMemo['dispatch']> | undefined;
  let key: RequestKey | undefined;
  const lookUp = () => (outcome ??= memo.dispatch(request, body, (key = memo.keyOf(request, url, body))));
  if (served.wsSecurity) {
    const o = lookUp();
    const scenario = o.kind === 'matched' ? o.route.scenario : undefined;
    const refused = scenario && served.wsSecurity.refusal(scenario, body);
    if (refused) {
      const entry: JournalAnswer = { status: refused.fault.status, answeredBy: 'none', scenario: refOf(scenario!), report: `WS-Security: ${refused.fault.body}` };
      return { kind: 'refused', entry, response: refused.fault, delayMs: 0, said: printable(refused.said, { multiline: false }) };
    }
  }
  const expectations = scope.expectations;
  // No expectations (the usual case in a benchmark or a plain stub): not even a look-up.
  const expected = expectations.size > 0 ? expectations.keyOf(request, url, body) : undefined;
  // Named state (scenario-state.ts): only in a scope whose expectations name a state machine.
  const states = expected !== undefined && scope.states.size > 0 ? stateFilter<E>(scope.states) : undefined;
  const taken = expected === undefined ? undefined : expectations.take(request, body, expected, states);
  if (taken) return byExpectation(taken, expected!, asked, served, scope);
  // Example files with a state rule (RouteTable.stateful) come after the expectations, before the rest.
  const example = table.stateful ? statefulExample(table.stateful, request, body, scope.states) : undefined;
  if (example) return byStatefulExample(example.route, example.example, asked, served, scope);
  if (states && states.waiting.length > 0) {
    const rules = expectations.list().flatMap((e) => (e.state ? [e.state] : []));
    for (const x of table.stateful ?? []) rules.push(x.example.state!);
    const stuck = stuckReport(asked.line, states.waiting, scope.states, rules);
    if (stuck) return refusal(409, { status: 409, answeredBy: 'none', report: stuck.report, state: stuck.step }, 'waits for a state nothing reaches');
  }
  const o = lookUp();
  if (o.kind === 'matched') {
    if (!o.row && !o.fixed && served.passThrough) return { kind: 'pass-through', scenario: o.route.scenario, said: '' };
    if (!o.row && !o.fixed && served.strict) {
      const report = strictReport(asked.line, o.route);
      return refusal(400, { status: 400, answeredBy: 'none', scenario: refOf(o.route.scenario), report }, described(o));
    }
    return byScenario(o, key!, asked, served, scope);
  }
  if (o.kind === 'no-match') {
    const report = noMatchReport(asked.line, o.attempts, body);
    return refusal(400, { status: 400, answeredBy: 'none', report }, described(o));
  }
  const status = o.allowed.length > 0 ? 405 : 404;
  const report = unknownPathReport(asked.line, o.allowed, table);
  const d = refusal(status, { status, answeredBy: 'none', report }, described(o));
  if (o.allowed.length > 0) d.response.headers.allow = o.allowed.join(', ');
  return d;
}

/** The --verbose line of a decision: the request, the status, what answered, the state it moved, the time taken. */
export function verboseLine(line: string, d: Decision, status: number | undefined, ms: number): string {
  const step = d.kind === 'pass-through' ? undefined : d.entry.state;
  // A fault that sends no status (connection-reset, empty-response) is named in its place.
  const shown = status ?? (d.kind !== 'pass-through' && d.fault ? d.fault : 'no status');
  return `${line} -> ${shown} ${d.said}${step ? `, state ${step.name}: ${step.was} -> ${step.now}` : ''} (${ms.toFixed(2)} ms)`;
}

function refusal(status: number, entry: JournalAnswer, said: string): Answered<never> {
  return { kind: 'refused', entry, response: { status, headers: {}, body: entry.report! }, report: true, delayMs: 0, said };
}

function byExpectation<E extends Expected>(taken: E, key: RequestKey, asked: Asked, served: Served, scope: DecideScope<E>): Answered<E> {
  const { request, body } = asked;
  // A function of the expectation and the request: the last one made (when small enough) is given again to the same request.
  let r = taken.answered && sameKey(taken.answered.key, key) ? taken.answered.response : undefined;
  let report: string | undefined;
  let tooLarge: boolean | undefined;
  if (!r) {
    const generated = generatedFor(taken.route, keyText(key));
    if (taken.template) {
      const made = answerFromTemplate(taken.template, taken.owner, request, body, scope.sequence, generated);
      // Content-Type as for any given answer: the scenario's unless the expectation gives one.
      if ('response' in made) r = fixedResponse(taken.route, made.response);
      else ({ response: r, report, tooLarge } = cannotAnswer(`expectation ${taken.id}`, request, made.problem, made.tooLarge));
    } else r = taken.response ? fixedResponse(taken.route, taken.response) : generated(taken.extraHeaders);
    taken.answered = keepable(r) && !report && (!taken.template || taken.template.keyed) ? { key, response: r } : undefined;
  }
  const entry: JournalAnswer = {
    status: taken.fault && taken.fault !== 'soap-fault' && taken.fault !== 'malformed-body' ? undefined : r.status,
    answeredBy: 'expectation',
    expectation: taken.id,
    templated: taken.template ? true : undefined,
    scenario: refOf(taken.owner),
    fault: taken.fault,
    report,
    state: taken.state && scope.states.step(taken.state),
  };
  const said = `expectation ${taken.id} (${taken.route.label})`;
  if (report !== undefined) return reported(entry, r, report, tooLarge, said);
  // Kept for the same request again when the expectation gives it again: permanent and plain.
  const again = r === taken.answered?.response && taken.remaining === undefined && !taken.delay && !taken.fault;
  return {
    kind: 'expectation',
    entry,
    response: addressed(r, body, taken.faultScenario ?? taken.route.scenario),
    delayMs: delayOf(taken.delay ?? served.delay),
    fault: taken.fault,
    mtom: asked.mtom ? taken.route.scenario : undefined,
    said,
    // And never while the scope has named state: the same request may be answered otherwise once the state moves.
    repeat: again && scope.states.size === 0 ? { expectation: taken } : undefined,
  };
}

function byStatefulExample<E extends Expected>(route: Route, fx: FixedExample, asked: Asked, served: Served, scope: DecideScope<E>): Answered<E> {
  const { request, body } = asked;
  let r = fixedResponse(route, fx.response);
  let report: string | undefined;
  let tooLarge: boolean | undefined;
  if (fx.template) {
    const made = answerFromTemplate(fx.template, fx.owner, request, body, scope.sequence, generatedFor(route, asked.line));
    if ('response' in made) r = fixedResponse(route, made.response);
    else ({ response: r, report, tooLarge } = cannotAnswer(`example file ${fx.file}`, request, made.problem, made.tooLarge));
  }
  const entry: JournalAnswer = {
    status: r.status,
    answeredBy: 'example',
    example: fx.file,
    scenario: refOf(route.scenario),
    state: report ? undefined : scope.states.step(fx.state!),
    templated: fx.template ? true : undefined,
    report,
  };
  const said = `example file ${fx.file}`;
  if (report !== undefined) return reported(entry, r, report, tooLarge, said);
  return { kind: 'example', entry, response: addressed(r, body, route.scenario), delayMs: delayOf(served.delay), mtom: asked.mtom ? route.scenario : undefined, said };
}

function byScenario<E extends Expected>(choice: Choice, key: RequestKey, asked: Asked, served: Served, scope: DecideScope<E>): Answered<E> {
  const { request, body } = asked;
  const { route, row, fixed } = choice;
  const rowTemplate = !fixed && row ? route.rowTemplates?.get(row) : undefined;
  const made = fixed?.template
    ? kept(choice, fixed.template.keyed, () => templatedFixed(fixed, route, request, body, scope.sequence, key))
    : rowTemplate && kept(choice, rowTemplate.keyed, () => templatedRow(rowTemplate, route, row!, request, body, scope.sequence, key));
  const r = made ? made.response : DispatchMemo.answer(choice, () => (fixed ? fixedResponse(route, fixed.response) : respond(route, row, requestRandom(route, keyText(key)))));
  const entry: JournalAnswer = {
    status: r.status,
    answeredBy: fixed || row ? 'example' : 'scenario',
    example: fixed ? fixed.file : row ? `${route.scenario.file}:${row.line}` : undefined,
    templated: made ? true : undefined,
    scenario: refOf(route.scenario),
    report: made?.report,
  };
  const said = described(choice);
  if (made?.report !== undefined) return reported(entry, r, made.report, made.tooLarge, said);
  return {
    kind: fixed || row ? 'example' : 'scenario',
    entry,
    response: addressed(r, body, route.scenario),
    delayMs: delayOf(served.delay),
    mtom: asked.mtom ? route.scenario : undefined,
    said,
    // Kept for the same request again when the memo keeps it (a pure function of the request), and no state can change it.
    repeat: r === choice.answer && !served.table.stateful && scope.states.size === 0 ? {} : undefined,
  };
}

/** A templated answer that could not be made: its report is the body (and the journal's); said on the log too when a bound refused it. */
function reported<E extends Expected>(entry: JournalAnswer, r: HttpResponse, report: string, tooLarge: boolean | undefined, said: string): Answered<E> {
  return { kind: entry.answeredBy as Answered['kind'], entry, response: r, report: true, delayMs: 0, said, warn: tooLarge ? report.trimEnd() : undefined };
}

/** A templated example's answer, kept with the memo's choice when it depends only on the request's key (`keyed`) and is small enough. */
function kept(choice: Choice, keyed: boolean, make: () => Made): Made {
  if (choice.answer) return { response: choice.answer };
  const made = make();
  if (made.report === undefined && keyed && keepable(made.response)) choice.answer = made.response;
  return made;
}

type Made = { response: HttpResponse; report?: string; tooLarge?: boolean };

/** An example file's templated answer. */
function templatedFixed(fixed: FixedExample, route: Route, request: HttpRequest, body: ParsedBody, sequence: Counter, key: RequestKey): Made {
  const made = answerFromTemplate(fixed.template!, fixed.owner, request, body, sequence, generatedFor(route, keyText(key)));
  if (!('response' in made)) return cannotAnswer(`example file ${fixed.file}`, request, made.problem, made.tooLarge);
  return { response: fixedResponse(route, made.response) };
}

/** An Examples row's answer with its `{{…}}` cells filled from the request. */
function templatedRow(t: RowTemplate, route: Route, row: ExampleRow, request: HttpRequest, body: ParsedBody, sequence: Counter, key: RequestKey): Made {
  const where = `the Examples row at ${route.scenario.file}:${row.line}`;
  const filled = fillRow(t, row, request, body, sequence);
  if (!('values' in filled)) return cannotAnswer(where, request, filled.problem, filled.tooLarge);
  // A filled cell is put wherever its column names a node, a list's every item too: bounded as it is placed.
  const made = boundedRowAnswer((placed) => respond(route, row, requestRandom(route, keyText(key)), filled.values, placed));
  if (!('response' in made)) return cannotAnswer(where, request, made.problem, true);
  const badHeader = invalidHeader(made.response.headers);
  if (badHeader) return cannotAnswer(where, request, `a templated header is not valid HTTP: ${badHeader}`);
  return { response: made.response };
}

/**
 * The answer of a templated answer that cannot be made, its body the report the journal keeps too:
 * 500, or 413 when TEMPLATE_LIMITS.answerChars refused it (the request's values are too large for
 * what the template makes of them; nothing is broken), then said on the log too.
 */
function cannotAnswer(who: string, request: HttpRequest, problem: string, bound?: boolean): Made & { report: string } {
  const report = `accord stub: ${who} cannot answer ${request.method} ${request.path}: ${problem}\n`;
  return { response: { status: bound ? 413 : 500, headers: {}, body: report }, report, tooLarge: bound };
}

/** The answer generated for a request (its values drawn from a stream seeded by `seed`: respond.ts), with the given headers added. */
function generatedFor(route: Route, seed: string): (extra: Record<string, string>) => HttpResponse {
  return (extra) => {
    const r = respond(route, undefined, requestRandom(route, seed));
    for (const [k, v] of Object.entries(extra)) r.headers[k] = v;
    return r;
  };
}

/** An answer to a WS-Addressing request says which one it answers (RelatesTo) and its Action; a plain request costs one substring search. */
function addressed(r: HttpResponse, body: ParsedBody, scenario: Scenario): HttpResponse {
  if (!body.text.includes(WSA)) return r;
  const xml = body.asXml();
  return xml instanceof AccordError ? r : answerAddressed(xml, r, { tags: scenario.tags, fault: isFaultScenario(scenario) });
}

function strictReport(requestLine: string, route: Route): string {
  return (
    `accord stub (strict): no expectation or example answers ${requestLine}\n` +
    `It fits ${route.label}, but in strict mode only expectations and examples (example files, Examples rows) answer; ` +
    `set an expectation for it or add an example.\n`
  );
}

function described(o: Outcome): string {
  if (o.kind === 'matched') return `${o.route.label}${o.row ? ` with the example at line ${o.row.line}` : o.fixed ? ` with example file ${o.fixed.file}` : ''}`;
  if (o.kind === 'no-match') return `no scenario matched (tried ${o.attempts.map((a) => `"${a.route.scenario.name}"`).join(', ')})`;
  return o.allowed.length > 0 ? `method not served (allowed: ${o.allowed.join(', ')})` : 'unknown path';
}
