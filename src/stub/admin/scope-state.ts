import { AccordError } from '../../errors';
import { STUB_LIMITS } from '../../limits';
import { ExpectationBudget, Expectations, type Expectation } from './expectations';
import { Journal, JournalRing, type JournalAnswer } from './journal';
import { DispatchMemo } from '../decide/memo';
import type { RouteTable } from '../decide/route';
import { ScenarioStates, StateBudget } from '../decide/scenario-state';
import { Repeat } from '../decide/repeat';

/**
 * What answers and records one scope's requests: the stub's root, or a scope (`/_scope/<id>/…`)
 * with expectations and a journal of its own, so test files sharing one stub (Jest's parallel
 * workers) do not see or reset one another's.
 */
export interface ScopeState {
  readonly expectations: Expectations;
  readonly journal: Journal;
  /** The named state machines of this scope (scenario-state.ts). */
  readonly states: ScenarioStates;
  /** The numbers `{{sequence}}` gives in this scope's templated answers: 1, 2, 3… */
  readonly sequence: Sequence;
  /** The last answer this scope gave, for the same request again (decide/repeat.ts). */
  readonly repeat: Repeat<JournalAnswer, Expectation>;
  /** Checked against the table serving now; see Expectations.add. */
  expect(input: unknown): Expectation;
  /** No expectations, an empty journal, every state machine back to `Started`, `{{sequence}}` back to 1 (of this scope only). */
  reset(): void;
  /** Every machine an expectation, a call or an example file names, and its state (`GET /_accord/states`, `states()`). */
  stateList(): { name: string; state: string }[];
  /** One machine (or every one) back to `Started`; false for a name nothing names (`DELETE /_accord/states/<name>`, `resetState`). */
  resetState(name?: string): boolean;
}

/**
 * The machines example files' state rules name (RouteTable.stateful). A scope learns a name when an
 * expectation sets it or an answer moves it; these are the machine's too from the start, so a fresh
 * scope lists them in `Started` and resets them by name.
 */
function exampleMachines(table: RouteTable): string[] {
  return table.stateful ? table.stateful.map((s) => s.example.state!.name) : [];
}

function listed(states: ScenarioStates, table: RouteTable): { name: string; state: string }[] {
  const names = new Set([...states.list().map((m) => m.name), ...exampleMachines(table)]);
  return [...names].sort().map((name) => ({ name, state: states.stateOf(name) }));
}

function resetIn(states: ScenarioStates, table: RouteTable, name: string | undefined): boolean {
  const named = states.reset(name);
  return named || (name !== undefined && exampleMachines(table).includes(name));
}

/** Registers an expectation in a scope: its state rule counts against the scope's bounds, or it is refused. */
function expectIn(expectations: Expectations, states: ScenarioStates, input: unknown, table: RouteTable): Expectation {
  const e = expectations.add(input, table);
  if (e.state) {
    try {
      states.admit(e.state);
    } catch (err) {
      expectations.remove(e.id);
      throw err;
    }
  }
  return e;
}

/**
 * `{{sequence}}`'s numbers (stub/answer/response-template.ts), one per scope: parallel Jest workers,
 * each in a scope of its own, each see 1, 2, 3…, whatever the others ask.
 */
export class Sequence {
  private last = 0;

  next(): number {
    return ++this.last;
  }

  reset(): void {
    this.last = 0;
  }
}

/** `/_scope/`: a request under it belongs to the scope its next segment names. */
export const SCOPE_PREFIX = '/_scope/';

/** What a running stub holds: the contracts' route table (swapped on reload), the expectations set at run time, the journal. */
export class StubState implements ScopeState {
  readonly expectations: Expectations;
  readonly journal: Journal;
  /** Named state held by the root and every scope together (STUB_LIMITS.stateNames). */
  private readonly stateBudget = new StateBudget();
  readonly states = new ScenarioStates(this.stateBudget);
  readonly sequence = new Sequence();
  readonly repeat = new Repeat<JournalAnswer, Expectation>();

  private serving: { table: RouteTable; memo: DispatchMemo };
  private readonly ring = new JournalRing();
  private readonly budget: ExpectationBudget;
  /** Least recently used first (a Map keeps insertion order; a use moves a scope to the end). */
  private readonly scopes = new Map<string, ScopeState>();

  /** `maxBodyBytes`: the stub's body limit, which bounds each expectation too. */
  constructor(table: RouteTable, maxBodyBytes = Number.MAX_SAFE_INTEGER) {
    this.serving = { table, memo: new DispatchMemo(table) };
    this.budget = new ExpectationBudget(maxBodyBytes);
    this.expectations = new Expectations(this.budget);
    this.journal = new Journal(this.ring);
  }

  get table(): RouteTable {
    return this.serving.table;
  }

  /** A reload: the new table, with a new memo of its choices. */
  set table(table: RouteTable) {
    this.serving = { table, memo: new DispatchMemo(table) };
  }

  /** The memo of this table's choices (a request that arrived before a reload keeps the table it arrived with). */
  memoFor(table: RouteTable): DispatchMemo {
    return this.serving.table === table ? this.serving.memo : new DispatchMemo(table);
  }

  expect(input: unknown): Expectation {
    return expectIn(this.expectations, this.states, input, this.table);
  }

  stateList(): { name: string; state: string }[] {
    return listed(this.states, this.table);
  }

  resetState(name?: string): boolean {
    return resetIn(this.states, this.table, name);
  }

  /** Between tests: no expectations, an empty journal, states back to `Started`, `{{sequence}}` back to 1 (the root's; scopes keep theirs). */
  reset(): void {
    this.expectations.clear();
    this.journal.clear();
    this.states.clear();
    this.sequence.reset();
    this.repeat.clear();
  }

  /**
   * The scope named `id`, made on first use. At most STUB_LIMITS.scopes are kept: the least
   * recently used one with neither expectations nor named state is forgotten to make room for a
   * new one (its journal and `{{sequence}}` go with it). One that has either is a test's, in use:
   * it is never dropped to make room; when every scope has some, a new one is refused
   * (ACCORD_ERR_LIMIT) until one is reset.
   */
  scope(id: string): ScopeState {
    const known = this.scopes.get(id);
    if (known) {
      this.scopes.delete(id);
      this.scopes.set(id, known);
      return known;
    }
    if (!isScopeId(id)) {
      throw new AccordError('ACCORD_ERR_USAGE', `scope id ${JSON.stringify(id.slice(0, 80))} is not 1 to 64 letters, digits, "-" or "_"`);
    }
    if (this.scopes.size >= STUB_LIMITS.scopes) {
      // Any request can make a scope: a flood of them takes only idle ones, never a running test's expectations or state.
      let victim: [string, ScopeState] | undefined;
      for (const entry of this.scopes) {
        if (entry[1].expectations.size === 0 && !entry[1].states.inUse) {
          victim = entry;
          break;
        }
      }
      if (!victim) {
        throw new AccordError(
          'ACCORD_ERR_LIMIT',
          `scope ${JSON.stringify(id)} refused: the stub holds ${STUB_LIMITS.scopes} scopes (STUB_LIMITS.scopes), each with expectations or named state; reset the scopes you are done with (POST /_scope/<id>/_accord/reset, scope.reset())`,
        );
      }
      victim[1].states.clear();
      this.scopes.delete(victim[0]);
    }
    const expectations = new Expectations(this.budget);
    const journal = new Journal(this.ring, id);
    const states = new ScenarioStates(this.stateBudget);
    const sequence = new Sequence();
    const repeat = new Repeat<JournalAnswer, Expectation>();
    const scope: ScopeState = {
      expectations,
      journal,
      states,
      sequence,
      repeat,
      expect: (input) => expectIn(expectations, states, input, this.table),
      reset: () => {
        expectations.clear();
        journal.clear();
        states.clear();
        sequence.reset();
        repeat.clear();
      },
      stateList: () => listed(states, this.table),
      resetState: (name) => resetIn(states, this.table, name),
    };
    this.scopes.set(id, scope);
    return scope;
  }
}

/** 1 to 64 of letters, digits, `-` and `_`: safe in a URL path and in a log line, never `.` or `..`. */
function isScopeId(id: string): boolean {
  if (id.length === 0 || id.length > 64) return false;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95)) return false;
  }
  return true;
}
