import { AccordError } from '../errors';
import { excerpt, quoted, withoutCredentials } from '../printable';
import type { ProjectConfig } from './config';
import { applyPlan, checkConsumerName, CONSUMERS_DIR, type PublishPlan } from './consumer-examples';
import { inCheckout, must, repositoryArg } from './pull';

/**
 * `accord contracts publish --yes`: the plan written into the source's checkout, committed
 * ("accord: examples of consumer <name>") and pushed to the source's branch. Only a source
 * at a branch (or the default branch) can be published to: a tag or a commit does not move.
 * A push refused because the branch moved on is said with what to do (pull, publish again);
 * nothing is forced.
 */
export async function publishPlan(config: ProjectConfig, plan: PublishPlan): Promise<{ commit: string; branch: string }> {
  const s = plan.source;
  const label = `${s.name} (${excerpt(withoutCredentials(s.git))})`;
  if (s.ref && s.ref.kind !== 'branch')
    throw new AccordError('ACCORD_ERR_USAGE', `${label} is read at ${s.ref.kind} ${s.ref.value}: examples are published to a branch; name one ("branch") in the settings`);
  const repo = repositoryArg(config, s.git);
  const branch = s.ref?.value ?? (await defaultBranch(plan.checkout, repo, label));
  checkConsumerName(plan.consumer);
  applyPlan(plan);
  const dir = plan.checkout;
  const part = `${CONSUMERS_DIR}/${plan.consumer}/`;
  await must(dir, ['add', '-A', '--', part], `cannot stage the examples in ${label}`);
  // What is committed is what is staged: every path of it must be in this consumer's folder, or nothing is committed or pushed.
  const staged = (await must(dir, ['diff', '--cached', '--name-only', '--no-renames', '-z', 'HEAD'], `cannot read the staged changes in ${label}`))
    .split('\0')
    .filter((f) => f !== '');
  const outside = staged.filter((f) => !f.startsWith(part));
  if (outside.length > 0) {
    await inCheckout(dir, ['reset', '-q']);
    throw new AccordError(
      'ACCORD_ERR_USAGE',
      `refusing to publish to ${label}: the change would touch ${quoted(outside[0], 120)}${outside.length > 1 ? ` and ${outside.length - 1} more` : ''}, outside ${part}; nothing was committed or pushed`,
    );
  }
  if (staged.length === 0) throw new AccordError('ACCORD_ERR_USAGE', `nothing to publish to ${label}: the examples in ${part} are as the plan would make them`);
  // The user's own name and e-mail when git has them; else the commit is accord's.
  const who = (await inCheckout(dir, ['config', 'user.email'])).code === 0 ? [] : ['-c', 'user.name=accord', '-c', 'user.email=accord@localhost'];
  await must(dir, [...who, 'commit', '-q', '--no-verify', '-m', `accord: examples of consumer ${plan.consumer}`], `cannot commit the examples in ${label}`);
  const commit = await must(dir, ['rev-parse', 'HEAD'], `cannot read the commit of ${label}`);
  const pushed = await inCheckout(dir, ['push', '-q', '--', repo, `HEAD:refs/heads/${branch}`]);
  if (pushed.code !== 0) {
    const why = excerpt(withoutCredentials(pushed.stderr.trim().split('\n').slice(-2).join(' ')), 300);
    throw new AccordError('ACCORD_ERR_GIT', `cannot push to branch ${branch} of ${label}: ${why} (if the branch moved on, run "accord contracts pull" and publish again)`);
  }
  return { commit, branch };
}

/** The branch the repository's HEAD names. */
async function defaultBranch(dir: string, repo: string, label: string): Promise<string> {
  const out = await must(dir, ['ls-remote', '--symref', '--', repo, 'HEAD'], `cannot read the default branch of ${label}`);
  const line = out.split('\n').find((l) => l.startsWith('ref: refs/heads/'));
  if (!line) throw new AccordError('ACCORD_ERR_USAGE', `${label} names no default branch: name one ("branch") in the settings`);
  return line.slice('ref: refs/heads/'.length).split('\t')[0];
}
