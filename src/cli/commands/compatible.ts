import type { Command } from 'commander';
import { parseContractCached } from '../../contract/load';
import { AccordError, gather, throwGathered } from '../../errors';
import type { FileReport } from '../../compat';
import type { FilePair } from '../../compat/sources';
import { EXIT_FAILED, EXIT_USAGE, ExitError, writeDocument, type Io } from '../exit';
import { startProgress } from '../progress';

// Loaded only when the command runs, so other commands (the stub's start-up) do not pay for it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const compat = () => require('../../compat') as typeof import('../../compat');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sources = () => require('../../compat/sources') as typeof import('../../compat/sources');

interface Options {
  json?: boolean;
}

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
    .option('--json', 'print the verdict as JSON')
    .addHelpText(
      'after',
      `
Examples:
  accord compatible git file contracts/api_math_v1.spec
  accord compatible git commits contracts/api_math_v1.spec HEAD HEAD^1
  accord compatible old/api_math_v1.spec new/api_math_v1.spec

Exit codes: 0 compatible, 1 not backward compatible, 2 usage or input error.`,
    )
    .action(async (older: string | undefined, newer: string | undefined, opts: Options) => {
      if (!older || !newer)
        throw new ExitError(
          EXIT_USAGE,
          'accord compatible: give two contracts (older, then newer), or use "compatible git file <path>" / "compatible git commits <path> <newer> <older>"',
        );
      await check(() => sources().plainPairs(older, newer, io.cwd), opts, io);
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
    .option('--json', 'print the verdict as JSON')
    .action(async (file: string, opts: Options, cmd: Command) => {
      await check(() => sources().workingTreePairs(file, io.cwd), merged(opts, cmd), io);
    });
  git
    .command('commits')
    .description('compare a contract (or every contract under a folder) at two commits; the newer commit comes first')
    .argument('<contract_path>', 'contract file or folder in a git work tree')
    .argument('<newer_ref>', 'newer commit: HEAD, a branch, a hash ...')
    .argument('<older_ref>', 'older commit: HEAD^1, main~3, a hash ...')
    .option('--json', 'print the verdict as JSON')
    .action(async (file: string, newerRef: string, olderRef: string, opts: Options, cmd: Command) => {
      await check(() => sources().commitPairs(file, newerRef, olderRef, io.cwd), merged(opts, cmd), io);
    });
}

/** `--json` may be written before `git` (an option of `compatible`) or after the subcommand. */
function merged(opts: Options, cmd: Command): Options {
  let json = opts.json;
  for (let c: Command | null = cmd.parent; c && !json; c = c.parent) json = (c.opts() as Options).json;
  return { json };
}

async function check(pairs: () => FilePair[] | Promise<FilePair[]>, opts: Options, io: Io): Promise<void> {
  const reports: FileReport[] = [];
  const errors: AccordError[] = [];
  const list = await pairs();
  const progress = startProgress(io.progress);
  try {
    for (const [i, pair] of list.entries()) {
      progress.update(`comparing ${i + 1} of ${list.length}: ${pair.file}`);
      try {
        // The AST cache: `git file` and `git commits` meet the same texts again and again.
        reports.push(compat().compareVersions(pair, parseContractCached));
      } catch (e) {
        gather(errors, e);
      }
    }
  } finally {
    progress.done();
  }
  // Every contract error of every file, printed by the entry point as the stub's are (exit 2).
  throwGathered(errors);
  if (opts.json) writeDocument(io, compat().formatJson(reports));
  else io.stdout(compat().formatText(reports));
  // Exit 0 is the normal return; a break is exit 1, with the report already printed.
  if (!reports.every((r) => r.verdict.compatible)) throw new ExitError(EXIT_FAILED);
}
