import type { Command } from 'commander';
import { lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { AccordError } from '../../errors';
import { printable } from '../../printable';
import { checkOutputFile, writeOutputFile } from '../../files';
import type { ImportLogOptions } from '../../logs';
import { EXIT_FAILED, EXIT_USAGE, ExitError, asUsage, writeDocument, type Io } from '../exit';
import { bytesProgress, startProgress } from '../progress';
import { importCommand } from './import';

export interface LogCommandOptions extends Pick<ImportLogOptions, 'path' | 'examples' | 'redact' | 'include' | 'provenance' | 'feature'> {
  output?: string;
  force?: boolean;
  skipInvalid?: boolean;
  verify: boolean;
  maxExamples?: string;
  /**
   * --wsdl: the service's WSDL (a file). The contract is then the WSDL's, as `accord import wsdl` writes
   * it (enumerations stay enumerations, ints ints), and the logged calls its example files.
   */
  wsdl?: string;
  /** How the contract and the summary name the WSDL when --wsdl is a copy (the proxy's of a fetched one). */
  wsdlSource?: string;
  /** With --wsdl: what to do when it cannot be imported (the proxy falls back to inference, saying so). */
  onWsdlProblem?: (why: string) => void;
  /** The command named in what is said on standard error (default `accord import log`; the proxy's recording says `accord proxy`). */
  command?: string;
  /** --allow-unresolved: use a --wsdl that can be imported only in part, its nodes (anything), one warning line per such node. */
  allowUnresolved?: boolean;
}

/** `accord import log <logfile>...`: logged SOAP (and HAR JSON) traffic becomes a contract. */
export function registerImportLog(program: Command, io: Io): void {
  importCommand(program)
    .command('log')
    .description('write a contract (.spec) from logged requests and responses: Apache CXF logging, one-line or pretty-printed SOAP envelopes in any log, HAR files')
    .argument('<logfile...>', 'log files (plain or gzip-compressed text, or .har); - reads standard input')
    .option('-o, --output <file.spec>', 'where to write the contract; "-" writes it to standard output (default: <first log name>.spec)')
    .option('--path <path>', 'the request path of every SOAP scenario (default: the logged address, else /ws)')
    .option('--examples', 'keep the logged request values as an Examples table, and each logged call in <output>_examples/ (a stub replays it)')
    .option('--wsdl <file>', "type the operations by the service's WSDL: the contract is the WSDL's and the logged calls its example files")
    .option('--allow-unresolved', 'with --wsdl: use a WSDL whose imports cannot all be read; those nodes are (anything), which takes any content; one warning line per such node')
    .option('--max-examples <n>', 'most Examples rows per scenario (default: 50)')
    .option('--redact <node>', 'never write values of this node (repeatable); passwords and wsse:Security content are always redacted', collect)
    .option('--include <url-prefix>', 'HAR files: only entries whose URL starts with this (repeatable), e.g. https://api.example.com/', collect)
    .option('--skip-invalid', 'leave out messages that cannot be read (truncated, not well-formed) instead of failing')
    .option('--no-verify', 'do not re-read the logs to check every logged call against the written contract')
    .option('-f, --force', 'overwrite the output file if it exists (a symlink is replaced by the file, never written through)')
    .addHelpText(
      'after',
      '\nExamples:\n  accord import log server.log\n  accord import log cxf.log.1.gz cxf.log --output contracts/pets_v1.spec --path /ws\n  accord import log recording.har --examples --redact accountNumber -o -\n',
    )
    .action((files: string[], opts: LogCommandOptions) => runImportLog(files, opts, io));
}

/** What `accord import log` does with its files and options; `accord proxy` runs its recording through it too. */
export async function runImportLog(files: string[], opts: LogCommandOptions, io: Io): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when this command runs
  const logs = require('../../logs') as Logs;
  const plan = logPlan(files, opts, io, logs);
  const typed = await importTyped(files, opts, io, logs, plan);
  const { imported, wsdl } = typed;
  const { report, exampleFiles } = imported;
  // With a WSDL the schema types the operations; the logged calls are its examples.
  const contract = refuseUnread(files, opts, logs, imported, wsdl);
  const lines = written(contract, exampleFiles, report, opts, io, plan);
  lines.push(...logs.describeReport(report), ...logs.describeProblems(report, 'left out'));
  const failed = opts.verify ? await verified(contract, files, opts, io, logs, plan, typed, lines) : 0;
  (plan.toStdout ? io.stderr : io.stdout)(`${lines.join('\n')}\n`);
  for (const w of typed.warnings) io.stderr(`${opts.command ?? 'accord import log'}: ${w}\n`);
  if (failed > 0) throw new ExitError(EXIT_FAILED);
}

type Logs = typeof import('../../logs');
type Imported = Awaited<ReturnType<Logs['importLogs']>>;

/** The options checked and the output named, before any log is read. */
interface LogPlan {
  toStdout: boolean;
  /** The contract's file; undefined for standard output. */
  output: string | undefined;
  target: { force: boolean | undefined; shown: string | undefined };
  /** Where the recorded calls go as example files (with --examples or --wsdl and an output file). */
  examplesDir: string | undefined;
  /** What the log importer is given. */
  options: ImportLogOptions & { limits: { maxExamples: number }; cwd: string };
  /** Reading with a progress line: an 18 MB log takes seconds to read, and the check reads it again. */
  reading: (verb: string) => { progress: ReturnType<typeof startProgress>; onRead: (file: string, bytes: number, size: number | undefined) => void };
}

function logPlan(files: string[], opts: LogCommandOptions, io: Io, logs: Logs): LogPlan {
  const maxExamples = Number(opts.maxExamples ?? '50');
  if (!Number.isInteger(maxExamples) || maxExamples < 1)
    throw new ExitError(EXIT_USAGE, `accord import log: --max-examples must be a whole number above 0, found "${opts.maxExamples}"`);
  if (opts.path !== undefined && !opts.path.startsWith('/')) throw new ExitError(EXIT_USAGE, `accord import log: --path must start with "/", found "${opts.path}"`);
  const toStdout = opts.output === '-';
  if (files.filter((f) => f === logs.STDIN).length > 1) throw new ExitError(EXIT_USAGE, 'accord import log: standard input (-) can be read only once');
  const base =
    files[0] === logs.STDIN
      ? 'stdin'
      : path
          .basename(files[0])
          .replace(/(\.gz)?$/, '')
          .replace(/\.[^.]*$/, '');
  const output = toStdout ? undefined : path.resolve(io.cwd, opts.output ?? `${base}.spec`);
  const target = { force: opts.force, shown: output && shown(io, output) };
  if (output) asUsage('accord import log', () => checkOutputFile(output, target));
  const examplesDir = output && (opts.examples || opts.wsdl !== undefined) ? examplesFolder(output) : undefined;
  if (examplesDir) checkExamplesFolder(examplesDir, shown(io, examplesDir), opts.force, 'accord import log');
  const options = {
    path: opts.path,
    examples: opts.examples,
    redact: opts.redact,
    include: opts.include,
    limits: { maxExamples },
    cwd: io.cwd,
    provenance: opts.provenance,
    feature: opts.feature,
  };
  const reading = (verb: string) => {
    const progress = startProgress(io.progress);
    return { progress, onRead: (file: string, bytes: number, size: number | undefined) => progress.update(bytesProgress(verb, path.basename(file), bytes, size)) };
  };
  return { toStdout, output, target, examplesDir, options, reading };
}

/** The logs imported, and the WSDL's contract that types them (--wsdl) with the calls it does not describe added, or dropped. */
interface Typed {
  imported: Imported;
  /** The WSDL's contract; undefined without --wsdl, or when the proxy's WSDL did not describe the calls. */
  wsdl: string | undefined;
  /** Said once each on standard error: what the recorded service does against the rules its contract keeps. */
  warnings: string[];
}

async function importTyped(files: string[], opts: LogCommandOptions, io: Io, logs: Logs, plan: LogPlan): Promise<Typed> {
  const { options, output } = plan;
  let wsdl = opts.wsdl !== undefined ? wsdlContract(opts, io, output) : undefined;
  let warnings: string[] = [];
  const read = plan.reading('reading');
  let imported = await logs.importLogs(files, { ...options, examples: opts.examples || wsdl !== undefined, onRead: read.onRead }).finally(() => read.progress.done());
  if (wsdl !== undefined && opts.onWsdlProblem && imported.contract && logs.readableTwice(path.resolve(io.cwd, files[0]))) {
    // A WSDL found by guessing (the proxy's `?wsdl`) may not describe every recorded call (an undeclared fault, one service of
    // several on the target): those calls are typed from the recording beside the WSDL's scenarios (logs/misfits.ts).
    const bad = await logs.verifyLogs(logs.parseGenerated(wsdl, output ?? '<stdout>'), files, options);
    const extra = bad.length > 0 ? await logs.addMisfits(wsdl, bad, files, options, output ?? '<stdout>') : undefined;
    if (extra) {
      wsdl = extra.contract;
      warnings = extra.warnings;
      io.stderr(misfitsSaid(bad, imported.report.exchanges, opts));
    } else if (bad.length > 0) {
      opts.onWsdlProblem(`${bad.length} of ${imported.report.exchanges} recorded calls do not match it`);
      wsdl = undefined;
      if (!opts.examples) imported = await logs.importLogs(files, options);
    }
  }
  if (wsdl !== undefined && imported.contract && logs.readableTwice(path.resolve(io.cwd, files[0]))) {
    // A declared fault the recording caught is pinned by an Examples row, so its test is run (logs/misfits.ts).
    const pinned = await logs.pinRecordedFaults(wsdl, files, options, output ?? '<stdout>');
    wsdl = pinned.contract;
    for (const note of pinned.notes) (plan.toStdout ? io.stderr : io.stdout)(`${printable(note).slice(0, 400)}\n`);
  }
  if (wsdl === undefined) warnings = imported.report.warnings;
  return { imported, wsdl, warnings };
}

/** The recorded calls the WSDL does not describe, the first ten named, said once. */
function misfitsSaid(bad: Awaited<ReturnType<Logs['verifyLogs']>>, n: number, opts: LogCommandOptions): string {
  const command = opts.command ?? 'accord import log';
  return (
    `${command}: ${bad.length} of ${n} recorded call${n === 1 ? '' : 's'} ${bad.length === 1 ? 'does' : 'do'} not fit the WSDL ${opts.wsdlSource ?? opts.wsdl}; ` +
    `${bad.length === 1 ? 'it is' : 'they are'} typed from the recording, beside the WSDL's scenarios:\n` +
    bad
      .slice(0, 10)
      .map((b) => {
        const m = b.mismatches[0];
        const where = opts.provenance?.cite === false ? '' : ` (${b.at.file}:${b.at.line})`;
        const why = m ? `${m.path}: expected ${m.expected}, found ${m.actual}` : 'no scenario takes it';
        return printable(`  ${b.operation ?? 'a call'} answered with status ${b.status}${where}: ${why}`).slice(0, 400) + '\n';
      })
      .join('') +
    (bad.length > 10 ? `  … and ${bad.length - 10} more\n` : '')
  );
}

/** The contract to write; refused when a message could not be read (without --skip-invalid) or no pair was found. */
function refuseUnread(files: string[], opts: LogCommandOptions, logs: Logs, imported: Imported, wsdl: string | undefined): string {
  const { report } = imported;
  const contract = imported.contract && (wsdl ?? imported.contract);
  const problemCount = report.problemCount;
  if (problemCount > 0 && !opts.skipInvalid) {
    throw new ExitError(
      EXIT_USAGE,
      [
        `accord import log: ${problemCount} logged message${problemCount === 1 ? '' : 's'} cannot be read; nothing written (use --skip-invalid to leave them out):`,
        ...logs.describeProblems(report),
      ].join('\n'),
    );
  }
  if (!contract) {
    throw new ExitError(EXIT_USAGE, [`accord import log: no request/response pair found in ${files.join(', ')}`, ...logs.describeReport(report).map((l) => `  ${l}`)].join('\n'));
  }
  return contract;
}

/** The contract written (to its file, with the example files beside it, or to standard output), before checking: a contract that does not take some logged call is still worth a look. */
function written(contract: string, exampleFiles: Imported['exampleFiles'], report: Imported['report'], opts: LogCommandOptions, io: Io, plan: LogPlan): string[] {
  const { output, examplesDir } = plan;
  const lines: string[] = [];
  if (output) {
    asUsage('accord import log', () => writeOutputFile(output, contract, plan.target));
    lines.push(`wrote ${shown(io, output)}`);
    if (examplesDir && exampleFiles && exampleFiles.length > 0) {
      writeExampleFiles(examplesDir, exampleFiles, opts.force);
      const held = report.notReplayed ? ` (${report.notReplayed} more not kept: their answer holds a secret)` : '';
      lines.push(
        `wrote ${exampleFiles.length} recorded call${exampleFiles.length === 1 ? '' : 's'} to ${shown(io, examplesDir)}${held}: a stub answers each with its recorded answer`,
      );
    }
  } else {
    writeDocument(io, contract);
    if (opts.examples) lines.push('recorded answers are written as example files only beside an --output file');
  }
  return lines;
}

/** The check: the logs read again, every call held to the written contract, and every example file to it; how many failed (its lines added to `lines`). */
async function verified(contract: string, files: string[], opts: LogCommandOptions, io: Io, logs: Logs, plan: LogPlan, typed: Typed, lines: string[]): Promise<number> {
  const { output, examplesDir, options } = plan;
  const { wsdl, imported } = typed;
  const { report, exampleFiles } = imported;
  const once = files.filter((f) => !logs.readableTwice(f === logs.STDIN ? f : path.resolve(io.cwd, f)));
  if (once.length > 0) {
    lines.push(`not checked: ${once.map((f) => (f === logs.STDIN ? 'standard input' : f)).join(', ')} cannot be read a second time`);
    return 0;
  }
  const parsed = logs.parseGenerated(contract, output ?? '<stdout>');
  if (wsdl !== undefined) lines.push(`typed by ${opts.wsdlSource ?? opts.wsdl!}: the contract is the WSDL's, the logged calls are its examples`);
  const check = plan.reading('checking');
  const bad = await logs.verifyLogs(parsed, files, { ...options, onRead: check.onRead }).finally(() => check.progress.done());
  let failed = bad.length;
  lines.push(...logs.describeCheck(bad, report.exchanges, wsdl !== undefined));
  if (examplesDir && exampleFiles && exampleFiles.length > 0) {
    // What a stub of the recording will do at start: every example file must fit the contract, or the stub would not start.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when example files were written
    const { loadExampleFiles } = require('../../stub/answer/example-files') as typeof import('../../stub/answer/example-files');
    const errors: AccordError[] = [];
    loadExampleFiles(parsed, errors);
    if (wsdl !== undefined) {
      // A call the service answered outside its own WSDL is reported above; its file would stop a stub, so it goes.
      for (const e of errors) if (e.location.file) rmSync(e.location.file, { force: true });
      if (errors.length > 0)
        lines.push(`left out of ${shown(io, examplesDir)}: ${errors.length} recorded call${errors.length === 1 ? '' : 's'} that the WSDL's contract does not take`);
    } else {
      failed += errors.length;
      for (const e of errors.slice(0, 10)) lines.push(`recorded call does not fit the contract (a bug in accord, please report it): ${e.describe()}`);
    }
  }
  return failed;
}

/** The WSDL's contract as `accord import wsdl` writes it, every SOAP port; undefined (said) when --wsdl cannot be imported and a fallback is wanted. */
function wsdlContract(opts: LogCommandOptions, io: Io, output: string | undefined): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with --wsdl
  const { holeLines, importWsdl, isPartial, PARTIAL_HINT, partialLines } = require('../../wsdl') as typeof import('../../wsdl');
  const file = path.resolve(io.cwd, opts.wsdl!);
  const source = opts.wsdlSource ?? (output ? path.relative(path.dirname(output), file) : path.basename(file));
  try {
    const { text, summary } = importWsdl(file, { everyPort: true, source });
    if (!isPartial(summary)) return text;
    // A copy (the proxy's of the WSDL it fetched) is named as the service's; the files beside it by their own names.
    const named = (f: string) => (opts.wsdlSource === undefined ? shown(io, f) : f === file ? opts.wsdlSource : path.basename(f));
    const command = opts.command ?? 'accord import log';
    const partial = partialLines(summary, named);
    if (!opts.allowUnresolved && !opts.onWsdlProblem) {
      const head = `${command}: --wsdl ${printable(opts.wsdl!, { multiline: false })} can only be imported in part; nothing written:`;
      throw new ExitError(EXIT_USAGE, [head, ...partial.map((l) => `  ${l}`), `  ${PARTIAL_HINT}`].join('\n'));
    }
    const holes = opts.allowUnresolved ? holeLines(summary, named).map((l) => `warning: ${l}`) : [];
    io.stderr([...partial, ...holes].map((l) => `${command}: --wsdl: ${l}\n`).join(''));
    // The proxy refuses a partial WSDL, as when one of its imports cannot be fetched: the recorded values type better than (anything).
    if (!opts.allowUnresolved && opts.onWsdlProblem) {
      opts.onWsdlProblem('it can only be imported in part');
      return undefined;
    }
    return text;
  } catch (e) {
    if (!(e instanceof AccordError)) throw e;
    if (opts.onWsdlProblem) {
      opts.onWsdlProblem(e.describe());
      return undefined;
    }
    throw new ExitError(EXIT_USAGE, `accord import log: --wsdl ${opts.wsdl!}: ${e.describe()}`);
  }
}

/** Where the recorded calls of `<name>.spec` go: `<name>_examples/`, which `accord stub` reads beside it. */
export function examplesFolder(output: string): string {
  return `${output.toLowerCase().endsWith('.spec') ? output.slice(0, -'.spec'.length) : output}_examples`;
}

/** A folder of example files already there is replaced only with --force: old recorded calls would answer beside the new ones. */
export function checkExamplesFolder(dir: string, shownDir: string, force: boolean | undefined, command: string): void {
  let names: string[];
  try {
    if (lstatSync(dir).isSymbolicLink()) throw new ExitError(EXIT_USAGE, `${command}: ${shownDir} is a symlink; accord does not write through links`);
    names = readdirSync(dir);
  } catch (e) {
    if (e instanceof ExitError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new ExitError(EXIT_USAGE, `${command}: cannot use ${shownDir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!force && names.some((n) => n.endsWith('.json')))
    throw new ExitError(EXIT_USAGE, `${command}: ${shownDir} holds example files already; use --force to replace the recorded ones`);
}

/** `0001-GetOrder-200.json`: a name accord gave a recorded call (the only files --force removes). */
function isRecordedName(name: string): boolean {
  if (!name.endsWith('.json') || name.length < 10 || name[4] !== '-') return false;
  for (let i = 0; i < 4; i++) if (name[i] < '0' || name[i] > '9') return false;
  return true;
}

function writeExampleFiles(dir: string, files: { name: string; text: string }[], force: boolean | undefined): void {
  asUsage('accord import log', () => {
    try {
      mkdirSync(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new AccordError('ACCORD_ERR_IO', `cannot make the example folder: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { file: dir });
      // Checked at start: with --force the recorded calls of an earlier run go, other files stay.
      for (const n of readdirSync(dir)) if (isRecordedName(n)) rmSync(path.join(dir, n), { force: true });
    }
    for (const f of files) writeOutputFile(path.join(dir, f.name), f.text, { force, shown: f.name });
  });
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function shown(io: Io, file: string): string {
  const r = path.relative(io.cwd, file);
  return r.startsWith('..') || path.isAbsolute(r) ? file : r;
}
