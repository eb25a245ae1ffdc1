import { Agent } from 'undici';
import type { Contract, TestCase } from '../contract/model';
import { parseContractCached, testCases } from '../contract/load';
import { AccordError, formatLocation } from '../errors';
import { printable } from '../printable';
import { CONFIG_GLOBAL, resolveRunnerConfig, type RunnerConfig } from './config';
import { reportError } from './error-display';
import { formatCaseReport, runCase } from './run-case';
import { markWip, recordWipVerdict } from './wip';

/**
 * Loaded by the code the transformer writes for each .spec file, inside Jest's
 * sandbox. Parsing is repeated here (it is cheap) so the model never has to be
 * serialised into the generated code.
 */
export interface OpenedContract {
  file: string;
  contract?: Contract;
  cases: TestCase[];
  error?: AccordError;
}

let agent: Agent | undefined;

function sharedAgent(): Agent {
  agent ??= new Agent({ keepAliveTimeout: 2_000, connections: 16 });
  return agent;
}

export function open(file: string, source: string): OpenedContract {
  try {
    const contract = parseContractCached(source, file);
    return { file, contract, cases: testCases(contract) };
  } catch (e) {
    if (e instanceof AccordError) return { file, cases: [], error: e };
    throw e;
  }
}

function config(): RunnerConfig {
  const g = globalThis as Record<string, unknown>;
  return (g[CONFIG_GLOBAL] as RunnerConfig | undefined) ?? resolveRunnerConfig(undefined, process.env);
}

export function timeout(): number {
  return config().timeoutMs + 5_000;
}

/** The function Jest runs for one case. */
export function body(opened: OpenedContract, index: number): () => Promise<void> {
  return async () => {
    const tc = opened.cases[index];
    const cfg = config();
    const line = tc.row?.line ?? tc.scenario.line;
    const g = globalThis as Record<string, unknown>;
    // The name Jest gives the test: the describe block (the Feature) and the case.
    const fullName = `${opened.contract?.name || 'contract'} ${tc.name}`;
    if (tc.scenario.wip) markWip(g, fullName);
    const failure = await check(tc, cfg);
    if (tc.scenario.wip) {
      const where = formatLocation({ file: tc.scenario.file, line });
      const message = printable(`@WIP "${tc.name}" (${where}) is in progress and skipped; ${failure === undefined ? 'it would have PASSED' : `it would have FAILED:\n${failure}`}`);
      recordWipVerdict(g, fullName, { passed: failure === undefined, message });
      // Jest's --silent keeps a test file from printing; this copy is for people, the verdict is in the results too.
      if (!cfg.silent) process.stderr.write(`\n[accord] ${message}\n`);
    }
    if (failure !== undefined) throw reportError(failure, tc.scenario.file, line);
  };
}

/** What is wrong with one case, as the report a user reads; undefined when it passed. */
async function check(tc: TestCase, cfg: RunnerConfig): Promise<string | undefined> {
  if (cfg.problems.length > 0) return `accord's settings need fixing before any scenario can run:\n${cfg.problems.map((p) => `  - ${p}`).join('\n')}`;
  if (!cfg.baseUrl) {
    return 'accord does not know where the service is: set ACCORD_BASE_URL (e.g. ACCORD_BASE_URL=http://127.0.0.1:8080 npx jest) or testEnvironmentOptions: { accord: { baseUrl } } in the Jest config';
  }
  const result = await runCase(tc, { baseUrl: cfg.baseUrl, timeoutMs: cfg.timeoutMs, seed: cfg.seed, dispatcher: sharedAgent() });
  return result.passed ? undefined : formatCaseReport(result, cfg.baseUrl);
}

/** The single failing test a contract that does not parse turns into. */
export function contractFailure(opened: OpenedContract): () => void {
  return () => {
    const e = opened.error!;
    throw reportError(`contract error:\n${e.describe()}`, e.location.file ?? opened.file, e.location.line ?? 1);
  };
}

export async function closeAgent(): Promise<void> {
  const a = agent;
  agent = undefined;
  if (a) await a.close();
}
