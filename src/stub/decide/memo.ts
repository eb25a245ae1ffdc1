import type { ParsedBody } from '../../http/body';
import { splitPath } from '../../http/match-request';
import type { HttpRequest, HttpResponse } from '../../http/message';
import { STUB_LIMITS } from '../../limits';
import { dispatch, type Outcome } from './dispatch';
import type { RouteTable } from './route';

type Matched = Extract<Outcome, { kind: 'matched' }>;

/** A remembered choice, and the answer made for it the first time (kept when it is at most STUB_LIMITS.memoAnswerChars). */
export type Choice = Matched & { answer?: HttpResponse };

/**
 * Which scenario (and Examples row or example file) answers a request depends on nothing but
 * the route table and the request's method, URL, the headers the contracts name, and body:
 * dispatch is a pure function of them, and so is the generated answer (its values are drawn
 * from a stream seeded by the request's key, see respond.ts). A client that sends the same
 * request again (a load test, a test suite's fixed calls, a polling client) gets the choice
 * made the first time, and the answer made then, without parsing, matching or generating again.
 *
 * Bounded: bodies up to STUB_LIMITS.memoBodyChars, at most STUB_LIMITS.memoEntries choices
 * (then it starts again empty), answers up to STUB_LIMITS.memoAnswerChars, and only requests a
 * scenario answered (a 400 is worked out each time: its report quotes the request). One memo per
 * table: a reload starts a new one.
 */
export class DispatchMemo {
  private readonly chosen = new RequestMap<Choice>();
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

  /** The request headers dispatch reads (see `headers`). */
  get headerNames(): readonly string[] {
    return this.headers;
  }

  /** What the stub's answer to a request is a function of: method, target, the headers the contracts name, body. */
  keyOf(req: HttpRequest, url: string, body: ParsedBody): RequestKey {
    return requestKey(req, url, this.headers, body.text);
  }

  /** dispatch(table, req, …), from memory when this request was answered before. `key` is keyOf(req, url, body). */
  dispatch(req: HttpRequest, body: ParsedBody, key: RequestKey): Choice | Exclude<Outcome, Matched> {
    if (body.text.length > STUB_LIMITS.memoBodyChars) return dispatch(this.table, req, splitPath(req.path), body);
    const hit = this.chosen.get(key);
    if (hit) return hit;
    const outcome = dispatch(this.table, req, splitPath(req.path), body);
    if (outcome.kind === 'matched') {
      if (this.chosen.size >= STUB_LIMITS.memoEntries) this.chosen.clear();
      this.chosen.set(key, outcome);
    }
    return outcome;
  }

  /** The answer kept with a remembered choice, or `make()`'s, kept when it is small enough. */
  static answer(choice: Choice, make: () => HttpResponse): HttpResponse {
    if (choice.answer) return choice.answer;
    const answer = make();
    if (keepable(answer)) choice.answer = answer;
    return answer;
  }
}

/** Whether an answer is small enough to keep for the next time the same request comes (STUB_LIMITS.memoAnswerChars). */
export function keepable(answer: HttpResponse): boolean {
  return answer.body.length <= STUB_LIMITS.memoAnswerChars;
}

/**
 * All a pure function of the request reads of it: `head` is the method, target and the given
 * headers, `body` the body's text. Two parts, not one joined string: the body is most of a key, and a
 * joined key was a new string to copy and hash for every look-up (about 1 µs a request, twice with
 * expectations); the body's own text is hashed once (V8 keeps a string's hash), in every map after
 * the first.
 */
export interface RequestKey {
  readonly head: string;
  readonly body: string;
}

export function requestKey(req: HttpRequest, url: string, headers: Iterable<string>, body: string): RequestKey {
  let head = `${req.method} ${url}`;
  for (const h of headers) {
    const v = req.headers[h];
    // \n cannot be in a header value (Node refuses it) nor in a method or URL: the parts cannot run together.
    head += v === undefined ? '\n' : `\n:${v}`;
  }
  return { head, body };
}

export function sameKey(a: RequestKey, b: RequestKey): boolean {
  return a.head === b.head && a.body === b.body;
}

/** The key as one text (what seeds a generated answer's values: respond.ts requestRandom). */
export function keyText(key: RequestKey): string {
  return `${key.head}\n${key.body}`;
}

/**
 * A map by request key: by head, then by body. The entry found last is kept in front: a client
 * that sends the same request again and again (a poller, a load test) is answered after one
 * comparison of its body with the last one (memcmp, ~20 ns for a SOAP request) instead of hashing
 * it (~0.5 µs: V8 hashes a new string character by character).
 */
export class RequestMap<V> {
  private readonly byHead = new Map<string, Map<string, V>>();
  private count = 0;
  private last: { key: RequestKey; value: V } | undefined;

  get size(): number {
    return this.count;
  }

  get(key: RequestKey): V | undefined {
    const last = this.last;
    if (last && key.body === last.key.body && key.head === last.key.head) return last.value;
    const value = this.byHead.get(key.head)?.get(key.body);
    if (value !== undefined) this.last = { key, value };
    return value;
  }

  set(key: RequestKey, value: V): void {
    let bodies = this.byHead.get(key.head);
    if (!bodies) this.byHead.set(key.head, (bodies = new Map()));
    if (!bodies.has(key.body)) this.count++;
    bodies.set(key.body, value);
    this.last = { key, value };
  }

  clear(): void {
    this.byHead.clear();
    this.count = 0;
    this.last = undefined;
  }
}
