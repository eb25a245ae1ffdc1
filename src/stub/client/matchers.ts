import { excerpt } from '../../printable';
import { nodeValuesOf } from '../admin/body-filter';
import { selected, type CallFilter, type JournalEntry } from '../admin/journal';

/**
 * Jest matchers over a stub's request journal, for consumer tests:
 *   expect(stub).toHaveReceived({ method: 'POST', path: '/ws', scenario: 'Get a pet by id' }, 2)
 *   expect(stub).toHaveNoUnmatchedRequests()
 * `stub` is a RunningStub (in-process: the matcher is synchronous) or a StubClient from
 * connectStub(url) (over HTTP: await the matcher). Installed with
 * `expect.extend(accordMatchers)`, or by listing `accord-contracts/jest-matchers` in
 * `setupFilesAfterEnv`.
 */

/** An exact count, or bounds. Left out: at least one. */
export type CallCount = number | { atLeast?: number; atMost?: number };

interface HasCalls {
  calls(filter?: CallFilter): JournalEntry[] | Promise<JournalEntry[]>;
}

interface MatcherResult {
  pass: boolean;
  message: () => string;
}

interface MatcherContext {
  isNot?: boolean;
}

/** Requests listed in a failure message; the journal may hold a thousand. */
const LISTED = 10;
/** Characters of each listed request's body: enough to see which value arrived. */
const BODY_SHOWN = 300;

export const accordMatchers = {
  toHaveReceived(this: MatcherContext, stub: unknown, filter: CallFilter = {}, count?: CallCount): MatcherResult | Promise<MatcherResult> {
    return withCalls(stub, 'toHaveReceived', (all) => {
      const matching = all.filter((e) => selected(e, filter));
      const pass = counts(matching.length, count);
      const want = describeCount(count);
      return {
        pass,
        message: () =>
          [
            `expected the stub ${pass ? 'not ' : ''}to have received ${want} matching ${JSON.stringify(filter)}, it received ${matching.length}.`,
            ...listing('Requests received', all, filter),
            ...nearMisses(all, matching),
          ].join('\n'),
      };
    });
  },

  toHaveNoUnmatchedRequests(this: MatcherContext, stub: unknown): MatcherResult | Promise<MatcherResult> {
    return withCalls(stub, 'toHaveNoUnmatchedRequests', (all) => {
      const unmatched = all.filter((e) => e.answeredBy === 'none');
      return {
        pass: unmatched.length === 0,
        message: () =>
          unmatched.length === 0
            ? 'expected the stub to have received requests nothing answered, every request was answered.'
            : [`expected every request to be answered; ${unmatched.length} got the stub's error:`, ...unmatched.slice(0, 3).map(showUnmatched)].join('\n'),
      };
    });
  },
};

function withCalls(stub: unknown, name: string, judge: (all: JournalEntry[]) => MatcherResult): MatcherResult | Promise<MatcherResult> {
  if (typeof stub !== 'object' || stub === null || typeof (stub as HasCalls).calls !== 'function') {
    return { pass: false, message: () => `${name}: expected a RunningStub (startStub) or a StubClient (connectStub), found ${typeof stub}` };
  }
  const all = (stub as HasCalls).calls();
  return Array.isArray(all) ? judge(all) : all.then(judge);
}

function counts(n: number, c: CallCount | undefined): boolean {
  if (c === undefined) return n >= 1;
  if (typeof c === 'number') return n === c;
  return n >= (c.atLeast ?? 0) && n <= (c.atMost ?? Infinity);
}

function describeCount(c: CallCount | undefined): string {
  if (c === undefined) return 'at least 1 request';
  if (typeof c === 'number') return `${c} request${c === 1 ? '' : 's'}`;
  if (c.atMost === undefined) return `at least ${c.atLeast ?? 0} requests`;
  return c.atLeast === undefined ? `at most ${c.atMost} requests` : `${c.atLeast} to ${c.atMost} requests`;
}

function listing(title: string, all: JournalEntry[], filter: CallFilter = {}): string[] {
  if (all.length === 0) return ['The stub received no request.'];
  const shown = all.slice(-LISTED).flatMap((e) => [`  ${e.method} ${e.path} -> ${e.status ?? e.fault} ${answerer(e)}`, ...details(e, filter)]);
  return [`${title}${all.length > LISTED ? ` (the last ${LISTED} of ${all.length})` : ''}:`, ...shown];
}

/**
 * Under each request: the values of the nodes the filter names (`getBook/isbn: "8"`), and the start of
 * its body on one line (whitespace between tags dropped), printable, so a test that expected isbn 9
 * shows that 8 arrived.
 */
function details(e: JournalEntry, filter: CallFilter): string[] {
  const out: string[] = [];
  for (const p of Object.keys(filter.nodes ?? {})) {
    const values = nodeValuesOf(e, p);
    out.push(
      `      ${excerpt(p, 80)}: ${
        values.length === 0
          ? 'not there'
          : values
              .slice(0, 3)
              .map((v) => JSON.stringify(excerpt(v, 60)))
              .join(', ')
      }`,
    );
  }
  if (e.body !== '') {
    const flat = oneLine(e.body);
    out.push(`      body: ${excerpt(flat, BODY_SHOWN)}${e.bodyCut ? ' (cut by the journal)' : ''}`);
  }
  return out;
}

/** When nothing matched, the stub's own report for requests it could not answer says why. */
function nearMisses(all: JournalEntry[], matching: JournalEntry[]): string[] {
  if (matching.length > 0) return [];
  const unmatched = all.filter((e) => e.answeredBy === 'none');
  return unmatched.length === 0 ? [] : ['', 'Requests nothing answered, and why:', ...unmatched.slice(-3).map(showUnmatched)];
}

function showUnmatched(e: JournalEntry): string {
  return `  ${e.method} ${e.path} -> ${e.status}\n${(e.report ?? '')
    .trimEnd()
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}`;
}

/** Runs of white space as one space, and none between a tag's end and the next tag. */
function oneLine(text: string): string {
  let out = '';
  let space = false;
  for (const c of text) {
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') {
      space = true;
      continue;
    }
    if (space && out !== '' && !(out.endsWith('>') && c === '<')) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

function answerer(e: JournalEntry): string {
  if (e.answeredBy === 'expectation') return `by expectation ${e.expectation} ("${e.scenario?.name}")`;
  if (e.answeredBy === 'none') return '(no answer from the contract)';
  return `by ${e.answeredBy} "${e.scenario?.name}"`;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Jest's own typings are a global namespace
  namespace jest {
    interface Matchers<R> {
      /** The stub received requests matching `filter`: `count` of them (a number, or `{ atLeast, atMost }`); left out, at least one. */
      toHaveReceived(filter?: CallFilter, count?: CallCount): R;
      /** Every request the stub received was answered (none got the stub's 400/404/405). */
      toHaveNoUnmatchedRequests(): R;
    }
  }
}
