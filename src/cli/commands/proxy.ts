import type { Command } from 'commander';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccordError } from '../../errors';
import { writeOutputFile } from '../../files';
import { EXIT_USAGE, ExitError, asUsage, type Io } from '../exit';
import { runImportLog } from './import-log';
import { untilSignal, wholeNumber } from './stub';

interface ProxyCliOptions {
  target: string;
  port: string;
  host: string;
  out: string;
  har?: string;
  path?: string;
  examples?: boolean;
  redact?: string[];
  force?: boolean;
}

/**
 * `accord proxy --target <url> --out <file.spec>`: forwards every request to the real service
 * and returns its answers; on Ctrl+C (or SIGTERM) writes the recorded traffic as a HAR and runs
 * it through `accord import log` (typing, merging, redaction, the check that every call fits).
 */
export function registerProxy(program: Command, io: Io): void {
  program
    .command('proxy')
    .description('record traffic to a real service through a proxy, and write a typed contract from it when stopped')
    .requiredOption('--target <url>', 'the real service, e.g. http://127.0.0.1:8080')
    .requiredOption('-o, --out <file.spec>', 'where to write the contract when the proxy stops')
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', '9000')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--har <file.har>', 'also keep the recorded traffic as a HAR file')
    .option('--path <path>', 'the request path of every SOAP scenario (default: the recorded path)')
    .option('--examples', 'keep the recorded request values as an Examples table')
    .option('--redact <node>', 'never write values of this node (repeatable); passwords and wsse:Security content are always redacted', (v: string, p?: string[]) => [
      ...(p ?? []),
      v,
    ])
    .option('-f, --force', 'overwrite the output files if they exist')
    .addHelpText('after', '\nExamples:\n  accord proxy --target http://127.0.0.1:8080 --port 9000 --out contracts/pets_v1.spec\n')
    .action(async (opts: ProxyCliOptions) => {
      const port = wholeNumber(opts.port, '--port', 65535, 'accord proxy');
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when this command runs
      const { startProxy } = require('../../stub/proxy') as typeof import('../../stub/proxy');
      const proxy = await startProxy({ target: opts.target, port, host: opts.host, log: (l) => io.stderr(`${l}\n`) }).catch((e: unknown) => {
        throw e instanceof AccordError ? new ExitError(EXIT_USAGE, `accord proxy: ${e.describe()}`) : e;
      });
      const stopped = untilSignal();
      io.stdout(`accord proxy listening on ${proxy.url}, forwarding to ${opts.target}\nRecording; press Ctrl+C to stop and write ${opts.out}.\n`);
      const signal = await stopped;
      await proxy.close();
      const har = proxy.har();
      io.stderr(
        `accord proxy: ${signal} received; recorded ${har.log.entries.length} call${har.log.entries.length === 1 ? '' : 's'}${proxy.dropped ? ` (${proxy.dropped} more not recorded)` : ''}\n`,
      );
      if (har.log.entries.length === 0) throw new ExitError(EXIT_USAGE, 'accord proxy: no call was recorded; nothing written');
      const text = JSON.stringify(har, null, 1);
      const temp = opts.har ? undefined : mkdtempSync(path.join(tmpdir(), 'accord-proxy-'));
      const harFile = opts.har ? path.resolve(io.cwd, opts.har) : path.join(temp!, 'recording.har');
      try {
        asUsage('accord proxy', () => writeOutputFile(harFile, text, { force: opts.force || temp !== undefined }));
        await runImportLog([harFile], { output: opts.out, path: opts.path, examples: opts.examples, redact: opts.redact, force: opts.force, verify: true }, io);
      } finally {
        if (temp) rmSync(temp, { recursive: true, force: true });
      }
    });
}
