import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { childEnv } from '../helpers/child-env';

/**
 * bin/accord.js loads the bundled CLI with V8's code cache (src/cli/start.ts): an entry per command
 * in the cache folder, written by a run that found none usable and read back by the next.
 */
const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'accord.js');
const PET = path.join(ROOT, 'contracts', 'soap', 'api_pet_v1.spec');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-code-cache-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const accord = (args: string[], env: Record<string, string> = { ACCORD_CACHE_DIR: dir }) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: childEnv(env) });
const entries = () => readdirSync(dir).filter((n) => n.endsWith('.v8'));
const identity = (name: string) => {
  const st = statSync(path.join(dir, name));
  return `${st.ino}:${st.mtimeMs}`;
};

describe('the CLI code cache', () => {
  it('a run writes its entry; the next run reads it back (not written again) and behaves the same', () => {
    const first = accord(['--version']);
    expect(first.status).toBe(0);
    expect(entries()).toHaveLength(1);
    expect(statSync(path.join(dir, entries()[0])).size).toBeGreaterThan(1000);
    const written = identity(entries()[0]);
    const again = accord(['--version']);
    expect(again).toMatchObject({ status: 0, stdout: first.stdout, stderr: '' });
    // Rewritten only when V8 refused it: an entry left alone is one V8 accepted.
    expect(identity(entries()[0])).toBe(written);
  });

  it('keeps one entry per command: what `validate` compiles is not what the stub compiles', () => {
    accord(['--version']);
    const bad = accord(['validate', 'no/such.xml', '--contract', PET]);
    expect(bad.status).toBe(2);
    expect(entries().sort()).toEqual([expect.stringMatching(/^cli---/), expect.stringMatching(/^cli-validate-/)]);
  });

  it('a broken entry (garbage, cut short) is refused by V8 and replaced; the command works as usual', () => {
    accord(['--version']);
    const name = entries()[0];
    const file = path.join(dir, name);
    const good = readFileSync(file);
    for (const broken of [Buffer.from('not a code cache at all'), good.subarray(0, good.length >> 1)]) {
      writeFileSync(file, broken);
      const r = accord(['--help']);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('Usage: accord');
      expect(r.stderr).toBe('');
      expect(readFileSync(path.join(dir, name)).length).toBeGreaterThan(broken.length);
    }
  });

  it('ACCORD_CACHE=0 writes nothing, and a folder others can write is never used', () => {
    expect(accord(['--version'], { ACCORD_CACHE_DIR: dir, ACCORD_CACHE: '0' }).status).toBe(0);
    expect(entries()).toEqual([]);
    chmodSync(dir, 0o777);
    expect(accord(['--version']).status).toBe(0);
    expect(entries()).toEqual([]);
  });

  it('the stub writes its entry when it stops, and a stub started from it answers', async () => {
    for (let run = 0; run < 2; run++) {
      const child = spawn(process.execPath, [BIN, 'stub', PET, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: childEnv({ ACCORD_CACHE_DIR: dir }) });
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          out += d;
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`stub exited with ${code}`)));
      });
      const body =
        '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>' +
        '<pet:getPetRequest xmlns:pet="http://example.com/petstore"><pet:id>10</pet:id></pet:getPetRequest></soapenv:Body></soapenv:Envelope>';
      const res = await request(`${url}/ws`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body });
      expect(res.statusCode).toBe(200);
      await res.body.text();
      const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(entries()).toEqual([expect.stringMatching(/^cli-stub-/)]);
    }
  });
});
