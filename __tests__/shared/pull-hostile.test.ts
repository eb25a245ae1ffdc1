import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { withoutCredentials } from '../../src/printable';
import { ROOT, TempRepo } from '../compat/git-repo';
import { childEnv, plain } from '../helpers/child-env';

/**
 * `accord contracts pull` in a hostile project: a project that commits a symlink
 * where accord keeps its own folders, a shell or hook that leaves GIT_DIR
 * set, a remote that never answers, a URL holding a token. Real repositories
 * in temp folders, the built CLI as a child process, a real socket.
 */
const BIN = path.join(ROOT, 'bin', 'accord.js');
const SPEC = 'Feature: Orders\n\n  Scenario: Orders call\n    When POST /orders\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n';

let temp: string;
let shared: TempRepo;
let bare: string;

beforeAll(() => {
  temp = mkdtempSync(path.join(tmpdir(), 'accord-hostile-'));
  shared = new TempRepo();
  shared.write('contracts/orders/api_orders_v1.spec', SPEC).commit('v1');
  bare = path.join(temp, 'contracts.git');
  spawnSync('git', ['clone', '-q', '--bare', shared.dir, bare]);
});

afterAll(() => {
  shared.remove();
  rmSync(temp, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  out: string;
}

function pull(cwd: string, env: Record<string, string> = {}, timeout = 30_000): Run {
  const r = spawnSync(process.execPath, [BIN, 'contracts', 'pull'], { cwd, encoding: 'utf8', env: childEnv(env), timeout });
  return { code: r.status, out: plain(`${r.stdout}${r.stderr}`) };
}

/** A folder beside the project that a pull must never touch: a user's Documents with a file in it. */
function victim(name: string): string {
  const dir = path.join(temp, name, 'Documents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'thesis.txt'), 'years of work');
  return dir;
}

function untouched(dir: string): void {
  expect(readFileSync(path.join(dir, 'thesis.txt'), 'utf8')).toBe('years of work');
  expect(existsSync(path.join(dir, '.git'))).toBe(false);
  expect(existsSync(path.join(dir, 'contracts'))).toBe(false);
}

/**
 * The project as a user gets it: a repository someone else wrote, with the link committed, cloned.
 * `link` is where the link is (under the project), `to` what it points at (as committed, relative).
 */
function hostileProject(id: string, link: string, to: string, source: Record<string, unknown> = {}): string {
  const author = new TempRepo();
  try {
    author.write('accord.config.json', JSON.stringify({ sources: [{ name: 'Documents', git: bare, provides: ['contracts/orders'], consumes: ['contracts/orders'], ...source }] }));
    mkdirSync(path.dirname(path.join(author.dir, link)), { recursive: true });
    symlinkSync(to, path.join(author.dir, link));
    author.commit('a project');
    const project = path.join(temp, id, 'project');
    mkdirSync(path.dirname(project), { recursive: true });
    const r = spawnSync('git', ['clone', '-q', author.dir, project], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return project;
  } finally {
    author.remove();
  }
}

describe('a symlink committed in accord’s own folders is refused, never followed', () => {
  // Each link points out of the project, at the folder that holds the victim's Documents (temp/<id>/Documents).
  test.each([
    ['.accord/checkouts', '../..'],
    ['.accord', '..'],
    ['.accord/checkouts/Documents', '../../../Documents'],
    ['.accord/provides', '../..'],
    ['.accord/consumes', '../..'],
  ])('%s -> %s', (link, to) => {
    const id = `link-${link.replaceAll('/', '_')}`;
    const documents = victim(id);
    const project = hostileProject(id, link, to);
    // The link as committed leads to the victim's folder: the name of the source is Documents.
    expect(existsSync(path.join(project, link))).toBe(true);
    const r = pull(project);
    expect(r.out).toContain(`${link} is a symlink (to ${to}): accord never writes through a link in its own folders`);
    expect(r.code).toBe(2);
    untouched(documents);
  });

  test('with the link removed, the same project pulls into its own .accord/', () => {
    const id = 'link-removed';
    const documents = victim(id);
    const project = hostileProject(id, '.accord/checkouts', '../..');
    rmSync(path.join(project, '.accord', 'checkouts'));
    const r = pull(project);
    expect(r.out).toContain('Documents: default branch at');
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(project, '.accord/provides/Documents/contracts/orders/api_orders_v1.spec'), 'utf8')).toBe(SPEC);
    untouched(documents);
  });

  test('a file where a folder of .accord/ should be is named, and kept', () => {
    const project = mkdtempSync(path.join(temp, 'file-'));
    writeFileSync(path.join(project, 'accord.config.json'), JSON.stringify({ sources: [{ name: 'c', git: bare, provides: ['contracts/orders'] }] }));
    writeFileSync(path.join(project, '.accord'), 'not a folder');
    const r = pull(project);
    expect(r.out).toContain('.accord is not a folder');
    expect(r.code).toBe(2);
    expect(readFileSync(path.join(project, '.accord'), 'utf8')).toBe('not a folder');
  });
});

describe('git runs in the checkout, whatever the environment names', () => {
  test('an inherited absolute GIT_DIR (and GIT_WORK_TREE, GIT_INDEX_FILE) leaves the user’s own repository alone', () => {
    const project = new TempRepo();
    try {
      project.write('accord.config.json', JSON.stringify({ sources: [{ name: 'c', git: bare, provides: ['contracts/orders'] }] }));
      project.write('.gitignore', '.accord/\n');
      const head = project.commit('the user’s work');
      const gitDir = path.join(project.dir, '.git');
      const r = pull(project.dir, { GIT_DIR: gitDir, GIT_WORK_TREE: project.dir, GIT_INDEX_FILE: path.join(gitDir, 'index') });
      expect(r.out).toContain('c: default branch at');
      expect(r.code).toBe(0);
      // The user's branch is still checked out, at the user's commit, with the user's files.
      expect(project.git('symbolic-ref', 'HEAD')).toBe('refs/heads/main');
      expect(project.git('rev-parse', 'HEAD')).toBe(head);
      expect(project.git('status', '--porcelain')).toBe('');
      expect(existsSync(path.join(project.dir, 'contracts'))).toBe(false);
      expect(readFileSync(path.join(project.dir, '.accord/provides/c/contracts/orders/api_orders_v1.spec'), 'utf8')).toBe(SPEC);
    } finally {
      project.remove();
    }
  });

  test('accord compatible git reads the repository it runs in, not the one GIT_DIR names', () => {
    const mine = new TempRepo();
    const other = new TempRepo();
    try {
      mine.write('contracts/api_orders_v1.spec', SPEC).commit('v1');
      mine.edit('contracts/api_orders_v1.spec', (t) => t.replace('response-body (number)', 'response-body (string)'));
      other.write('unrelated.txt', 'x').commit('other');
      const r = spawnSync(process.execPath, [BIN, 'compatible', 'git', 'file', 'contracts/api_orders_v1.spec'], {
        cwd: mine.dir,
        encoding: 'utf8',
        env: childEnv({ GIT_DIR: path.join(other.dir, '.git') }),
      });
      expect(plain(r.stdout)).toContain('The newer contract is NOT backward compatible');
      expect(r.status).toBe(1);
    } finally {
      mine.remove();
      other.remove();
    }
  });
});

describe('a remote that accepts and never answers', () => {
  let server: Server;
  let port: number;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    server = createServer((s) => {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  test.each(['git', 'http'])('over %s: the pull stops after ACCORD_GIT_TIMEOUT with one line, and leaves no git behind', (scheme) => {
    const project = mkdtempSync(path.join(temp, `silent-${scheme}-`));
    writeFileSync(path.join(project, 'accord.config.json'), JSON.stringify({ sources: [{ name: 'c', git: `${scheme}://127.0.0.1:${port}/x.git`, provides: ['a'] }] }));
    const started = Date.now();
    const r = pull(project, { ACCORD_GIT_TIMEOUT: '1' }, 20_000);
    const took = Date.now() - started;
    expect(r.out.trim()).toBe(
      'accord contracts pull: git fetch gave no answer within 1 s and was stopped (a remote that does not answer?); set ACCORD_GIT_TIMEOUT=<seconds> to wait longer',
    );
    expect(r.code).toBe(2);
    expect(took).toBeLessThan(10_000);
    // Nothing of that fetch still runs: no transport helper left holding the connection.
    const left = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    if (left.status === 0) expect(left.stdout).not.toContain(`127.0.0.1:${port}`);
  });

  test('a time-out that is not a number of seconds is a usage error', () => {
    const project = mkdtempSync(path.join(temp, 'silent-bad-'));
    writeFileSync(path.join(project, 'accord.config.json'), JSON.stringify({ sources: [{ name: 'c', git: bare, provides: ['contracts/orders'] }] }));
    const r = pull(project, { ACCORD_GIT_TIMEOUT: 'soon' });
    expect(r.out).toContain('ACCORD_GIT_TIMEOUT must be a number of seconds above 0, found "soon"');
    expect(r.code).toBe(2);
  });
});

describe('credentials in a URL are never printed', () => {
  const SECRET = 's3cr3t-pa55';
  const TOKEN = 't0k3n-value';

  test.each([
    ['a remote that cannot be reached', `http://deploy:${SECRET}@127.0.0.1:1/team/contracts.git?access_token=${TOKEN}`],
    ['a token as the user name', `https://${SECRET}@127.0.0.1:1/team/contracts.git?private_token=${TOKEN}`],
  ])('%s', (_, url) => {
    const project = mkdtempSync(path.join(temp, 'creds-'));
    writeFileSync(path.join(project, 'accord.config.json'), JSON.stringify({ sources: [{ git: url, provides: ['contracts'] }] }));
    const r = pull(project);
    expect(r.code).toBe(2);
    expect(r.out).toContain('cannot fetch the default branch of contracts (http');
    expect(r.out).toContain('://***@127.0.0.1:1/team/contracts.git?');
    expect(r.out).toContain('_token=***');
    expect(r.out).not.toContain(SECRET);
    expect(r.out).not.toContain(TOKEN);
  });

  test('the default name never takes the query, and a refused URL is shown without its secret', () => {
    const project = mkdtempSync(path.join(temp, 'creds-'));
    writeFileSync(path.join(project, 'accord.config.json'), JSON.stringify({ sources: [{ git: `-https://u:${SECRET}@h/x.git`, provides: ['contracts'] }] }));
    const r = pull(project);
    expect(r.out).toContain('"git" cannot start with "-": "-https://***@h/x.git"');
    expect(r.out).not.toContain(SECRET);
  });
});

describe('withoutCredentials', () => {
  test.each([
    ["fatal: unable to access 'https://user:tok@host/x.git/': 403", "fatal: unable to access 'https://***@host/x.git/': 403"],
    ['https://ghp_abc@github.com/a/b.git', 'https://***@github.com/a/b.git'],
    ['https://u:p@ss@host:8443/x?ref=main', 'https://***@host:8443/x?ref=main'],
    ['https://host/x.git?access_token=abc&ref=main#frag', 'https://host/x.git?access_token=***&ref=main#frag'],
    ['http://h/x?X-Amz-Signature=f00&X-Amz-Credential=k&page=2', 'http://h/x?X-Amz-Signature=***&X-Amz-Credential=***&page=2'],
    ['ssh://git@host/x.git and git@host:team/x.git', 'ssh://***@host/x.git and git@host:team/x.git'],
    ['no URL here, a = b, mail@example.com', 'no URL here, a = b, mail@example.com'],
    ['https://host/path@v1 stays', 'https://host/path@v1 stays'],
  ])('%s', (text, shown) => {
    expect(withoutCredentials(text)).toBe(shown);
    expect(withoutCredentials(shown)).toBe(shown);
  });

  test('linear: a megabyte of URL-like text', () => {
    const text = 'https://'.repeat(1 << 17) + '?token='.repeat(1 << 17);
    const started = process.hrtime.bigint();
    withoutCredentials(text);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
  });
});
