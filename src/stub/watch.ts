import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { contractStem } from '../contract/stem';
import { contractFolders } from './contracts';
import { exampleDirs } from './answer/example-files';

export interface Watching {
  close(): void;
}

/** Editors write a file in bursts (truncate, write, rename): one reload per burst. */
const SETTLE_MS = 150;
/** More folders than this under the sources are not watched one by one (the stub says so through `changed` never firing for them). */
const MAX_FOLDERS = 2_000;

/**
 * Calls `changed` once things settle after a contract, or an example file beside
 * one, may have changed. Each folder that can hold one is watched on its own,
 * found the way the stub finds contracts (hidden folders and node_modules are
 * skipped, symlinked folders not followed): a recursive watch of `.` would put
 * a watch on every folder of node_modules and .git. For a file its folder is
 * watched, since editors replace files by renaming, which a watch on the file
 * itself would miss. The folders are found again after every change, so a new
 * folder of contracts is watched too. A folder that cannot be watched is
 * skipped: reloading is a convenience, never a reason for the stub to fail.
 */
export function watchSources(paths: readonly string[], changed: () => void): Watching {
  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const disarm = () => {
    for (const w of watchers) w.close();
    watchers = [];
  };
  const arm = () => {
    let folders: Map<string, Relevant>;
    try {
      folders = foldersToWatch(paths);
    } catch {
      // A file or folder removed between looking and reading: the given paths' folders, so the next change is still seen.
      folders = new Map(paths.map((p) => [path.dirname(p), () => true]));
    }
    for (const [dir, relevant] of folders) {
      try {
        const w = watch(dir, { persistent: false }, (_, name) => {
          if (relevant(name)) poke();
        });
        w.on('error', () => w.close());
        watchers.push(w);
      } catch {
        // Unsupported file system, too many watches, a folder gone meanwhile.
      }
    }
  };
  const poke = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (closed) return;
      disarm();
      try {
        changed();
      } finally {
        // Armed again whatever the reload did: the next edit is seen.
        arm();
      }
    }, SETTLE_MS);
  };
  arm();
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      disarm();
    },
  };
}

type Relevant = (name: string | null) => boolean;

function foldersToWatch(paths: readonly string[]): Map<string, Relevant> {
  const out = new Map<string, Relevant>();
  const any: Relevant = () => true;
  for (const p of paths) {
    if (!existsSync(p)) continue;
    if (statSync(p).isDirectory()) {
      walk(p, out);
      continue;
    }
    const base = path.basename(p);
    const stem = contractStem(base);
    const mine: Relevant = (name) => name === null || name === base || name === `${stem}_examples` || name === `${stem}_data`;
    const dir = path.dirname(p);
    const before = out.get(dir);
    out.set(dir, before ? (name) => before(name) || mine(name) : mine);
    for (const d of exampleDirs(p)) out.set(d, any);
  }
  return out;
}

function walk(dir: string, out: Map<string, Relevant>): void {
  try {
    contractFolders(dir, (folder) => {
      // In a folder of contracts any change may matter: a new .spec, a new folder, an example file.
      if (out.size < MAX_FOLDERS) out.set(folder, (name) => name === null || !name.startsWith('.'));
    });
  } catch {
    // A folder gone or unreadable meanwhile: watch what was found.
  }
}
