import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { EXIT_USAGE, ExitError, type Io } from '../exit';

// Loaded only when the command runs.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const shared = () => require('../../shared') as typeof import('../../shared');

/** `accord contracts pull`: the contract sources named in accord.config.json (or package.json "accord", or Specmatic's specmatic.yaml/.json), into .accord/. */
export function registerContracts(program: Command, io: Io): void {
  const contracts = program.command('contracts').description('contracts shared through a git repository (accord.config.json)');
  contracts
    .command('pull')
    .description('fetch the contract sources named in accord.config.json into .accord/ (provides: run by jest --preset; consumes: served by accord stub)')
    .action(async () => {
      const config = shared().readProjectConfig(io.cwd);
      if (!config) throw new ExitError(EXIT_USAGE, `accord contracts pull: no ${shared().CONFIG_FILE} (or "accord" in package.json, or specmatic.yaml/.json) in ${io.cwd}`);
      const notice = shared().settingsNotice(config, 'accord contracts pull');
      if (notice) io.stderr(`${notice}\n`);
      if (config.sources.length === 0) throw new ExitError(EXIT_USAGE, `accord contracts pull: ${config.file} names no sources`);
      for (const s of config.sources) {
        const pulled = await shared().pullSource(config, s);
        const rel = (p: string) => path.relative(io.cwd, p) || '.';
        io.stdout(
          `${pulled.name}: ${s.ref ? `${s.ref.kind} ${s.ref.value}` : 'default branch'} at ${pulled.commit.slice(0, 12)}; provides ${pulled.provides.map(rel).join(', ') || 'nothing'}; consumes ${pulled.consumes.map(rel).join(', ') || 'nothing'}\n`,
        );
        if (pulled.consumerExamples.length > 0)
          io.stdout(`${pulled.name}: consumers' examples of what it provides: ${pulled.consumerExamples.map((c) => `${c.consumer} (${c.files})`).join(', ')}\n`);
      }
    });
  contracts
    .command('publish')
    .description("put the consumer examples this project's tests exported (.accord/consumer-examples/) into its part of the shared repository")
    .requiredOption('--consumer <name>', "this consumer's name: its examples go to consumers/<name>/ in the shared repository")
    .option('--yes', 'write, commit and push the changes shown (without it, nothing is changed)')
    .option('--source <name>', 'only this source (default: every source the examples belong to)')
    .action(async (opts: { consumer: string; yes?: boolean; source?: string }) => {
      const sh = shared();
      // Before anything is pulled or written: an unset CI variable (`--consumer ""`) must not reach the repository.
      sh.checkConsumerName(opts.consumer);
      const config = sh.readProjectConfig(io.cwd);
      if (!config) throw new ExitError(EXIT_USAGE, `accord contracts publish: no ${sh.CONFIG_FILE} (or "accord" in package.json, or specmatic.yaml/.json) in ${io.cwd}`);
      const notice = sh.settingsNotice(config, 'accord contracts publish');
      if (notice) io.stderr(`${notice}\n`);
      const chosen = config.sources.filter((s) => opts.source === undefined || s.name === opts.source);
      if (chosen.length === 0)
        throw new ExitError(EXIT_USAGE, `accord contracts publish: ${opts.source === undefined ? `${config.file} names no sources` : `no source is named "${opts.source}"`}`);
      const exported = chosen.filter((s) => existsSync(path.join(config.root, sh.EXPORT_DIR, s.name)));
      const plans = [];
      // Planned against the branch as it is now: the checkout is pulled first.
      for (const s of exported) {
        await sh.pullSource(config, s);
        plans.push(sh.planPublish(config, s, opts.consumer));
      }
      if (plans.length === 0) throw new ExitError(EXIT_USAGE, `accord contracts publish: nothing exported in ${sh.EXPORT_DIR}: run the tests with ACCORD_EXPORT_EXAMPLES=1 first`);
      for (const plan of plans) io.stdout(sh.formatPlan(plan));
      const changing = plans.filter((p) => !sh.planIsEmpty(p));
      if (changing.length === 0) {
        io.stdout('nothing to publish: the shared repository has these examples already\n');
        return;
      }
      if (!opts.yes) {
        io.stdout('nothing changed: run again with --yes to write, commit and push these changes\n');
        return;
      }
      for (const plan of changing) {
        const done = await sh.publishPlan(config, plan);
        io.stdout(`${plan.source.name}: pushed ${done.commit.slice(0, 12)} to branch ${done.branch}\n`);
      }
    });
}
