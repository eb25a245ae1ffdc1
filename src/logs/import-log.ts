import path from 'node:path';
import { AccordError, InternalError, type Location } from '../errors';
import { decodeMessage, type DecodedMessage } from './decode';
import type { ExtractSink } from './extractor';
import { looksLikeHar, scanHar } from './extract-har';
import { DEFAULT_LOG_LIMITS, type LogLimits } from './limits';
import type { LoggedMessage, LogShape } from './message';
import { Operations, type Operation } from './operations';
import type { ElementShape } from './infer-xml';
import { unqualifiedCodes } from './render';
import { type Exchange, Pairer } from './pair';
import { readLogText, splitLines, STDIN } from './read-log';
import { Redactor } from './redact';
import { scanTextLog } from './scan-text';
import { writeContract } from './write-contract';
import { exampleFileText } from './recorded';
import { pascal } from './names';

/** Unpaired messages and problems listed in a report; more are only counted, so a hostile log cannot fill memory with them. */
export const REPORT_KEPT = 1000;

export interface ImportLogOptions {
  /** --path: the request path of every SOAP scenario (default: the logged address, else /ws). */
  path?: string;
  /** --examples: keep the logged request values as an Examples table. */
  examples?: boolean;
  /** --redact: node names whose values never reach the contract (besides the defaults). */
  redact?: string[];
  /** --include: only HAR entries whose URL starts with one of these. */
  include?: string[];
  /** Logs are read relative to this folder (default: the process's); reports name them as given. */
  cwd?: string;
  /** Feature title; default from the log names. */
  feature?: string;
  /** The contract's opening comment, instead of naming the logs (`accord proxy`); `cite: false` also leaves the file:line of each call out (a recording that is not kept). */
  provenance?: { header: string[]; cite: boolean };
  limits?: Partial<LogLimits>;
  /** Only these exchanges are typed (the others are still read and counted): `accord proxy` types by the recording only the calls its WSDL does not describe. */
  only?: (x: Exchange) => boolean;
  /** Said after each scenario's name (`recorded: the WSDL does not describe it`), so scenarios added beside a WSDL's are told apart. */
  scenarioSuffix?: string;
  /** Called as each log is read (often: keep it cheap), with bytes read so far and the file's size when known. */
  onRead?: (file: string, bytes: number, size: number | undefined) => void;
}

export interface Unpaired {
  at: Required<Pick<Location, 'file' | 'line'>>;
  direction: 'request' | 'response';
  why: string;
}

export interface LogReport {
  files: { file: string; shape: 'text' | 'har'; lines: number }[];
  /** Messages found, by log shape. */
  messages: Record<LogShape, number>;
  exchanges: number;
  scenarios: number;
  skippedLines: number;
  /** Recognised but left out, by reason, with sub-counts by detail (a HAR entry's content type). */
  skipped: Map<string, { count: number; details: Map<string, number> }>;
  /** The first unpaired messages (at most REPORT_KEPT); `unpairedCount` counts them all. */
  unpaired: Unpaired[];
  unpairedCount: number;
  /** The first messages that could not be used (at most REPORT_KEPT), each with file and line; `problemCount` counts them all. */
  problems: AccordError[];
  problemCount: number;
  redactedValues: number;
  /** What the recording shows the service doing against the rules its contract keeps (an unqualified fault code): one line each. */
  warnings: string[];
  /** --examples: distinct calls kept as Examples rows but not as example files, their answer holding a secret. */
  notReplayed?: number;
}

export interface ImportResult {
  /** The contract text; undefined when no exchange could be used. */
  contract?: string;
  /**
   * --examples: the recorded calls as example files (file name, JSON text), for `<contract>_examples/`:
   * a stub of the contract answers each recorded request with its recorded answer.
   */
  exampleFiles?: { name: string; text: string }[];
  report: LogReport;
}

/** Reads logs as streams and calls `onExchange` for every request/response pair, in log order. */
export async function readExchanges(files: string[], onExchange: (x: Exchange) => void, options: ImportLogOptions = {}): Promise<LogReport> {
  const limits: LogLimits = { ...DEFAULT_LOG_LIMITS, ...options.limits };
  const report: LogReport = {
    files: [],
    messages: { cxf: 0, line: 0, pretty: 0, har: 0 },
    exchanges: 0,
    scenarios: 0,
    skippedLines: 0,
    skipped: new Map(),
    unpaired: [],
    unpairedCount: 0,
    problems: [],
    problemCount: 0,
    redactedValues: 0,
    warnings: [],
  };
  const problem = (e: AccordError) => {
    if (report.problems.length < REPORT_KEPT) report.problems.push(e);
    report.problemCount++;
  };
  const pairer = new Pairer(
    (x) => {
      report.exchanges++;
      onExchange(x);
    },
    (m, why) => {
      if (report.unpaired.length < REPORT_KEPT) report.unpaired.push({ at: m.at, direction: m.direction, why });
      report.unpairedCount++;
    },
    limits,
    (m) => {
      const d = decodeMessage(m);
      if ('ok' in d) return d.ok;
      throw new InternalError(`a request that parsed once did not parse again (${m.at.file}:${m.at.line})`);
    },
  );
  const skip = (reason: string, detail?: string) => {
    let s = report.skipped.get(reason);
    if (!s) report.skipped.set(reason, (s = { count: 0, details: new Map() }));
    s.count++;
    if (detail !== undefined) s.details.set(detail, (s.details.get(detail) ?? 0) + 1);
  };
  const decode = (m: LoggedMessage, echo = false): DecodedMessage | undefined => {
    const d = decodeMessage(m);
    if ('problem' in d) problem(d.problem);
    else if ('skip' in d) skip(d.skip);
    else {
      // A Spring-WS echo repeats a request already counted; a HAR request is counted here.
      if (!echo || m.shape === 'har') report.messages[m.shape]++;
      return d.ok;
    }
    return undefined;
  };
  const sink: ExtractSink = {
    message(m) {
      const decoded = decode(m);
      const echo = m.echo ? decode(m.echo, true) : undefined;
      if (!decoded) return;
      if (m.echo && !echo) {
        // The request part was unusable (and reported): the response has no partner.
        return;
      }
      pairer.add(decoded, echo);
    },
    problem,
    skipped: skip,
  };
  for (const given of files) {
    const file = given === STDIN ? '<stdin>' : given;
    const onRead = options.onRead;
    const real = options.cwd && given !== STDIN ? path.resolve(options.cwd, given) : given;
    const text = readLogText(real, limits, file, onRead && ((bytes, size) => onRead(file, bytes, size)));
    try {
      const { head, chunks } = await peek(text);
      if (head.trim() === '') throw new AccordError('ACCORD_ERR_LOG', 'the log holds only blank lines', { file });
      if (looksLikeHar(head)) {
        const r = await scanHar(file, chunks, sink, limits, options.include ?? []);
        report.files.push({ file, shape: 'har', lines: r.lines });
      } else {
        const r = await scanTextLog(file, splitLines(chunks, limits.maxLineChars), sink, limits);
        report.files.push({ file, shape: 'text', lines: r.lines });
        report.skippedLines += r.skippedLines;
      }
    } finally {
      // A log refused before its chunks were read to the end (blank, a limit, a bad entry) still has its file open: close it now, not on garbage collection.
      await text.return(undefined);
    }
  }
  pairer.finish();
  return report;
}

/** Logs to contract text: read, pair, merge, write. */
export async function importLogs(files: string[], options: ImportLogOptions = {}): Promise<ImportResult> {
  const limits: LogLimits = { ...DEFAULT_LOG_LIMITS, ...options.limits };
  const redactor = new Redactor(options.redact ?? []);
  const ops = new Operations({
    path: options.path,
    examples: options.examples ?? false,
    maxExamples: limits.maxExamples,
    maxOperations: limits.maxOperations,
    maxShapeNodes: limits.maxShapeNodes,
    redactor,
  });
  const only = options.only;
  const report = await readExchanges(files, (x) => (only === undefined || only(x) ? ops.add(x) : undefined), options);
  report.redactedValues = ops.redactedValues;
  if (ops.overflow > 0) report.skipped.set(`calls of operations beyond the first ${limits.maxOperations}`, { count: ops.overflow, details: new Map() });
  const list = [...ops.byKey.values()];
  report.scenarios = list.length;
  report.warnings = faultCodeWarnings(list);
  if (list.length === 0) return { report };
  const names = files.map((f) => (f === STDIN ? 'standard input' : f.split(/[\\/]/).pop()!));
  const contract = writeContract(list, {
    feature: options.feature ?? `Imported from ${names.join(', ')}`,
    header: [
      ...(options.provenance?.header ?? [`Generated by "accord import log" from ${report.exchanges} logged call${report.exchanges === 1 ? '' : 's'} in ${names.join(', ')}.`]),
      'Logged values became typed placeholders; edit freely.',
    ],
    cite: options.provenance?.cite ?? true,
    nameSuffix: options.scenarioSuffix,
  });
  if (!options.examples) return { contract, report };
  report.notReplayed = ops.notReplayed;
  const exampleFiles: { name: string; text: string }[] = [];
  for (const op of list) {
    const base = pascal(op.operation ?? `${op.method} ${op.path}`).slice(0, 60);
    for (const call of op.recorded ?? []) exampleFiles.push({ name: `${String(exampleFiles.length + 1).padStart(4, '0')}-${base}-${op.status}.json`, text: exampleFileText(call) });
  }
  return { contract, report, exampleFiles };
}

/**
 * One line per fault code in no namespace that the calls recorded: the contract records it as sent (the service does send it),
 * and WS-I Basic Profile R1004 asks for a qualified one, which clients built to the Profile may expect.
 */
function faultCodeWarnings(ops: Operation[]): string[] {
  const codes = new Set<string>();
  const walk = (s: ElementShape, up: ElementShape | undefined, depth: number): void => {
    if (depth > 8) return;
    if ((s.local === 'faultcode' && up?.local === 'Fault') || (s.local === 'Value' && up?.local === 'Code')) for (const c of unqualifiedCodes(s)) codes.add(c);
    for (const slot of s.slots) walk(slot.shape, s, depth + 1);
  };
  for (const op of ops) if (op.response && op.fault) walk(op.response, undefined, 0);
  return [...codes].map(
    (c) =>
      `warning: the service answers the fault code "${c}", in no namespace; recorded as sent, though WS-I Basic Profile R1004 asks for a qualified code (soap:Server, or one in the service's namespace)`,
  );
}

/** Splits the first chunk off a stream, so the format can be told before reading on. */
async function peek(stream: AsyncGenerator<string>): Promise<{ head: string; chunks: AsyncIterable<string> }> {
  let head = '';
  const buffered: string[] = [];
  // Enough text to see past leading blank lines and a BOM.
  while (head.length < 256) {
    const r = await stream.next();
    if (r.done) break;
    buffered.push(r.value);
    head += r.value;
  }
  async function* chunks(): AsyncGenerator<string> {
    yield* buffered;
    yield* stream;
  }
  return { head, chunks: chunks() };
}
