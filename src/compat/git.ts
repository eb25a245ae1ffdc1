import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { AccordError } from '../errors';
import { GIT_OUTPUT_BYTES, GIT_TIMEOUT_SECONDS } from '../limits';
import { excerpt, hasControl, quoted, withoutCredentials } from '../printable';

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

/** One git command, an argument array (no shell); its exit code, stdout and stderr (with credentials in URLs hidden). Used by the shared-repository pull too. */
export async function git(cwd: string, args: string[]): Promise<GitResult> {
  const r = await run(cwd, args);
  return { code: r.code, stdout: r.stdout.toString('utf8'), stderr: r.stderr };
}

/**
 * Variables that choose which repository, index, object store or work tree git uses, rather than
 * finding them from the folder it runs in. A git hook, or a shell left with `export GIT_DIR=...`,
 * hands them down: inherited, they made `accord contracts pull` check out into the user's own
 * repository. Git's own list of them (`git rev-parse --local-env-vars`, what it clears for a
 * submodule), less the config ones, which carry the user's settings (credentials, URL rewrites),
 * and the discovery ones. Every git call here runs without them.
 */
const REPOSITORY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_INDEX_VERSION',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_GRAFT_FILE',
  'GIT_SHALLOW_FILE',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_PREFIX',
  'GIT_INTERNAL_SUPER_PREFIX',
  'GIT_QUARANTINE_PATH',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
];

/** The environment of every git call: this process's, without the repository-choosing variables, in the C locale, never prompting. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'C', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' };
  for (const name of REPOSITORY_VARIABLES) delete env[name];
  return env;
}

/** How long one git call may take, in seconds: ACCORD_GIT_TIMEOUT when set, else GIT_TIMEOUT_SECONDS. */
export function gitTimeoutSeconds(): number {
  const given = process.env.ACCORD_GIT_TIMEOUT;
  if (given === undefined || given === '') return GIT_TIMEOUT_SECONDS;
  const n = Number(given);
  if (!Number.isFinite(n) || n <= 0) throw new AccordError('ACCORD_ERR_USAGE', `ACCORD_GIT_TIMEOUT must be a number of seconds above 0, found ${quoted(given)}`);
  return n;
}

/**
 * Pathspecs are literal (a folder named `*` or `:(glob)x` is that folder), and
 * output is kept as bytes up to `maxBuffer`: a blob is bounded like a file on disk.
 * Each call is bounded in time: a remote that accepts and never answers held
 * `git fetch` for ever. Past the bound git and every process it started are
 * killed (its transport helper, `git remote-http`, outlives a killed git and
 * keeps the output open) and the call fails with one line saying so.
 */
async function run(cwd: string, args: string[], maxBuffer = GIT_OUTPUT_BYTES): Promise<{ code: number; stdout: Buffer; stderr: string; tooBig: boolean }> {
  const execa = await loadExeca();
  const seconds = gitTimeoutSeconds();
  const child = execa('git', ['--literal-pathspecs', ...args], {
    cwd,
    reject: false,
    stripFinalNewline: false,
    encoding: 'buffer',
    maxBuffer,
    extendEnv: false,
    env: gitEnv(),
  });
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      if (child.pid !== undefined) killTree(child.pid);
      // Whatever still holds the output open (a process that escaped the kill) is not waited for.
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, 2000).unref();
    },
    Math.min(seconds * 1000, 2 ** 31 - 1),
  );
  const r = await child;
  clearTimeout(timer);
  if (timedOut) {
    const what = args.find((a) => !a.startsWith('-') && !a.includes('=')) ?? 'git';
    throw new AccordError(
      'ACCORD_ERR_GIT',
      `git ${what} gave no answer within ${seconds} s and was stopped (a remote that does not answer?); set ACCORD_GIT_TIMEOUT=<seconds> to wait longer`,
    );
  }
  if (r.isMaxBuffer) return { code: 1, stdout: Buffer.alloc(0), stderr: '', tooBig: true };
  if (r.exitCode === undefined) {
    const why = (r as unknown as { originalMessage?: string }).originalMessage ?? r.message;
    throw new AccordError('ACCORD_ERR_GIT', `cannot run git: ${withoutCredentials(String(why))}`);
  }
  return { code: r.exitCode, stdout: Buffer.from(r.stdout as Uint8Array), stderr: withoutCredentials(Buffer.from(r.stderr as Uint8Array).toString('utf8')), tooBig: false };
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

/** Kills `pid` and every process below it, children first found, then all at once (a killed parent's children would be orphaned and lost). */
function killTree(pid: number): void {
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    return;
  }
  for (const p of [pid, ...descendants(pid)]) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** The processes below `pid`: from /proc on Linux (no `ps` in slim images), from `pgrep -P` elsewhere. */
function descendants(pid: number): number[] {
  const children = process.platform === 'linux' ? procChildren() : undefined;
  const below = (p: number): number[] => {
    if (children) return children.get(p) ?? [];
    const r = spawnSync('pgrep', ['-P', String(p)], { encoding: 'utf8' });
    return (r.stdout ?? '')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map(Number);
  };
  const found: number[] = [];
  // A tree is at most a few processes deep (git, its helper, ssh); the bound keeps a pid cycle from looping.
  for (let queue = [pid], i = 0; i < queue.length && found.length < 1000; i++) {
    for (const c of below(queue[i])) {
      if (c === pid || found.includes(c)) continue;
      found.push(c);
      queue.push(c);
    }
  }
  return found;
}

/** Parent → children, from each /proc/<pid>/stat ("pid (name) state ppid ..."; the name may hold spaces and parentheses). */
function procChildren(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return map;
  }
  for (const name of names) {
    if (name === '' || [...name].some((c) => c < '0' || c > '9')) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isInteger(ppid)) continue;
    const list = map.get(ppid) ?? [];
    list.push(Number(name));
    map.set(ppid, list);
  }
  return map;
}
