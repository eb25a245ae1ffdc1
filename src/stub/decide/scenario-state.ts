import { AccordError } from '../../errors';
import { STUB_LIMITS } from '../../limits';
import { INITIAL_STATE, type StateRule, type StateStep } from '../answer/state-rule';
import type { FixedExample } from '../answer/example-files';
import type { ParsedBody } from '../../http/body';
import type { HttpRequest } from '../../http/message';
import { matchRequest, splitPath } from '../../http/match-request';

/**
 * The state machines of one scope: each one's current state, and the names known (from the
 * rules registered, or a state set through the API), bounded by STUB_LIMITS.stateMachines and
 * STUB_LIMITS.statesPerMachine until the scope is reset.
 */
export class ScenarioStates {
  private readonly current = new Map<string, string>();
  /** Machine → the states its rules name (INITIAL_STATE always among them). */
  private readonly known = new Map<string, Set<string>>();
  /** The names this scope holds of the budget (each machine and each of its states). */
  private held = 0;

  /** `budget`: shared by every scope of one stub (STUB_LIMITS.stateNames). */
  constructor(private readonly budget = new StateBudget()) {}

  /** Whether any machine is known or was moved here: a scope with state is not forgotten (scope-state.ts). */
  get inUse(): boolean {
    return this.known.size > 0 || this.current.size > 0;
  }

  /** How many machines are known (0: nothing stateful in this scope, and no look-up is needed). */
  get size(): number {
    return this.known.size;
  }

  /** Counts the names a rule brings against the bounds; an AccordError (ACCORD_ERR_LIMIT) past them, with nothing counted. */
  admit(rule: StateRule): void {
    this.learn(rule.name, [rule.requires, rule.becomes]);
  }

  stateOf(name: string): string {
    return this.current.get(name) ?? INITIAL_STATE;
  }

  /** Whether a rule lets its expectation answer now (no rule, or no `requires`: always). */
  allows(rule: StateRule | undefined): boolean {
    return rule === undefined || rule.requires === undefined || this.stateOf(rule.name) === rule.requires;
  }

  /** An answer given under a rule: the machine moves to `becomes`; what happened, for the journal. */
  step(rule: StateRule): StateStep {
    const was = this.stateOf(rule.name);
    const now = rule.becomes ?? was;
    // Set even when unchanged: a machine only example files name is listed once one has answered.
    this.current.set(rule.name, now);
    return { name: rule.name, requires: rule.requires, was, now };
  }

  /** Puts one machine in a state (PUT /_accord/states/<name>, `setState`). */
  set(name: string, state: string): void {
    this.learn(name, [state]);
    this.current.set(name, state);
  }

  /** Back to INITIAL_STATE: one machine (false when no rule, call or answer named it), or every one. */
  reset(name?: string): boolean {
    if (name === undefined) {
      this.current.clear();
      return true;
    }
    const named = this.known.has(name) || this.current.has(name);
    this.current.delete(name);
    return named;
  }

  /** Every machine forgotten, with the names counted against the bounds (a scope's reset, where its expectations go too). */
  clear(): void {
    this.current.clear();
    this.known.clear();
    this.budget.names -= this.held;
    this.held = 0;
  }

  /** Every known machine (or moved by an example file's answer) and its state, by name. */
  list(): { name: string; state: string }[] {
    return [...new Set([...this.known.keys(), ...this.current.keys()])].sort().map((name) => ({ name, state: this.stateOf(name) }));
  }

  private learn(name: string, states: (string | undefined)[]): void {
    let names = this.known.get(name);
    if (!names && this.known.size >= STUB_LIMITS.stateMachines) {
      throw new AccordError('ACCORD_ERR_LIMIT', `state refused: this scope has ${STUB_LIMITS.stateMachines} state machines already (reset it, or use a scope per test file)`);
    }
    const fresh = states.filter((s): s is string => s !== undefined && !(names?.has(s) ?? s === INITIAL_STATE));
    const count = (names?.size ?? 1) + new Set(fresh).size;
    if (count > STUB_LIMITS.statesPerMachine) {
      throw new AccordError('ACCORD_ERR_LIMIT', `state refused: the state machine ${JSON.stringify(name)} would have more than ${STUB_LIMITS.statesPerMachine} states`);
    }
    // A new machine holds its name and Started; each new state its name.
    const adds = (names ? 0 : 2) + new Set(fresh).size;
    if (this.budget.names + adds > STUB_LIMITS.stateNames) {
      throw new AccordError(
        'ACCORD_ERR_LIMIT',
        `state refused: the stub's scopes hold ${STUB_LIMITS.stateNames} machine and state names together already (STUB_LIMITS.stateNames); reset the scopes you are done with`,
      );
    }
    this.budget.names += adds;
    this.held += adds;
    if (!names) this.known.set(name, (names = new Set([INITIAL_STATE])));
    for (const s of fresh) names.add(s);
  }
}

/** The machine and state names every scope of one stub holds together, against STUB_LIMITS.stateNames. */
export class StateBudget {
  names = 0;
}

/**
 * Whether `target` of machine `name` can still be reached from the state it is in, following the
 * rules registered (of expectations still answering, and example files): the states a chain of
 * answers can move it to. Without this a request waiting for a state nothing moves to would be
 * answered from the contract forever, and the test would fail far from its cause.
 */
export function reachable(name: string, from: string, target: string, rules: Iterable<StateRule>): boolean {
  if (from === target) return true;
  const moves: StateRule[] = [];
  for (const r of rules) if (r.name === name && r.becomes !== undefined) moves.push(r);
  const seen = new Set([from]);
  const todo = [from];
  while (todo.length > 0) {
    const s = todo.pop()!;
    for (const r of moves) {
      if ((r.requires === undefined || r.requires === s) && !seen.has(r.becomes!)) {
        if (r.becomes === target) return true;
        seen.add(r.becomes!);
        todo.push(r.becomes!);
      }
    }
  }
  return false;
}

/** What has a state rule: an expectation (expectations.ts). */
export interface Stateful {
  id: string;
  state?: StateRule;
}

/**
 * Which expectations the scope's state lets answer; those that fit a request but wait for
 * another state are put in `waiting`, for the stub to say why none answered.
 */
export interface StateFilter<T extends Stateful> {
  allows(e: T): boolean;
  waiting: T[];
}

/** What Expectations.take asks of a scope's states: which expectations may answer now. */
export function stateFilter<T extends Stateful>(states: ScenarioStates): StateFilter<T> {
  return { allows: (e) => states.allows(e.state), waiting: [] };
}

/**
 * When expectations fit a request but wait for states their machines can no longer reach (see
 * reachable): the one-line report the stub answers (409) and journals, and the machine's state.
 * Undefined when one of them may still be reached: the request is answered as if they were not
 * set (from examples or the contract), as before any state is reached.
 */
export function stuckReport(line: string, waiting: readonly Stateful[], states: ScenarioStates, rules: readonly StateRule[]): { report: string; step: StateStep } | undefined {
  for (const e of waiting) {
    const r = e.state!;
    if (reachable(r.name, states.stateOf(r.name), r.requires!, rules)) return undefined;
  }
  const first = waiting[0].state!;
  const now = states.stateOf(first.name);
  const report =
    `accord stub: no expectation answers ${line} in the state it is in: ${waiting[0].id} waits for state ${JSON.stringify(first.requires)} of ${JSON.stringify(first.name)}, ` +
    `which is ${JSON.stringify(now)}, and no expectation or example moves it there (set one with "state": {"name": ${JSON.stringify(first.name)}, "becomes": ${JSON.stringify(first.requires)}}, or reset the states)\n`;
  return { report, step: { name: first.name, requires: first.requires, was: now, now } };
}

/**
 * The first example file with a state rule that takes the request in the scope's present state
 * (RouteTable.stateful); undefined when none does.
 */
export function statefulExample<T extends { example: FixedExample }>(list: readonly T[], req: HttpRequest, body: ParsedBody, states: ScenarioStates): T | undefined {
  const segments = splitPath(req.path);
  for (const x of list) {
    if (!states.allows(x.example.state)) continue;
    const m = matchRequest(x.example.scenario, req, body, segments, 1);
    if (m.endpoint && m.mismatches.length === 0) return x;
  }
  return undefined;
}
