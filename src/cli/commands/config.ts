import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { EXIT_USAGE, ExitError, asUsage, writeDocument, type Io } from '../exit';

// Loaded only when the command runs.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const shared = () => require('../../shared') as typeof import('../../shared');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const files = () => require('../../files') as typeof import('../../files');

interface MigrateOptions {
  from?: string;
  output?: string;
  force?: boolean;
}

/**
 * `accord config migrate`: Specmatic's settings (specmatic.yaml, .yml or .json) written as the
 * equivalent accord.config.json, and a note for each field saying what it became or why it has
 * no meaning here. The file written is what accord reads from the Specmatic file when there is no
 * accord.config.json, so migrating changes nothing in what the commands do.
 */
export function registerConfig(program: Command, io: Io): void {
  const config = program.command('config').description("accord's settings (accord.config.json)");
  config
    .command('migrate')
    .description("write accord.config.json from Specmatic's settings (specmatic.yaml, .yml or .json) and say what each field became; exit 2 on unreadable input")
    .option('--from <file>', "Specmatic's settings file (default: specmatic.yaml, specmatic.yml or specmatic.json here, in Specmatic's order)")
    .option('-o, --output <file>', 'where to write (default: accord.config.json here; - prints it, and the notes go to stderr)')
    .option('--force', 'overwrite the output file if it exists')
    .addHelpText(
      'after',
      '\nExamples:\n  accord config migrate\n  accord config migrate --from ci/specmatic.json -o accord.config.json --force\n  accord config migrate -o -     # print the settings, change nothing\n',
    )
    .action((opts: MigrateOptions) => {
      const sh = shared();
      const command = 'accord config migrate';
      const from = opts.from !== undefined ? path.resolve(io.cwd, opts.from) : sh.SPECMATIC_FILES.map((f) => path.join(io.cwd, f)).find((f) => existsSync(f));
      if (from === undefined) throw new ExitError(EXIT_USAGE, `${command}: no ${sh.SPECMATIC_FILES.join(', ')} in ${io.cwd}: give the file with --from`);
      const toStdout = opts.output === '-';
      const output = path.resolve(io.cwd, toStdout ? sh.CONFIG_FILE : (opts.output ?? sh.CONFIG_FILE));
      const shownOut = toStdout ? 'standard output' : (opts.output ?? sh.CONFIG_FILE);
      // Refused before anything is read: an existing accord.config.json is the user's.
      if (!toStdout) asUsage(command, () => files().checkOutputFile(output, { force: opts.force, shown: shownOut }));
      const shownFrom = path.relative(io.cwd, from) || from;
      const { settings, notes } = asUsage(command, () => {
        const translated = sh.specmaticSettings(from, shownFrom);
        // What accord would make of it: a source it would refuse is refused here, before anything is written.
        sh.readSpecmaticConfig(from, path.dirname(output), [], shownFrom);
        return translated;
      });
      const text = `${JSON.stringify(settings, null, 2)}\n`;
      if (toStdout) writeDocument(io, text);
      else asUsage(command, () => files().writeOutputFile(output, text, { force: opts.force, shown: shownOut }));
      // With the settings on stdout, what is said about them goes to stderr.
      const say = toStdout ? io.stderr : io.stdout;
      const counts = `${settings.sources.length} source${settings.sources.length === 1 ? '' : 's'}${settings.test ? ', test settings' : ''}`;
      say(`wrote ${shownOut} from ${shownFrom} (${counts})\n`);
      for (const n of notes) say(`  ${shownFrom}: ${n.field}: ${n.text}\n`);
      const dropped = notes.filter((n) => n.dropped).length;
      if (dropped > 0)
        say(`${dropped} field${dropped === 1 ? ' has' : 's have'} no meaning here and ${dropped === 1 ? 'is' : 'are'} not in ${toStdout ? 'the settings' : shownOut}\n`);
    });
}
