import { STUB_LIMITS } from '../../limits';
import { isObject } from './fit-example';

/**
 * Named state across calls, like WireMock's scenario states: an expectation (or example file) may
 * require a state machine of its scope to be in a state (`requires`) and move it to another when
 * it answers (`becomes`). Every machine starts in INITIAL_STATE; a scope's reset puts all of them
 * back. No scripting: a machine is a name and its current state, nothing more.
 */
export const INITIAL_STATE = 'Started';

/** What `state: {...}` of an expectation or an example file says. */
export interface StateRule {
  /** The state machine (one per name and scope). */
  name: string;
  /** Answer only while the machine is in this state; left out: in any state. */
  requires?: string;
  /** After answering, the machine is in this state; left out: it stays where it is. */
  becomes?: string;
}

/** What an answer did to a machine, as the journal records it. */
export interface StateStep {
  name: string;
  /** The state the answer required; absent when it answered in any. */
  requires?: string;
  /** The machine's state when the request came. */
  was: string;
  /** The machine's state after it was answered. */
  now: string;
}

/** A rule read strictly; `bad` makes the error (with what the caller adds about where). */
export function readStateRule(v: unknown, bad: (message: string) => Error): StateRule {
  const shape = '{"name", "requires"?, "becomes"?}';
  if (!isObject(v)) throw bad(`has a "state" that is not an object ${shape}`);
  const unknown = Object.keys(v).filter((k) => k !== 'name' && k !== 'requires' && k !== 'becomes');
  if (unknown.length > 0) throw bad(`has a "state" with unknown keys ${unknown.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')} (expected ${shape})`);
  const named = (x: unknown, what: string) => stateName(x, what, (problem) => bad(`has a "state" whose ${problem}`));
  const rule: StateRule = { name: named(v.name, '"name"') };
  if (v.requires !== undefined) rule.requires = named(v.requires, '"requires"');
  if (v.becomes !== undefined) rule.becomes = named(v.becomes, '"becomes"');
  if (rule.requires === undefined && rule.becomes === undefined) throw bad('has a "state" with neither "requires" nor "becomes" (it would change nothing)');
  return rule;
}

/**
 * A machine or state name: 1 to STUB_LIMITS.stateNameChars letters, digits, spaces and `-_.:`,
 * not starting or ending with a space. Safe in a URL path segment (encoded), a log line and a
 * report; never a control character.
 */
export function stateName(v: unknown, what: string, bad: (problem: string) => Error): string {
  if (typeof v !== 'string' || !isStateName(v)) {
    const shown = typeof v === 'string' ? ` (was ${JSON.stringify(v.slice(0, STUB_LIMITS.stateNameChars))}${v.length > STUB_LIMITS.stateNameChars ? '…' : ''})` : '';
    throw bad(`${what} is not 1 to ${STUB_LIMITS.stateNameChars} letters, digits, spaces, "-", "_", ".", ":"${shown}`);
  }
  return v;
}

function isStateName(s: string): boolean {
  if (s.length === 0 || s.length > STUB_LIMITS.stateNameChars || s.charCodeAt(0) === 32 || s.charCodeAt(s.length - 1) === 32) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ok = (c >= 48 && c <= 58) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 32 || c === 45 || c === 46 || c === 95;
    if (!ok) return false;
  }
  return true;
}
