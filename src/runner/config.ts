import { closest } from '../suggest';

/**
 * Where the service under test is and how patient to be with it. ACCORD_* environment
 * variables win over `testEnvironmentOptions.accord` in the Jest config, so CI can
 * point the same suite at another host without editing files.
 *
 * Nothing wrong is ignored silently: a misspelt option (with a did-you-mean), a
 * base URL that is not http(s), a time-out or seed that is not a number all
 * become `problems`, and every test then fails with them instead of running
 * against defaults the user did not choose.
 */
export interface RunnerConfig {
  baseUrl?: string;
  timeoutMs: number;
  seed: number;
  /** What is wrong with the settings, worded for the user; tests fail with these when any. */
  problems: string[];
  /** Jest's --silent: accord prints nothing of its own (results still carry everything). */
  silent?: boolean;
  /** Also send generated invalid requests, each expected to be rejected (negative.ts). */
  negative: boolean;
}

export interface RawRunnerOptions {
  baseUrl?: unknown;
  timeoutMs?: unknown;
  seed?: unknown;
  negative?: unknown;
}

export const CONFIG_GLOBAL = '__ACCORD_CONFIG__';
export const WIP_GLOBAL = '__ACCORD_WIP__';
/** The runtime the preset's environment hands each test file (src/runner/runtime.ts). */
export const RUNTIME_GLOBAL = '__ACCORD_RUNTIME__';
/** The outline of the contract a test file opened, for the coverage reporter (src/runner/coverage.ts). */
export const OUTLINE_GLOBAL = '__ACCORD_OUTLINE__';

const WHERE = 'testEnvironmentOptions.accord';
// coverageThreshold, coverageFile and wsdl are read by the preset's coverage reporter (coverage.ts).
const OPTIONS = ['baseUrl', 'timeoutMs', 'seed', 'negative', 'coverageThreshold', 'coverageFile', 'wsdl'] as const;
const DEFAULT_TIMEOUT_MS = 10_000;

export function resolveRunnerConfig(fromJest: unknown, env: NodeJS.ProcessEnv): RunnerConfig {
  const problems: string[] = [];
  let options: RawRunnerOptions = {};
  if (fromJest !== undefined && fromJest !== null) {
    if (typeof fromJest !== 'object' || Array.isArray(fromJest))
      problems.push(`${WHERE} must be an object such as { baseUrl: 'http://127.0.0.1:8080' }, found ${JSON.stringify(fromJest)}`);
    else {
      options = fromJest as RawRunnerOptions;
      for (const key of Object.keys(options)) {
        if ((OPTIONS as readonly string[]).includes(key)) continue;
        const near = closest(key, OPTIONS);
        problems.push(`unknown option "${key}" in ${WHERE}${near ? ` (did you mean "${near}"?)` : ''}; the options are ${OPTIONS.join(', ')}`);
      }
    }
  }
  const pick = (variable: string, option: keyof RawRunnerOptions): { value: unknown; from: string } | undefined => {
    if (env[variable] !== undefined && env[variable] !== '') return { value: env[variable], from: variable };
    if (options[option] !== undefined) return { value: options[option], from: `${WHERE}.${option}` };
    return undefined;
  };

  const base = pick('ACCORD_BASE_URL', 'baseUrl');
  let baseUrl: string | undefined;
  if (base) {
    if (typeof base.value === 'string' && isHttpUrl(base.value)) baseUrl = base.value;
    else problems.push(`${base.from} must be an http:// or https:// URL such as http://127.0.0.1:8080, found ${JSON.stringify(base.value)}`);
  }
  const timeoutMs = number(pick('ACCORD_TIMEOUT_MS', 'timeoutMs'), 'a number of milliseconds above 0', (n) => n > 0, problems) ?? DEFAULT_TIMEOUT_MS;
  const seed = number(pick('ACCORD_SEED', 'seed'), 'a whole number', (n) => Number.isSafeInteger(n), problems) ?? 0;
  const negative = flag(pick('ACCORD_NEGATIVE', 'negative'), problems);
  return { baseUrl, timeoutMs, seed, negative, problems };
}

function number(given: { value: unknown; from: string } | undefined, what: string, ok: (n: number) => boolean, problems: string[]): number | undefined {
  if (!given) return undefined;
  const n = typeof given.value === 'number' ? given.value : typeof given.value === 'string' && given.value.trim() !== '' ? Number(given.value) : NaN;
  if (Number.isFinite(n) && ok(n)) return n;
  problems.push(`${given.from} must be ${what}, found ${JSON.stringify(given.value)}`);
  return undefined;
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** true/false, or 1/0 and true/false in an environment variable. */
function flag(given: { value: unknown; from: string } | undefined, problems: string[]): boolean {
  if (!given) return false;
  const v = given.value;
  if (v === true || v === 'true' || v === '1') return true;
  if (v === false || v === 'false' || v === '0') return false;
  problems.push(`${given.from} must be true or false (1 or 0), found ${JSON.stringify(v)}`);
  return false;
}
