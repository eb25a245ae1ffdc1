import { AccordError } from '../errors';
import { excerpt, hasControl, quoted } from '../printable';

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

/** One git command, an argument array (no shell); its exit code, stdout and stderr. Used by the shared-repository pull too. */
export async function git(cwd: string, args: string[]): Promise<GitResult> {
  const r = await run(cwd, args);
  return { code: r.code, stdout: r.stdout.toString('utf8'), stderr: r.stderr };
}

/**
 * Pathspecs are literal (a folder named `*` or `:(glob)x` is that folder), and
 * output is kept as bytes up to `maxBuffer`: a blob is bounded like a file on disk.
 */
async function run(cwd: string, args: string[], maxBuffer = 64 * 1024 * 1024): Promise<{ code: number; stdout: Buffer; stderr: string; tooBig: boolean }> {
  const execa = await loadExeca();
  const r = await execa('git', ['--literal-pathspecs', ...args], {
    cwd,
    reject: false,
    stripFinalNewline: false,
    encoding: 'buffer',
    maxBuffer,
    env: { LC_ALL: 'C', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' },
  });
  if (r.isMaxBuffer) return { code: 1, stdout: Buffer.alloc(0), stderr: '', tooBig: true };
  if (r.exitCode === undefined) {
    const why = (r as unknown as { originalMessage?: string }).originalMessage ?? r.message;
    throw new AccordError('ACCORD_ERR_GIT', `cannot run git: ${why}`);
  }
  return { code: r.exitCode, stdout: Buffer.from(r.stdout as Uint8Array), stderr: Buffer.from(r.stderr as Uint8Array).toString('utf8'), tooBig: false };
}

/** `git rev-parse --show-toplevel`: the work tree `dir` is in. */
export async function repoRoot(dir: string): Promise<string> {
  const r = await git(dir, ['rev-parse', '--show-toplevel']);
  if (r.code !== 0) throw new AccordError('ACCORD_ERR_GIT', `not a git work tree: ${dir}`);
  return r.stdout.trim();
}

/** The commit a ref names, or undefined when it names none. A ref with control characters is refused. */
export async function resolveCommit(root: string, ref: string): Promise<string | undefined> {
  if (ref === '' || hasControl(ref)) throw new AccordError('ACCORD_ERR_GIT', `not a valid git ref: ${quoted(ref)}`);
  // `:/text` searches commit messages to the end of the ref: a suffix would become part of the text searched.
  let id = ref;
  if (ref.startsWith(':/')) {
    const found = await git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', ref]);
    if (found.code !== 0) return undefined;
    id = found.stdout.trim();
  }
  const r = await git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${id}^{commit}`]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** The commit a ref names; an error that says why not (a shallow clone may simply not have it). */
export async function requireCommit(root: string, ref: string): Promise<string> {
  const commit = await resolveCommit(root, ref);
  if (commit) return commit;
  const shallow = (await git(root, ['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true';
  if (shallow) throw new AccordError('ACCORD_ERR_GIT', `commit ${excerpt(ref)} is not in this clone: it may be shallow; run git fetch --unshallow`);
  throw new AccordError('ACCORD_ERR_GIT', `unknown git ref: ${excerpt(ref)}`);
}

/** What `path` is in `commit`: a file ('blob'), a folder ('tree'), or nothing. */
export async function objectType(root: string, commit: string, rel: string): Promise<'blob' | 'tree' | undefined> {
  const r = await git(root, ['cat-file', '-t', '--end-of-options', `${commit}:${rel}`]);
  if (r.code !== 0) return undefined;
  const t = r.stdout.trim();
  return t === 'blob' || t === 'tree' ? t : undefined;
}

/**
 * The bytes of blob `<commit>:<rel>` (as committed: no filters, no textconv),
 * or undefined when it holds more than `limit` bytes.
 */
export async function readBlob(root: string, commit: string, rel: string, limit: number): Promise<Buffer | undefined> {
  const r = await run(root, ['cat-file', 'blob', `${commit}:${rel}`], limit + 1);
  if (r.tooBig) return undefined;
  if (r.code !== 0) throw new AccordError('ACCORD_ERR_GIT', `cannot read ${excerpt(rel)} at ${commit.slice(0, 12)}: ${quoted(firstLine(r.stderr), 200)}`);
  return r.stdout;
}

/** One entry of a commit's tree: its mode says a file (100644, 100755), a symlink (120000), a folder (040000) or a submodule (160000). */
export interface TreeEntry {
  path: string;
  mode: string;
  type: string;
}

export const SYMLINK_MODE = '120000';

/** The entry at `rel` in `commit`, or undefined. */
export async function entryAt(root: string, commit: string, rel: string): Promise<TreeEntry | undefined> {
  const r = await git(root, ['-c', 'core.quotepath=off', 'ls-tree', '-z', '--full-tree', '--end-of-options', commit, '--', rel]);
  if (r.code !== 0) return undefined;
  return parseTree(r.stdout).find((e) => e.path === rel);
}

/** Files (and symlinks) under folder `rel` in `commit` (paths relative to the repo root). */
export async function listFiles(root: string, commit: string, rel: string): Promise<TreeEntry[]> {
  const r = await git(root, ['-c', 'core.quotepath=off', 'ls-tree', '-r', '-z', '--full-tree', '--end-of-options', commit, '--', rel === '' ? '.' : rel]);
  if (r.code !== 0) throw new AccordError('ACCORD_ERR_GIT', `cannot list ${excerpt(rel || '.')} at ${commit.slice(0, 12)}: ${quoted(firstLine(r.stderr), 200)}`);
  return parseTree(r.stdout).filter((e) => e.type === 'blob');
}

/** `ls-tree -z` records: "<mode> <type> <object>\t<path>\0". */
function parseTree(out: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of out.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type] = record.slice(0, tab).split(' ');
    entries.push({ path: record.slice(tab + 1), mode, type });
  }
  return entries;
}

function firstLine(s: string): string {
  return s.trim().split('\n')[0] ?? '';
}
