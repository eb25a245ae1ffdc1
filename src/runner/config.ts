/**
 * Where the service under test is and how patient to be with it. ACCORD_* environment
 * variables win over `testEnvironmentOptions.accord` in the Jest config, so CI can
 * point the same suite at another host without editing files.
 */
export interface RunnerConfig {
  baseUrl?: string;
  timeoutMs: number;
  seed: number;
}

export interface RawRunnerOptions {
  baseUrl?: unknown;
  timeoutMs?: unknown;
  seed?: unknown;
}

export const CONFIG_GLOBAL = '__ACCORD_CONFIG__';
export const WIP_GLOBAL = '__ACCORD_WIP__';

export function resolveRunnerConfig(fromJest: RawRunnerOptions | undefined, env: NodeJS.ProcessEnv): RunnerConfig {
  const baseUrl = env.ACCORD_BASE_URL || (typeof fromJest?.baseUrl === 'string' ? fromJest.baseUrl : undefined);
  const timeoutMs = toNumber(env.ACCORD_TIMEOUT_MS) ?? toNumber(fromJest?.timeoutMs) ?? 10_000;
  const seed = toNumber(env.ACCORD_SEED) ?? toNumber(fromJest?.seed) ?? 0;
  return { baseUrl, timeoutMs, seed };
}

function toNumber(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}
