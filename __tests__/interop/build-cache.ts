import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STACKS_DIR } from './stacks';

/**
 * Compiled stack programs (a gSOAP server built by g++, a Mono proxy and host, Axis classes),
 * kept between runs under os.tmpdir()/accord-interop-build/<name>-<hash>: the hash is of the
 * sources (the files under __tests__/interop/stacks named in `files`) and of any `texts` the build
 * also reads (a service's WSDL, a tool's version). `build` writes into a fresh folder; it becomes
 * the cached one only when it returns, by a rename, so a failed or concurrent build never leaves
 * half a folder behind. The cached folder's path.
 */
export async function cachedBuild(name: string, o: { files: string[]; texts?: string[] }, build: (dir: string) => void | Promise<void>): Promise<string> {
  const hash = createHash('sha256');
  for (const f of o.files)
    hash
      .update(f)
      .update('\0')
      .update(readFileSync(path.join(STACKS_DIR, f)))
      .update('\0');
  for (const t of o.texts ?? []) hash.update(t).update('\0');
  const root = path.join(tmpdir(), 'accord-interop-build');
  mkdirSync(root, { recursive: true });
  const dir = path.join(root, `${name}-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(path.join(dir, '.done'))) return dir;
  const fresh = mkdtempSync(path.join(root, `${name}-building-`));
  try {
    await build(fresh);
    mkdirSync(path.join(fresh, '.done'));
    try {
      renameSync(fresh, dir);
    } catch (e) {
      // Another run built it meanwhile: keep theirs.
      if (!existsSync(path.join(dir, '.done'))) throw e;
      rmSync(fresh, { recursive: true, force: true });
    }
  } catch (e) {
    rmSync(fresh, { recursive: true, force: true });
    throw e;
  }
  return dir;
}
