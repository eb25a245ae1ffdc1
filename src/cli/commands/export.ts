import type { Command } from 'commander';
import path from 'node:path';
import { checkOutputFile, writeOutputFile } from '../../files';
import { parseContract, readContractFile } from '../../contract/load';
import { EXIT_USAGE, ExitError, asUsage, writeDocument, type Io } from '../exit';

/**
 * `accord export <kind> ...`: a description of the API written from a contract, the inverse of
 * `accord import`. `wsdl` is the one kind: a WSDL 1.1 with its XSD from the SOAP scenarios.
 */
export function registerExport(program: Command, io: Io): void {
  const parent = program.command('export').description('write another description of the API (a WSDL) from a contract');
  parent
    .command('wsdl')
    .description("write a WSDL 1.1 with its XSD from a contract's SOAP scenarios, for clients generated from a WSDL (zeep, suds, wsimport, .NET, the soap package)")
    .argument('<contract.spec>', 'the contract')
    .option('-o, --output <file.wsdl>', 'where to write the WSDL; "-" writes it to standard output (default: <contract base name>.wsdl in the current folder)')
    .option('--address <base>', "scheme, host and port of the service addresses, each port keeping its scenarios' path", 'http://localhost')
    .option('-f, --force', 'overwrite the output file if it exists (a symlink is replaced by the file, never written through)')
    .addHelpText('after', '\nExamples:\n  accord export wsdl contracts/quotes.spec\n  accord export wsdl quotes.spec --output - --address https://quotes.example.com\n')
    .action((file: string, opts: { output?: string; address: string; force?: boolean }) => {
      const said = 'accord export wsdl';
      let base: URL;
      try {
        base = new URL(opts.address);
      } catch {
        throw new ExitError(EXIT_USAGE, `${said}: --address must be a URL such as http://localhost:8080, found "${opts.address}"`);
      }
      if ((base.protocol !== 'http:' && base.protocol !== 'https:') || base.search || base.hash || (base.pathname !== '/' && base.pathname !== ''))
        throw new ExitError(EXIT_USAGE, `${said}: --address is a scheme, host and port (http://localhost:8080), without a path; found "${opts.address}"`);
      const toStdout = opts.output === '-';
      const output = path.resolve(io.cwd, opts.output ?? `${path.parse(file).name}.wsdl`);
      const target = { force: opts.force, shown: shown(io, output) };
      if (!toStdout) asUsage(said, () => checkOutputFile(output, target));
      const contract = parseContract(readContractFile(path.resolve(io.cwd, file), file), file);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when this command runs
      const { exportWsdl } = require('../../wsdl/export') as typeof import('../../wsdl/export');
      const r = exportWsdl(contract.scenarios, { name: contract.name, base: base.origin });
      const notWritten = r.dropped.map((l) => `  ${l}`);
      if (r.operations.length === 0) throw new ExitError(EXIT_USAGE, [`${said}: ${file}: no SOAP scenario to export; nothing written:`, ...notWritten].join('\n'));
      if (toStdout) writeDocument(io, r.text);
      else asUsage(said, () => writeOutputFile(output, r.text, target));
      const versions = r.versions.join(' and ');
      const head = `${toStdout ? '' : `wrote ${shown(io, output)}\n`}${contract.name}: ${r.operations.length} operation${r.operations.length === 1 ? '' : 's'} (${r.operations.join(', ')}), SOAP ${versions}\n`;
      (toStdout ? io.stderr : io.stdout)(head);
      // What the WSDL does not say goes to standard error, one line each: what a user must not miss.
      if (r.dropped.length > 0) io.stderr(r.dropped.map((l) => `${said}: not in the WSDL: ${l}\n`).join(''));
    });
}

function shown(io: Io, file: string): string {
  const r = path.relative(io.cwd, file);
  return r.startsWith('..') || path.isAbsolute(r) ? file : r;
}
