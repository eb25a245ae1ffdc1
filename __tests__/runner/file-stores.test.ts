import { AsyncLocalStorage } from 'node:async_hooks';
import { withFileStores } from '../../src/runner/file-stores';

/*
 * Jest's circus enters a new AsyncLocalStorage in every test file and never disables it; on Node 20
 * each enabled storage then taxes every later promise of the worker. The preset's test runner runs
 * each file through withFileStores, which disables the storages first entered during that file.
 */
it('disables a storage first entered while the file ran, and leaves one entered before alone', async () => {
  const worker = new AsyncLocalStorage<string>();
  await worker.run('worker', async () => {
    let file: AsyncLocalStorage<string> | undefined;
    const result = await withFileStores(async () => {
      file = new AsyncLocalStorage<string>();
      file.enterWith('file');
      await file.run('test', async () => {
        await Promise.resolve();
        expect(file!.getStore()).toBe('test');
        // The worker's storage is used inside the file too: it was entered before, so it stays.
        expect(worker.run('inside', () => worker.getStore())).toBe('inside');
      });
      expect(file.getStore()).toBe('file');
      return 42;
    });
    expect(result).toBe(42);
    // Disabled: the value entered with enterWith is gone (it would still be here otherwise).
    expect(file!.getStore()).toBeUndefined();
    expect(worker.getStore()).toBe('worker');
    // Entered again, it works again.
    expect(file!.run('again', () => file!.getStore())).toBe('again');
  });
});

it('disables the storages of a file that failed, and lets the failure through', async () => {
  let file: AsyncLocalStorage<number> | undefined;
  await expect(
    withFileStores(async () => {
      file = new AsyncLocalStorage<number>();
      file.enterWith(1);
      throw new Error('the file failed');
    }),
  ).rejects.toThrow('the file failed');
  expect(file!.getStore()).toBeUndefined();
});
