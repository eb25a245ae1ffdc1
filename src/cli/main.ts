import { Command, CommanderError } from 'commander';
import { AccordError, internalErrorText } from '../errors';
import { inert, printable } from '../printable';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, ExitError, commandPath, type Io } from './exit';
import { registerCommands } from './commands';

/**
 * `run(argv, io)` is the whole CLI, testable without spawning; `main()` is the
 * only place that exits the process.
 */
export async function run(argv: string[], given: Io): Promise<number> {
  // Messages quote input (names, contract and log lines, paths, arguments): made printable at the door, so none writes to the terminal,
  // and inert, so none is read as a CI runner's command (`::warning::`, `##[add-mask]`). A document is data and goes out as it is.
  const io: Io = {
    cwd: given.cwd,
    stdout: (s) => given.stdout(inert(printable(s))),
    stderr: (s) => given.stderr(inert(printable(s))),
    document: given.document ?? given.stdout,
    progress: given.progress,
  };
  const program = new Command();
  program
    .name('accord')
    .description('Contract testing for SOAP and HTTP APIs from Gherkin .spec contracts')
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- package.json sits outside src/
    .version((require('../../package.json') as { version: string }).version, '-V, --version', 'print the version of accord')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .showHelpAfterError();
  // An error is said by the command that failed (`accord import wsdl: …`), as its own warnings are, so a CI log with several
  // accord steps shows which one said it; bare `accord:` only when no command was resolved (commander says those itself).
  let said = 'accord';
  program.hook('preAction', (_program, action) => {
    said = commandPath(action);
  });
  registerCommands(program, io, argv[0]);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (e) {
    return exitCodeFor(e, io, said);
  }
}

function exitCodeFor(e: unknown, io: Io, said: string): number {
  if (e instanceof ExitError) {
    if (e.message) io.stderr(`${e.message}\n`);
    return e.exitCode;
  }
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.exitCode === 0) return EXIT_OK;
    return EXIT_USAGE;
  }
  if (e instanceof AccordError) {
    io.stderr(`${said}: ${e.describe()}\n`);
    return EXIT_USAGE;
  }
  io.stderr(`${said}: ${internalErrorText(e, { stack: true })}\n`);
  return EXIT_FAILED;
}

export function main(): void {
  closedReader(process.stdout);
  closedReader(process.stderr);
  const io: Io = { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), cwd: process.cwd(), progress: process.stderr };
  run(process.argv.slice(2), io).then(
    (code) => {
      // Long-running commands (the stub) keep the process alive themselves and never resolve here.
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`accord: ${internalErrorText(e, { stack: true })}\n`);
      process.exitCode = EXIT_FAILED;
    },
  );
}

/**
 * `accord compatible --help | head`: the reader goes away and the next write fails with EPIPE, which
 * Node raises as an unhandled 'error' event (a stack trace). Such writes are dropped instead: the
 * reader has what it wanted, and the command ends with its own exit status (a stub keeps serving).
 */
function closedReader(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return;
    if (stream !== process.stderr) process.stderr.write(`accord: ${internalErrorText(e, { during: 'writing its output' })}\n`);
    process.exit(EXIT_FAILED);
  });
}
