import { STUB_LIMITS } from '../../limits';
import type { JournalAnswer, JournalEntry, JournalRequest } from '../decide/entry';
import { xmlSelected } from './body-filter';

/** What an entry is, decided with the answer (decide/entry.ts); kept here. */
export type { JournalAnswer, JournalEntry, JournalRequest } from '../decide/entry';

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
