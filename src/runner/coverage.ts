import path from 'node:path';
import { existsSync } from 'node:fs';
import { caseTitle, parseContract, parseContractCached, testCases } from '../contract/load';
import { isFaultScenario, type Contract, type Scenario, type TestCase } from '../contract/model';
import { AccordError } from '../errors';
import { buildRequest } from '../http/build-request';
import { inert, printable } from '../printable';
import { parseXmlOrUndefined } from '../xml/parse';

/**
 * Contract coverage after a `jest --preset` run: for each contract, how many
 * scenarios passed, failed, are @WIP or were not run, and for a contract that
 * came from a WSDL the operations no scenario exercises. Pure: the preset's
 * reporter (preset/coverage-reporter.js) hands it Jest's results and writes
 * what it returns.
 */

/** One Jest test of a contract file, as Jest's results give it. */
export interface CaseOutcome {
  title: string;
  status: string;
}

/** `skipped`: accord declares it but cannot run it (a fault scenario without an Examples row, a Kafka message); `not run`: none of its tests ran (`-t` left it out). */
export type ScenarioStatus = 'passed' | 'failed' | 'wip' | 'skipped' | 'not run';

/** The opt-in negative tests of a scenario or contract (runtime.ts, `<case> [negative: <mutation>]`). */
export interface NegativeCounts {
  passed: number;
  failed: number;
  notRun: number;
}

export interface ScenarioCoverage {
  name: string;
  line: number;
  status: ScenarioStatus;
  /** A `@fault` scenario (a fault of an operation, not an operation). */
  fault?: true;
  /** Why accord does not run it (status `skipped`). */
  skipped?: string;
  negative?: NegativeCounts;
}

export type OperationStatus = ScenarioStatus | 'no scenario';

/** One WSDL operation: the outcome of the scenarios of its name, and of its `@fault` scenarios (`<operation> fault <name>`). */
export interface OperationCoverage {
  name: string;
  status: OperationStatus;
  faults: { name: string; status: ScenarioStatus }[];
  /** The negative tests of its scenarios, when any were declared. */
  negative?: NegativeCounts;
}

export interface ContractCoverage {
  file: string;
  feature: string;
  scenarios: number;
  passed: number;
  failed: number;
  wip: number;
  skipped: number;
  notRun: number;
  negative: NegativeCounts;
  /** The replayed consumers' examples (runtime.ts): a failed one fails the scenario it fits. */
  consumers?: { passed: number; failed: number; notRun: number };
  list: ScenarioCoverage[];
  /** The WSDL the contract describes: its operations, those that ran and passed, and those with no scenario. */
  wsdl?: { file: string; operations: number; passed: number; uncovered: string[]; list: OperationCoverage[]; partial?: string[] };
  /** The WSDL the contract names (or the `wsdl` setting maps it to) could not be found or read: operations cannot be judged. */
  wsdlMissing?: { file: string; named: string; problem: string };
  /** Why the contract could not be read (every scenario then counts as not run). */
  error?: string;
}

export interface CoverageThreshold {
  /** Least percentage of the scenarios accord runs (not @WIP, not skipped) that passed. */
  scenarios?: number;
  /** Least percentage of WSDL operations whose scenario ran and passed. */
  operations?: number;
}

/**
 * What coverage needs of a contract: its scenarios and which scenario each Jest test title
 * belongs to. The preset's runtime makes it from the contract it has already parsed to run the
 * file, and the test runner hands it to the reporter with the file's results, so the reporter
 * never parses a contract again (that was ~7 ms of CPU per 20-scenario file).
 */
export interface ContractOutline {
  feature: string;
  /** `skip`: why accord declares every case of the scenario but runs none. */
  scenarios: { name: string; line: number; wip: boolean; fault: boolean; skip?: string; request?: OperationRequest }[];
  /** A test's title (the case's name, and its title when not run) and the index of its scenario. */
  titles: [string, number][];
  /** The titles of the tests that replay consumers' examples (runtime.ts), each a test of the scenario it fits. */
  consumers?: [string, number][];
  /** Why the contract could not be read. */
  error?: string;
}

export function contractOutline(contract: Contract, cases: readonly TestCase[] = testCases(contract)): ContractOutline {
  const index = new Map(contract.scenarios.map((s, i) => [s, i]));
  const titles: [string, number][] = [];
  const skip = new Map<number, string | undefined>();
  for (const tc of cases) {
    const i = index.get(tc.scenario)!;
    titles.push([tc.name, i]);
    if (tc.notRun !== undefined) titles.push([caseTitle(tc), i]);
    // Skipped only when no case of it runs.
    skip.set(i, skip.has(i) && skip.get(i) === undefined ? undefined : tc.notRun);
  }
  const scenarios = contract.scenarios.map((s, i) => {
    const reason = skip.get(i);
    const request = operationRequest(s);
    return { name: s.name, line: s.line, wip: s.wip, fault: isFaultScenario(s), ...(reason === undefined ? {} : { skip: reason }), ...(request ? { request } : {}) };
  });
  return { feature: contract.name, scenarios, titles };
}

/** The outline of a contract's text, parsed here: for a file whose run carried none (it could not be run). */
export function readOutline(file: string, source: string): ContractOutline {
  try {
    return contractOutline(parseContractCached(source, file));
  } catch (e) {
    if (!(e instanceof AccordError)) throw e;
    return { feature: '', scenarios: [], titles: [], error: e.describe() };
  }
}

/** What the reporter knows of a contract's WSDL: its operations (and the request of each, in the same order), or why they are not known. */
export type WsdlFound = { file: string; operations: string[]; requests?: (OperationRequest | undefined)[]; partial?: string[] } | { file: string; named: string; problem: string };

/**
 * Which operation a SOAP request is: the local name of the Body's first element and the action
 * (SOAPAction, or a SOAP 1.2 Content-Type's `action`), as the request accord sends for the
 * scenario has them. Coverage counts an operation by what a scenario sends, not by its name.
 */
export interface OperationRequest {
  element: string;
  action?: string;
}

/** The operation a scenario's request is, or undefined when it is not a SOAP request accord can build. */
export function operationRequest(s: Scenario): OperationRequest | undefined {
  if (s.unsupported !== undefined || !s.request.body) return undefined;
  let req;
  try {
    req = buildRequest({ scenario: s, row: s.examples[0], name: s.name }, 0);
  } catch (e) {
    if (e instanceof AccordError) return undefined;
    throw e;
  }
  const env = parseXmlOrUndefined(req.body);
  if (!env || env.local !== 'Envelope') return undefined;
  const kids = (el: typeof env) => el.children.filter((c): c is typeof env => c.type === 'element');
  const body = kids(env).find((c) => c.local === 'Body');
  const first = body && kids(body)[0];
  if (!first) return undefined;
  const soapAction = req.headers['soapaction']?.trim().replace(/^"|"$/g, '');
  const action = soapAction || /;\s*action="?([^";]+)"?/i.exec(req.headers['content-type'] ?? '')?.[1];
  return action ? { element: first.local, action } : { element: first.local };
}

/** Whether a scenario's request is the operation's: the same Body element, and the same action where both have one. */
function sameOperation(op: OperationRequest, sc: OperationRequest): boolean {
  return op.element === sc.element && (op.action === undefined || sc.action === undefined || op.action === sc.action);
}

const NEGATIVE = ' [negative: ';

/** The case a negative test's title (`<case> [negative: <mutation>]`) belongs to. */
function negativeOf(title: string): string | undefined {
  const at = title.lastIndexOf(NEGATIVE);
  return at >= 0 && title.endsWith(']') ? title.slice(0, at) : undefined;
}

/** A contract's coverage from its outline and the outcome of each of its tests; `wsdl`: its WSDL's operations, when it names one. */
export function contractCoverage(file: string, outline: ContractOutline, outcomes: readonly CaseOutcome[], wsdl?: WsdlFound): ContractCoverage {
  const negative = (): NegativeCounts => ({ passed: 0, failed: 0, notRun: 0 });
  if (outline.error !== undefined)
    return { file, feature: '', scenarios: 0, passed: 0, failed: 0, wip: 0, skipped: 0, notRun: 0, negative: negative(), list: [], error: outline.error };
  const byTitle = new Map(outline.titles);
  const byConsumer = new Map(outline.consumers ?? []);
  const seen = new Map<number, string[]>();
  const negatives = new Map<number, NegativeCounts>();
  const total = negative();
  const consumers = negative();
  for (const o of outcomes) {
    const s = byTitle.get(o.title);
    if (s !== undefined) {
      seen.set(s, [...(seen.get(s) ?? []), o.status]);
      continue;
    }
    const c = byConsumer.get(o.title);
    if (c !== undefined) {
      // A consumer's example is a test of the scenario it fits: the scenario did not pass when the provider failed it.
      seen.set(c, [...(seen.get(c) ?? []), o.status]);
      consumers[o.status === 'passed' ? 'passed' : o.status === 'failed' ? 'failed' : 'notRun']++;
      continue;
    }
    const of = negativeOf(o.title);
    const n = of === undefined ? undefined : byTitle.get(of);
    if (n === undefined) continue;
    const counts = negatives.get(n) ?? negative();
    negatives.set(n, counts);
    const key = o.status === 'passed' ? 'passed' : o.status === 'failed' ? 'failed' : 'notRun';
    counts[key]++;
    total[key]++;
  }
  const list = outline.scenarios.map((s, i): ScenarioCoverage => {
    const c: ScenarioCoverage = { name: s.name, line: s.line, status: statusOf(s, seen.get(i) ?? []) };
    if (s.fault) c.fault = true;
    if (c.status === 'skipped') c.skipped = s.skip;
    if (negatives.has(i)) c.negative = negatives.get(i);
    return c;
  });
  const count = (st: ScenarioStatus) => list.filter((s) => s.status === st).length;
  const out: ContractCoverage = {
    file,
    feature: outline.feature,
    scenarios: list.length,
    passed: count('passed'),
    failed: count('failed'),
    wip: count('wip'),
    skipped: count('skipped'),
    notRun: count('not run'),
    negative: total,
    ...(byConsumer.size > 0 ? { consumers } : {}),
    list,
  };
  if (wsdl && 'problem' in wsdl) out.wsdlMissing = wsdl;
  else if (wsdl) {
    const ops = wsdl.operations.map((op, i) => operationCoverage(op, wsdl.requests?.[i], list, outline.scenarios));
    out.wsdl = {
      file: wsdl.file,
      operations: ops.length,
      passed: ops.filter((o) => o.status === 'passed').length,
      uncovered: ops.filter((o) => o.status === 'no scenario').map((o) => o.name),
      list: ops,
      // What the WSDL imports and could not be read: its operations may be more than these.
      ...(wsdl.partial?.length ? { partial: wsdl.partial } : {}),
    };
  }
  return out;
}

/**
 * An operation is covered by the scenarios whose request is the operation's (its Body element and
 * action, operationRequest), whatever they are named, and its faults by the `@fault` scenarios with
 * that request. A scenario whose request accord cannot read as SOAP counts by its name, as
 * `accord import wsdl` names them (`<operation>`, `<operation> fault <fault>`). It failed when one
 * of them failed, passed when one of its own scenarios passed, and otherwise takes the status of its own.
 */
function operationCoverage(name: string, request: OperationRequest | undefined, list: readonly ScenarioCoverage[], outlined: ContractOutline['scenarios']): OperationCoverage {
  const isOf = (i: number, byName: boolean) => {
    const sc = outlined[i]?.request;
    return request && sc ? sameOperation(request, sc) : byName;
  };
  const own = list.filter((s, i) => !s.fault && isOf(i, s.name === name));
  const faults = list.filter((s, i) => s.fault && isOf(i, s.name.startsWith(`${name} fault `))).map((s) => ({ name: s.name, status: s.status }));
  const has = (st: ScenarioStatus) => own.some((s) => s.status === st);
  let status: OperationStatus;
  if (own.length === 0) status = 'no scenario';
  else if (has('failed') || faults.some((f) => f.status === 'failed')) status = 'failed';
  else if (has('passed')) status = 'passed';
  else if (has('not run')) status = 'not run';
  else if (has('skipped')) status = 'skipped';
  else status = 'wip';
  const op: OperationCoverage = { name, status, faults };
  for (const s of own) {
    if (!s.negative) continue;
    op.negative ??= { passed: 0, failed: 0, notRun: 0 };
    op.negative.passed += s.negative.passed;
    op.negative.failed += s.negative.failed;
    op.negative.notRun += s.negative.notRun;
  }
  return op;
}

function statusOf(s: { wip: boolean; skip?: string }, statuses: readonly string[]): ScenarioStatus {
  if (s.wip) return 'wip';
  if (statuses.includes('failed')) return 'failed';
  if (statuses.includes('passed')) return 'passed';
  if (s.skip !== undefined) return 'skipped';
  return 'not run';
}

const IMPORTED = 'Imported by accord from ';

/**
 * The WSDL a contract was imported from, as `accord import wsdl` notes it in the contract's first
 * comment: its path from the contract's folder (a base name before accord 0.x wrote the path).
 * `named` is the text as written, `file` where it is looked for; undefined when the contract names
 * none, or names an absolute path or one that leaves `root` (a contract is not trusted to make the
 * reporter read files elsewhere).
 */
export function importedFrom(file: string, source: string, root: string): { named: string; file: string } | undefined {
  const head = source.slice(0, 4096);
  const at = head.indexOf(IMPORTED);
  if (at < 0) return undefined;
  const end = head.indexOf('\n', at);
  let name = head.slice(at + IMPORTED.length, end < 0 ? undefined : end).trim();
  const paren = name.indexOf(' (');
  name = paren >= 0 ? name.slice(0, paren) : name.endsWith('.') ? name.slice(0, -1) : name;
  // A URL or a drive is not a path from the contract's folder.
  if (name === '' || path.isAbsolute(name) || name.includes(':')) return undefined;
  const candidate = path.resolve(path.dirname(file), name);
  const inside = path.relative(root, candidate);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return undefined;
  return { named: name, file: candidate };
}

/**
 * The WSDL of a contract and its operations: the one the `wsdl` setting maps it to (`mapped`, a
 * path from the rootDir), else the one its first comment names. A WSDL that is named but cannot be
 * found or read comes back with the problem, worded for the user.
 */
export function findWsdl(file: string, source: string, root: string, mapped?: string): WsdlFound | undefined {
  const rel = path.relative(root, file).split(path.sep).join('/');
  const named = mapped !== undefined ? { named: mapped, file: path.resolve(root, mapped) } : importedFrom(file, source, root);
  if (!named) return undefined;
  const how =
    mapped !== undefined
      ? `testEnvironmentOptions.accord.wsdl maps ${rel} to ${mapped}`
      : `${rel} was imported from ${named.named}; set testEnvironmentOptions.accord.wsdl: { ${JSON.stringify(rel)}: "<path of the WSDL from the rootDir>" } to say where it is`;
  if (!existsSync(named.file)) return { ...named, problem: `the WSDL was not found at ${path.relative(root, named.file) || named.file}: ${how}` };
  try {
    const shown = (f: string) => path.relative(root, f) || f;
    const { operations, requests, partial } = wsdlOperations(named.file, shown);
    return partial.length > 0 ? { file: named.file, operations, requests, partial } : { file: named.file, operations, requests };
  } catch (e) {
    if (!(e instanceof AccordError)) throw e;
    return { ...named, problem: `the WSDL ${path.relative(root, named.file) || named.file} could not be read: ${e.describe().split('\n')[0]}` };
  }
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 100 : Math.round((part / whole) * 1000) / 10;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function counts(c: { passed: number; failed: number; wip: number; skipped: number; notRun: number }): string {
  return `${c.passed} passed, ${c.failed} failed, ${c.wip} WIP, ${c.skipped} skipped, ${c.notRun} not run`;
}

/**
 * The summary printed after the run; `partial` says why a run did not run every test of every
 * contract, `project` names the Jest project when there are several with contracts.
 */
export function formatCoverage(list: readonly ContractCoverage[], root: string, partial?: string, project?: string): string {
  const lines = ['', `accord contract coverage${project ? ` of project ${project}` : ''}${partial ? ` (partial run: ${partial})` : ''}`];
  for (const c of list) {
    const file = path.relative(root, c.file) || c.file;
    if (c.error) {
      lines.push(`  ${file}: not read (${c.error.split('\n')[0]})`);
      continue;
    }
    lines.push(`  ${file}: ${plural(c.scenarios, 'scenario')}: ${counts(c)}`);
    const n = c.negative;
    if (n.passed + n.failed + n.notRun > 0) lines.push(`    negative tests: ${n.passed} passed, ${n.failed} failed, ${n.notRun} not run`);
    const k = c.consumers;
    if (k) lines.push(`    consumers' examples: ${k.passed} passed, ${k.failed} failed, ${k.notRun} not run`);
    if (c.wsdl) {
      const ops = c.wsdl.list;
      const of = (st: OperationStatus) => ops.filter((o) => o.status === st);
      const by = { passed: of('passed').length, failed: of('failed').length, wip: of('wip').length, skipped: of('skipped').length, notRun: of('not run').length };
      lines.push(`    ${path.relative(root, c.wsdl.file) || c.wsdl.file}: ${plural(c.wsdl.operations, 'operation')}: ${counts(by)}, ${c.wsdl.uncovered.length} with no scenario`);
      for (const st of ['failed', 'wip', 'skipped', 'not run', 'no scenario'] as const) {
        const names = of(st).map((o) => o.name);
        if (names.length > 0) lines.push(`    ${st === 'wip' ? 'WIP' : st}: ${names.join(', ')}`);
      }
      for (const l of c.wsdl.partial ?? []) lines.push(`    not read: ${l}`);
    }
    if (c.wsdlMissing) lines.push(`    operations not counted: ${c.wsdlMissing.problem}`);
  }
  const t = totals(list);
  lines.push(`  all contracts: ${plural(t.scenarios, 'scenario')}: ${counts(t)} (${percent(t.passed, runnable(t))} % of those not WIP or skipped passed)`);
  if (t.operations > 0 || t.wsdlMissing > 0)
    lines.push(
      `  WSDL operations: ${t.operationsPassed} of ${t.operations} ran and passed` +
        (t.wsdlMissing > 0 ? `; ${plural(t.wsdlMissing, 'contract')} whose WSDL was not found not counted` : ''),
    );
  if (partial) lines.push('  a partial run: the coverage file is not written and coverageThreshold is not checked');
  return `${inert(printable(lines.join('\n')))}\n`;
}

/** The scenarios a threshold judges: all but @WIP and those accord does not run. */
function runnable(t: { scenarios: number; wip: number; skipped: number }): number {
  return t.scenarios - t.wip - t.skipped;
}

export function totals(list: readonly ContractCoverage[]) {
  const sum = (f: (c: ContractCoverage) => number) => list.reduce((n, c) => n + f(c), 0);
  return {
    scenarios: sum((c) => c.scenarios),
    passed: sum((c) => c.passed),
    failed: sum((c) => c.failed),
    wip: sum((c) => c.wip),
    skipped: sum((c) => c.skipped),
    notRun: sum((c) => c.notRun),
    negative: { passed: sum((c) => c.negative.passed), failed: sum((c) => c.negative.failed), notRun: sum((c) => c.negative.notRun) },
    operations: sum((c) => c.wsdl?.operations ?? 0),
    operationsPassed: sum((c) => c.wsdl?.passed ?? 0),
    uncovered: sum((c) => c.wsdl?.uncovered.length ?? 0),
    wsdlMissing: sum((c) => (c.wsdlMissing ? 1 : 0)),
  };
}

/** The JSON file for machines. `operationsPercent` is null when no operation can be counted (no WSDL known, or one not found). */
export function coverageJson(list: readonly ContractCoverage[], root: string): string {
  const t = totals(list);
  const rel = (f: string) => path.relative(root, f) || f;
  const doc = {
    totals: {
      ...t,
      passedPercent: percent(t.passed, runnable(t)),
      operationsPercent: t.operations === 0 || t.wsdlMissing > 0 ? null : percent(t.operationsPassed, t.operations),
    },
    contracts: list.map((c) => ({
      ...c,
      file: rel(c.file),
      wsdl: c.wsdl && { ...c.wsdl, file: rel(c.wsdl.file) },
      wsdlMissing: c.wsdlMissing && { ...c.wsdlMissing, file: rel(c.wsdlMissing.file) },
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** What falls short of the threshold, worded for the user; empty when it is met. A threshold that cannot be judged falls short. */
export function belowThreshold(list: readonly ContractCoverage[], threshold: CoverageThreshold): string[] {
  const t = totals(list);
  const problems: string[] = [];
  if (threshold.scenarios !== undefined) {
    const passed = percent(t.passed, runnable(t));
    if (runnable(t) === 0) problems.push('no scenario that accord runs (not @WIP, not skipped): coverageThreshold.scenarios cannot be judged');
    else if (passed < threshold.scenarios)
      problems.push(`${passed} % of scenarios (not @WIP, not skipped) passed, below the threshold of ${threshold.scenarios} % (coverageThreshold.scenarios)`);
  }
  if (threshold.operations !== undefined) {
    const missing = list.filter((c) => c.wsdlMissing).map((c) => c.wsdlMissing!.named);
    if (missing.length > 0)
      problems.push(`coverageThreshold.operations cannot be judged: the WSDL ${missing.join(', ')} was not found (the coverage summary says where it was looked for)`);
    else if (t.operations === 0)
      problems.push(
        'coverageThreshold.operations cannot be judged: no contract names a WSDL (`accord import wsdl` names it in the contract; testEnvironmentOptions.accord.wsdl maps a contract to one)',
      );
    else {
      const ops = percent(t.operationsPassed, t.operations);
      if (ops < threshold.operations) problems.push(`${ops} % of WSDL operations ran and passed, below the threshold of ${threshold.operations} % (coverageThreshold.operations)`);
    }
  }
  return problems;
}

/** `coverageThreshold` as the user wrote it, checked: unknown keys and values that are not percentages are problems. */
export function readThreshold(raw: unknown): { threshold: CoverageThreshold; problems: string[] } {
  const problems: string[] = [];
  const threshold: CoverageThreshold = {};
  if (raw === undefined || raw === null) return { threshold, problems };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { threshold, problems: [`coverageThreshold must be an object such as { scenarios: 100, operations: 80 }, found ${JSON.stringify(raw)}`] };
  for (const [k, v] of Object.entries(raw)) {
    if (k !== 'scenarios' && k !== 'operations') {
      problems.push(`unknown key "${k}" in coverageThreshold: the keys are scenarios, operations`);
      continue;
    }
    if (typeof v !== 'number' || !(v >= 0 && v <= 100)) problems.push(`coverageThreshold.${k} must be a percentage from 0 to 100, found ${JSON.stringify(v)}`);
    else threshold[k] = v;
  }
  return { threshold, problems };
}

// The importer is loaded only when a contract names a WSDL (architecture.md: runner -> wsdl).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const wsdl = () => require('../wsdl') as typeof import('../wsdl');

/**
 * The operations of a WSDL, named as the importer names its scenarios (its `@fault` scenarios are faults of these, not operations),
 * and what it imports and could not be read (an operation there is not counted), one line each.
 */
export function wsdlOperations(file: string, shown: (file: string) => string): { operations: string[]; requests: (OperationRequest | undefined)[]; partial: string[] } {
  const { text, summary } = wsdl().importWsdl(file);
  const scenarios = parseContract(text, `${file}.spec`).scenarios.filter((s) => !isFaultScenario(s));
  return { operations: scenarios.map((s) => s.name), requests: scenarios.map(operationRequest), partial: wsdl().partialLines(summary, shown) };
}
