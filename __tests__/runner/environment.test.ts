import path from 'node:path';
import { RUNTIME_GLOBAL, WIP_GLOBAL } from '../../src/runner/config';
import type { Runtime } from '../../src/runner/runtime';
import { startServer, type Running } from '../helpers/servers';

/*
 * The preset's environment hands each test file the worker's runtime (loaded once, outside
 * the file's sandbox) bound to that file's own global: the settings and @WIP verdicts of one
 * file never leak into another. Built from dist/, as Jest loads it (npm test builds first).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the preset's CommonJS module, as Jest loads it
const Environment = require('../../preset/environment.js') as new (config: unknown, context: unknown) => { global: Record<string, unknown>; teardown(): Promise<void> };
const ROOT = path.join(__dirname, '..', '..');

function environment(options: unknown) {
  const projectConfig = { rootDir: ROOT, testEnvironmentOptions: { accord: options }, globals: {}, setupFiles: [], snapshotSerializers: [], fakeTimers: {}, injectGlobals: true };
  return new Environment({ projectConfig, globalConfig: { silent: true } }, { console, docblockPragmas: {}, testPath: path.join(ROOT, 'x.spec') });
}

const SPEC = 'Feature: f\n  @WIP\n  Scenario: cube\n    When POST /cube\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n';

let server: Running;
beforeAll(async () => {
  server = await startServer(() => ({ status: 200, type: 'application/json', body: '8' }));
});
afterAll(() => server.close());

it("gives each file the worker's runtime, bound to that file's global", async () => {
  const a = environment({ baseUrl: server.url });
  const b = environment({ baseUrl: 'http://127.0.0.1:1' });
  try {
    const ra = a.global[RUNTIME_GLOBAL] as Runtime;
    const rb = b.global[RUNTIME_GLOBAL] as Runtime;
    expect(typeof ra.body).toBe('function');
    const opened = ra.open('cube.spec', SPEC);
    await ra.body(opened, 0)();
    // The @WIP verdict is on file a's global, which its environment reads; file b's has none.
    const verdicts = a.global[WIP_GLOBAL] as Map<string, { passed: boolean }>;
    expect(verdicts.get('f cube')?.passed).toBe(true);
    expect(b.global[WIP_GLOBAL]).toBeUndefined();
    // File b's own settings: its base URL refuses the connection.
    await expect(rb.body(rb.open('cube.spec', SPEC.replace('  @WIP\n', '')), 0)()).rejects.toThrow(/connection refused by http:\/\/127\.0\.0\.1:1/);
    await ra.closeAgent();
  } finally {
    await a.teardown();
    await b.teardown();
  }
});
