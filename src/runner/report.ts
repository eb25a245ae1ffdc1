import path from 'node:path';
import { REPORT_LIMITS } from '../limits';
import { HIDDEN } from '../http/credentials';
import { WHERE } from '../pattern/match/mismatch';
import { printable, printableBody } from '../printable';
import { looksLikeXml } from '../xml/parse';
import { lineOfPath, prettyXml } from '../xml/pretty';
import type { ContractCoverage } from './coverage';
import type { Redaction } from './redact';
import type { CaseResult } from './run-case';

/*
 * The HTML report's data (preset/report-reporter.js writes it with src/html): what the runner knows
 * of each test, kept as plain JSON. The runtime turns each case's result into an exchange here, in
 * the worker, with the run's redaction applied and every body bounded (REPORT_LIMITS); the preset's
 * test runner hands the file's exchanges to the reporter with its results.
 */

/** A body as indented lines (`[depth, text]`); `cut` says what was left out. */
export interface ReportBody {
  lines: [number, string][];
  cut?: string;
}

export interface ReportMismatch {
  side: 'request' | 'response' | 'other';
  path: string;
  expected: string;
  actual: string;
  /** The body line (0-based) of the node the mismatch concerns. */
  line?: number;
}

export interface ReportExchange {
  request?: { line: string; headers: [string, string][]; body?: ReportBody };
  response?: { status: number; headers: [string, string][]; body?: ReportBody };
  mismatches: ReportMismatch[];
  error?: string;
}

export type ReportStatus = 'passed' | 'failed' | 'wip-passed' | 'wip-failed' | 'skipped' | 'not-run' | 'negative-passed' | 'negative-failed';

export interface ReportTest {
  title: string;
  status: ReportStatus;
  message?: string;
  exchange?: ReportExchange;
}

/** A consumer's example and how it fared (consumer-driven contracts): shown when a run has any. */
export interface ConsumerExample {
  consumer: string;
  example: string;
  contract: string;
  scenario: string;
  status: string;
  /** The example file, from the rootDir: which file to open (or to tell the consumer about). */
  file?: string;
  /** Why it no longer fits the contract, when it does not. */
  problem?: string;
}

/** A consumer example a test file replayed (runtime.ts records it; the preset's test runner adds its outcome with `replayedConsumers`). */
export interface ReplayedConsumer {
  consumer: string;
  example: string;
  /** The contract file, as the runtime opened it. */
  contract: string;
  /** The contract's scenario it fits; '' when it no longer fits. */
  scenario: string;
  /** The test's full name (describe block and title), as Jest reports it. */
  fullName: string;
  fits: boolean;
  /** The example file, as the runtime read it. */
  file?: string;
  /** Why it no longer fits the contract, when it does not (what the provider's run warns). */
  problem?: string;
}

/**
 * The report's consumer rows of one test file: each replayed example with its owner and how it fared
 * (passed, failed, or skipped-no-longer-fits: the consumer's to fix); `contract` shown relative to `root`.
 */
export function replayedConsumers(replayed: readonly ReplayedConsumer[], tests: readonly Pick<JestTest, 'fullName' | 'status'>[], root: string): ConsumerExample[] {
  const outcome = new Map(tests.map((t) => [t.fullName, t.status]));
  return replayed.map((r) => {
    const status = !r.fits ? 'skipped-no-longer-fits' : outcome.get(r.fullName) === 'passed' ? 'passed' : outcome.get(r.fullName) === 'failed' ? 'failed' : 'skipped';
    const rel = (f: string) => {
      const shown = path.relative(root, f).split(path.sep).join('/');
      return shown.startsWith('..') ? f : shown;
    };
    const out: ConsumerExample = { consumer: r.consumer, example: r.example, contract: rel(r.contract), scenario: r.scenario, status };
    if (r.file !== undefined) out.file = rel(r.file);
    if (!r.fits && r.problem !== undefined) out.problem = r.problem;
    return out;
  });
}

export interface ReportContract {
  file: string;
  feature: string;
  coverage: Pick<ContractCoverage, 'scenarios' | 'passed' | 'failed' | 'wip' | 'skipped' | 'notRun' | 'negative'>;
  /** `partial`: what the WSDL imports and could not be read, one line each (coverage.ts): its operations may be more than these. */
  wsdl?: { file: string; operations: { name: string; status: string; faults: number }[]; partial?: string[] };
  error?: string;
  tests: ReportTest[];
}

export interface TestReportData {
  kind: 'tests';
  title: string;
  generated: string;
  partial?: string;
  totals: { passed: number; failed: number; wip: number; skipped: number; notRun: number; negativePassed: number; negativeFailed: number };
  contracts: ReportContract[];
  consumers?: ConsumerExample[];
}

/** A case's request, answer and mismatches as the report shows them: secrets hidden, bodies bounded. */
export function reportExchange(r: CaseResult, redaction: Redaction): ReportExchange {
  const text = (s: string) => printable(redaction.text(s));
  const headers = (h: Record<string, string>): [string, string][] => Object.entries(h).map(([k, v]) => [text(k), redaction.hidesHeader(k) ? HIDDEN : text(v)]);
  const request = r.request && { line: text(`${r.request.method} ${r.target ?? r.request.path}`), headers: headers(r.request.headers), body: undefined as PrettyBody | undefined };
  const response = r.response && { status: r.response.status, headers: headers(r.response.headers), body: undefined as PrettyBody | undefined };
  if (request && r.request!.body) request.body = bodyOf(redaction.text(r.request!.body));
  if (response && r.response!.body) response.body = bodyOf(redaction.text(r.response!.body), r.response!.binary);
  const mismatches = r.mismatches.slice(0, REPORT_LIMITS.bodyLines).map((m): ReportMismatch => {
    const side = m.path.startsWith(WHERE.requestBody) ? 'request' : m.path.startsWith('RESPONSE.') ? 'response' : m.path.startsWith('REQUEST.') ? 'request' : 'other';
    const out: ReportMismatch = { side, path: text(m.path), expected: text(m.expected), actual: text(m.actual) };
    const body = side === 'response' ? response?.body : side === 'request' ? request?.body : undefined;
    const inBody = m.path.startsWith(WHERE.responseBody) || m.path.startsWith(WHERE.requestBody);
    if (body?.xml && inBody) {
      const prefix = m.path.startsWith(WHERE.responseBody) ? WHERE.responseBody : WHERE.requestBody;
      const line = lineOfPath(body.xml, m.path.slice(prefix.length).trim());
      if (line !== undefined) out.line = line;
    }
    return out;
  });
  const exchange: ReportExchange = { mismatches };
  if (request) exchange.request = { line: request.line, headers: request.headers, body: request.body && shownBody(request.body) };
  if (response) exchange.response = { status: response.status, headers: response.headers, body: response.body && shownBody(response.body) };
  if (r.error) exchange.error = text(r.error);
  return exchange;
}

interface PrettyBody extends ReportBody {
  xml?: { depth: number; text: string; key?: string }[];
}

function bodyOf(body: string, binary?: Uint8Array): PrettyBody {
  if (!binary && looksLikeXml(body)) {
    const pretty = prettyXml(body, REPORT_LIMITS.bodyLines, REPORT_LIMITS.bodyChars);
    if (pretty) {
      const lines: [number, string][] = pretty.lines.map((l) => [l.depth, printable(l.text)]);
      return { lines, xml: pretty.lines, cut: pretty.cut ? `… cut: the report shows ${lines.length} lines of this body (${body.length} characters)` : undefined };
    }
  }
  const shown = printableBody(body, binary, REPORT_LIMITS.bodyChars).split('\n');
  const lines = shown.slice(0, REPORT_LIMITS.bodyLines).map((l): [number, string] => [0, l]);
  return { lines, cut: shown.length > lines.length ? `… cut: the report shows ${lines.length} of ${shown.length} lines` : undefined };
}

function shownBody(b: PrettyBody): ReportBody {
  return b.cut ? { lines: b.lines, cut: b.cut } : { lines: b.lines };
}

/** What Jest says of one test (an assertion result), as the reporter reads it. */
export interface JestTest {
  title: string;
  fullName: string;
  status: string;
  failureMessages?: string[];
  failureDetails?: unknown[];
}

const NEGATIVE = ' [negative: ';

/** One test's line in the report: its kind and outcome, its failure text (bounded), its exchange. */
export function reportTest(t: JestTest, exchange: ReportExchange | undefined): ReportTest {
  const wip = t.failureDetails?.[0] as { wip?: boolean; wouldHavePassed?: boolean } | undefined;
  const negative = t.title.includes(NEGATIVE) && t.title.endsWith(']');
  let status: ReportStatus;
  if (t.status === 'passed') status = negative ? 'negative-passed' : 'passed';
  else if (t.status === 'failed') status = negative ? 'negative-failed' : 'failed';
  else if (t.status === 'pending' && wip?.wip) status = wip.wouldHavePassed ? 'wip-passed' : 'wip-failed';
  else status = 'skipped';
  const out: ReportTest = { title: printable(t.title, { multiline: false }), status };
  const message = t.failureMessages?.[0];
  if (message && status !== 'passed') out.message = printable(message.length > REPORT_LIMITS.messageChars ? `${message.slice(0, REPORT_LIMITS.messageChars)}… (cut)` : message);
  if (exchange) out.exchange = exchange;
  return out;
}

/** One contract file's part of the report, from its coverage (coverage.ts), its tests and their exchanges. */
export function reportContract(
  file: string,
  c: ContractCoverage,
  tests: readonly JestTest[],
  exchanges: Record<string, ReportExchange>,
  skipped: Readonly<Record<string, string>> = {},
): ReportContract {
  const out: ReportContract = {
    file: printable(file, { multiline: false }),
    feature: printable(c.feature, { multiline: false }),
    coverage: { scenarios: c.scenarios, passed: c.passed, failed: c.failed, wip: c.wip, skipped: c.skipped, notRun: c.notRun, negative: c.negative },
    tests: tests.map((t) => {
      const shown = reportTest(t, Object.hasOwn(exchanges, t.fullName) ? exchanges[t.fullName] : undefined);
      // A consumer example that no longer fits was never sent: its line opens to why, not to an empty panel.
      if (shown.message === undefined && !shown.exchange && Object.hasOwn(skipped, t.fullName)) shown.message = printable(skipped[t.fullName]);
      return shown;
    }),
  };
  if (c.wsdl) {
    out.wsdl = { file: printable(c.wsdl.file), operations: c.wsdl.list.map((o) => ({ name: printable(o.name), status: o.status, faults: o.faults.length })) };
    if (c.wsdl.partial?.length) out.wsdl.partial = c.wsdl.partial.map((l) => printable(l, { multiline: false }));
  }
  if (c.error) out.error = printable(c.error);
  return out;
}

export function testReportData(contracts: ReportContract[], options: { title?: string; partial?: string; consumers?: ConsumerExample[]; now?: Date } = {}): TestReportData {
  const totals = { passed: 0, failed: 0, wip: 0, skipped: 0, notRun: 0, negativePassed: 0, negativeFailed: 0 };
  for (const c of contracts) {
    totals.passed += c.coverage.passed;
    totals.failed += c.coverage.failed;
    totals.wip += c.coverage.wip;
    totals.skipped += c.coverage.skipped;
    totals.notRun += c.coverage.notRun;
    totals.negativePassed += c.coverage.negative.passed;
    totals.negativeFailed += c.coverage.negative.failed;
  }
  const data: TestReportData = { kind: 'tests', title: options.title ?? 'accord contract tests', generated: (options.now ?? new Date()).toISOString(), totals, contracts };
  if (options.partial) data.partial = printable(options.partial);
  if (options.consumers && options.consumers.length > 0)
    data.consumers = options.consumers.map((e) => ({
      consumer: printable(String(e.consumer)),
      example: printable(String(e.example)),
      contract: printable(String(e.contract)),
      scenario: printable(String(e.scenario)),
      status: printable(String(e.status)),
      ...(e.file !== undefined ? { file: printable(String(e.file)) } : {}),
      ...(e.problem !== undefined ? { problem: printable(String(e.problem)) } : {}),
    }));
  return data;
}
