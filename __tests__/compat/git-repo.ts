import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv, plain } from '../helpers/child-env';

export const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'accord.js');

/** A real git repository in a temp folder, with real commits. */
export class TempRepo {
  readonly dir: string;

  constructor(init = true) {
    this.dir = mkdtempSync(path.join(tmpdir(), 'accord-compat-'));
    if (init) {
      this.git('init', '-q', '-b', 'main');
      this.git('config', 'user.email', 'test@example.com');
      this.git('config', 'user.name', 'accord tests');
      this.git('config', 'commit.gpgsign', 'false');
    }
  }

  git(...args: string[]): string {
    const r = spawnSync('git', args, { cwd: this.dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
    return r.stdout.trim();
  }

  write(file: string, text: string): this {
    const abs = path.join(this.dir, file);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    return this;
  }

  read(file: string): string {
    return readFileSync(path.join(this.dir, file), 'utf8');
  }

  /** Rewrites a file with a function of its text (a contract change), checking the change happened. */
  edit(file: string, change: (text: string) => string): this {
    const before = this.read(file);
    const after = change(before);
    if (after === before) throw new Error(`edit of ${file} changed nothing`);
    return this.write(file, after);
  }

  /** Commits everything; returns the commit hash. */
  commit(message: string): string {
    this.git('add', '-A');
    this.git('commit', '-q', '-m', message);
    return this.git('rev-parse', 'HEAD');
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The built CLI as a child process (npm test builds first). */
export function accord(cwd: string, ...args: string[]): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: childEnv() });
  return { code: r.status ?? -1, stdout: plain(r.stdout), stderr: plain(r.stderr) };
}

export function contract(name: string): string {
  return readFileSync(path.join(ROOT, 'contracts', name), 'utf8');
}
