import { AccordError } from '../errors';

/**
 * The git edge: every call is an argument array (no shell), with its exit
 * code checked. Refs are passed after --end-of-options so a ref can never be
 * read as an option. execa is ESM-only, hence the dynamic import from CommonJS.
 */
interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

type Execa = typeof import('execa', { with: { 'resolution-mode': 'import' } }).execa;
let execaFn: Promise<Execa> | undefined;

function loadExeca(): Promise<Execa> {
  execaFn ??= import('execa').then((m) => m.execa);
  return execaFn;
}

async function git(cwd: string, args: string[]): Promise<GitResult> {
  const execa = await loadExeca();
  const r = await execa('git', args, {
    cwd,
    reject: false,
    stripFinalNewline: false,
    env: { LC_ALL: 'C', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' },
  });
  if (r.exitCode === undefined) {
    const why = (r as unknown as { originalMessage?: string }).originalMessage ?? r.message;
    throw new AccordError('ACCORD_ERR_GIT', `cannot run git: ${why}`);
  }
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** `git rev-parse --show-toplevel`: the work tree `dir` is in. */
export async function repoRoot(dir: string): Promise<string> {
  const r = await git(dir, ['rev-parse', '--show-toplevel']);
  if (r.code !== 0) throw new AccordError('ACCORD_ERR_GIT', `not a git work tree: ${dir}`);
  return r.stdout.trim();
}

/** The commit a ref names, or undefined when it names none. */
export async function resolveCommit(root: string, ref: string): Promise<string | undefined> {
  const r = await git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** What `path` is in `commit`: a file ('blob'), a folder ('tree'), or nothing. */
export async function objectType(root: string, commit: string, rel: string): Promise<'blob' | 'tree' | undefined> {
  const r = await git(root, ['cat-file', '-t', '--end-of-options', `${commit}:${rel}`]);
  if (r.code !== 0) return undefined;
  const t = r.stdout.trim();
  return t === 'blob' || t === 'tree' ? t : undefined;
}

/** `git show <commit>:<path relative to the repo root>`. */
export async function showFile(root: string, commit: string, rel: string): Promise<string> {
  const r = await git(root, ['show', '--no-textconv', '--end-of-options', `${commit}:${rel}`]);
  if (r.code !== 0) throw new AccordError('ACCORD_ERR_GIT', `cannot read ${rel} at ${commit.slice(0, 12)}: ${firstLine(r.stderr)}`);
  return r.stdout;
}

/** Files under folder `rel` in `commit` (paths relative to the repo root). */
export async function listFiles(root: string, commit: string, rel: string): Promise<string[]> {
  const r = await git(root, ['-c', 'core.quotepath=off', 'ls-tree', '-r', '-z', '--name-only', '--end-of-options', commit, '--', rel === '' ? '.' : rel]);
  if (r.code !== 0) throw new AccordError('ACCORD_ERR_GIT', `cannot list ${rel || '.'} at ${commit.slice(0, 12)}: ${firstLine(r.stderr)}`);
  return r.stdout.split('\0').filter((f) => f !== '');
}

function firstLine(s: string): string {
  return s.trim().split('\n')[0] ?? '';
}
