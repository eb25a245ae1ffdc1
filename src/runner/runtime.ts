import { Agent } from 'undici';
import type { Contract, TestCase } from '../contract/model';
import { parseContractCached, testCases } from '../contract/load';
import { AccordError, formatLocation } from '../errors';
import { CONFIG_GLOBAL, resolveRunnerConfig, WIP_GLOBAL, type RunnerConfig } from './config';
import { reportError } from './error-display';
import { formatCaseReport, runCase } from './run-case';

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

/** Registers the full test name of a @WIP case, so the environment reports it skipped. */
export function markWip(fullName: string): void {
  const g = globalThis as Record<string, unknown>;
  const set = (g[WIP_GLOBAL] as Set<string> | undefined) ?? new Set<string>();
  g[WIP_GLOBAL] = set;
  set.add(fullName);
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
    if (cfg.problems.length > 0) {
      throw reportError(`accord's settings need fixing before any scenario can run:\n${cfg.problems.map((p) => `  - ${p}`).join('\n')}`, tc.scenario.file, line);
    }
    if (!cfg.baseUrl) {
      throw reportError(
        'accord does not know where the service is: set ACCORD_BASE_URL (e.g. ACCORD_BASE_URL=http://127.0.0.1:8080 npx jest) or testEnvironmentOptions: { accord: { baseUrl } } in the Jest config',
        tc.scenario.file,
        line,
      );
    }
    const result = await runCase(tc, { baseUrl: cfg.baseUrl, timeoutMs: cfg.timeoutMs, seed: cfg.seed, dispatcher: sharedAgent() });
    if (tc.scenario.wip) {
      const verdict = result.passed ? 'it would have PASSED' : `it would have FAILED:\n${formatCaseReport(result, cfg.baseUrl)}`;
      process.stderr.write(`\n[accord] @WIP "${tc.name}" (${formatLocation({ file: tc.scenario.file, line })}) is in progress and skipped; ${verdict}\n`);
    }
    if (!result.passed) throw reportError(formatCaseReport(result, cfg.baseUrl), tc.scenario.file, line);
  };
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
