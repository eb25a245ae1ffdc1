import { isFaultScenario, type Contract, type TestCase } from '../contract/model';
import { parseContractCached, testCases } from '../contract/load';
import { AccordError, formatLocation } from '../errors';
import { inert, printable } from '../printable';
import type { HttpRequest } from '../http/message';
import { CONFIG_GLOBAL, CONSUMERS_GLOBAL, OUTLINE_GLOBAL, REPORT_GLOBAL, resolveRunnerConfig, type RunnerConfig } from './config';
import { contractOutline, type ContractOutline } from './coverage';
import { reportError, shownPath } from './error-display';
import { REPORT_LIMITS } from '../limits';
import { reportExchange, type ReplayedConsumer, type ReportExchange } from './report';
import { formatCaseReport, runCase } from './run-case';
import { markWip, recordWipVerdict } from './wip';
import { withStates } from './states';
import { negativeRequests, optsOutOfNegative, runNegative, securityMutations, type Mutation } from './negative';
import { Session, sessionKey } from './session';
import { consumerCases, consumerProblem, replayRequest, type ConsumerCase } from './consumers';

/**
 * What the code the transformer writes for each .spec file calls. The preset's test
 * environment loads this module once per Jest worker, outside the per-file sandbox, and
 * hands each file a `Runtime` bound to that file's global (RUNTIME_GLOBAL): loading it
 * and undici into every file's module registry, and running it there unoptimised, cost
 * ~150-200 ms a file. Under another environment the generated code requires this module
 * in the sandbox instead, bound to the sandbox's own global. Parsing is repeated here
 * (it is cheap) so the model never has to be serialised into the generated code.
 */
export interface OpenedContract {
  file: string;
  contract?: Contract;
  cases: TestCase[];
  error?: AccordError;
}

/** The worker's sessions (connections, OAuth2 token), by configuration: usually one. */
const sessions = new Map<string, Session>();
/** Each test file's configuration is one object: its session is looked up by key once. */
const sessionOf = new WeakMap<RunnerConfig, Session>();

function sessionFor(cfg: RunnerConfig): Session {
  let s = sessionOf.get(cfg);
  if (s && !s.closed) return s;
  const key = sessionKey(cfg);
  s = sessions.get(key);
  if (!s) sessions.set(key, (s = new Session(cfg)));
  sessionOf.set(cfg, s);
  return s;
}

export function open(file: string, source: string): OpenedContract {
  try {
    const contract = parseContractCached(source, file);
    // Once per file per run, on the worker's stderr (which Jest passes on): a mistake that does not stop the tests but explains a failure.
    for (const w of contract.warnings ?? []) process.stderr.write(printable(`accord: warning: ${formatLocation({ file, line: w.line })}: ${w.message}\n`));
    return { file, contract, cases: testCases(contract) };
  } catch (e) {
    if (e instanceof AccordError) return { file, cases: [], error: e };
    throw e;
  }
}

function outline(opened: OpenedContract): ContractOutline {
  if (opened.error) return { feature: '', scenarios: [], titles: [], error: opened.error.describe() };
  return contractOutline(opened.contract!, opened.cases);
}

/** The runtime the generated code uses: everything that touches a test file's global goes through `global`. */
export interface Runtime {
  open(file: string, source: string): OpenedContract;
  timeout(): number;
  body(opened: OpenedContract, index: number): () => Promise<void>;
  contractFailure(opened: OpenedContract): () => void;
  /** Declares the opt-in negative tests of a contract (in its describe block). */
  negativeTests(opened: OpenedContract): void;
  /** Declares a test for each consumer example beside the contract (consumers.ts), in its describe block. */
  consumerTests(opened: OpenedContract): void;
  closeAgent(): Promise<void>;
}

/**
 * `perWorker`: the runtime of the preset's environment, whose connections serve every test
 * file of the worker; each file's afterAll then leaves them open (undici unrefs idle sockets,
 * so they never keep Jest from exiting). Otherwise each file closes them when it is done.
 */
export function createRuntime(global: Record<string, unknown>, options: { perWorker?: boolean } = {}): Runtime {
  const config = (): RunnerConfig => (global[CONFIG_GLOBAL] as RunnerConfig | undefined) ?? resolveRunnerConfig(undefined, process.env);
  return {
    open: (file, source) => {
      const opened = open(file, source);
      global[OUTLINE_GLOBAL] = outline(opened);
      return opened;
    },
    timeout: () => caseTimeout(config()),
    body: (opened, index) => body(global, config, opened, index),
    contractFailure,
    negativeTests: (opened) => negativeTests(global, config, opened),
    consumerTests: (opened) => consumerTests(global, config, opened),
    closeAgent: options.perWorker ? async () => {} : closeAgent,
  };
}

/** Jest's time-out for one case: the request's own time-out and room to report. */
function caseTimeout(cfg: RunnerConfig): number {
  return cfg.timeoutMs + 5_000;
}

/** The function Jest runs for one case. */
function body(g: Record<string, unknown>, config: () => RunnerConfig, opened: OpenedContract, index: number): () => Promise<void> {
  return async () => {
    const tc = opened.cases[index];
    const cfg = config();
    const line = tc.row?.line ?? tc.scenario.line;
    // The name Jest gives the test: the describe block (the Feature) and the case.
    const fullName = `${opened.contract?.name || 'contract'} ${tc.name}`;
    if (tc.scenario.wip) markWip(g, fullName);
    // Provider states are set up only when the settings let the case run at all.
    const failure = settingsProblem(cfg) ?? (await withStates(tc, cfg.ws?.states, () => check(tc, cfg, exchangeRecorder(g, fullName)), cfg.baseUrl));
    if (tc.scenario.wip) {
      const where = formatLocation({ file: shownPath(tc.scenario.file), line });
      const message = inert(
        printable(`@WIP "${tc.name}" (${where}) is in progress and skipped; ${failure === undefined ? 'it would have PASSED' : `it would have FAILED:\n${failure}`}`),
      );
      recordWipVerdict(g, fullName, { passed: failure === undefined, message });
      // Jest's --silent keeps a test file from printing; this copy is for people, the verdict is in the results too.
      if (!cfg.silent) process.stderr.write(`\n[accord] ${message}\n`);
    }
    if (failure !== undefined) throw reportError(failure, tc.scenario.file, line);
  };
}

/** Why no case can run with these settings, or undefined. */
function settingsProblem(cfg: RunnerConfig): string | undefined {
  if (cfg.problems.length > 0) return `accord's settings need fixing before any scenario can run:\n${cfg.problems.map((p) => `  - ${p}`).join('\n')}`;
  if (!cfg.baseUrl) {
    return 'accord does not know where the service is: set ACCORD_BASE_URL (e.g. ACCORD_BASE_URL=http://127.0.0.1:8080 npx jest) or testEnvironmentOptions: { accord: { baseUrl } } in the Jest config';
  }
  return undefined;
}

/** What is wrong with one case, as the report a user reads; undefined when it passed. */
async function check(tc: TestCase, cfg: RunnerConfig, record?: (x: () => ReportExchange) => void, replay?: (built: HttpRequest) => HttpRequest): Promise<string | undefined> {
  const setup = settingsProblem(cfg);
  if (setup !== undefined) return setup;
  const baseUrl = cfg.baseUrl!;
  const session = sessionFor(cfg);
  const result = await runCase(tc, { baseUrl, timeoutMs: cfg.timeoutMs, seed: cfg.seed, dispatcher: session.dispatcher, addHeaders: session.headers, ws: cfg.ws, replay });
  record?.(() => reportExchange(result, session.redaction));
  return result.passed ? undefined : formatCaseReport(result, baseUrl, session.redaction);
}

/** Where a case's exchange goes when the HTML report is on (the environment then sets REPORT_GLOBAL); a file keeps a bounded number. */
function exchangeRecorder(g: Record<string, unknown>, fullName: string): ((x: () => ReportExchange) => void) | undefined {
  const kept = g[REPORT_GLOBAL] as Map<string, ReportExchange> | undefined;
  if (!kept) return undefined;
  return (x) => {
    if (kept.size < REPORT_LIMITS.exchangesPerFile) kept.set(fullName, x());
  };
}

type Declare = (name: string, fn: () => Promise<void>, timeout?: number) => void;

/**
 * With `negative: true` (or ACCORD_NEGATIVE=1), each scenario's generated invalid requests, declared
 * as tests of their own inside the contract's describe block: `<case> [negative: <mutation>]`.
 * @WIP scenarios, cases that are not run and fault scenarios have none (a fault scenario's request is its
 * operation's, whose negative tests already cover it), nor have scenarios tagged @no-negative (on
 * themselves, their Rule or their Feature): operations that must not be sent again.
 */
function negativeTests(g: Record<string, unknown>, config: () => RunnerConfig, opened: OpenedContract): void {
  const cfg = config();
  // The test file's own `test`: this module may be loaded outside the file's sandbox (once per worker).
  const declare = g.test as Declare | undefined;
  if (!cfg.negative || !declare) return;
  for (const tc of opened.cases) {
    if (tc.notRun !== undefined || tc.scenario.wip || isFaultScenario(tc.scenario) || optsOutOfNegative(tc.scenario)) continue;
    for (const m of [...negativeRequests(tc, cfg.seed), ...(cfg.ws ? securityMutations(tc, cfg.ws, cfg.seed) : [])])
      declare(`${tc.name} [negative: ${m.name}]`, negativeBody(g, tc, m, config, `${opened.contract?.name || 'contract'} ${tc.name} [negative: ${m.name}]`), caseTimeout(cfg));
  }
}

function negativeBody(g: Record<string, unknown>, tc: TestCase, m: Mutation, config: () => RunnerConfig, fullName: string): () => Promise<void> {
  return async () => {
    const cfg = config();
    const line = tc.row?.line ?? tc.scenario.line;
    const setup = settingsProblem(cfg);
    const session = setup === undefined ? sessionFor(cfg) : undefined;
    const record = exchangeRecorder(g, fullName);
    const failure =
      setup ??
      (await withStates(
        tc,
        cfg.ws?.states,
        () =>
          runNegative(tc, m, cfg.baseUrl!, {
            timeoutMs: cfg.timeoutMs,
            dispatcher: session!.dispatcher,
            addHeaders: session!.headers,
            redaction: session!.redaction,
            ws: cfg.ws,
            // Shown in the HTML report like a scenario's exchange: what was sent, what came back.
            onExchange: record && ((x) => record(() => reportExchange({ testCase: tc, passed: false, mismatches: [], ...x }, session!.redaction))),
          }),
        cfg.baseUrl,
      ));
    if (failure !== undefined) throw reportError(failure, tc.scenario.file, line);
  };
}

/**
 * Each consumer's examples of the contract, replayed as tests of the provider's own:
 * `consumer <name> › <example>`. One that no longer fits the contract is skipped with a warning
 * naming the consumer and the file (its owner's to fix); one that fits runs like a scenario, and
 * a wrong answer fails there, at the example file.
 */
function consumerTests(g: Record<string, unknown>, config: () => RunnerConfig, opened: OpenedContract): void {
  const declare = g.test as (Declare & { skip?: Declare }) | undefined;
  if (!opened.contract || !declare) return;
  let cases: ConsumerCase[];
  try {
    cases = consumerCases(opened.contract);
  } catch (e) {
    if (!(e instanceof AccordError)) throw e;
    const err = e;
    declare('consumer examples', async () => {
      throw reportError(`consumer examples cannot be read: ${err.describe()}`, opened.file, 1);
    });
    return;
  }
  const cfg = config();
  // Who owns each replayed example, for the HTML report (the preset's test runner adds how each fared).
  const replayed = (g[CONSUMERS_GLOBAL] ??= []) as ReplayedConsumer[];
  const describeName = opened.contract.name || 'contract';
  // Each replayed example is a test of the scenario it fits, for contract coverage (coverage.ts).
  const outline = g[OUTLINE_GLOBAL] as ContractOutline | undefined;
  const scenarios = opened.contract.scenarios;
  for (const c of cases) {
    const fullName = `${describeName} ${c.title}`;
    replayed.push({
      consumer: c.consumer,
      example: c.name,
      contract: opened.file,
      scenario: c.testCase?.scenario.name ?? '',
      fullName,
      fits: c.testCase !== undefined,
      file: c.file,
      ...(c.testCase === undefined ? { problem: consumerProblem({ ...c, file: shownPath(c.file) }) } : {}),
    });
    if (c.testCase === undefined) {
      if (!cfg.silent) process.stderr.write(printable(`accord: warning: ${consumerProblem({ ...c, file: shownPath(c.file) })}\n`));
      declare.skip?.(c.title, async () => {});
      continue;
    }
    const tc = c.testCase;
    const at = scenarios.findIndex((s) => s === tc.scenario || (s.line === tc.scenario.line && s.name === tc.scenario.name));
    if (outline && !outline.error && at >= 0) (outline.consumers ??= []).push([c.title, at]);
    const given = c.request!;
    const replay = (built: HttpRequest) => replayRequest(given, built, tc.scenario);
    declare(
      c.title,
      async () => {
        const run = config();
        const failure =
          settingsProblem(run) ??
          // A state the consumer's test relied on is never silently left out: without a states module the provider cannot be put in it.
          (c.needsState !== undefined && !run.ws?.states
            ? `it needs the provider in state ${c.needsState} (the state its stub expectation required): give the provider's run a states module (testEnvironmentOptions.accord.states) with a handler of that name`
            : undefined) ??
          (await withStates(tc, run.ws?.states, () => check(tc, run, exchangeRecorder(g, fullName), replay), run.baseUrl));
        if (failure !== undefined) throw reportError(`consumer ${c.consumer}'s example ${shownPath(c.file)} (scenario "${tc.scenario.name}"):\n${failure}`, c.file, 1);
      },
      caseTimeout(cfg),
    );
  }
}

/** The single failing test a contract that does not parse turns into. */
function contractFailure(opened: OpenedContract): () => void {
  return () => {
    const e = opened.error!;
    throw reportError(`contract error:\n${e.describe()}`, e.location.file ?? opened.file, e.location.line ?? 1);
  };
}

async function closeAgent(): Promise<void> {
  const open = [...sessions.values()];
  sessions.clear();
  await Promise.all(open.map((s) => s.close()));
}
