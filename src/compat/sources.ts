import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { AccordError } from '../errors';
import { readContractFile } from '../contract/load';
import { git, listFiles, objectType, repoRoot, requireCommit, resolveCommit } from './git';
import { isLink } from '../files';
import { committedVersion, workingVersion, type Version } from './links';
import { isWsdlFile, wsdlAtCommit, wsdlOnDisk } from './wsdl-versions';

export type { Version } from './links';

/**
 * Where the two versions of each contract come from: two files, two folders,
 * the working tree against HEAD, or two commits. A side that is absent means
 * the file is new (no older version) or gone (no newer version, folders only).
 */
export interface FilePair {
  /** The contract's path as the user sees it. */
  file: string;
  older?: Version;
  newer?: Version;
  /** The file whose next version an incompatible change needs (seed 9.2); `file` when not set. */
  versioned?: string;
  /** "HEAD", "the working tree", a ref: said when a side is absent. */
  olderWhere: string;
  /** Found by scanning a folder (the report then names each file). */
  inFolder?: boolean;
  newerWhere: string;
}

const CONTRACT_EXTENSIONS = ['.spec', '.qontract', '.contract'];

export function isContractFile(name: string): boolean {
  return CONTRACT_EXTENSIONS.includes(path.extname(name));
}

function usage(message: string): AccordError {
  return new AccordError('ACCORD_ERR_USAGE', message);
}

function readText(file: string, shown = file): string {
  return readContractFile(file, shown);
}

/**
 * Contract files under a folder, relative to it, sorted; .git and node_modules
 * are not entered, nor symlinked folders (as git does not, and a loop cannot
 * hang). A symlinked contract file is listed: reading it decides whether the
 * link may be followed.
 */
function walk(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    if (e.name === '.git' || e.name === 'node_modules') continue;
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(dir, r));
    else if ((e.isFile() || e.isSymbolicLink()) && isContractFile(e.name)) out.push(r);
  }
  return out.sort();
}

/** A folder, or something to read as a file (a FIFO or device too: the reader refuses it by name); undefined when missing. */
function kindOf(p: string): 'file' | 'dir' | undefined {
  try {
    return statSync(p).isDirectory() ? 'dir' : 'file';
  } catch {
    return isLink(p) ? 'file' : undefined;
  }
}

/** There, as a file or as a link (a dangling link is read, and refused by name, rather than taken for a deleted contract). */
function present(p: string): boolean {
  return existsSync(p) || isLink(p);
}

/** `accord compatible <older> <newer>`: two files, or two folders paired by relative path. */
export function plainPairs(olderArg: string, newerArg: string, cwd: string): FilePair[] {
  const older = path.resolve(cwd, olderArg);
  const newer = path.resolve(cwd, newerArg);
  const ko = kindOf(older);
  const kn = kindOf(newer);
  if (!ko) throw usage(`no such file or folder: ${olderArg}`);
  if (!kn) throw usage(`no such file or folder: ${newerArg}`);
  if (ko !== kn)
    throw usage(`compare a file with a file or a folder with a folder: ${olderArg} is a ${ko === 'dir' ? 'folder' : 'file'}, ${newerArg} is a ${kn === 'dir' ? 'folder' : 'file'}`);
  if (ko === 'file' && (isWsdlFile(olderArg) || isWsdlFile(newerArg))) {
    if (!isWsdlFile(olderArg) || !isWsdlFile(newerArg)) throw usage(`compare a WSDL with a WSDL: ${isWsdlFile(olderArg) ? newerArg : olderArg} is not a .wsdl file`);
    return [
      {
        file: newerArg,
        versioned: olderArg,
        older: { label: olderArg, text: '', wsdl: wsdlOnDisk(olderArg, cwd) },
        newer: { label: newerArg, text: '', wsdl: wsdlOnDisk(newerArg, cwd) },
        olderWhere: olderArg,
        newerWhere: newerArg,
      },
    ];
  }
  if (ko === 'file') {
    return [
      {
        file: newerArg,
        versioned: olderArg,
        older: { label: olderArg, text: readText(older, olderArg) },
        newer: { label: newerArg, text: readText(newer, newerArg) },
        olderWhere: olderArg,
        newerWhere: newerArg,
      },
    ];
  }
  const names = [...new Set([...walk(older), ...walk(newer)])].sort();
  if (names.length === 0) throw usage(`no contract files (*.spec) under ${olderArg} or ${newerArg}`);
  return names.map((n) => {
    const o = path.join(older, n);
    const w = path.join(newer, n);
    const ol = path.join(olderArg, n);
    const nl = path.join(newerArg, n);
    return {
      file: nl,
      older: present(o) ? { label: ol, text: readText(o, ol) } : undefined,
      newer: present(w) ? { label: nl, text: readText(w, nl) } : undefined,
      olderWhere: olderArg,
      newerWhere: newerArg,
      inFolder: true,
    };
  });
}

interface RepoPath {
  root: string;
  /** Relative to the repo root, with forward slashes; '' for the root itself. */
  rel: string;
}

/** The repository a path is in, found from its nearest existing folder (the path itself may be gone). */
async function locate(arg: string, cwd: string): Promise<RepoPath> {
  const abs = path.resolve(cwd, arg);
  let dir = abs;
  while (!existsSync(dir) || !statSync(dir).isDirectory()) {
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  const root = await repoRoot(dir);
  const real = realpathSync(dir);
  const relDir = path.relative(realpathSync(root), real);
  if (relDir.startsWith('..') || path.isAbsolute(relDir)) throw usage(`${arg} is outside the git work tree ${root}`);
  const rest = path.relative(dir, abs);
  const rel = path.join(relDir, rest).split(path.sep).join('/');
  return { root, rel: rel === '.' ? '' : rel };
}

/** `accord compatible git file <path>`: the working tree against HEAD. */
export async function workingTreePairs(arg: string, cwd: string): Promise<FilePair[]> {
  const abs = path.resolve(cwd, arg);
  const kind = kindOf(abs);
  const { root, rel } = await locate(arg, cwd);
  if (!kind) throw usage(`${arg} is not in the working tree (no such file or folder)`);
  const head = await resolveCommit(root, 'HEAD');
  if (kind === 'file' && isWsdlFile(rel)) {
    const older = head && (await objectType(root, head, rel)) === 'blob' ? { label: `HEAD:${rel}`, text: '', wsdl: await wsdlAtCommit(root, head, rel, 'HEAD') } : undefined;
    return [{ file: arg, older, newer: { label: arg, text: '', wsdl: wsdlOnDisk(arg, cwd) }, olderWhere: 'HEAD', newerWhere: 'the working tree' }];
  }
  if (kind === 'file') {
    const older = head && (await objectType(root, head, rel)) === 'blob' ? await committedVersion(root, head, rel, 'HEAD') : undefined;
    return [{ file: arg, older, newer: workingVersion(root, abs, arg), olderWhere: 'HEAD', newerWhere: 'the working tree' }];
  }
  const inTree = walk(abs).map((f) => (rel ? `${rel}/${f}` : f));
  const inHead = head ? contractPaths(await listFiles(root, head, rel)) : [];
  if (inTree.length + inHead.length === 0) throw usage(`no contract files (*.spec) under ${arg}`);
  return folderPairs(
    arg,
    rel,
    { files: inHead, where: 'HEAD', version: (f) => committedVersion(root, head!, f, 'HEAD') },
    { files: inTree, where: 'the working tree', version: (f, shown) => workingVersion(root, path.join(root, f), shown) },
  );
}

function contractPaths(entries: { path: string }[]): string[] {
  return entries.map((e) => e.path).filter(isContractFile);
}

/** `accord compatible git commits <path> <newer> <older>`: the file (or folder) at two commits. */
/**
 * Whether the refs of `git commits <path> <newer> <older>` look swapped: the one given as newer is
 * a strict ancestor of the one given as older. The comparison then judges the change backwards
 * (a field added reads as removed). False when either ref cannot be resolved: commitPairs says why.
 */
export async function swappedCommits(arg: string, newerRef: string, olderRef: string, cwd: string): Promise<boolean> {
  try {
    const { root } = await locate(arg, cwd);
    const newer = await resolveCommit(root, newerRef);
    const older = await resolveCommit(root, olderRef);
    if (!newer || !older || newer === older) return false;
    // Both are full commit ids (resolved above), never read as options.
    return (await git(root, ['merge-base', '--is-ancestor', newer, older])).code === 0;
  } catch (e) {
    if (e instanceof AccordError) return false;
    throw e;
  }
}

export async function commitPairs(arg: string, newerRef: string, olderRef: string, cwd: string): Promise<FilePair[]> {
  const { root, rel } = await locate(arg, cwd);
  const newer = await requireCommit(root, newerRef);
  const older = await requireCommit(root, olderRef);
  const kind = rel === '' ? 'tree' : await objectType(root, newer, rel);
  if (!kind) throw new AccordError('ACCORD_ERR_GIT', `${arg} does not exist in ${newerRef}`);
  if (kind === 'blob') {
    const olderKind = await objectType(root, older, rel);
    if (olderKind === 'tree') throw new AccordError('ACCORD_ERR_GIT', `${arg} is a folder in ${olderRef} and a file in ${newerRef}`);
    if (isWsdlFile(rel)) {
      // The newer side keeps the path as the user wrote it: CI annotations land on the file in the checkout.
      const newerWsdl = await wsdlAtCommit(root, newer, rel, newerRef);
      const shownNewer = {
        ...newerWsdl,
        shown: (f: string) =>
          path
            .join(path.relative(cwd, root), newerWsdl.shown(f).slice(newerRef.length + 1))
            .split(path.sep)
            .join('/'),
      };
      return [
        {
          file: arg,
          older: olderKind === 'blob' ? { label: `${olderRef}:${rel}`, text: '', wsdl: await wsdlAtCommit(root, older, rel, olderRef) } : undefined,
          newer: { label: arg, text: '', wsdl: shownNewer },
          olderWhere: olderRef,
          newerWhere: newerRef,
        },
      ];
    }
    return [
      {
        file: arg,
        older: olderKind === 'blob' ? await committedVersion(root, older, rel, olderRef) : undefined,
        newer: await committedVersion(root, newer, rel, newerRef),
        olderWhere: olderRef,
        newerWhere: newerRef,
      },
    ];
  }
  const inNewer = contractPaths(await listFiles(root, newer, rel));
  const inOlder = (await objectType(root, older, rel)) === 'tree' ? contractPaths(await listFiles(root, older, rel)) : [];
  if (inNewer.length + inOlder.length === 0) throw usage(`no contract files (*.spec) under ${arg} in ${newerRef} or ${olderRef}`);
  return folderPairs(
    arg,
    rel,
    { files: inOlder, where: olderRef, version: (f) => committedVersion(root, older, f, olderRef) },
    { files: inNewer, where: newerRef, version: (f) => committedVersion(root, newer, f, newerRef) },
  );
}

interface FolderSide {
  /** Contract files on this side, relative to the repository root. */
  files: string[];
  where: string;
  version(file: string, shown: string): Version | Promise<Version>;
}

/** One pair per contract file found on either side of a folder comparison, in path order. */
async function folderPairs(arg: string, rel: string, older: FolderSide, newer: FolderSide): Promise<FilePair[]> {
  const inOlder = new Set(older.files);
  const inNewer = new Set(newer.files);
  const pairs: FilePair[] = [];
  for (const f of [...new Set([...older.files, ...newer.files])].sort()) {
    const shown = path.join(arg, path.relative(rel, f) || '.');
    pairs.push({
      file: shown,
      older: inOlder.has(f) ? await older.version(f, shown) : undefined,
      newer: inNewer.has(f) ? await newer.version(f, shown) : undefined,
      olderWhere: older.where,
      newerWhere: newer.where,
      inFolder: true,
    });
  }
  return pairs;
}
