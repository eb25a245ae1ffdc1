import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { accord, TempRepo } from '../compat/git-repo';
import { childEnv } from '../helpers/child-env';

/**
 * Contracts from a shared repository: a local bare repository stands in for
 * the team's; a project names it in accord.config.json, `accord contracts
 * pull` fetches it, `jest --preset` collects what the project provides and
 * `accord stub` serves what it consumes.
 */
const REPO = path.join(__dirname, '..', '..');
const spec = (feature: string, p: string, answer: string) =>
  `Feature: ${feature}\n\n  Scenario: ${feature} call\n    When POST ${p}\n    And request-body (number)\n    Then status 200\n    And response-body ${answer}\n`;

let shared: TempRepo;
let bare: string;
let project: string;
let v1: string;

beforeAll(() => {
  shared = new TempRepo();
  shared.write('contracts/math/api_math_v1.spec', spec('Math', '/square', '(number)')).write('contracts/orders/api_orders_v1.spec', spec('Orders', '/orders', '(number)'));
  v1 = shared.commit('v1');
  shared.git('tag', 'v1');
  shared.write('contracts/orders/api_orders_v1.spec', spec('Orders', '/orders', '(number)') + '\n' + spec('Refunds', '/refunds', '(number)').split('\n').slice(2).join('\n'));
  shared.commit('v2: refunds');
  bare = mkdtempSync(path.join(tmpdir(), 'accord-bare-'));
  spawnSync('git', ['clone', '-q', '--bare', shared.dir, path.join(bare, 'contracts.git')]);
  project = mkdtempSync(path.join(tmpdir(), 'accord-project-'));
});

afterAll(() => {
  shared.remove();
  rmSync(bare, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

function configure(source: Record<string, unknown>, where: 'accord.config.json' | 'package.json' = 'accord.config.json'): void {
  rmSync(path.join(project, 'accord.config.json'), { force: true });
  const settings = { sources: [{ git: path.join(bare, 'contracts.git'), provides: ['contracts/math'], consumes: ['contracts/orders'], ...source }] };
  writeFileSync(path.join(project, 'package.json'), JSON.stringify(where === 'package.json' ? { name: 'app', private: true, accord: settings } : { name: 'app', private: true }));
  if (where === 'accord.config.json') writeFileSync(path.join(project, 'accord.config.json'), JSON.stringify(settings));
}

const ORDERS = '.accord/consumes/contracts/contracts/orders/api_orders_v1.spec';
const MATH = '.accord/provides/contracts/contracts/math/api_math_v1.spec';

test('pull at a tag, a branch and a commit: the provided and consumed contracts of that version', () => {
  configure({ tag: 'v1' });
  const tag = accord(project, 'contracts', 'pull');
  expect(tag.stderr).toBe('');
  expect(tag.code).toBe(0);
  expect(tag.stdout).toContain(`contracts: tag v1 at ${v1.slice(0, 12)}; provides .accord/provides/contracts/contracts/math; consumes .accord/consumes/contracts/contracts/orders`);
  expect(readFileSync(path.join(project, MATH), 'utf8')).toContain('POST /square');
  expect(readFileSync(path.join(project, ORDERS), 'utf8')).not.toContain('/refunds');
  // Shallow: one commit of history.
  expect(spawnSync('git', ['rev-list', '--count', 'HEAD'], { cwd: path.join(project, '.accord/checkouts/contracts'), encoding: 'utf8' }).stdout.trim()).toBe('1');

  configure({ branch: 'main' }, 'package.json');
  expect(accord(project, 'contracts', 'pull').code).toBe(0);
  expect(readFileSync(path.join(project, ORDERS), 'utf8')).toContain('/refunds');

  configure({ commit: v1.slice(0, 12) });
  expect(accord(project, 'contracts', 'pull').code).toBe(0);
  expect(readFileSync(path.join(project, ORDERS), 'utf8')).not.toContain('/refunds');
});

test('mistakes are exit 2 with the file and what is wrong', () => {
  configure({ tag: 'v1', colour: 'blue' });
  let r = accord(project, 'contracts', 'pull');
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('accord.config.json: sources[0]: unknown key "colour"');
  configure({ tag: 'v9' });
  r = accord(project, 'contracts', 'pull');
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('cannot fetch tag v9 of contracts');
  configure({ tag: 'v1', provides: ['../../etc'] });
  expect(accord(project, 'contracts', 'pull').stderr).toContain('leaves the repository');
  configure({ git: '--upload-pack=touch /tmp/x' });
  expect(accord(project, 'contracts', 'pull').stderr).toContain('"git" cannot start with "-"');
  configure({ tag: 'v1', provides: ['contracts/nope'] });
  expect(accord(project, 'contracts', 'pull').stderr).toContain('contracts/nope is not in contracts');
});

test('jest --preset collects the provided contracts only; accord stub serves the consumed ones', async () => {
  configure({ tag: 'v1' });
  expect(accord(project, 'contracts', 'pull').code).toBe(0);
  const config = path.join(project, 'jest.config.js');
  writeFileSync(config, `module.exports = { ...require(${JSON.stringify(path.join(REPO, 'jest-preset.js'))}), rootDir: ${JSON.stringify(project)} };\n`);
  const list = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--config', config, '--listTests', '--json'], { cwd: project, encoding: 'utf8' });
  expect((JSON.parse(list.stdout) as string[]).map((f) => path.relative(project, f))).toEqual([MATH]);

  const stub = spawn(process.execPath, [path.join(REPO, 'bin', 'accord.js'), 'stub', '--port', '0'], { cwd: project, env: childEnv() });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      stub.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]);
      });
      stub.on('close', () => reject(new Error(`stub exited: ${out}`)));
    });
    const res = await fetch(`${url}/orders`, { method: 'POST', body: '3', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
    expect(Number(await res.text())).not.toBeNaN();
    const other = await fetch(`${url}/square`, { method: 'POST', body: '3' });
    expect(other.status).toBe(404);
  } finally {
    stub.kill('SIGTERM');
  }
  rmSync(path.join(project, '.accord'), { recursive: true, force: true });
  const before = accord(project, 'stub', '--port', '0');
  expect(before.code).toBe(2);
  expect(before.stderr).toContain('run accord contracts pull first');
  expect(existsSync(path.join(project, '.accord'))).toBe(false);
}, 60_000);
