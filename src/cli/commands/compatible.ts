import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { consumerFits } from '../consumer-fits';
import { parseContractCached } from '../../contract/load';
import { AccordError, gather, throwGathered } from '../../errors';
import type { FileReport, VersionTexts } from '../../compat';
import type { FilePair } from '../../compat/sources';
import { EXIT_FAILED, EXIT_USAGE, ExitError, commandPath, writeDocument, type Io } from '../exit';
import { startProgress } from '../progress';
import { quoted } from '../../printable';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- package.json sits outside src/
const VERSION = (require('../../../package.json') as { version: string }).version;

// Loaded only when the command runs, so other commands (the stub's start-up) do not pay for it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const compat = () => require('../../compat') as typeof import('../../compat');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sources = () => require('../../compat/sources') as typeof import('../../compat/sources');

const FORMATS = ['text', 'json', 'junit', 'github', 'sarif', 'html'] as const;
type Format = (typeof FORMATS)[number];

interface Options {
  json?: boolean;
  format?: string;
  consumers?: string;
  consumersDecide?: boolean;
  allowPartial?: boolean;
  allowUnresolved?: boolean;
}

const CONSUMERS_HELP = "the consumers' examples (the shared repository's consumers/ folder, the default when it is there): say which consumers each break breaks";
const DECIDE_HELP = 'a change that breaks only what no consumer uses passes (exit 0)';
const PARTIAL_HELP =
  'compare a WSDL whose imports cannot all be loaded (a URL, a missing file): what they declare is (anything), not compared, and the report lists each such node';

/**
 * `accord compatible ...`: is the newer version of a contract backward
 * compatible with the older one? Exit 0 yes, 1 no, 2 for any mistake (on
 * stderr), so scripts can tell a break from a typo.
 */
export function registerCompatible(program: Command, io: Io): void {
  const compatible = program
    .command('compatible')
    .description('check that a newer version of a contract is backward compatible with the older one')
    // A usage mistake is one line on stderr (exit 2); the help is one --help away.
    .showHelpAfterError(false)
    .argument('[older]', 'older contract file (or folder)')
    .argument('[newer]', 'newer contract file (or folder)')
    .option('--json', 'print the verdict as JSON (the same as --format json)')
    .option('--format <format>', `how to print the verdict: ${FORMATS.join(', ')}`)
    .option('--consumers <folder>', CONSUMERS_HELP)
    .option('--consumers-decide', DECIDE_HELP)
    .option('--allow-unresolved', PARTIAL_HELP)
    .option('--allow-partial', 'the same as --allow-unresolved (its older name)')
    .addHelpText(
      'after',
      `
Examples:
  accord compatible git file contracts/api_math_v1.spec
  accord compatible git commits contracts/api_math_v1.spec HEAD HEAD^1
  accord compatible old/api_math_v1.spec new/api_math_v1.spec
  accord compatible old/service.wsdl new/service.wsdl
  accord compatible git commits contracts HEAD HEAD^1 --format github
  accord compatible git commits contracts HEAD HEAD^1 --format html > compatible.html

Exit codes: 0 compatible, 1 not backward compatible, 2 usage or input error.`,
    )
    .action(async (older: string | undefined, newer: string | undefined, opts: Options, cmd: Command) => {
      await check(
        () => {
          if (!older || !newer)
            throw new ExitError(
              EXIT_USAGE,
              'accord compatible: give two contracts (older, then newer), or use "compatible git file <path>" / "compatible git commits <path> <newer> <older>"',
            );
          return sources().plainPairs(older, newer, io.cwd);
        },
        opts,
        io,
        commandPath(cmd),
      );
    });

  const git = compatible
    .command('git')
    .description('compare versions of a contract kept in git')
    .argument('[subcommand...]')
    .action(([sub]: string[]) => {
      const what = sub ? `unknown subcommand "${sub}"` : 'a subcommand is needed';
      throw new ExitError(EXIT_USAGE, `accord compatible git: ${what}: use "git file <path>" or "git commits <path> <newer_ref> <older_ref>"`);
    });
  git
    .command('file')
    .description('compare the working-tree version of a contract (or every contract under a folder) with its version at HEAD')
    .argument('<contract_path>', 'contract file or folder in a git work tree')
    .option('--json', 'print the verdict as JSON (the same as --format json)')
    .option('--format <format>', `how to print the verdict: ${FORMATS.join(', ')}`)
    .option('--consumers <folder>', CONSUMERS_HELP)
    .option('--consumers-decide', DECIDE_HELP)
    .option('--allow-unresolved', PARTIAL_HELP)
    .option('--allow-partial', 'the same as --allow-unresolved (its older name)')
    .action(async (file: string, opts: Options, cmd: Command) => {
      await check(() => sources().workingTreePairs(file, io.cwd), merged(opts, cmd), io, commandPath(cmd));
    });
  git
    .command('commits')
    .description('compare a contract (or every contract under a folder) at two commits; the newer commit comes first')
    .argument('<contract_path>', 'contract file or folder in a git work tree')
    .argument('<newer_ref>', 'newer commit: HEAD, a branch, a hash ...')
    .argument('<older_ref>', 'older commit: HEAD^1, main~3, a hash ...')
    .option('--json', 'print the verdict as JSON (the same as --format json)')
    .option('--format <format>', `how to print the verdict: ${FORMATS.join(', ')}`)
    .option('--consumers <folder>', CONSUMERS_HELP)
    .option('--consumers-decide', DECIDE_HELP)
    .option('--allow-unresolved', PARTIAL_HELP)
    .option('--allow-partial', 'the same as --allow-unresolved (its older name)')
    .action(async (file: string, newerRef: string, olderRef: string, opts: Options, cmd: Command) => {
      if (await sources().swappedCommits(file, newerRef, olderRef, io.cwd)) {
        io.stderr(
          `${commandPath(cmd)}: warning: ${quoted(newerRef)}, given as the newer commit, is an ancestor of ${quoted(olderRef)}: the newer commit comes first ("git commits <path> <newer> <older>"), so this compares the change backwards\n`,
        );
      }
      await check(() => sources().commitPairs(file, newerRef, olderRef, io.cwd), merged(opts, cmd), io, commandPath(cmd));
    });
}

/** `--json` and `--format` may be written before `git` (options of `compatible`) or after the subcommand. */
function merged(opts: Options, cmd: Command): Options {
  let { json, format, consumers, consumersDecide } = opts;
  let allowPartial = opts.allowPartial || opts.allowUnresolved;
  for (let c: Command | null = cmd.parent; c; c = c.parent) {
    const o = c.opts() as Options;
    json ||= o.json;
    format ??= o.format;
    consumers ??= o.consumers;
    consumersDecide ||= o.consumersDecide;
    allowPartial ||= o.allowPartial || o.allowUnresolved;
  }
  return { json, format, consumers, consumersDecide, allowPartial };
}

/** The format asked for; a wrong one is a usage error (exit 2), said in text since no format is known. */
function formatOf(opts: Options, said: string): Format {
  const f = opts.format ?? (opts.json ? 'json' : 'text');
  if (!(FORMATS as readonly string[]).includes(f)) throw new ExitError(EXIT_USAGE, `${said}: unknown --format ${quoted(f)}: use one of ${FORMATS.join(', ')}`);
  if (opts.json && f !== 'json') throw new ExitError(EXIT_USAGE, `${said}: --json and --format ${f} ask for two formats: give one`);
  return f as Format;
}

/** `said`: the command's path (`accord compatible git file`), which its own lines start with as its errors do. */
async function check(pairs: () => FilePair[] | Promise<FilePair[]>, opts: Options, io: Io, said: string): Promise<void> {
  const format = formatOf(opts, said);
  try {
    await compare(pairs, format, io, consumersFolder(opts, io, said), opts.allowPartial === true || opts.allowUnresolved === true, said);
  } catch (e) {
    // Exit 1 has printed its report; a mistake (exit 2) still gives CI a document it can read, and the message on stderr.
    const usage = e instanceof AccordError || (e instanceof ExitError && e.exitCode === EXIT_USAGE);
    if (usage && format !== 'text' && format !== 'html') writeDocument(io, compat().formatError(format, e, (e as Error).message, VERSION));
    throw e;
  }
}

/** `--consumers`, or the `consumers/` folder of the current one when it is there; undefined: consumers are not asked about. */
function consumersFolder(opts: Options, io: Io, said: string): { folder: string; decide: boolean } | undefined {
  const given = opts.consumers ?? (existsSync(path.join(io.cwd, 'consumers')) ? 'consumers' : undefined);
  if (given === undefined) {
    if (opts.consumersDecide) throw new ExitError(EXIT_USAGE, `${said}: --consumers-decide needs the consumers' examples: give --consumers <folder>`);
    return undefined;
  }
  const folder = path.resolve(io.cwd, given);
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw new ExitError(EXIT_USAGE, `${said}: --consumers ${quoted(given)} is not a folder`);
  return { folder, decide: opts.consumersDecide === true };
}

async function compare(
  pairs: () => FilePair[] | Promise<FilePair[]>,
  format: Format,
  io: Io,
  consumers: { folder: string; decide: boolean } | undefined,
  allowPartial: boolean,
  said: string,
): Promise<void> {
  const reports: FileReport[] = [];
  const texts = new Map<string, VersionTexts>();
  const errors: AccordError[] = [];
  const list = await pairs();
  const progress = startProgress(io.progress);
  try {
    for (const [i, pair] of list.entries()) {
      progress.update(`comparing ${i + 1} of ${list.length}: ${pair.file}`);
      try {
        // The AST cache: `git file` and `git commits` meet the same texts again and again.
        const report = compat().compareVersions(pair, parseContractCached, { allowPartial });
        // The text report lists it; for the other formats it is said on stderr, so a CI log shows what the verdict does not cover.
        if (format !== 'text') for (const line of report.partial ?? []) io.stderr(`${said}: warning: ${pair.file} compared in part (--allow-partial), not compared: ${line}\n`);
        if (consumers && report.status === 'compared') report.consumers = compat().consumerImpact(report.verdict, consumerFits(pair, consumers.folder));
        reports.push(report);
        // The HTML report shows both versions side by side (a WSDL pair: the WSDL files, read before their temp copies go).
        if (format === 'html') texts.set(pair.file, compat().versionTexts(pair, report));
      } catch (e) {
        gather(errors, e);
      } finally {
        pair.older?.wsdl?.dispose?.();
        pair.newer?.wsdl?.dispose?.();
      }
    }
  } finally {
    progress.done();
  }
  // Every contract error of every file, printed by the entry point as the stub's are (exit 2).
  throwGathered(errors);
  writeReport(reports, format, io, texts);
  // Exit 0 is the normal return; a break is exit 1, with the report already printed.
  const breaking = reports.filter((r) => !r.verdict.compatible);
  if (breaking.length === 0) return;
  // --consumers-decide: a break no consumer's example meets is not a failure (each breaking file must have consumers to ask).
  if (consumers?.decide && breaking.every((r) => r.consumers?.breaksNoConsumer === true)) {
    if (format === 'text') io.stdout('The change breaks only what no consumer uses: passed (--consumers-decide)\n');
    return;
  }
  throw new ExitError(EXIT_FAILED);
}

function writeReport(reports: FileReport[], format: Format, io: Io, texts: Map<string, VersionTexts>): void {
  const c = compat();
  if (format === 'text') io.stdout(c.formatText(reports));
  else if (format === 'html') writeDocument(io, c.formatHtml(reports, texts));
  else if (format === 'json') writeDocument(io, c.formatJson(reports));
  else if (format === 'junit') writeDocument(io, c.formatJunit(reports));
  else if (format === 'github') writeDocument(io, c.formatGithub(reports));
  else writeDocument(io, c.formatSarif(reports, VERSION));
}
