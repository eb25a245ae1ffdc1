import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { exampleDirs } from './example-files';

export interface Watching {
  close(): void;
}

/** Editors write a file in bursts (truncate, write, rename): one reload per burst. */
const SETTLE_MS = 150;

/**
 * Calls `changed` once things settle after a contract, or an example file beside
 * one, may have changed. Folders are watched recursively; for a file its folder
 * is watched (editors replace files by renaming, which a watch on the file
 * itself would miss) and only its own name counts, plus its `_examples` folder.
 * A path that cannot be watched is skipped: reloading is a convenience, never a
 * reason for the stub to fail.
 */
export function watchSources(paths: readonly string[], changed: () => void): Watching {
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  const poke = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      changed();
    }, SETTLE_MS);
  };
  const add = (target: string, recursive: boolean, relevant: (name: string | null) => boolean) => {
    try {
      const w = watch(target, { recursive, persistent: false }, (_, name) => {
        if (relevant(name)) poke();
      });
      w.on('error', () => w.close());
      watchers.push(w);
    } catch {
      // Unsupported file system, too many watches: the stub serves on without reloading.
    }
  };
  for (const p of paths) {
    if (!existsSync(p)) continue;
    if (statSync(p).isDirectory()) {
      add(p, true, (name) => name === null || isContractOrExample(name));
      continue;
    }
    const base = path.basename(p);
    const stem = base.replace(/\.(spec|wsdl)$/i, '');
    add(path.dirname(p), false, (name) => name === null || name === base || name === `${stem}_examples` || name === `${stem}_data`);
    for (const dir of exampleDirs(p)) add(dir, true, () => true);
  }
  return {
    close() {
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}

function isContractOrExample(name: string): boolean {
  const parts = name.split(path.sep);
  if (parts.some((s) => s === 'node_modules' || s.startsWith('.'))) return false;
  return name.endsWith('.spec') || parts.some((s) => s.endsWith('_examples') || s.endsWith('_data'));
}
