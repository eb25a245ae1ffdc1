import type { ParsedBody } from '../../http/body';
import { splitPath } from '../../http/match-request';
import type { HttpRequest, HttpResponse } from '../../http/message';
import { STUB_LIMITS } from '../../limits';
import { probing } from '../../pattern/match/probe';
import { dispatch, type Outcome } from './dispatch';
import { fitsNotes, notesOf, shapeOfBody, type ShapeNotes } from './shape';
import type { RouteTable } from './route';

type Matched = Extract<Outcome, { kind: 'matched' }>;

/** Requests of one shape may be answered by a few scenarios (one per kind of value): at most this many choices are noted per shape. */
const SHAPE_CHOICES = 4;

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
 * A request it has not seen whose shape it knows (shape.ts: the same tags, other element texts) is
 * chosen from the notes of the last request of that shape, without parsing or matching, when its
 * texts give every check that choice hung on the same verdict; else it is dispatched (and noted).
 *
 * Bounded: bodies up to STUB_LIMITS.memoBodyChars, at most STUB_LIMITS.memoEntries choices
 * (then it starts again empty) and as many shapes with at most SHAPE_CHOICES choices each, answers up to STUB_LIMITS.memoAnswerChars, and only requests a
 * scenario answered (a 400 is worked out each time: its report quotes the request). One memo per
 * table: a reload starts a new one.
 */
export class DispatchMemo {
  private readonly chosen = new RequestMap<Choice>();
  /** By shape (shape.ts): the choices requests of it led to, with what each hung on. */
  private readonly shapes = new RequestMap<ShapeNotes<Matched>[]>();
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
    const key = requestKey(req, url, this.headers, body.text);
    // The same head as the last request's (the usual case: one endpoint, one Content-Type) is the same string,
    // whose hash V8 has already worked out: only the body is hashed.
    if (key.head === this.lastHead) return { head: this.lastHead, body: key.body };
    this.lastHead = key.head;
    return key;
  }

  private lastHead = '';

  /**
   * dispatch(table, req, …), from memory when this request was answered before, or from the notes of
   * its shape (shape.ts). `key` is keyOf(req, url, body).
   */
  dispatch(req: HttpRequest, body: ParsedBody, key: RequestKey): Choice | Exclude<Outcome, Matched> {
    if (body.text.length > STUB_LIMITS.memoBodyChars) return dispatch(this.table, req, splitPath(req.path), body);
    const hit = this.chosen.get(key);
    if (hit) return hit;
    const shape = shapeOfBody(body);
    const shapeKey = shape && { head: key.head, body: shape.key };
    const known = shapeKey && this.shapes.get(shapeKey);
    if (known) {
      // Not kept by request: found again as cheaply, and under a load of new ids each kept request would only be garbage to collect.
      for (const notes of known) if (fitsNotes(notes, shape.slots)) return choiceOf(notes.choice);
    }
    const { result: outcome, probe } = probing(() => dispatch(this.table, req, splitPath(req.path), body));
    if (outcome.kind !== 'matched') return outcome;
    if (this.chosen.size >= STUB_LIMITS.memoEntries) this.chosen.clear();
    this.chosen.set(key, outcome);
    if (!shapeKey || probe.opaque || (known && known.length >= SHAPE_CHOICES)) return outcome;
    const notes = notesOf(shape, probe.reads, choiceOf(outcome));
    if (notes && known) known.push(notes);
    else if (notes) {
      if (this.shapes.size >= STUB_LIMITS.memoEntries) this.shapes.clear();
      this.shapes.set(shapeKey, [notes]);
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

/** A new choice like `o` (without the answer kept with it): each request's answer is its own. */
function choiceOf(o: Pick<Matched, 'route' | 'row' | 'fixed'>): Matched {
  const c: Matched = { kind: 'matched', route: o.route };
  if (o.row) c.row = o.row;
  if (o.fixed) c.fixed = o.fixed;
  return c;
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
