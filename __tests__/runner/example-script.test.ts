import { spawn } from 'node:child_process';
import path from 'node:path';
import { childEnv, plain } from '../helpers/child-env';

/** The README's first command: `npm run example` (after the build) runs scripts/example.js. */
describe('npm run example', () => {
  it('starts the example service and runs jest --preset accord-contracts on contracts/ against it', async () => {
    const root = path.join(__dirname, '..', '..');
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, [path.join(root, 'scripts', 'example.js')], { cwd: root, env: childEnv({ ACCORD_BASE_URL: '' }) });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.on('close', (c) => resolve({ code: c, output: plain(output) }));
    });
    expect(output).toMatch(/example service listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(output).toMatch(/Tests: +1 skipped, 9 passed, 10 total/);
    expect(output).toContain('is in progress and skipped; it would have FAILED');
    expect(code).toBe(0);
  }, 120_000);
});
