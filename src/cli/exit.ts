import type { Command } from 'commander';
import { AccordError } from '../errors';
import type { ProgressStream } from './progress';

/** Exit codes: 0 ok, 1 a check failed (contract test, incompatible change), 2 usage or input error. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Thrown by commands; only the CLI entry point turns it into a process exit. */
export class ExitError extends Error {
  constructor(
    readonly exitCode: number,
    message = '',
  ) {
    super(message);
    this.name = 'ExitError';
  }
}

export interface Io {
  /** Messages. The CLI's door (run) makes them printable: they quote input. */
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** A document the user asked for on standard output (a contract, a JSON report): data, written as it is. */
  document?: (text: string) => void;
  cwd: string;
  /** The stream behind `stderr`, for progress lines (drawn only when it is a terminal); none in tests that call run(). */
  progress?: ProgressStream;
}

/** Runs `f`; an AccordError it throws (a refused output file) is reported as `<command>: <message>`, exit 2. */
export function asUsage<T>(command: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof AccordError) throw new ExitError(EXIT_USAGE, `${command}: ${e.describe()}`);
    throw e;
  }
}

/**
 * `accord compatible git file`: the names of a command and its parents, the program's first. What a
 * command's lines start with (`accord import wsdl: …`), and its errors, said by the entry point.
 */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

export function writeDocument(io: Io, text: string): void {
  (io.document ?? io.stdout)(text);
}
