import { readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { readContractFile } from '../contract/load';
import { AccordError } from '../errors';
import { decodeText, FILE_LIMITS, ioError, isLink, limitError, shownPath } from '../files';
import { entryAt, readBlob, SYMLINK_MODE } from './git';
import type { WsdlSource } from './wsdl-versions';

/**
 * Contracts read in the git modes, where the files may come from someone
 * else's pull request. A symlink is followed only to a file inside the same
 * repository, in a commit as in the working tree, so both sides of a check
 * read the same contract (`v2/api.spec -> ../v1/api.spec` is compared as the
 * file it points to). A link that leaves the repository (/proc/self/environ,
 * ~/.ssh/id_rsa), dangles, or points at a folder is refused by name: a planted
 * link must never make CI print, or compare, a file from outside the checkout.
 */
export interface Version {
  /** Where the text came from, for messages: "HEAD:contracts/api.spec", "contracts/api.spec". */
  label: string;
  text: string;
  /** A WSDL version: compared as the contract imported from it (`text` is then unused). */
  wsdl?: WsdlSource;
}

function refused(message: string): AccordError {
  return new AccordError('ACCORD_ERR_GIT', message);
}

/** `rel` (relative to the repository root) in `commit`, following symlinks committed inside the repository. */
export async function committedVersion(root: string, commit: string, rel: string, where: string): Promise<Version> {
  const label = `${where}:${rel}`;
  let current = rel;
  for (let hops = 0; hops <= FILE_LIMITS.symlinkHops; hops++) {
    const entry = await entryAt(root, commit, current);
    if (!entry) {
      throw refused(`${shownPath(rel)} is a symlink to ${shownPath(current)}, which is not in ${where}`);
    }
    if (entry.mode === SYMLINK_MODE) {
      const target = (await readBlob(root, commit, current, 4096))?.toString('utf8') ?? '';
      const next = insideRepo(current, target);
      if (next === undefined) throw refused(`${shownPath(rel)} in ${where} is a symlink to ${shownPath(target)}, outside the repository: refused`);
      current = next;
      continue;
    }
    if (entry.type !== 'blob') throw refused(`${shownPath(rel)} in ${where} is a symlink to ${shownPath(current)}, which is not a file`);
    const bytes = await readBlob(root, commit, current, FILE_LIMITS.contractBytes);
    if (!bytes) throw limitError(label, 'contract', FILE_LIMITS.contractBytes);
    return { label, text: decodeText(bytes, label, 'contract') };
  }
  throw refused(`${shownPath(rel)} in ${where}: more than ${FILE_LIMITS.symlinkHops} symlinks in a row`);
}

/** Where a committed link at `from` points, relative to the repository root; undefined when outside it. */
function insideRepo(from: string, target: string): string | undefined {
  if (target === '' || path.posix.isAbsolute(target) || /^[a-zA-Z]:/.test(target) || target.includes('\\')) return undefined;
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), target));
  if (joined === '..' || joined.startsWith('../') || joined === '.' || joined === '') return undefined;
  return joined;
}

/** The working-tree file at `abs`, read only when it (or what its links resolve to) is inside the repository at `root`. */
export function workingVersion(root: string, abs: string, shown: string): Version {
  let real: string;
  try {
    real = realpathSync(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && isLink(abs)) {
      throw refused(`${shownPath(shown)} is a symlink to ${shownPath(linkText(abs))}, which does not exist`);
    }
    throw ioError(e, shown, 'contract');
  }
  const inside = path.relative(realpathSync(root), real);
  if (inside.startsWith('..') || path.isAbsolute(inside)) {
    throw refused(`${shownPath(shown)} is a symlink to ${shownPath(isLink(abs) ? linkText(abs) : real)}, outside the repository: refused`);
  }
  return { label: shown, text: readContractFile(real, shown) };
}

function linkText(p: string): string {
  try {
    return readlinkSync(p);
  } catch {
    return '?';
  }
}
