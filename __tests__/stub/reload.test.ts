import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStub, type ReloadResult, type RunningStub } from '../../src/stub';
import { post, startStubProcess } from './helpers';

/** A stub reloads its contracts: with `watch` when files change, or on `reload()`. */
const square = (status: number, extra = '') => `Feature: Math API

  Scenario: Square of a number
    When POST /square
    And request-body (number)
    Then status ${status}
    And response-body (number)
${extra}`;

const TEXT = { 'content-type': 'text/plain' };
let dir: string;
let stub: RunningStub | undefined;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-reload-'));
});
afterEach(async () => {
  await stub?.close();
  stub = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The next reload's result, or a failure after a generous wait (file events can be slow on a busy machine). */
function nextReload(results: ReloadResult[]): Promise<ReloadResult> {
  const before = results.length;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (results.length > before) {
        clearInterval(poll);
        resolve(results[results.length - 1]);
      } else if (Date.now() - started > 10_000) {
        clearInterval(poll);
        reject(new Error('no reload within 10 s'));
      }
    }, 20);
  });
}

describe('reloading contracts', () => {
  it('with watch, a changed contract in a watched folder serves its new version', async () => {
    const file = path.join(dir, 'math.spec');
    writeFileSync(file, square(200));
    const results: ReloadResult[] = [];
    stub = await startStub({ contracts: [dir], watch: true, onReload: (r) => results.push(r) });
    expect((await post(`${stub.url}/square`, '3', TEXT)).status).toBe(200);

    const reloaded = nextReload(results);
    writeFileSync(file, square(201, '\n  Scenario: Cube of a number\n    When POST /cube\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n'));
    const r = await reloaded;
    expect(r.ok).toBe(true);
    expect(stub.served.map((s) => s.name)).toEqual(['Square of a number', 'Cube of a number']);
    expect((await post(`${stub.url}/square`, '3', TEXT)).status).toBe(201);
    expect((await post(`${stub.url}/cube`, '3', TEXT)).status).toBe(200);
  });

  it('a folder of contracts made after the start is watched too', async () => {
    writeFileSync(path.join(dir, 'math.spec'), square(200));
    const results: ReloadResult[] = [];
    stub = await startStub({ contracts: [dir], watch: true, onReload: (r) => results.push(r) });
    const folderSeen = nextReload(results);
    mkdirSync(path.join(dir, 'more'));
    await folderSeen; // the new folder's own reload, after which it is watched
    writeFileSync(
      path.join(dir, 'more', 'cube.spec'),
      square(200).replace(/square|Square/g, (w) => (w === 'square' ? 'cube' : 'Cube')),
    );
    const started = Date.now();
    while (!stub.served.some((s) => s.name === 'Cube of a number') && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 50));
    expect(stub.served.map((s) => s.name)).toEqual(['Square of a number', 'Cube of a number']);
    expect((await post(`${stub.url}/cube`, '3', TEXT)).status).toBe(200);
  });

  it('a change that does not load keeps the previous version serving, and says where the error is', async () => {
    const file = path.join(dir, 'math.spec');
    writeFileSync(file, square(200));
    const results: ReloadResult[] = [];
    stub = await startStub({ contracts: [dir], watch: true, onReload: (r) => results.push(r) });

    const reloaded = nextReload(results);
    writeFileSync(file, square(200).replace('(number)\n    Then', '(Numbr)\n    Then'));
    const r = await reloaded;
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.describe()).toMatch(/math\.spec:5: unknown type \(Numbr\)/);
    expect((await post(`${stub.url}/square`, '3', TEXT)).status).toBe(200);
    expect(stub.served).toHaveLength(1);
  });

  it('a contract given as a file follows an editor-style save (write a temp file, rename it over)', async () => {
    const file = path.join(dir, 'math.spec');
    writeFileSync(file, square(200));
    const results: ReloadResult[] = [];
    stub = await startStub({ contracts: [file], watch: true, onReload: (r) => results.push(r) });

    const reloaded = nextReload(results);
    writeFileSync(path.join(dir, '.math.spec.swp'), square(202));
    renameSync(path.join(dir, '.math.spec.swp'), file);
    expect((await reloaded).ok).toBe(true);
    expect((await post(`${stub.url}/square`, '3', TEXT)).status).toBe(202);
  });

  it('reload() reads the files again without watching', async () => {
    const file = path.join(dir, 'math.spec');
    writeFileSync(file, square(200));
    stub = await startStub({ contracts: [file] });
    writeFileSync(file, square(203));
    expect((await post(`${stub.url}/square`, '3', TEXT)).status).toBe(200);
    expect(stub.reload().ok).toBe(true);
    expect((await post(`${stub.url}/square`, '3', TEXT)).status).toBe(203);
  });

  it('accord stub --watch says what it serves after a change', async () => {
    const file = path.join(dir, 'math.spec');
    writeFileSync(file, square(200));
    const proc = await startStubProcess([dir, '--port', '0', '--watch']);
    try {
      expect(proc.stdout()).toContain('Watching the contracts for changes.');
      writeFileSync(file, square(201));
      const started = Date.now();
      while (!proc.stdout().includes('contracts changed, reloaded') && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 50));
      expect(proc.stdout()).toMatch(/contracts changed, reloaded\. Serving 1 scenario:\n {2}POST \/square -> 201 {2}"Square of a number"/);
      expect((await post(`${proc.url}/square`, '3', TEXT)).status).toBe(201);
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
  });
});
