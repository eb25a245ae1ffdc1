import type { Scenario } from '../../contract/model';
import type { HttpRequest } from '../../http/message';
import type { FaultKind } from '../answer/faults';
import type { PresentedCertificate } from '../client-certificates';

/** Where a scenario is written, as reports and the journal name it. */
export interface ScenarioRef {
  name: string;
  file: string;
  line: number;
}

/** One frozen reference per scenario: the journal names a scenario in every entry. */
const refs = new WeakMap<Scenario, ScenarioRef>();

export function refOf(s: Scenario): ScenarioRef {
  let ref = refs.get(s);
  if (!ref) refs.set(s, (ref = Object.freeze({ name: s.name, file: s.file, line: s.line })));
  return ref;
}

/**
 * Every request the stub answered, with what answered it, for a consumer's test
 * to verify what its client sent. A ring buffer: the newest STUB_LIMITS.journalEntries
 * are kept (of every scope together), each body cut at STUB_LIMITS.journalBodyChars.
 */
export interface JournalEntry {
  /** 1 for the first request since the stub started (or the journal was cleared). */
  seq: number;
  /** When the request was answered, in milliseconds since 1970 (Date.now()). */
  time: number;
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body: string;
  /** The body was longer than the journal keeps; `body` is its start. */
  bodyCut?: true;
  /** The status sent; undefined when a fault sent none. */
  status?: number;
  /**
   * `expectation`, `example` (an example file or Examples row), `scenario` (a generated answer), `pass-through` (the real
   * service's answer, `--passthrough`), or `none` (4xx from the stub).
   */
  answeredBy: 'expectation' | 'example' | 'scenario' | 'pass-through' | 'none';
  expectation?: string;
  /** With `answeredBy: 'example'`: which one, the example file (as its path is shown at start) or `<contract>:<line>` of the Examples row. */
  example?: string;
  /** The expectation's response is a template (`{{…}}`): this answer holds values of this request. */
  templated?: true;
  scenario?: ScenarioRef;
  fault?: FaultKind;
  /**
   * Why nothing answered: the stub's 400/404/405 report; why a templated answer could not be given (its 500); for a
   * pass-through, the drift line or why the service gave no answer (502, 504).
   */
  report?: string;
  /**
   * Named state: the machine the answering expectation (or example) required or moved, its state
   * when the request came (`was`) and after (`now`); for a 409, the state the request waited for.
   */
  state?: { name: string; requires?: string; was: string; now: string };
  /**
   * Pass-through only: how the real service's answer breaks the contract (at most 50 mismatches), against the scenario
   * the request fits. Absent when it keeps it.
   */
  drift?: { path: string; expected: string; actual: string }[];
  /** The scope it was sent to (`/_scope/<id>/…`, the prefix left out of `path`); absent for the stub's root. */
  scope?: string;
  /**
   * With client certificates asked for (`--tls-client-ca`): the one the client presented (its subject, issuer and
   * SHA-256 fingerprint), or null for none (`--tls-client-optional`). Absent when the stub does not ask.
   */
  clientCertificate?: PresentedCertificate | null;
}

/** A request as the journal records it: with the client certificate its connection presented, when asked for. */
export type JournalRequest = HttpRequest & { clientCertificate?: PresentedCertificate | null };

/** What the journal records of an answer (the rest of an entry is the request's). */
export type JournalAnswer = Omit<JournalEntry, 'seq' | 'time' | 'method' | 'path' | 'query' | 'headers' | 'body' | 'clientCertificate'>;
