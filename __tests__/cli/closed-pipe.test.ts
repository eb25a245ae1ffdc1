import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../helpers/child-env';

/**
 * `accord … | head`: the reader of the command's output goes away before the command has written it
 * all. Node raises the failed write (EPIPE) as an unhandled 'error' event, a stack trace on the
 * user's terminal; the command must end quietly instead, as a Unix tool does.
 */
const ACCORD = path.join(__dirname, '..', '..', 'bin', 'accord.js');

function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ACCORD, ...args], { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader is gone before the first byte arrives: every write to stdout fails with EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test('help written to a closed pipe ends quietly, without a stack trace', async () => {
  const r = await withClosedStdout(['compatible', '--help']);
  expect(r.stderr).not.toMatch(/EPIPE|Unhandled 'error' event|\n\s+at /);
  expect(r.code).toBe(0);
});

test('a verdict written to a closed pipe keeps its exit status (1: not compatible)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-closed-pipe-'));
  try {
    const spec = (type: string) =>
      `Feature: Math\n\n  Scenario: Square\n    When POST /square\n    And request-body (number)\n    Then status 200\n    And response-body (${type})\n`;
    writeFileSync(path.join(dir, 'old.spec'), spec('number'));
    writeFileSync(path.join(dir, 'new.spec'), spec('string'));
    const r = await withClosedStdout(['compatible', path.join(dir, 'old.spec'), path.join(dir, 'new.spec'), '--format', 'json']);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled 'error' event|\n\s+at /);
    expect(r.code).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
