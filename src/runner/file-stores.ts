import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Jest's circus (30) makes an AsyncLocalStorage in each test file's sandbox, enters it for every
 * test, and never disables it. On Node 20 and 22 an enabled storage stays on a process-wide list
 * that the creation of every promise, timer and tick walks, so in a worker that has run n files
 * each of those costs n callbacks: over 50 files in one worker that was about 1 s of a 6-8 s run
 * (issue 14). A storage first entered while a file runs belongs to that file's module registry,
 * which Jest drops when the file is done; the preset's test runner disables such storages then.
 * A storage entered before (by the worker, a reporter) is never touched, and a disabled one that
 * is entered again simply works again (`run` and `enterWith` enable it).
 */
const seen = new WeakSet<AsyncLocalStorage<unknown>>();
let collecting: AsyncLocalStorage<unknown>[] | undefined;
const INSTALLED = Symbol.for('accord.fileStores');

function install(): void {
  const proto = AsyncLocalStorage.prototype as unknown as Record<string | symbol, unknown>;
  // Once per process, even when two copies of accord are loaded.
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  for (const name of ['run', 'enterWith']) {
    const original = proto[name] as (this: AsyncLocalStorage<unknown>, ...args: unknown[]) => unknown;
    proto[name] = function (this: AsyncLocalStorage<unknown>, ...args: unknown[]) {
      if (!seen.has(this)) {
        seen.add(this);
        collecting?.push(this);
      }
      return original.apply(this, args);
    };
  }
}

// On load (the preset's test runner loads this once per worker, before any file): storages entered from here on are seen.
install();

/**
 * Runs one test file (`run`) and then disables the storages first entered while it ran. Jest runs
 * one file at a time in a worker; should two ever overlap, the inner one is run without this.
 */
export async function withFileStores<T>(run: () => Promise<T>): Promise<T> {
  if (collecting) return run();
  const stores: AsyncLocalStorage<unknown>[] = [];
  collecting = stores;
  try {
    return await run();
  } finally {
    collecting = undefined;
    for (const s of stores) s.disable();
  }
}
