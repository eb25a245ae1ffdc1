import path from 'node:path';
import { formatLocation } from '../errors';
import type { ScenarioFact, TestCase } from '../contract/model';

/**
 * Provider states: the legacy format's `Given fact userId 10` and `fixture cleanDatabase` steps,
 * acted on. The Jest config names a module (`testEnvironmentOptions.accord.states`) exporting one
 * handler per fact name:
 *
 *   module.exports = {
 *     userId: async (value, scenario) => { await db.insertUser(value); return () => db.deleteUser(value); },
 *   };
 *
 * Before a case runs each of its facts' handlers is called in order with the fact's value (a
 * string, or undefined) and `{ name, file, facts, baseUrl }`; what a handler gives back, when it is a
 * function, is called after the case (last set up, first torn down), pass or fail. A fact with no
 * handler fails the case saying so. Without a states module, facts are read and ignored, as before.
 */
export type StateHandler = (value: string | undefined, scenario: StateContext) => unknown;

/** What a handler is told besides the fact's value: the scenario, all its facts, and the base URL of the provider the case is sent to. */
export interface StateContext {
  name: string;
  file: string;
  facts: Record<string, string | undefined>;
  /** The base URL this run sends to (the chosen environment's, or ACCORD_BASE_URL), so a handler reaches the same provider. */
  baseUrl: string | undefined;
}

const loaded = new Map<string, Record<string, unknown> | Error>();

function load(file: string): Record<string, unknown> | Error {
  let mod = loaded.get(file);
  if (mod === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the user's module, named in the Jest config
      const exported = require(file) as unknown;
      const value = exported && typeof exported === 'object' && 'default' in exported && Object.keys(exported).length === 1 ? (exported as { default: unknown }).default : exported;
      mod = value && typeof value === 'object' ? (value as Record<string, unknown>) : new Error('it does not export an object of handlers, one per fact name');
    } catch (e) {
      mod = e instanceof Error ? e : new Error(String(e));
    }
    loaded.set(file, mod);
  }
  return mod;
}

function shown(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel.startsWith('..') ? file : `./${rel}`;
}

function describeFact(f: ScenarioFact, tc: TestCase): string {
  const file = path.isAbsolute(tc.scenario.file) ? shown(tc.scenario.file).replace(/^\.\//, '') : tc.scenario.file;
  return `${f.kind} "${f.name}"${f.value === undefined ? '' : ` = ${JSON.stringify(f.value)}`} (${formatLocation({ file, line: f.line })})`;
}

/**
 * Runs `run` with the case's facts set up, and torn down after; the failure text, or undefined.
 * A case without facts, or with no states module configured, just runs.
 */
export async function withStates(tc: TestCase, statesFile: string | undefined, run: () => Promise<string | undefined>, baseUrl?: string): Promise<string | undefined> {
  const facts = tc.scenario.facts ?? [];
  if (!statesFile || facts.length === 0) return run();
  const mod = load(statesFile);
  if (mod instanceof Error) return `cannot load the provider states module ${shown(statesFile)}: ${mod.message}`;
  const missing = facts.filter((f) => typeof mod[f.name] !== 'function');
  if (missing.length > 0) {
    const known = Object.keys(mod).filter((k) => typeof mod[k] === 'function');
    return (
      `no handler in ${shown(statesFile)} for ${missing.map((f) => describeFact(f, tc)).join(', ')}: ` +
      `export a function of that name (it has ${known.length > 0 ? known.map((k) => JSON.stringify(k)).join(', ') : 'none'})`
    );
  }
  const all: Record<string, string | undefined> = {};
  for (const f of facts) all[f.name] = f.value;
  const info: StateContext = { name: tc.name, file: tc.scenario.file, facts: all, baseUrl };
  const teardowns: { fact: ScenarioFact; fn: () => unknown }[] = [];
  let failure: string | undefined;
  try {
    for (const f of facts) {
      let back: unknown;
      try {
        back = await (mod[f.name] as StateHandler)(f.value, info);
      } catch (e) {
        failure = `setting up ${describeFact(f, tc)} failed: ${e instanceof Error ? e.message : String(e)}`;
        break;
      }
      if (typeof back === 'function') teardowns.push({ fact: f, fn: back as () => unknown });
    }
    if (failure === undefined) failure = await run();
  } finally {
    for (const t of teardowns.reverse()) {
      try {
        await t.fn();
      } catch (e) {
        const why = `tearing down ${describeFact(t.fact, tc)} failed: ${e instanceof Error ? e.message : String(e)}`;
        failure = failure === undefined ? why : `${failure}\n${why}`;
      }
    }
  }
  return failure;
}
