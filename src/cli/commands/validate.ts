import type { Command } from 'commander';
import path from 'node:path';
import { loadContract, parseContract } from '../../contract/load';
import type { Contract } from '../../contract/model';
import { FILE_LIMITS, readInputXml, readStreamText } from '../../files';
import { formatVerdict, validateMessage } from '../../validate';
import { printable } from '../../printable';
import { EXIT_FAILED, EXIT_USAGE, ExitError, type Io } from '../exit';

const STDIN = '-';

interface ValidateFlags {
  contract?: string;
  wsdl?: string;
  operation?: string;
  response?: boolean;
  allowUnresolved?: boolean;
}

export function registerValidate(program: Command, io: Io, stdin: NodeJS.ReadableStream = process.stdin): void {
  program
    .command('validate')
    .description('say which scenario of a contract a message (request or response body) fits, or why it fits none; exit 0 fits, 1 fits none, 2 usage or input error')
    .argument('<message>', 'the message: an XML (SOAP envelope) or JSON file, or "-" for standard input')
    .option('--contract <file.spec>', 'the contract to validate against')
    .option('--wsdl <file.wsdl>', 'a WSDL, imported in memory as `accord import wsdl` would write it')
    .option('--operation <name>', 'only the scenarios of this name or SOAP operation')
    .option('--allow-unresolved', 'with --wsdl: use a WSDL whose imports cannot all be read; those nodes are (anything), which fit any content; one warning line per such node')
    .option('--response', 'the message is a response (default: a request)')
    .addHelpText('after', '\nExamples:\n  accord validate getPet.xml --contract petstore.spec\n  curl -s … | accord validate - --wsdl service.wsdl --operation getPet --response\n')
    .action(async (message: string, flags: ValidateFlags) => {
      if ((flags.contract === undefined) === (flags.wsdl === undefined))
        throw new ExitError(EXIT_USAGE, 'accord validate: give one of --contract <file.spec> or --wsdl <file.wsdl>');
      const contract = loadSource(flags, io);
      const text = await readMessage(message, io.cwd, stdin);
      const verdict = validateMessage(contract, text, { response: flags.response, operation: flags.operation, source: message === STDIN ? '<stdin>' : message });
      const report = formatVerdict(verdict, message === STDIN ? 'the message on standard input' : message, flags.contract ?? flags.wsdl!);
      io.stdout(report);
      if (verdict.fits.length === 0) throw new ExitError(EXIT_FAILED);
    });
}

function loadSource(flags: ValidateFlags, io: Io): Contract {
  if (flags.contract !== undefined) return loadContract(path.resolve(io.cwd, flags.contract));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the importer is loaded only when a WSDL is given
  const { holeLines, importWsdl, isPartial, PARTIAL_HINT, partialLines } = require('../../wsdl') as typeof import('../../wsdl');
  const { text, summary } = importWsdl(path.resolve(io.cwd, flags.wsdl!));
  // A message "fits" a node typed (anything) whatever it holds: the verdict is only as whole as the import.
  const shown = (f: string) => {
    const r = path.relative(io.cwd, f);
    return r.startsWith('..') || path.isAbsolute(r) ? f : r;
  };
  if (isPartial(summary) && !flags.allowUnresolved) {
    const lines = [...partialLines(summary, shown), PARTIAL_HINT].map((l) => `  ${l}`);
    throw new ExitError(
      EXIT_USAGE,
      [`accord validate: --wsdl ${printable(flags.wsdl!, { multiline: false })} can only be imported in part; nothing validated:`, ...lines].join('\n'),
    );
  }
  for (const line of [...partialLines(summary, shown), ...holeLines(summary, shown).map((l) => `warning: ${l}`)]) io.stderr(`accord validate: --wsdl: ${line}\n`);
  return parseContract(text, flags.wsdl!);
}

function readMessage(message: string, cwd: string, stdin: NodeJS.ReadableStream): Promise<string> | string {
  const input = { what: 'message', limit: FILE_LIMITS.messageBytes };
  if (message === STDIN) return readStreamText(stdin, { ...input, shown: '<stdin>', xml: true });
  return readInputXml(path.resolve(cwd, message), { ...input, shown: message });
}
