import { operationKey } from './envelope';
import type { DecodedMessage } from './decode';
import type { LogLimits } from './limits';

export interface Exchange {
  request: DecodedMessage;
  response: DecodedMessage;
}

/**
 * Pairs requests with responses as they stream past:
 * 1. a response that carries its request (HAR, Spring-WS "for request [..]") is a pair;
 * 2. by ID (CXF ID / ExchangeId), scoped to the log file;
 * 3. otherwise by order, per operation: a response pairs with the oldest
 *    waiting request of its operation (getPetResponse → getPet/getPetRequest);
 *    a SOAP Fault, which names no operation, with the oldest waiting request.
 * Whatever is left over is reported as unpaired.
 */
export class Pairer {
  private seq = 0;
  private readonly byId = new Map<string, { m: DecodedMessage; seq: number }>();
  private readonly byOperation = new Map<string, { m: DecodedMessage; seq: number }[]>();
  private pendingCount = 0;

  constructor(
    private readonly onPair: (x: Exchange) => void,
    private readonly onUnpaired: (m: DecodedMessage, why: string) => void,
    private readonly limits: LogLimits,
  ) {}

  add(m: DecodedMessage, echo?: DecodedMessage): void {
    const seq = this.seq++;
    if (m.direction === 'response' && echo) {
      if (m.shape !== 'har') this.forgetSame(echo);
      this.onPair({ request: echo, response: m });
      return;
    }
    if (m.id !== undefined) {
      const key = `${m.at.file}\u0000${m.id}`;
      if (m.direction === 'request') {
        const old = this.byId.get(key);
        if (old) this.unpaired(old.m, `no response with ID ${m.id} before the ID was used again`);
        else this.pendingCount++;
        this.byId.set(key, { m, seq });
        this.bound();
        return;
      }
      const req = this.byId.get(key);
      if (!req) {
        this.onUnpaired(m, `no request with ID ${m.id} before it`);
        return;
      }
      this.byId.delete(key);
      this.pendingCount--;
      this.onPair({ request: req.m, response: m });
      return;
    }
    if (m.direction === 'request') {
      const key = operationKey(m.operation ?? `${m.method} ${m.path}`);
      let q = this.byOperation.get(key);
      if (!q) this.byOperation.set(key, (q = []));
      q.push({ m, seq });
      this.pendingCount++;
      this.bound();
      return;
    }
    let key: string | undefined;
    if (m.fault) key = this.oldestOperation();
    else key = operationKey(m.operation ?? '');
    const q = key === undefined ? undefined : this.byOperation.get(key);
    const req = q?.shift();
    if (!req) {
      this.onUnpaired(m, m.fault ? 'a fault with no request waiting before it' : `no ${m.operation ?? ''} request waiting before it`);
      return;
    }
    if (q!.length === 0) this.byOperation.delete(key!);
    this.pendingCount--;
    this.onPair({ request: req.m, response: m });
  }

  /** Requests still waiting at the end of the logs. */
  finish(): void {
    const left = [...this.byId.values(), ...[...this.byOperation.values()].flat()].sort((a, b) => a.seq - b.seq);
    for (const r of left) this.onUnpaired(r.m, 'no response in the logs');
    this.byId.clear();
    this.byOperation.clear();
    this.pendingCount = 0;
  }

  private oldestOperation(): string | undefined {
    let best: string | undefined;
    let seq = Infinity;
    for (const [k, q] of this.byOperation) if (q.length && q[0].seq < seq) [best, seq] = [k, q[0].seq];
    return best;
  }

  /** The request a Spring-WS echo repeats was logged on its own too: that copy is not left waiting. */
  private forgetSame(echo: DecodedMessage): void {
    const key = operationKey(echo.operation ?? '');
    const q = this.byOperation.get(key);
    if (!q) return;
    const i = q.findIndex((p) => p.m.body.trim() === echo.body.trim());
    if (i < 0) return;
    q.splice(i, 1);
    if (q.length === 0) this.byOperation.delete(key);
    this.pendingCount--;
  }

  private unpaired(m: DecodedMessage, why: string): void {
    this.onUnpaired(m, why);
  }

  /** Too many requests waiting: the oldest gives up, so memory stays bounded. */
  private bound(): void {
    while (this.pendingCount > this.limits.maxPending) {
      let oldest: { m: DecodedMessage; seq: number } | undefined;
      let where: (() => void) | undefined;
      for (const [k, v] of this.byId) {
        if (!oldest || v.seq < oldest.seq) [oldest, where] = [v, () => this.byId.delete(k)];
        break;
      }
      for (const [k, q] of this.byOperation) {
        if (q.length && (!oldest || q[0].seq < oldest.seq)) {
          oldest = q[0];
          where = () => {
            q.shift();
            if (q.length === 0) this.byOperation.delete(k);
          };
        }
      }
      if (!oldest || !where) return;
      where();
      this.pendingCount--;
      this.onUnpaired(oldest.m, `still waiting for a response when ${this.limits.maxPending} other requests were`);
    }
  }
}
