import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { accord, TempRepo } from './git-repo';

/**
 * Symlinks and refs in the git modes, on real repositories. A symlinked
 * contract is followed only inside the repository, in commits and in the
 * working tree alike; one that points outside is refused by name (a pull
 * request can plant a link to /proc/self/environ before CI runs the check).
 */
const itUnix = process.platform !== 'win32' ? it : it.skip;

const API = `Feature: API

  Scenario: Square
    When POST /square
    And request-body (number)
    Then status 200
    And response-body (number)
`;

let repos: TempRepo[] = [];
let outside: string;
function repo(): TempRepo {
  const r = new TempRepo();
  repos.push(r);
  return r;
}
beforeEach(() => {
  outside = mkdtempSync(path.join(tmpdir(), 'accord-outside-'));
});
afterEach(() => {
  for (const r of repos) r.remove();
  repos = [];
  rmSync(outside, { recursive: true, force: true });
});

function link(r: TempRepo, target: string, at: string): void {
  symlinkSync(target, path.join(r.dir, at));
}

describe('symlinks inside contract folders', () => {
  itUnix('a committed link to a contract in the repository is compared as that contract, in git file and git commits', () => {
    const r = repo().write('contracts/v1/api.spec', API);
    r.write('contracts/v2/.keep', '');
    link(r, '../v1/api.spec', 'contracts/v2/api.spec');
    r.commit('a shared contract');
    r.edit('contracts/v1/api.spec', (t) => `${t}\n  Scenario: Cube\n    When POST /cube\n    And request-body (number)\n    Then status 200\n`);
    r.commit('a new scenario');

    const file = accord(r.dir, 'compatible', 'git', 'file', 'contracts');
    expect(file.stderr).toBe('');
    expect(file.stdout).toContain('Contract: contracts/v2/api.spec\nTests run: 2, Passed: 2, Failed: 0');
    expect(file.stdout).toContain('The newer contract is backward compatible');
    expect(file.code).toBe(0);

    const commits = accord(r.dir, 'compatible', 'git', 'commits', 'contracts', 'HEAD', 'HEAD~1');
    expect(commits.stderr).toBe('');
    expect(commits.stdout).toContain('Contract: contracts/v2/api.spec\nTests run: 1, Passed: 1, Failed: 0');
    expect(commits.code).toBe(0);
  });

  itUnix('a breaking change seen through the link is reported for the link too', () => {
    const r = repo().write('contracts/api.spec', API);
    link(r, 'api.spec', 'contracts/alias.spec');
    r.commit('one');
    r.edit('contracts/api.spec', (t) => t.replace('response-body (number)', 'response-body (string)'));
    const res = accord(r.dir, 'compatible', 'git', 'file', 'contracts');
    expect(res.stdout).toContain('Contract: contracts/alias.spec\n');
    expect(res.stdout.match(/\[response-type-widened\]/g)?.length).toBe(2);
    expect(res.code).toBe(1);
  });

  itUnix('a committed link, unchanged in the working tree, is read on both sides, never as a deleted contract', () => {
    const r = repo().write('contracts/api.spec', API);
    link(r, 'api.spec', 'contracts/alias.spec');
    r.commit('one');
    // Unchanged since the commit: before, the working tree skipped the link and reported it removed.
    const res = accord(r.dir, 'compatible', 'git', 'file', 'contracts');
    expect(res.stdout).not.toContain('NOT');
    expect(res.stdout).toContain('Contract: contracts/alias.spec\nTests run: 1, Passed: 1, Failed: 0');
    expect(res.code).toBe(0);
  });
});

describe('links that leave the repository are refused, by name', () => {
  itUnix('a working-tree contract linked to /proc/self/environ: refused, the environment never printed', () => {
    const r = repo().write('contracts/api.spec', API);
    r.commit('one');
    link(r, '/proc/self/environ', 'contracts/env.spec');
    for (const target of ['contracts', 'contracts/env.spec']) {
      const res = accord(r.dir, 'compatible', 'git', 'file', target);
      expect(res.stderr).toBe('accord compatible git file: contracts/env.spec is a symlink to /proc/self/environ, outside the repository: refused\n');
      expect(res.stdout).toBe('');
      expect(res.code).toBe(2);
    }
  });

  itUnix('a committed link outside the repository, absolute or by ../, is refused in git commits', () => {
    writeFileSync(path.join(outside, 'secret.spec'), API);
    const r = repo().write('contracts/api.spec', API);
    r.commit('one');
    link(r, path.join(outside, 'secret.spec'), 'contracts/abs.spec');
    link(r, '../../../../../../../../../../etc/passwd', 'contracts/up.spec');
    r.commit('links');
    const res = accord(r.dir, 'compatible', 'git', 'commits', 'contracts', 'HEAD', 'HEAD~1');
    expect(res.stderr).toBe(`accord compatible git commits: contracts/abs.spec in HEAD is a symlink to ${path.join(outside, 'secret.spec')}, outside the repository: refused\n`);
    expect(res.code).toBe(2);
    const up = accord(r.dir, 'compatible', 'git', 'commits', 'contracts/up.spec', 'HEAD', 'HEAD~1');
    expect(up.stderr).toBe('accord compatible git commits: contracts/up.spec in HEAD is a symlink to ../../../../../../../../../../etc/passwd, outside the repository: refused\n');
    expect(up.stdout).not.toContain('root:');
    expect(up.code).toBe(2);
  });

  itUnix('a dangling link is refused, not taken for a deleted contract', () => {
    const r = repo().write('contracts/api.spec', API);
    link(r, 'api.spec', 'contracts/alias.spec');
    r.commit('one');
    rmSync(path.join(r.dir, 'contracts/alias.spec'));
    link(r, 'gone.spec', 'contracts/alias.spec');
    const res = accord(r.dir, 'compatible', 'git', 'file', 'contracts');
    expect(res.stderr).toBe('accord compatible git file: contracts/alias.spec is a symlink to gone.spec, which does not exist\n');
    expect(res.code).toBe(2);
  });
});

describe('git refs', () => {
  it('":/message" names the newest commit whose message matches', () => {
    const r = repo().write('contracts/api.spec', API);
    r.commit('first version of the api');
    r.edit('contracts/api.spec', (t) => t.replace('Scenario: Square', 'Scenario: Square it'));
    r.commit('second');
    const res = accord(r.dir, 'compatible', 'git', 'commits', 'contracts/api.spec', 'HEAD', ':/first version');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
  });

  it('a ref holding a newline is not a valid ref, shown escaped', () => {
    const r = repo().write('contracts/api.spec', API);
    r.commit('one');
    const res = accord(r.dir, 'compatible', 'git', 'commits', 'contracts/api.spec', 'HEAD\nmain', 'HEAD');
    expect(res.stderr).toBe('accord compatible git commits: not a valid git ref: "HEAD\\nmain"\n');
    expect(res.code).toBe(2);
  });

  it('a commit missing from a shallow clone gets a hint', () => {
    const r = repo().write('contracts/api.spec', API);
    r.commit('one');
    r.edit('contracts/api.spec', (t) => t.replace('Scenario: Square', 'Scenario: Square it'));
    r.commit('two');
    const clone = new TempRepo(false);
    repos.push(clone);
    const c = spawnSync('git', ['clone', '-q', '--depth', '1', `file://${r.dir}`, clone.dir], { encoding: 'utf8' });
    expect(c.status).toBe(0);
    const res = accord(clone.dir, 'compatible', 'git', 'commits', 'contracts/api.spec', 'HEAD', 'HEAD~1');
    expect(res.stderr).toBe('accord compatible git commits: commit HEAD~1 is not in this clone: it may be shallow; run git fetch --unshallow\n');
    expect(res.code).toBe(2);
  });
});
