import type { HttpRequest } from '../../http/message';
import { STUB_LIMITS } from '../../limits';
import type { ScenarioRef } from './expectations';
import type { FaultKind } from '../answer/faults';
import { xmlSelected } from './body-filter';
import type { PresentedCertificate } from '../client-certificates';

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

/** What `stub.calls()` and `GET /_accord/requests?…` select by; every given field must hold. */
export interface CallFilter {
  method?: string;
  /** The request path exactly (no query string). */
  path?: string;
  /** The answering scenario's name. */
  scenario?: string;
  /** The answering expectation, or its id. */
  expectation?: string | { id: string };
  answeredBy?: JournalEntry['answeredBy'];
  /** Only requests nothing answered (`answeredBy: 'none'`). */
  unmatched?: boolean;
  /** Text the request body contains, as written (prefixes and all). */
  bodyIncludes?: string;
  /**
   * XML nodes of the request body and the text each must hold, by path of local names, prefix- and
   * namespace-blind: `{ 'getBook/isbn': '9' }` (the path may start anywhere; `/Envelope/...` from
   * the root; `getBook/@id` an attribute).
   */
  nodes?: Record<string, string | number | boolean>;
  /** A fragment of a contract body the request body must contain: its elements, in any order, with their text (`(number)` matches any number); prefix-blind. */
  xmlIncludes?: string;
}

/** What the journal records of an answer (the rest of an entry is the request's). */
export type JournalAnswer = Omit<JournalEntry, 'seq' | 'time' | 'method' | 'path' | 'query' | 'headers' | 'body' | 'clientCertificate'>;

/** The entries every scope's journal shares, so the journal's bound is the stub's, whatever the number of scopes. */
export class JournalRing {
  readonly entries: (JournalEntry | undefined)[] = new Array(STUB_LIMITS.journalEntries);
  total = 0;
}

/**
 * The requests of one scope (the stub's root, or one `/_scope/<id>/`): its entries in the shared ring,
 * numbered from 1 since it was last cleared.
 */
export class Journal {
  private seq = 0;
  private clearedAt = 0;

  constructor(
    private readonly ring = new JournalRing(),
    private readonly scope?: string,
  ) {}

  record(req: JournalRequest, answer: JournalAnswer): void {
    const cut = req.body.length > STUB_LIMITS.journalBodyChars;
    // One literal of one shape (absent fields undefined, which JSON leaves out): the stub's hot path records every request.
    const entry: JournalEntry = {
      seq: ++this.seq,
      time: Date.now(),
      method: req.method,
      path: req.path,
      query: req.query,
      headers: req.headers,
      body: cut ? req.body.slice(0, STUB_LIMITS.journalBodyChars) : req.body,
      bodyCut: cut ? true : undefined,
      status: answer.status,
      answeredBy: answer.answeredBy,
      expectation: answer.expectation,
      example: answer.example,
      templated: answer.templated,
      scenario: answer.scenario,
      fault: answer.fault,
      report: answer.report,
      state: answer.state,
      drift: answer.drift,
      scope: this.scope,
      clientCertificate: req.clientCertificate,
    };
    const ring = this.ring;
    ring.entries[++ring.total % ring.entries.length] = entry;
  }

  /** Oldest first. */
  calls(filter: CallFilter = {}): JournalEntry[] {
    const out: JournalEntry[] = [];
    const { entries, total } = this.ring;
    const n = entries.length;
    for (let s = Math.max(this.clearedAt + 1, total - n + 1); s <= total; s++) {
      const e = entries[s % n];
      if (e && e.scope === this.scope && selected(e, filter)) out.push(e);
    }
    return out;
  }

  clear(): void {
    this.clearedAt = this.ring.total;
    this.seq = 0;
  }
}

export function selected(e: JournalEntry, f: CallFilter): boolean {
  if (f.method !== undefined && e.method !== f.method.toUpperCase()) return false;
  if (f.path !== undefined && e.path !== f.path) return false;
  if (f.scenario !== undefined && e.scenario?.name !== f.scenario) return false;
  if (f.expectation !== undefined && e.expectation !== (typeof f.expectation === 'string' ? f.expectation : f.expectation.id)) return false;
  if (f.answeredBy !== undefined && e.answeredBy !== f.answeredBy) return false;
  if (f.unmatched !== undefined && (e.answeredBy === 'none') !== f.unmatched) return false;
  if (f.bodyIncludes !== undefined && !e.body.includes(f.bodyIncludes)) return false;
  if ((f.nodes !== undefined || f.xmlIncludes !== undefined) && !xmlSelected(e, f)) return false;
  return true;
}
