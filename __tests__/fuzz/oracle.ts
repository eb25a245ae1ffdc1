import { connect } from 'node:net';
import { mutant, seeded } from '../helpers/mutate';
/**
 * What every fuzz case must hold, and the run's size. `npm test` runs a bounded, seeded
 * number of cases; `npm run fuzz -- <seed> <cases>` runs the same suites longer
 * (FUZZ_SEED, FUZZ_CASES), so a failure is replayed by its seed.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261124);

/** Cases per suite: `fallback` in npm test, FUZZ_CASES when the fuzz script sets it. */
export function fuzzCases(fallback: number): number {
  return process.env.FUZZ_CASES ? Number(process.env.FUZZ_CASES) : fallback;
}

/** A stack frame line, as Node prints them ("    at fn (file.js:1:2)"). */
const STACK_FRAME = /\n\s+at .*[(\s][^()\s]*:\d+:\d+\)?/;

const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

/** Why `text`, shown to a user, breaks the rules, or undefined. */
export function badOutput(text: string): string | undefined {
  if (/internal error/i.test(text)) return 'an internal error';
  if (STACK_FRAME.test(text)) return 'a stack trace';
  const c = CONTROL.exec(text);
  if (c) return `a raw control character U+${c[0].charCodeAt(0).toString(16).padStart(4, '0')}`;
  return undefined;
}

/** An HTTP/1.1 request as text: `head` (Host, …) then `headers`, the body sized by Content-Length or sent as one chunk. */
export function httpText(method: string, target: string, head: readonly string[], headers: readonly string[], body: string, chunked: boolean): string {
  const lines = [`${method} ${target} HTTP/1.1`, ...head, ...headers];
  if (chunked) {
    const size = Buffer.byteLength(body).toString(16);
    return `${[...lines, 'Transfer-Encoding: chunked'].join('\r\n')}\r\n\r\n${body ? `${size}\r\n${body}\r\n` : ''}0\r\n\r\n`;
  }
  return `${[...lines, `Content-Length: ${Buffer.byteLength(body)}`].join('\r\n')}\r\n\r\n${body}`;
}

/** What a server's fuzz suite damages requests with; the odds are those of each suite (their seeded draws must not move). */
export interface Damage {
  templates: ReadonlyArray<() => [string, string, string[], string]>;
  methods: readonly string[];
  palette: readonly string[];
  /** Damage for the request target, and how often it is damaged. */
  targetParts: readonly string[];
  targetOdds: number;
  /** How often the whole message, head included, is damaged: malformed HTTP. */
  wholeOdds: number;
  /** The lines after the request line (Host, …). */
  head: readonly string[];
}

/** One damaged request, drawn from `r` in a fixed order: its method, text, bytes, and where its writes are cut. */
export function damagedRequest(r: () => number, d: Damage): { method: string; text: string; bytes: Buffer; cuts: number[] } {
  const template = d.templates[Math.floor(r() * d.templates.length)]();
  const headers = template[2];
  let [method, target, , body] = template;
  if (r() < 0.15) method = d.methods[Math.floor(r() * d.methods.length)];
  if (r() < 0.3) body = mutant(body, r, d.palette);
  if (r() < d.targetOdds) target = mutant(target, r, d.targetParts, 1);
  let text = httpText(method, target, d.head, headers, body, r() < 0.2);
  if (r() < d.wholeOdds) text = mutant(text, r, d.palette);
  const bytes = Buffer.from(text, 'utf8');
  const cuts = [Math.floor(r() * bytes.length), Math.floor(r() * bytes.length)].sort((a, b) => a - b).slice(0, Math.floor(r() * 3));
  return { method, text, bytes, cuts };
}

/**
 * Sends `bytes` to 127.0.0.1:`port` in writes cut at `cuts` and collects the answer until the socket
 * closes; rejects after `hangMs`. `endAfterWrite` half-closes once all is written; `quietMs` ends the
 * socket when that long has passed, and `complete` destroys it once the answer is whole.
 */
export function sendInCuts(
  port: number,
  bytes: Buffer,
  cuts: number[],
  o: { hangMs: number; endAfterWrite?: boolean; quietMs?: number; complete?: (out: string) => boolean },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end after ${o.hangMs} ms`));
    }, o.hangMs);
    const quiet = o.quietMs === undefined ? undefined : setTimeout(() => socket.end(), o.quietMs);
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      out += d;
      if (o.complete?.(out)) socket.destroy();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      clearTimeout(quiet);
      resolve(out);
    });
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      let at = 0;
      for (const cut of [...cuts, bytes.length]) {
        socket.write(bytes.subarray(at, cut));
        at = cut;
      }
      if (o.endAfterWrite) socket.end();
    });
  });
}

/**
 * `cases` damaged requests (`make` from the seeded generator), each sent by `exchange`: an exchange
 * that fails, or an answer that is a 500, `bad` by `also` or badOutput, throws naming the case, the
 * seed, the request and the answer. How many answers had each status (`none` for no status line).
 */
export async function fuzzExchanges(
  cases: number,
  make: (r: () => number) => { text: string; bytes: Buffer; cuts: number[] },
  exchange: (bytes: Buffer, cuts: number[]) => Promise<string>,
  also: (answer: string, status: string) => string | undefined = () => undefined,
  /** A 500 that is this (a SOAP 1.1 Fault the protocol asks for, such as WS-Security's) is an answer, not a failure. */
  fault500?: RegExp,
): Promise<Map<string, number>> {
  const r = seeded(FUZZ_SEED);
  const statuses = new Map<string, number>();
  for (let i = 0; i < cases; i++) {
    const { text, bytes, cuts } = make(r);
    let answer: string;
    try {
      answer = await exchange(bytes, cuts);
    } catch (e) {
      throw new Error(`case ${i} (seed ${FUZZ_SEED}): ${(e as Error).message}\nrequest: ${JSON.stringify(text.slice(0, 2000))}`, { cause: e });
    }
    const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 'none';
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const bad = status === '500' && !fault500?.test(answer) ? 'a 500' : (also(answer, status) ?? badOutput(answer.replace(/\r\n/g, '\n')));
    if (bad) throw new Error(`case ${i} (seed ${FUZZ_SEED}): ${bad}\nrequest: ${JSON.stringify(text.slice(0, 2000))}\nanswer: ${JSON.stringify(answer.slice(0, 2000))}`);
  }
  return statuses;
}
