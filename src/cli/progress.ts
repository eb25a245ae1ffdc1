import { printable } from '../printable';

/**
 * One line of progress on stderr for work that takes a while (a large log, a big folder, a
 * large WSDL). Drawn only on a terminal: never into a pipe, a file or a CI log, where it would
 * be noise in what someone reads later. Drawn only once the work has taken more than a second
 * (quick runs look as they always did), at most ten times a second, and erased when the work
 * is done, so what the command prints next starts on a clean line.
 */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface ProgressOptions {
  env?: NodeJS.ProcessEnv;
  /** Nothing is drawn before this much time has passed (default ACCORD_PROGRESS_DELAY_MS, else 1000 ms). */
  delayMs?: number;
  /** Least time between two redraws (default 100 ms). */
  intervalMs?: number;
  now?: () => number;
}

export interface Progress {
  /** The work's state now, in a few words; cheap to call often (most calls draw nothing). */
  update(text: string): void;
  /** Erases the line, if one was drawn. */
  done(): void;
}

const SILENT: Progress = { update() {}, done() {} };

/** Whether progress may be drawn on `stream`: a terminal, not a CI run, not a dumb terminal. */
export function showsProgress(stream: ProgressStream | undefined, env: NodeJS.ProcessEnv): boolean {
  if (!stream?.isTTY) return false;
  const ci = env.CI;
  if (ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false') return false;
  return env.TERM !== 'dumb';
}

export function startProgress(stream: ProgressStream | undefined, options: ProgressOptions = {}): Progress {
  const env = options.env ?? process.env;
  if (!stream || !showsProgress(stream, env)) return SILENT;
  const now = options.now ?? Date.now;
  // The variable lets a test (or an impatient user) see progress on work that is quick.
  const fromEnv = Number(env.ACCORD_PROGRESS_DELAY_MS);
  const delay = options.delayMs ?? (env.ACCORD_PROGRESS_DELAY_MS && Number.isFinite(fromEnv) && fromEnv >= 0 ? fromEnv : 1_000);
  const interval = options.intervalMs ?? 100;
  const started = now();
  let last = -Infinity;
  let drawn = false;
  return {
    update(text) {
      const t = now();
      if (t - started < delay || t - last < interval) return;
      last = t;
      // One line that never wraps: a wrapped line cannot be redrawn with \r. (A terminal of unknown size says 0.)
      const width = Math.max(20, (stream.columns || 80) - 1);
      stream.write(`\r${clip(printable(text), width)}\x1b[K`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}

/** "12.3 MB"; sizes for people, in powers of 1000 as file managers show them. */
export function formatBytes(n: number): string {
  if (n < 1_000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1_000;
  let u = 0;
  while (v >= 1_000 && u < units.length - 1) {
    v /= 1_000;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** "reading server.log: 12.3 MB of 18.0 MB (68%)", or without the size when it is not known (a pipe). */
export function bytesProgress(verb: string, name: string, bytes: number, size?: number): string {
  if (!size) return `${verb} ${name}: ${formatBytes(bytes)}`;
  return `${verb} ${name}: ${formatBytes(bytes)} of ${formatBytes(size)} (${Math.min(100, Math.floor((bytes / size) * 100))}%)`;
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}
