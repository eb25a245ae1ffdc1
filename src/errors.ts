/**
 * One error type for everything a user can cause. It carries a stable `code`
 * (documented in the README) and, where there is one, the place in a file.
 * Anything that is not an AccordError is a bug in accord and is shown as one.
 */
export type ErrorCode =
  | 'ACCORD_ERR_CONTRACT_SYNTAX'
  | 'ACCORD_ERR_CONTRACT_TYPE'
  | 'ACCORD_ERR_XML'
  | 'ACCORD_ERR_JSON'
  | 'ACCORD_ERR_LIMIT'
  | 'ACCORD_ERR_USAGE'
  | 'ACCORD_ERR_IO'
  | 'ACCORD_ERR_GIT'
  | 'ACCORD_ERR_WSDL'
  | 'ACCORD_ERR_LOG'
  | 'ACCORD_ERR_HTTP';

export interface Location {
  file?: string;
  line?: number;
  column?: number;
}

export class AccordError extends Error {
  readonly code: ErrorCode;
  readonly location: Location;
  readonly details: string[];

  constructor(code: ErrorCode, message: string, location: Location = {}, options: { cause?: unknown; details?: string[] } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AccordError';
    this.code = code;
    this.location = location;
    this.details = options.details ?? [];
  }

  /** `file:line:column: message`, the form editors and terminals link. */
  describe(): string {
    const where = formatLocation(this.location);
    const head = where ? `${where}: ${this.message}` : this.message;
    return [head, ...this.details.map((d) => `  ${d}`)].join('\n');
  }
}

export function formatLocation(loc: Location): string {
  if (!loc.file && loc.line === undefined) return '';
  let out = loc.file ?? '<contract>';
  if (loc.line !== undefined) out += `:${loc.line}`;
  if (loc.line !== undefined && loc.column !== undefined) out += `:${loc.column}`;
  return out;
}

/** Several errors found in one pass, reported together. */
export class CompositeAccordError extends AccordError {
  readonly errors: AccordError[];
  constructor(errors: AccordError[]) {
    super(errors[0].code, errors.map((e) => e.describe()).join('\n'), errors[0].location);
    this.errors = errors;
  }
  describe(): string {
    return this.errors.map((e) => e.describe()).join('\n');
  }
}

/**
 * A state accord's own code should never reach: a bug in accord, never a
 * user's mistake, so the edges report it as "internal error (please report it)".
 */
export class InternalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InternalError';
  }
}

/**
 * The one form of a control-flow exception: a walk that ends early (a fast path that cannot go on, a
 * budget spent, a comparison that has its answer) throws its own Stop, made once, and the function that
 * began the walk catches that one (`untilStopped`) and turns it into a value. A Stop is not an error: it
 * carries no stack, never leaves the function that caught it, and a user never sees it.
 */
export class Stop {
  constructor(readonly why: string) {}
}

/** What `walk` returns, or `undefined` when it threw `stop`; anything else thrown goes on. */
export function untilStopped<T>(stop: Stop, walk: () => T): T | undefined {
  try {
    return walk();
  } catch (e) {
    if (e !== stop) throw e;
    return undefined;
  }
}

/**
 * The one wording of a bug at the edges (the CLI, its process, the stub): anything that reaches one and
 * is not a user's AccordError. The stack goes where a maintainer reads it, the message where a client does.
 */
export function internalErrorText(e: unknown, o: { stack?: boolean; during?: string } = {}): string {
  const bug = e instanceof Error ? e : new InternalError(String(e));
  const detail = o.stack && bug.stack ? bug.stack : bug instanceof AccordError ? bug.describe() : bug.message;
  return `internal error (please report it)${o.during ? ` ${o.during}` : ''}: ${detail}`;
}

/** Adds a user's error (every one of a composite) to those being gathered; anything else is a bug and goes on. */
export function gather(errors: AccordError[], e: unknown): void {
  if (e instanceof CompositeAccordError) errors.push(...e.errors);
  else if (e instanceof AccordError) errors.push(e);
  else throw e;
}

/**
 * Throws what was gathered, all of it: the one error, or every error together, each said once (the
 * same file read as both versions fails alike twice).
 */
export function throwGathered(errors: readonly AccordError[]): void {
  const seen = new Set<string>();
  const once = errors.filter((e) => !seen.has(e.describe()) && seen.add(e.describe()));
  if (once.length === 1) throw once[0];
  if (once.length > 1) throw new CompositeAccordError(once);
}

/** The end of an exhaustive `switch`: a kind added to a union and not handled here fails the type check, not a user. */
export function unreachable(value: never, what = 'case'): never {
  const kind = (value as { kind?: unknown } | null)?.kind;
  throw new InternalError(`unhandled ${what}: ${String(kind ?? value)}`);
}
