import { cpSync, existsSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { AccordError } from '../errors';
import { git } from '../compat/git';
import { excerpt } from '../printable';
import { cachePaths, type ContractSource, type ProjectConfig } from './config';

/**
 * `accord contracts pull`: each source's repository, shallow where git
 * allows it, into `.accord/checkouts/<name>` at its branch, tag or commit,
 * then the contracts it provides and consumes copied to `.accord/provides/<name>`
 * (run by `jest --preset accord-contracts`) and `.accord/consumes/<name>`
 * (served by `accord stub`). Git runs with argument arrays, never a shell;
 * the URL comes after `--`, and transports that run commands (`ext::`) are refused.
 */
export interface PulledSource {
  name: string;
  commit: string;
  provides: string[];
  consumes: string[];
}

/** `-c` settings for every git call here: no command-running transports, no prompts. */
const SAFE = ['-c', 'protocol.ext.allow=never', '-c', 'core.symlinks=false'];

async function must(cwd: string, args: string[], what: string): Promise<string> {
  const r = await git(cwd, [...SAFE, ...args]);
  if (r.code !== 0) throw new AccordError('ACCORD_ERR_GIT', `${what}: ${excerpt(r.stderr.trim().split('\n').pop() ?? '', 300)}`);
  return r.stdout.trim();
}

/** A local path is read relative to the project; anything with a scheme or `host:path` is a URL for git. */
function repositoryArg(config: ProjectConfig, url: string): string {
  const colon = url.indexOf(':');
  const slash = [url.indexOf('/'), url.indexOf('\\')].filter((i) => i >= 0).sort((a, b) => a - b)[0] ?? -1;
  // `scheme://...` or scp-like `host:path`; a one-letter "host" is a Windows drive (C:\contracts).
  const remote = url.includes('://') || (colon > 1 && (slash < 0 || colon < slash));
  return remote ? url : path.resolve(config.root, url);
}

export async function pullSource(config: ProjectConfig, s: ContractSource): Promise<PulledSource> {
  const where = cachePaths(config, s);
  const repo = repositoryArg(config, s.git);
  rmSync(where.checkout, { recursive: true, force: true });
  mkdirSync(where.checkout, { recursive: true });
  const dir = where.checkout;
  await must(dir, ['init', '-q'], `cannot make ${dir}`);
  const label = `${s.name} (${excerpt(s.git)})`;
  if (s.ref?.kind === 'commit') {
    // A commit by hash: shallow when the server allows it, else the whole history.
    const shallow = await git(dir, [...SAFE, 'fetch', '-q', '--depth', '1', '--', repo, s.ref.value]);
    if (shallow.code !== 0) await must(dir, ['fetch', '-q', '--', repo, '+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'], `cannot fetch ${label}`);
    await must(dir, ['checkout', '-q', '--detach', s.ref.value], `commit ${s.ref.value} is not in ${label}`);
  } else {
    const ref = s.ref ? (s.ref.kind === 'tag' ? `refs/tags/${s.ref.value}` : `refs/heads/${s.ref.value}`) : 'HEAD';
    await must(dir, ['fetch', '-q', '--depth', '1', '--', repo, ref], `cannot fetch ${s.ref ? `${s.ref.kind} ${s.ref.value}` : 'the default branch'} of ${label}`);
    await must(dir, ['checkout', '-q', '--detach', 'FETCH_HEAD'], `cannot check out ${label}`);
  }
  const commit = await must(dir, ['rev-parse', 'HEAD'], `cannot read the commit of ${label}`);
  return { name: s.name, commit, provides: copy(dir, s.provides, where.provides, label), consumes: copy(dir, s.consumes, where.consumes, label) };
}

/** The listed files or folders, copied under `to` at their paths in the repository (the old copy replaced); a symlink is refused. */
function copy(checkout: string, paths: readonly string[], to: string, label: string): string[] {
  rmSync(to, { recursive: true, force: true });
  for (const p of paths) {
    const from = path.join(checkout, p);
    if (!existsSync(from)) throw new AccordError('ACCORD_ERR_USAGE', `${excerpt(p)} is not in ${label}`);
    if (lstatSync(from).isSymbolicLink()) throw new AccordError('ACCORD_ERR_USAGE', `${excerpt(p)} in ${label} is a symlink: refused`);
    mkdirSync(path.dirname(path.join(to, p)), { recursive: true });
    cpSync(from, path.join(to, p), { recursive: true, verbatimSymlinks: true, filter: (src) => !lstatSync(src).isSymbolicLink() && path.basename(src) !== '.git' });
  }
  return paths.map((p) => path.join(to, p));
}
