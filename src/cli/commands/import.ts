import { Command } from 'commander';
import path from 'node:path';
import { AccordError } from '../../errors';
import { FILE_LIMITS, checkOutputFile, readInputText, writeOutputFile } from '../../files';
import { excerpt, printable } from '../../printable';
import { EXIT_USAGE, ExitError, asUsage, writeDocument, type Io } from '../exit';

/**
 * `accord import <kind> ...`: one parent command, one subcommand per source
 * kind. `wsdl` lives here; other kinds (logs) add theirs with
 * `importCommand(program).command('log')...` from their own module.
 */
export function importCommand(program: Command): Command {
  const existing = program.commands.find((c) => c.name() === 'import');
  if (existing) return existing;
  return program.command('import').description('create a contract from another description of the API');
}

export function registerImport(program: Command, io: Io): void {
  importCommand(program)
    .command('wsdl')
    .description('write a contract (.spec) from a WSDL 1.1 or 2.0 file and the local files it imports; nothing is fetched over the network')
    .argument('<wsdl_file_path>', 'the WSDL file')
    .option('-o, --output <file.spec>', 'where to write the contract; "-" writes it to standard output (default: <wsdl base name>.spec in the current folder)')
    .option('--soap-version <1.1|1.2>', 'which SOAP version to write for operations offered over both', '1.1')
    .option('--port <name>', 'import only this port (WSDL 1.1) or endpoint (WSDL 2.0)')
    .option('-f, --force', 'overwrite the output file if it exists (a symlink is replaced by the file, never written through)')
    .option('--strict', 'refuse a partial import (exit 2, nothing written): an import or include not loaded, or an element or type not found, whose nodes would be (anything)')
    .addHelpText(
      'after',
      '\nExamples:\n  accord import wsdl calculator.wsdl\n  accord import wsdl service.wsdl --output contracts/service_v1.spec --soap-version 1.2\n  accord import wsdl service.wsdl --strict   (in CI: fail when part of the WSDL cannot be read)\n',
    )
    .action((file: string, opts: { output?: string; soapVersion: string; port?: string; force?: boolean; strict?: boolean }) => {
      if (opts.soapVersion !== '1.1' && opts.soapVersion !== '1.2')
        throw new ExitError(EXIT_USAGE, `accord import wsdl: --soap-version must be 1.1 or 1.2, found "${opts.soapVersion}"`);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when this command runs
      const { describeImport, importWsdl, isPartial, partialLines } = require('../../wsdl') as typeof import('../../wsdl');
      const input = /^[a-z][a-z0-9+.-]+:\/\//i.test(file) ? file : path.resolve(io.cwd, file);
      const toStdout = opts.output === '-';
      const output = path.resolve(io.cwd, opts.output ?? `${path.basename(file).replace(/\.[^.]*$/, '')}.spec`);
      const target = { force: opts.force, shown: shown(io, output) };
      if (!toStdout) asUsage('accord import wsdl', () => checkOutputFile(output, target));
      // The contract names its WSDL by its path from the contract's folder, where the coverage reporter looks for it.
      const source = toStdout || input !== path.resolve(io.cwd, file) ? undefined : path.relative(path.dirname(output), input).split(path.sep).join('/');
      const soapVersion = opts.soapVersion;
      const { text, summary } = notAWsdl(file, input, () => importWsdl(input, { soapVersion, port: opts.port, source }));
      // What could not be read goes to standard error, whatever else is printed where: it is what a user must not miss.
      const partial = partialLines(summary, (f) => shown(io, f));
      if (opts.strict && isPartial(summary)) {
        const head = `accord import wsdl: --strict: ${printable(file, { multiline: false })} can only be imported in part; nothing written:`;
        throw new ExitError(EXIT_USAGE, [head, ...partial.map((l) => `  ${l}`)].join('\n'));
      }
      if (toStdout) writeDocument(io, text);
      else asUsage('accord import wsdl', () => writeOutputFile(output, text, target));
      const lines = [...(toStdout ? [] : [`wrote ${shown(io, output)}`]), ...describeImport(summary)];
      // With the contract on standard output, the summary goes to standard error.
      (toStdout ? io.stderr : io.stdout)(`${lines.join('\n')}\n`);
      if (partial.length > 0) io.stderr(partial.map((l) => `accord import wsdl: ${l}\n`).join(''));
    });
}

/**
 * A file that is not XML at all (most often a contract: `accord import wsdl x.spec`) got the XML
 * parser's complaint about "content outside root element", with its text run together. Said as
 * what it is; the check runs only once the import has failed, so a WSDL pays nothing for it.
 */
function notAWsdl<T>(file: string, input: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof AccordError) || e.code !== 'ACCORD_ERR_XML' || input !== path.resolve(input)) throw e;
    let text: string;
    try {
      text = readInputText(input, { what: 'WSDL', limit: FILE_LIMITS.contractBytes });
    } catch {
      throw e;
    }
    const start = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).trimStart();
    if (start.startsWith('<')) throw e;
    const feature = text
      .slice(0, 64 * 1024)
      .split('\n')
      .find((l) => l.trimStart().startsWith('Feature:'));
    const what = feature
      ? `it looks like a .spec contract (${excerpt(feature.trim(), 60)}); a contract is run with \`accord test\` or jest --preset accord-contracts`
      : `it is not XML (it starts with ${JSON.stringify(excerpt(start.split('\n')[0], 40))})`;
    throw new ExitError(EXIT_USAGE, `accord import wsdl: ${file}: not a WSDL: ${what}; import wsdl reads a WSDL 1.1 <definitions> or WSDL 2.0 <description> file`);
  }
}

function shown(io: Io, file: string): string {
  const r = path.relative(io.cwd, file);
  return r.startsWith('..') || path.isAbsolute(r) ? file : r;
}
