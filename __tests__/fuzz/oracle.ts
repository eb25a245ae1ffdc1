import { mutant } from '../helpers/mutate';
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
