import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv, plain } from '../helpers/child-env';

/**
 * `import wsdl -o` and `import log -o` write through one writer that never
 * follows a symlink: a dangling link would otherwise create its target
 * wherever it points. Real symlinks, the built CLI.
 */
const BIN = path.join(__dirname, '..', '..', 'bin', 'accord.js');
const FIXTURES = path.join(__dirname, '..', 'fixtures');
const WSDL = path.join(FIXTURES, 'wsdl', 'features', 'features.wsdl');
const LOG = path.join(FIXTURES, 'logs', 'spring-ws.log');
const itUnix = process.platform !== 'win32' ? it : it.skip;

let dir: string;
let elsewhere: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-write-'));
  elsewhere = mkdtempSync(path.join(tmpdir(), 'accord-elsewhere-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

function accord(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', env: childEnv(), timeout: 30_000 });
  return { code: r.status, stdout: plain(r.stdout ?? ''), stderr: plain(r.stderr ?? '') };
}

const COMMANDS: [string, string[]][] = [
  ['import wsdl', ['import', 'wsdl', WSDL]],
  ['import log', ['import', 'log', LOG]],
];

describe.each(COMMANDS)('accord %s -o <symlink>', (command, args) => {
  itUnix('a dangling link is refused: nothing is created where it points', () => {
    const target = path.join(elsewhere, 'planted.spec');
    symlinkSync(target, path.join(dir, 'out.spec'));
    const r = accord(...args, '-o', 'out.spec');
    expect(r.stderr).toBe(
      `accord ${command}: out.spec is a symlink; accord does not write through links (use --force to replace the link itself with the file, or --output to write elsewhere)\n`,
    );
    expect(r.code).toBe(2);
    expect(existsSync(target)).toBe(false);
    expect(readlinkSync(path.join(dir, 'out.spec'))).toBe(target);
  });

  itUnix('a link to an existing file is refused too, the file untouched', () => {
    const target = path.join(elsewhere, 'precious');
    writeFileSync(target, 'keep me');
    symlinkSync(target, path.join(dir, 'out.spec'));
    expect(accord(...args, '-o', 'out.spec').code).toBe(2);
    expect(readFileSync(target, 'utf8')).toBe('keep me');
  });

  itUnix('with --force the link itself is replaced by the file; its target is never written', () => {
    const target = path.join(elsewhere, 'precious');
    writeFileSync(target, 'keep me');
    symlinkSync(target, path.join(dir, 'out.spec'));
    const r = accord(...args, '-o', 'out.spec', '--force');
    expect(r.code).toBe(0);
    expect(lstatSync(path.join(dir, 'out.spec')).isFile()).toBe(true);
    expect(readFileSync(path.join(dir, 'out.spec'), 'utf8')).toMatch(/^Feature: /m);
    expect(readFileSync(target, 'utf8')).toBe('keep me');
  });

  itUnix('a FIFO or a folder is never written, even with --force', () => {
    execFileSync('mkfifo', [path.join(dir, 'pipe.spec')]);
    mkdirSync(path.join(dir, 'folder.spec'));
    expect(accord(...args, '-o', 'pipe.spec', '--force').stderr).toBe(`accord ${command}: pipe.spec is a named pipe (FIFO); accord writes only regular files\n`);
    expect(accord(...args, '-o', 'folder.spec', '--force').stderr).toBe(`accord ${command}: folder.spec is a folder; accord writes only regular files\n`);
  });

  it('an existing file is kept without --force, and overwritten with it', () => {
    writeFileSync(path.join(dir, 'out.spec'), 'mine');
    expect(accord(...args, '-o', 'out.spec').stderr).toBe(`accord ${command}: out.spec exists; use --force to overwrite it or --output to write elsewhere\n`);
    expect(readFileSync(path.join(dir, 'out.spec'), 'utf8')).toBe('mine');
    expect(accord(...args, '-o', 'out.spec', '--force').code).toBe(0);
    expect(readFileSync(path.join(dir, 'out.spec'), 'utf8')).toMatch(/^Feature: /m);
  });
});
