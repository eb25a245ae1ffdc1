import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readProjectConfig } from '../../src/shared';
import { applyPlan, copyConsumerExamples, formatPlan, planPublish } from '../../src/shared/consumer-examples';

/**
 * Publishing writes only inside the checkout's consumers/<name>/ and pulling copies consumers'
 * examples without following a link: a shared repository is other people's files, and a
 * committed `consumers/billing-ui -> /home/me` must not make a publish write there.
 */
let root: string;
let outside: string;
const example = (n: number) =>
  JSON.stringify({ 'http-request': { method: 'POST', path: '/orders', body: `<getOrder><orderId>${n}</orderId></getOrder>` }, 'http-response': { status: 200 } });

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'accord-publish-'));
  outside = mkdtempSync(path.join(tmpdir(), 'accord-outside-'));
  writeFileSync(path.join(root, 'accord.config.json'), JSON.stringify({ sources: [{ name: 'shared', git: '../x.git', branch: 'main', consumes: ['orders'] }] }));
  const checkout = path.join(root, '.accord/checkouts/shared');
  mkdirSync(path.join(checkout, '.git'), { recursive: true });
  write(path.join(checkout, 'orders/api.spec'), 'Feature: x\n');
  write(path.join(checkout, 'orders/api_examples/own.json'), example(1));
  write(path.join(root, '.accord/consumer-examples/shared/orders/api_examples/a.json'), example(2));
  write(path.join(root, '.accord/consumer-examples/shared/orders/api_examples/own-again.json'), example(1));
  write(path.join(root, '.accord/consumer-examples/shared/gone/api_examples/b.json'), example(3));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

test("the plan: added, merged with the contract's own example, and left out when the contract is not there", () => {
  const config = readProjectConfig(root)!;
  const plan = planPublish(config, config.sources[0], 'billing-ui');
  expect(plan.added).toEqual(['consumers/billing-ui/orders/api_examples/a.json']);
  expect(plan.merged).toEqual([path.join('.accord/consumer-examples/shared/orders/api_examples/own-again.json')]);
  expect(plan.noContract).toEqual([path.join('.accord/consumer-examples/shared/gone/api_examples/b.json')]);
  expect(formatPlan(plan)).toContain('1 added, 0 changed, 0 removed, 0 unchanged; 1 merged');
  expect(() => planPublish(config, config.sources[0], '../evil')).toThrow('--consumer "../evil" may not start with "." or "-"');
});

test("a link in the checkout's consumers/ is refused, nothing written through it", () => {
  const config = readProjectConfig(root)!;
  const checkout = path.join(root, '.accord/checkouts/shared');
  mkdirSync(path.join(checkout, 'consumers'));
  symlinkSync(outside, path.join(checkout, 'consumers/billing-ui'));
  expect(() => applyPlan(planPublish(config, config.sources[0], 'billing-ui'))).toThrow('is a symlink');
  expect(readdirSync(outside)).toEqual([]);
});

test("a provider's pull copies consumers' examples of what it provides, never a linked file", () => {
  const checkout = path.join(root, '.accord/checkouts/shared');
  write(path.join(checkout, 'consumers/mobile/orders/api_examples/m.json'), example(4));
  write(path.join(checkout, 'consumers/mobile/other/api_examples/o.json'), example(5));
  write(path.join(checkout, 'other/api.spec'), 'Feature: y\n');
  write(path.join(outside, 'secret.json'), example(6));
  symlinkSync(path.join(outside, 'secret.json'), path.join(checkout, 'consumers/mobile/orders/api_examples/link.json'));
  const to = path.join(root, '.accord/provides/shared');
  mkdirSync(to, { recursive: true });
  expect(copyConsumerExamples(checkout, ['orders'], to)).toEqual([{ consumer: 'mobile', files: 1 }]);
  expect(readdirSync(path.join(to, 'orders/api_consumers/mobile'))).toEqual(['m.json']);
  expect(existsSync(path.join(to, 'other'))).toBe(false);
});
