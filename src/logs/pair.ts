import { operationKey } from './envelope';
import type { DecodedMessage } from './decode';
import type { LogLimits } from './limits';

export interface Exchange {
  request: DecodedMessage;
  response: DecodedMessage;
}

interface Pending {
  m: DecodedMessage;
  seq: number;
  /** Where it waits: an ID key or an operation key. */
  idKey?: string;
  opKey?: string;
  done: boolean;
  /** Its parsed body was dropped to save memory; parsed again when it pairs. */
  stripped: boolean;
}

/** What a paired entry points at instead of its message, so nothing it held stays reachable. */
const RELEASED = { direction: 'request', shape: 'line', body: '', at: { file: '', line: 0 }, format: 'none', fault: false } as DecodedMessage;

/** Requests waiting that keep their parsed body; older ones keep only their text. */
const TREES_KEPT = 16;

/**
 * Pairs requests with responses as they stream past:
 * 1. a response that carries its request (HAR, Spring-WS "for request [..]") is a pair;
 * 2. by ID (CXF ID / ExchangeId), scoped to the log file;
 * 3. otherwise by order, per operation: a response pairs with the oldest
 *    waiting request of its operation (getPetResponse → getPet/getPetRequest);
 *    a SOAP Fault, which names no operation, with the oldest waiting request.
 * Whatever is left over is reported as unpaired. Waiting requests are bounded
 * in number and in characters, and only the newest keep their parsed body, so
 * a log of requests without responses costs bounded memory.
 */
export class Pairer {
  private seq = 0;
  private readonly byId = new Map<string, Pending>();
  private readonly byOperation = new Map<string, Pending[]>();
  /** Every waiting request in arrival order (entries already paired are skipped lazily). */
  private order: Pending[] = [];
  private orderHead = 0;
  private readonly withTrees: Pending[] = [];
  private count = 0;
  private chars = 0;

  constructor(
    private readonly onPair: (x: Exchange) => void,
    private readonly onUnpaired: (m: DecodedMessage, why: string) => void,
    private readonly limits: LogLimits,
    /** Parses a stripped request's body again. */
    private readonly rehydrate: (m: DecodedMessage) => DecodedMessage = (m) => m,
  ) {}

  add(m: DecodedMessage, echo?: DecodedMessage): void {
    const seq = this.seq++;
    if (m.direction === 'response' && echo) {
      if (m.shape !== 'har') this.forgetSame(echo);
      this.onPair({ request: echo, response: m });
      return;
    }
    if (m.direction === 'request') {
      const p: Pending = { m, seq, done: false, stripped: false };
      if (m.id !== undefined) {
        p.idKey = `${m.at.file}\u0000${m.id}`;
        const old = this.byId.get(p.idKey);
        if (old) this.onUnpaired(this.take(old), `no response with ID ${m.id} before the ID was used again`);
        this.byId.set(p.idKey, p);
      } else {
        p.opKey = operationKey(m.operation ?? `${m.method} ${m.path}`);
        let q = this.byOperation.get(p.opKey);
        if (!q) this.byOperation.set(p.opKey, (q = []));
        q.push(p);
      }
      this.wait(p);
      return;
    }
    let req: Pending | undefined;
    if (m.id !== undefined) {
      req = this.byId.get(`${m.at.file}\u0000${m.id}`);
      if (!req) {
        this.onUnpaired(m, `no request with ID ${m.id} before it`);
        return;
      }
    } else {
      const key = m.fault ? this.oldestOperation() : operationKey(m.operation ?? '');
      req = key === undefined ? undefined : this.byOperation.get(key)?.[0];
      if (!req) {
        this.onUnpaired(m, m.fault ? 'a fault with no request waiting before it' : `no ${m.operation ?? ''} request waiting before it`);
        return;
      }
    }
    const request = this.take(req);
    this.onPair({ request: req.stripped ? this.rehydrate(request) : request, response: m });
  }

  /** Requests still waiting at the end of the logs. */
  finish(): void {
    for (let i = this.orderHead; i < this.order.length; i++) {
      const p = this.order[i];
      if (!p.done) this.onUnpaired(p.m, 'no response in the logs');
    }
    this.byId.clear();
    this.byOperation.clear();
    this.order = [];
    this.orderHead = 0;
    this.count = 0;
    this.chars = 0;
  }

  private wait(p: Pending): void {
    this.order.push(p);
    this.count++;
    this.chars += p.m.body.length;
    this.withTrees.push(p);
    while (this.withTrees.length > TREES_KEPT) {
      const old = this.withTrees.shift()!;
      if (old.done) continue;
      // A fresh copy of the body: the logged text is a slice of a 64 KiB read chunk, which it would keep alive.
      old.m = { ...old.m, xml: undefined, json: undefined, body: Buffer.from(old.m.body, 'utf8').toString('utf8') };
      old.stripped = true;
    }
    while (this.count > this.limits.maxPending || this.chars > this.limits.maxPendingChars) {
      const oldest = this.oldestWaiting();
      if (!oldest) break;
      const why = this.count >= this.limits.maxPending ? `${this.limits.maxPending} other requests were` : `${this.limits.maxPendingChars} characters of requests were`;
      this.onUnpaired(this.take(oldest), `still waiting for a response when ${why}`);
    }
    // Paired entries are dropped from the arrival order now and then: it stays proportional to what waits.
    if (this.order.length - this.orderHead > 2 * this.count + 1024) {
      this.order = this.order.slice(this.orderHead).filter((p) => !p.done);
      this.orderHead = 0;
    }
  }

  private oldestWaiting(): Pending | undefined {
    while (this.orderHead < this.order.length && this.order[this.orderHead].done) this.orderHead++;
    return this.order[this.orderHead];
  }

  /** Takes a request out of waiting and returns it; the entry keeps nothing. */
  private take(p: Pending): DecodedMessage {
    const m = p.m;
    p.done = true;
    p.m = RELEASED;
    this.count--;
    this.chars -= m.body.length;
    if (p.idKey !== undefined) {
      if (this.byId.get(p.idKey) === p) this.byId.delete(p.idKey);
    } else if (p.opKey !== undefined) {
      const q = this.byOperation.get(p.opKey);
      if (q) {
        const i = q.indexOf(p);
        if (i >= 0) q.splice(i, 1);
        if (q.length === 0) this.byOperation.delete(p.opKey);
      }
    }
    return m;
  }

  private oldestOperation(): string | undefined {
    let best: string | undefined;
    let seq = Infinity;
    for (const [k, q] of this.byOperation) if (q.length && q[0].seq < seq) [best, seq] = [k, q[0].seq];
    return best;
  }

  /** The request a Spring-WS echo repeats was logged on its own too: that copy is not left waiting. */
  private forgetSame(echo: DecodedMessage): void {
    const q = this.byOperation.get(operationKey(echo.operation ?? ''));
    const body = echo.body.trim();
    const p = q?.find((x) => x.m.body.trim() === body);
    if (p) this.take(p);
  }
}
