import { WIP_GLOBAL } from './config';

/*
 * @WIP scenarios run but are reported skipped. Jest has no field for why a test was skipped,
 * and the environment has to clear the test's errors to skip it, so the verdict travels
 * beside Jest: the runtime (inside the test file's sandbox) records it on the sandbox
 * global under the test's full name, the environment marks those tests skipped, and the
 * preset's test runner copies each verdict into the skipped test's `failureMessages`
 * after the file has run. It is there in `jest --json` and for jest-junit's test case
 * properties, and is never part of the file's failure text, so reporters print no
 * failure for it.
 */

/** Full test name → the verdict, once the test has run. */
export type WipVerdicts = Map<string, WipVerdict | undefined>;

export interface WipVerdict {
  passed: boolean;
  /** One message: the scenario, that it is in progress, and what it would have done (with the report when failed). */
  message: string;
}

function registry(global: Record<string, unknown>): WipVerdicts {
  let verdicts = global[WIP_GLOBAL] as WipVerdicts | undefined;
  if (!verdicts) global[WIP_GLOBAL] = verdicts = new Map();
  return verdicts;
}

/** Called as a @WIP test starts, so the environment skips it however it ends. */
export function markWip(global: Record<string, unknown>, fullName: string): void {
  registry(global).set(fullName, undefined);
}

export function recordWipVerdict(global: Record<string, unknown>, fullName: string, verdict: WipVerdict): void {
  registry(global).set(fullName, verdict);
}

export function isWip(global: Record<string, unknown>, fullName: string): boolean {
  const verdicts = global[WIP_GLOBAL] as WipVerdicts | undefined;
  return verdicts !== undefined && verdicts.has(fullName);
}

interface AssertionResult {
  fullName: string;
  status: string;
  failureMessages: string[];
  failureDetails: unknown[];
}

/** Puts each recorded verdict on its skipped test in a file's results (the TestResult Jest's runner returns). */
export function attachWipVerdicts(result: { testResults?: AssertionResult[] }, global: Record<string, unknown>): void {
  const verdicts = global[WIP_GLOBAL] as WipVerdicts | undefined;
  if (!verdicts || verdicts.size === 0 || !result.testResults) return;
  for (const test of result.testResults) {
    const verdict = verdicts.get(test.fullName);
    if (!verdict || test.status !== 'pending') continue;
    test.failureMessages = [verdict.message];
    test.failureDetails = [{ message: verdict.message, wip: true, wouldHavePassed: verdict.passed }];
  }
}

/**
 * jest-junit test case properties for a skipped @WIP test (jest-junit writes `<skipped/>` with no
 * message and offers no other place): `accord.wip` is "would have PASSED" or "would have FAILED",
 * `accord.wip.report` the whole verdict.
 */
export function wipJunitProperties(test: { status?: string; failureDetails?: unknown[]; failureMessages?: string[] }): Record<string, string> {
  const detail = test.failureDetails?.[0] as { wip?: boolean; wouldHavePassed?: boolean } | undefined;
  if (test.status !== 'pending' || !detail?.wip) return {};
  return { 'accord.wip': detail.wouldHavePassed ? 'would have PASSED' : 'would have FAILED', 'accord.wip.report': test.failureMessages?.[0] ?? '' };
}
