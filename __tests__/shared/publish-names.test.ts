import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { accord, ROOT, TempRepo } from '../compat/git-repo';
import { consumerNameProblem } from '../../src/shared/config';

/**
 * `accord contracts publish --consumer <name> --yes` replaces the folder consumers/<name>/ of a
 * shared repository other teams publish to. A name that is empty (an unset CI variable), names no
 * folder of its own or cannot be a folder everywhere is refused with exit 2 before anything is
 * pulled, written or pushed; and whatever the plan, a commit that would touch a path outside the
 * consumer's folder is never made or pushed. A real bare repository holds two teams' examples.
 */
let bareDir: string;
let bare: string;
let project: string;
const example = (n: number) =>
  JSON.stringify({ 'http-request': { method: 'POST', path: '/orders', body: `<getOrder><orderId>${n}</orderId></getOrder>` }, 'http-response': { status: 200 } });
const TEAMS = ['consumers/billing-ui/orders/api_examples/b.json', 'consumers/mobile/orders/api_examples/m.json'];

function inBare(...args: string[]): string {
  const r = spawnSync('git', ['--git-dir', bare, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

beforeAll(() => {
  const shared = new TempRepo();
  shared.write('orders/api.spec', 'Feature: orders\n');
  TEAMS.forEach((f, i) => shared.write(f, example(i + 10)));
  shared.commit('two teams');
  bareDir = mkdtempSync(path.join(tmpdir(), 'accord-names-bare-'));
  bare = path.join(bareDir, 'contracts.git');
  spawnSync('git', ['clone', '-q', '--bare', shared.dir, bare]);
  shared.remove();
  project = mkdtempSync(path.join(tmpdir(), 'accord-names-'));
  writeFileSync(path.join(project, 'accord.config.json'), JSON.stringify({ sources: [{ git: bare, branch: 'main', consumes: ['orders'] }] }));
  write(path.join(project, '.accord/consumer-examples/contracts/orders/api_examples/mine.json'), example(1));
  expect(accord(project, 'contracts', 'pull').code).toBe(0);
});

afterAll(() => {
  rmSync(bareDir, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

const UNUSABLE: [string, string][] = [
  ['', /empty/.source],
  [' ', /empty/.source],
  ['\t', /empty/.source],
  ['.', /start with/.source],
  ['..', /start with/.source],
  ['.git', /start with/.source],
  ['/', /letters, digits/.source],
  ['a/b', /letters, digits/.source],
  ['../mobile', /start with/.source],
  ['\\', /letters, digits/.source],
  ['a\\b', /letters, digits/.source],
  ['bill ing', /letters, digits/.source],
  ['bill\x1bing', /letters, digits/.source],
  ['-rf', /start with/.source],
  ['billing.', /end with/.source],
  ['CON', /device name/.source],
  ['nul.json', /device name/.source],
  ['com1', /device name/.source],
  ['x'.repeat(300), /longer than 64/.source],
  ['billing-ü', /letters, digits/.source],
];

test.each(UNUSABLE)('--consumer %j is refused with exit 2, and the shared repository is untouched', (name, why) => {
  const before = inBare('rev-parse', 'main');
  const r = accord(project, 'contracts', 'publish', `--consumer=${name}`, '--yes');
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(new RegExp(`^accord contracts publish: --consumer .*${why}.*; nothing was changed\\n$`));
  expect(r.stderr).not.toContain('\x1b');
  expect(r.stdout).not.toContain('pushed');
  expect(inBare('rev-parse', 'main')).toBe(before);
  expect(inBare('ls-tree', '-r', '--name-only', 'main').split('\n')).toEqual(expect.arrayContaining(TEAMS));
});

test('a NUL in a name is refused too (it cannot come through argv, but can through the API)', () => {
  expect(consumerNameProblem('a\0b')).toMatch(/letters, digits/);
  expect(consumerNameProblem('billing-ui')).toBeUndefined();
  expect(consumerNameProblem('x'.repeat(64))).toBeUndefined();
  expect(consumerNameProblem('Team_2.web')).toBeUndefined();
});

test("a name that differs from another team's only in case is refused: one folder on macOS and Windows", () => {
  const before = inBare('rev-parse', 'main');
  const r = accord(project, 'contracts', 'publish', '--consumer', 'Billing-UI', '--yes');
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('has consumers/billing-ui/ already, a name that differs only in case');
  expect(inBare('rev-parse', 'main')).toBe(before);
});

test("a usable name publishes into its own folder only; the other teams' examples stay", () => {
  const r = accord(project, 'contracts', 'publish', '--consumer', 'ci-bot', '--yes');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const changed = inBare('diff', '--name-only', 'main~1', 'main').split('\n');
  expect(changed).toEqual(['consumers/ci-bot/orders/api_examples/mine.json']);
  expect(inBare('ls-tree', '-r', '--name-only', 'main').split('\n')).toEqual(expect.arrayContaining(TEAMS));
});

test('a commit that would touch anything outside the consumer’s folder is neither made nor pushed', () => {
  expect(accord(project, 'contracts', 'pull').code).toBe(0);
  // Something else staged in the checkout (a hook, a hand, an earlier run): publish must not carry it along.
  const checkout = path.join(project, '.accord/checkouts/contracts');
  rmSync(path.join(checkout, TEAMS[1]));
  spawnSync('git', ['-C', checkout, 'add', '-A', '--', TEAMS[1]]);
  const before = inBare('rev-parse', 'main');
  // The job itself, in a child process (git runs through execa, which Jest's VM cannot import): the CLI pulls afresh first.
  const script = `const { readProjectConfig, planPublish, publishPlan } = require(${JSON.stringify(path.join(ROOT, 'dist/shared'))});
const config = readProjectConfig(process.cwd());
publishPlan(config, planPublish(config, config.sources[0], 'ci-bot-2')).then(() => console.log('pushed'), (e) => { console.log(e.message); });`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: project, encoding: 'utf8' });
  expect(r.stdout).toMatch(/refusing to publish .*consumers\/mobile\/orders\/api_examples\/m\.json.*outside consumers\/ci-bot-2\/; nothing was committed or pushed/);
  expect(inBare('rev-parse', 'main')).toBe(before);
  expect(spawnSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim()).toBe(before);
});
