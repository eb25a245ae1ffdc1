import { cpSync, existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { AccordError } from '../errors';
import { git } from '../compat/git';
import { excerpt, withoutCredentials } from '../printable';
import { CACHE_DIR, cachePaths, type ContractSource, type ProjectConfig } from './config';
import { copyConsumerExamples, type ConsumerExampleCount } from './consumer-examples';

/**
 * `accord contracts pull`: each source's repository, shallow where git
 * allows it, into `.accord/checkouts/<name>` at its branch, tag or commit,
 * then the contracts it provides and consumes copied to `.accord/provides/<name>`
 * (run by `jest --preset accord-contracts`) and `.accord/consumes/<name>`
 * (served by `accord stub`). Git runs with argument arrays, never a shell;
 * the URL comes after `--`, and transports that run commands (`ext::`) are refused.
 * Git runs in the checkout's own repository, named (`--git-dir`), never one an
 * inherited GIT_DIR names. Nothing is removed or written outside `.accord/`:
 * a symlink anywhere in accord's folders is refused, not followed (a committed
 * `.accord/checkouts -> ../../..` made a pull replace the user's own folders).
 */
export interface PulledSource {
  name: string;
  commit: string;
  provides: string[];
  consumes: string[];
  /** Consumers' examples of the provided contracts (consumer-examples.ts), copied beside them. */
  consumerExamples: ConsumerExampleCount[];
}

/** `-c` settings for every git call here: no command-running transports, no prompts. */
const SAFE = ['-c', 'protocol.ext.allow=never', '-c', 'core.symlinks=false'];

/** git in the checkout `dir` and its own repository, whatever the environment or the folders above say. */
export function inCheckout(dir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return git(dir, [`--git-dir=${path.join(dir, '.git')}`, `--work-tree=${dir}`, ...SAFE, ...args]);
}

export async function must(dir: string, args: string[], what: string): Promise<string> {
  const r = await inCheckout(dir, args);
  if (r.code !== 0) throw new AccordError('ACCORD_ERR_GIT', `${what}: ${excerpt(withoutCredentials(r.stderr.trim().split('\n').pop() ?? ''), 300)}`);
  return r.stdout.trim();
}

/** A local path is read relative to the project; anything with a scheme or `host:path` is a URL for git. */
export function repositoryArg(config: ProjectConfig, url: string): string {
  const colon = url.indexOf(':');
  const slash = [url.indexOf('/'), url.indexOf('\\')].filter((i) => i >= 0).sort((a, b) => a - b)[0] ?? -1;
  // `scheme://...` or scp-like `host:path`; a one-letter "host" is a Windows drive (C:\contracts).
  const remote = url.includes('://') || (colon > 1 && (slash < 0 || colon < slash));
  return remote ? url : path.resolve(config.root, url);
}

export async function pullSource(config: ProjectConfig, s: ContractSource): Promise<PulledSource> {
  const where = cachePaths(config, s);
  const repo = repositoryArg(config, s.git);
  // All three folders are checked before any is touched.
  const own = ownFolders(config.root);
  for (const folder of [where.checkout, where.provides, where.consumes]) own.check(folder);
  const dir = own.replace(where.checkout);
  await must(dir, ['init', '-q'], `cannot make ${dir}`);
  const label = `${s.name} (${excerpt(withoutCredentials(s.git))})`;
  if (s.ref?.kind === 'commit') {
    // A commit by hash: shallow when the server allows it, else the whole history.
    const shallow = await inCheckout(dir, ['fetch', '-q', '--depth', '1', '--', repo, s.ref.value]);
    if (shallow.code !== 0) await must(dir, ['fetch', '-q', '--', repo, '+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'], `cannot fetch ${label}`);
    await must(dir, ['checkout', '-q', '--detach', s.ref.value], `commit ${s.ref.value} is not in ${label}`);
  } else {
    const ref = s.ref ? (s.ref.kind === 'tag' ? `refs/tags/${s.ref.value}` : `refs/heads/${s.ref.value}`) : 'HEAD';
    await must(dir, ['fetch', '-q', '--depth', '1', '--', repo, ref], `cannot fetch ${s.ref ? `${s.ref.kind} ${s.ref.value}` : 'the default branch'} of ${label}`);
    await must(dir, ['checkout', '-q', '--detach', 'FETCH_HEAD'], `cannot check out ${label}`);
  }
  const commit = await must(dir, ['rev-parse', 'HEAD'], `cannot read the commit of ${label}`);
  const provides = copy(own, dir, s.provides, where.provides, label);
  return {
    name: s.name,
    commit,
    provides,
    consumes: copy(own, dir, s.consumes, where.consumes, label),
    consumerExamples: copyConsumerExamples(dir, s.provides, where.provides),
  };
}

/** The listed files or folders, copied under `to` at their paths in the repository (the old copy replaced); a symlink is refused. */
function copy(own: OwnFolders, checkout: string, paths: readonly string[], to: string, label: string): string[] {
  for (const p of paths) {
    const from = path.join(checkout, p);
    if (!existsSync(from)) throw new AccordError('ACCORD_ERR_USAGE', `${excerpt(p)} is not in ${label}`);
    if (lstatSync(from).isSymbolicLink() || !isInside(realpathSync(from), realpathSync(checkout)))
      throw new AccordError('ACCORD_ERR_USAGE', `${excerpt(p)} in ${label} is a symlink: refused`);
  }
  own.replace(to, paths.length > 0);
  for (const p of paths) {
    const from = path.join(checkout, p);
    mkdirSync(path.dirname(path.join(to, p)), { recursive: true });
    cpSync(from, path.join(to, p), { recursive: true, verbatimSymlinks: true, filter: (src) => !lstatSync(src).isSymbolicLink() && path.basename(src) !== '.git' });
  }
  return paths.map((p) => path.join(to, p));
}

interface OwnFolders {
  /** Refuses (before anything is done) when `folder`, or a folder above it under the project, is a symlink or not a folder. */
  check(folder: string): void;
  /** `folder` removed and, with `make` (the default), made again empty, once it is checked again and found inside `.accord/`; its path. */
  replace(folder: string, make?: boolean): string;
}

/**
 * accord's own folders under the project root (`.accord/checkouts/<name>` and the like), read from
 * the root down with lstat, so no link is ever followed. A pull removes and writes them whole, so
 * each folder is checked just before it is removed, and again by its real path: removing follows
 * the folders above, never a link at the end, and links inside are removed, not entered.
 */
function ownFolders(root: string): OwnFolders {
  const base = path.join(root, CACHE_DIR);
  const realBase = (): string => path.join(realpathSync(root), CACHE_DIR);
  const shown = (p: string) => excerpt(path.relative(root, p) || '.');
  /** Each part from `.accord` down to `folder`; with `make`, the missing ones but the last made. */
  const walk = (folder: string, make: boolean): void => {
    const rel = path.relative(base, folder);
    if (rel === '' || leaves(rel)) throw new AccordError('ACCORD_ERR_USAGE', `${shown(folder)} is not inside ${CACHE_DIR}/`);
    const parts = [CACHE_DIR, ...rel.split(path.sep)];
    let at = root;
    for (const [i, part] of parts.entries()) {
      at = path.join(at, part);
      const last = i === parts.length - 1;
      let st;
      try {
        st = lstatSync(at);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        if (make && !last) mkdirSync(at);
        continue;
      }
      if (st.isSymbolicLink()) {
        throw new AccordError(
          'ACCORD_ERR_USAGE',
          `${shown(at)} is a symlink (to ${excerpt(readlinkSync(at))}): accord never writes through a link in its own folders; remove it (and keep ${CACHE_DIR}/ out of git: add it to .gitignore)`,
        );
      }
      if (!last && !st.isDirectory()) throw new AccordError('ACCORD_ERR_USAGE', `${shown(at)} is not a folder: remove it, accord keeps pulled contracts in ${CACHE_DIR}/`);
    }
  };
  return {
    check: (folder) => walk(folder, false),
    replace: (folder, make = true) => {
      walk(folder, true);
      // The real folder above must be the one named: a link swapped in since the check moves it.
      const expected = path.join(realBase(), path.relative(base, path.dirname(folder)));
      if (realpathSync(path.dirname(folder)) !== expected) throw new AccordError('ACCORD_ERR_USAGE', `${shown(folder)} is not inside ${CACHE_DIR}/: refused`);
      rmSync(folder, { recursive: true, force: true });
      if (make) mkdirSync(folder);
      return folder;
    },
  };
}

function isInside(child: string, parent: string): boolean {
  return !leaves(path.relative(parent, child));
}

/** Whether a relative path goes up and out (a folder named `..x` stays). */
function leaves(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}
