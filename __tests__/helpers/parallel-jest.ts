import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from './child-env';
import { runJest, type JestRun } from './jest-app';

const REPO = path.join(__dirname, '..', '..');
const PACKAGE = path.join(REPO, 'dist', 'index.js');
const PETS_SPEC = path.join(REPO, 'contracts', 'pets', 'api_pets_v1.spec');

/**
 * A temp Jest project as docs/stub.md sets one up for parallel workers: one stub of the pets
 * contract started in Jest's globalSetup (its URL in PETSTORE_URL, closed in globalTeardown), and
 * these test files (name → lines), which reach accord as `require(process.env.ACCORD_PACKAGE)`.
 * Needs `npm run build`. Its folder (the caller removes it).
 */
export function writeStubProject(prefix: string, files: Record<string, string[]>): string {
  if (!existsSync(PACKAGE)) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const write = (name: string, lines: string[]) => writeFileSync(path.join(dir, name), `${lines.join('\n')}\n`);
  write('jest.config.js', ["module.exports = { testEnvironment: 'node', transform: {}, globalSetup: './stub-setup.js', globalTeardown: './stub-teardown.js' };"]);
  write('stub-setup.js', [
    'const { startStub } = require(process.env.ACCORD_PACKAGE);',
    'module.exports = async () => {',
    '  globalThis.__STUB__ = await startStub({ contracts: [process.env.PETS_SPEC] });',
    '  process.env.PETSTORE_URL = globalThis.__STUB__.url;',
    '};',
  ]);
  write('stub-teardown.js', ['module.exports = async () => globalThis.__STUB__.close();']);
  for (const [name, lines] of Object.entries(files)) write(name, lines);
  return dir;
}

/** Jest on the project in `dir` with `workers` workers (killed after 120 s): its exit status and output without colours. */
export function runParallelJest(dir: string, workers: number): Promise<JestRun> {
  return runJest(process.execPath, [path.join(REPO, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--no-watchman', `--maxWorkers=${workers}`, '--rootDir', dir], {
    cwd: dir,
    env: childEnv({ ACCORD_PACKAGE: PACKAGE, PETS_SPEC }),
    killAfterMs: 120_000,
  });
}
