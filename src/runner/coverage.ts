import path from 'node:path';
import { existsSync } from 'node:fs';
import { caseTitle, parseContract, parseContractCached, testCases } from '../contract/load';
import type { Contract, TestCase } from '../contract/model';
import { AccordError } from '../errors';
import { printable } from '../printable';

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

export type ScenarioStatus = 'passed' | 'failed' | 'wip' | 'not run';

export interface ScenarioCoverage {
  name: string;
  line: number;
  status: ScenarioStatus;
}

export interface ContractCoverage {
  file: string;
  feature: string;
  scenarios: number;
  passed: number;
  failed: number;
  wip: number;
  notRun: number;
  list: ScenarioCoverage[];
  /** The WSDL the contract describes, and its operations with no scenario. */
  wsdl?: { file: string; operations: number; uncovered: string[] };
  /** Why the contract could not be read (every scenario then counts as not run). */
  error?: string;
}

export interface CoverageThreshold {
  /** Least percentage of scenarios (not @WIP) that passed. */
  scenarios?: number;
  /** Least percentage of WSDL operations with a scenario. */
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
  scenarios: { name: string; line: number; wip: boolean }[];
  /** A test's title (the case's name, and its title when not run) and the index of its scenario. */
  titles: [string, number][];
  /** Why the contract could not be read. */
  error?: string;
}

export function contractOutline(contract: Contract, cases: readonly TestCase[] = testCases(contract)): ContractOutline {
  const index = new Map(contract.scenarios.map((s, i) => [s, i]));
  const titles: [string, number][] = [];
  for (const tc of cases) {
    const i = index.get(tc.scenario)!;
    titles.push([tc.name, i]);
    if (tc.notRun !== undefined) titles.push([caseTitle(tc), i]);
  }
  return { feature: contract.name, scenarios: contract.scenarios.map((s) => ({ name: s.name, line: s.line, wip: s.wip })), titles };
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

/** A contract's coverage from its outline and the outcome of each of its tests; `operations` are the WSDL's, when known. */
export function contractCoverage(file: string, outline: ContractOutline, outcomes: readonly CaseOutcome[], wsdl?: { file: string; operations: string[] }): ContractCoverage {
  if (outline.error !== undefined) return { file, feature: '', scenarios: 0, passed: 0, failed: 0, wip: 0, notRun: 0, list: [], error: outline.error };
  const byTitle = new Map(outline.titles);
  const seen = new Map<number, string[]>();
  for (const o of outcomes) {
    const s = byTitle.get(o.title);
    if (s === undefined) continue;
    seen.set(s, [...(seen.get(s) ?? []), o.status]);
  }
  const list = outline.scenarios.map((s, i): ScenarioCoverage => ({ name: s.name, line: s.line, status: statusOf(s, seen.get(i) ?? []) }));
  const count = (st: ScenarioStatus) => list.filter((s) => s.status === st).length;
  const out: ContractCoverage = {
    file,
    feature: outline.feature,
    scenarios: list.length,
    passed: count('passed'),
    failed: count('failed'),
    wip: count('wip'),
    notRun: count('not run'),
    list,
  };
  if (wsdl) {
    const names = new Set(outline.scenarios.map((s) => s.name));
    out.wsdl = { file: wsdl.file, operations: wsdl.operations.length, uncovered: wsdl.operations.filter((op) => !names.has(op)) };
  }
  return out;
}

function statusOf(s: { wip: boolean }, statuses: readonly string[]): ScenarioStatus {
  if (s.wip) return 'wip';
  if (statuses.includes('failed')) return 'failed';
  if (statuses.includes('passed')) return 'passed';
  return 'not run';
}

const IMPORTED = 'Imported by accord from ';

/**
 * The WSDL a contract was imported from, as `accord import wsdl` notes it in
 * the contract's first comment, when that file is beside the contract.
 */
export function importedFrom(file: string, source: string): string | undefined {
  const head = source.slice(0, 4096);
  const at = head.indexOf(IMPORTED);
  if (at < 0) return undefined;
  const end = head.indexOf('\n', at);
  let name = head.slice(at + IMPORTED.length, end < 0 ? undefined : end).trim();
  const paren = name.indexOf(' (');
  name = paren >= 0 ? name.slice(0, paren) : name.endsWith('.') ? name.slice(0, -1) : name;
  if (name === '' || name.includes('/') || name.includes('\\')) return undefined;
  const candidate = path.join(path.dirname(file), name);
  return existsSync(candidate) ? candidate : undefined;
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 100 : Math.round((part / whole) * 1000) / 10;
}

/** The summary printed after the run. */
export function formatCoverage(list: readonly ContractCoverage[], root: string): string {
  const lines = ['', 'accord contract coverage'];
  for (const c of list) {
    const file = path.relative(root, c.file) || c.file;
    if (c.error) {
      lines.push(`  ${file}: not read (${c.error.split('\n')[0]})`);
      continue;
    }
    lines.push(`  ${file}: ${c.scenarios} scenario${c.scenarios === 1 ? '' : 's'}: ${c.passed} passed, ${c.failed} failed, ${c.wip} WIP, ${c.notRun} not run`);
    if (c.wsdl) {
      const covered = c.wsdl.operations - c.wsdl.uncovered.length;
      lines.push(`    ${path.relative(root, c.wsdl.file) || c.wsdl.file}: ${covered} of ${c.wsdl.operations} operations have a scenario`);
      if (c.wsdl.uncovered.length > 0) lines.push(`    no scenario: ${c.wsdl.uncovered.join(', ')}`);
    }
  }
  const t = totals(list);
  lines.push(
    `  all contracts: ${t.scenarios} scenarios: ${t.passed} passed, ${t.failed} failed, ${t.wip} WIP, ${t.notRun} not run (${percent(t.passed, t.scenarios - t.wip)} % of those not WIP passed)`,
  );
  return `${printable(lines.join('\n'))}\n`;
}

export function totals(list: readonly ContractCoverage[]) {
  const sum = (f: (c: ContractCoverage) => number) => list.reduce((n, c) => n + f(c), 0);
  return {
    scenarios: sum((c) => c.scenarios),
    passed: sum((c) => c.passed),
    failed: sum((c) => c.failed),
    wip: sum((c) => c.wip),
    notRun: sum((c) => c.notRun),
    operations: sum((c) => c.wsdl?.operations ?? 0),
    uncovered: sum((c) => c.wsdl?.uncovered.length ?? 0),
  };
}

/** The JSON file for machines. */
export function coverageJson(list: readonly ContractCoverage[], root: string): string {
  const t = totals(list);
  const doc = {
    totals: { ...t, passedPercent: percent(t.passed, t.scenarios - t.wip), operationsPercent: percent(t.operations - t.uncovered, t.operations) },
    contracts: list.map((c) => ({ ...c, file: path.relative(root, c.file) || c.file, wsdl: c.wsdl && { ...c.wsdl, file: path.relative(root, c.wsdl.file) || c.wsdl.file } })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** What falls short of the threshold, worded for the user; empty when it is met. */
export function belowThreshold(list: readonly ContractCoverage[], threshold: CoverageThreshold): string[] {
  const t = totals(list);
  const problems: string[] = [];
  const passed = percent(t.passed, t.scenarios - t.wip);
  if (threshold.scenarios !== undefined && passed < threshold.scenarios)
    problems.push(`${passed} % of scenarios (not @WIP) passed, below the threshold of ${threshold.scenarios} % (coverageThreshold.scenarios)`);
  const ops = percent(t.operations - t.uncovered, t.operations);
  if (threshold.operations !== undefined && ops < threshold.operations)
    problems.push(`${ops} % of WSDL operations have a scenario, below the threshold of ${threshold.operations} % (coverageThreshold.operations)`);
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

/** The operations of a WSDL, named as the importer names its scenarios. */
export function wsdlOperations(file: string): string[] {
  const { text } = wsdl().importWsdl(file);
  return parseContract(text, `${file}.spec`).scenarios.map((s) => s.name);
}
