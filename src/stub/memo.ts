import type { ParsedBody } from '../http/body';
import type { HttpRequest } from '../http/message';
import { STUB_LIMITS } from '../limits';
import { dispatch, type Outcome } from './dispatch';
import type { RouteTable } from './route';

type Matched = Extract<Outcome, { kind: 'matched' }>;

/**
 * Which scenario (and Examples row or example file) answers a request depends on nothing but
 * the route table and the request's method, URL, the headers the contracts name, and body:
 * dispatch is a pure function of them. A client that sends the same request again (a load
 * test, a test suite's fixed calls, a polling client) gets the choice made the first time,
 * without parsing or matching the body again. Only the choice is kept: the answer itself is
 * still generated per request, so its values vary as they do without this.
 *
 * Bounded: bodies up to STUB_LIMITS.memoBodyChars, at most STUB_LIMITS.memoEntries choices
 * (then it starts again empty), and only requests a scenario answered (a 400 is worked out
 * each time: its report quotes the request). One memo per table: a reload starts a new one.
 */
export class DispatchMemo {
  private readonly chosen = new Map<string, Matched>();
  /** Request headers any served scenario (or its rows and example files) names, and Content-Type: the only headers dispatch reads. */
  private readonly headers: string[];

  constructor(private readonly table: RouteTable) {
    const names = new Set(['content-type']);
    for (const r of table.routes) {
      for (const s of [r.scenario, ...r.rows.map((x) => x.scenario), ...r.fixed.map((f) => f.scenario)]) {
        for (const h of s.request.headers) names.add(h.name.toLowerCase());
      }
    }
    this.headers = [...names];
  }

  get size(): number {
    return this.chosen.size;
  }

  /** dispatch(table, req, segments, body), from memory when this request was answered before. `url` is the request target as sent. */
  dispatch(req: HttpRequest, url: string, segments: string[], body: ParsedBody): Outcome {
    if (body.text.length > STUB_LIMITS.memoBodyChars) return dispatch(this.table, req, segments, body);
    const key = requestKey(req, url, this.headers, body);
    const hit = this.chosen.get(key);
    if (hit) return hit;
    const outcome = dispatch(this.table, req, segments, body);
    if (outcome.kind === 'matched') {
      if (this.chosen.size >= STUB_LIMITS.memoEntries) this.chosen.clear();
      this.chosen.set(key, outcome);
    }
    return outcome;
  }
}

/** All a pure function of the request reads of it: method, target, the given headers, body. */
export function requestKey(req: HttpRequest, url: string, headers: Iterable<string>, body: ParsedBody): string {
  let key = `${req.method} ${url}`;
  for (const h of headers) {
    const v = req.headers[h];
    // \n cannot be in a header value (Node refuses it) nor in a method or URL: the parts cannot run together.
    key += v === undefined ? '\n' : `\n:${v}`;
  }
  return `${key}\n${body.text}`;
}
