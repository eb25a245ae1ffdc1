import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../helpers/child-env';

/**
 * What `accord stub` loads before it listens. Each package required at start cost it milliseconds
 * (issue 14: first answer within 150 ms of spawn), so a plain stub of a .spec contract loads
 * accord's two bundled files and Node's own modules, nothing from node_modules: commander is
 * bundled, re2js and saxes wait for a pattern or a document that needs them, the Gherkin parser
 * for a contract text not in the cache, undici for a proxy.
 */
const ROOT = path.join(__dirname, '..', '..');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-startup-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('a stub of a .spec contract loads no package from node_modules before it listens', async () => {
  const hook = path.join(dir, 'hook.js');
  // Records every file Node's loader reads a module from, until the stub says it listens.
  writeFileSync(
    hook,
    `const Module = require('node:module');
     const seen = [];
     const load = Module._load;
     Module._load = function (request, parent, isMain) {
       if (!request.startsWith('node:') && !Module.isBuiltin(request)) seen.push(Module._resolveFilename(request, parent, isMain));
       return load.apply(this, arguments);
     };
     const write = process.stdout.write;
     process.stdout.write = function (chunk, ...rest) {
       if (String(chunk).includes('listening on')) process.stderr.write('LOADED ' + JSON.stringify(seen) + '\\n');
       return write.call(this, chunk, ...rest);
     };`,
  );
  const contract = path.join(ROOT, 'contracts', 'soap', 'api_pet_v1.spec');
  const run = async () => {
    const child = spawn(process.execPath, ['-r', hook, path.join(ROOT, 'bin', 'accord.js'), 'stub', contract, '--port', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: childEnv({ ACCORD_CACHE_DIR: path.join(dir, 'cache') }),
    });
    let err = '';
    child.stdout.resume();
    const loaded = await new Promise<string[]>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        err += d;
        const m = /LOADED (.*)\n/.exec(err);
        if (m) resolve(JSON.parse(m[1]) as string[]);
      });
      child.once('exit', (code) => reject(new Error(`stub exited with ${code}: ${err}`)));
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    return loaded.map((f) => path.relative(ROOT, f));
  };
  await run(); // fills the caches (the contract's AST, the CLI's code)
  expect(await run()).toEqual([path.join('bin', 'accord.js'), path.join('dist', 'accord-start.js')]);
});
