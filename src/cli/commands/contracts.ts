import type { Command } from 'commander';
import path from 'node:path';
import { EXIT_USAGE, ExitError, type Io } from '../exit';

// Loaded only when the command runs.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const shared = () => require('../../shared') as typeof import('../../shared');

/** `accord contracts pull`: the contract sources named in accord.config.json (or package.json "accord"), into .accord/. */
export function registerContracts(program: Command, io: Io): void {
  const contracts = program.command('contracts').description('contracts shared through a git repository (accord.config.json)');
  contracts
    .command('pull')
    .description('fetch the contract sources named in accord.config.json into .accord/ (provides: run by jest --preset; consumes: served by accord stub)')
    .action(async () => {
      const config = shared().readProjectConfig(io.cwd);
      if (!config) throw new ExitError(EXIT_USAGE, `accord contracts pull: no ${shared().CONFIG_FILE} (or "accord" in package.json) in ${io.cwd}`);
      if (config.sources.length === 0) throw new ExitError(EXIT_USAGE, `accord contracts pull: ${config.file} names no sources`);
      for (const s of config.sources) {
        const pulled = await shared().pullSource(config, s);
        const rel = (p: string) => path.relative(io.cwd, p) || '.';
        io.stdout(
          `${pulled.name}: ${s.ref ? `${s.ref.kind} ${s.ref.value}` : 'default branch'} at ${pulled.commit.slice(0, 12)}; provides ${pulled.provides.map(rel).join(', ') || 'nothing'}; consumes ${pulled.consumes.map(rel).join(', ') || 'nothing'}\n`,
        );
      }
    });
}
