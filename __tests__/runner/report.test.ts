import { reportContract, reportTest, testReportData } from '../../src/runner/report';
import type { ContractCoverage } from '../../src/runner/coverage';

/** What each Jest outcome becomes in the HTML report, and the report's totals and consumer examples. */
test('passed, failed, WIP would pass / would fail, skipped, and negative tests', () => {
  const t = (title: string, status: string, failureDetails?: unknown[]) =>
    reportTest({ title, fullName: `F ${title}`, status, failureMessages: ['why'], failureDetails }, undefined).status;
  expect(t('a', 'passed')).toBe('passed');
  expect(t('a', 'failed')).toBe('failed');
  expect(t('a', 'pending', [{ wip: true, wouldHavePassed: true }])).toBe('wip-passed');
  expect(t('a', 'pending', [{ wip: true, wouldHavePassed: false }])).toBe('wip-failed');
  expect(t('a', 'pending')).toBe('skipped');
  expect(t('a [negative: id missing]', 'passed')).toBe('negative-passed');
  expect(t('a [negative: id missing]', 'failed')).toBe('negative-failed');
  // A failure text is kept for what did not pass, bounded and printable.
  expect(reportTest({ title: 'a', fullName: 'F a', status: 'failed', failureMessages: ['\u001b[31mred\u001b[0m'] }, undefined).message).toBe('\\x1b[31mred\\x1b[0m');
  expect(reportTest({ title: 'a', fullName: 'F a', status: 'failed', failureMessages: ['x'.repeat(100_000)] }, undefined).message!.length).toBeLessThan(9000);
});

test('a contract with its exchanges by full test name; totals; consumer examples only when given', () => {
  const coverage: ContractCoverage = {
    file: '/p/contracts/a.spec',
    feature: 'F',
    scenarios: 2,
    passed: 1,
    failed: 1,
    wip: 0,
    skipped: 0,
    notRun: 0,
    negative: { passed: 3, failed: 1, notRun: 0 },
    list: [],
  };
  const exchange = { mismatches: [], error: 'refused' };
  const c = reportContract('contracts/a.spec', coverage, [{ title: 'x', fullName: 'F x', status: 'failed', failureMessages: ['no'] }], { 'F x': exchange });
  expect(c.tests[0].exchange).toBe(exchange);
  const data = testReportData([c], { now: new Date(0) });
  expect(data).toMatchObject({ kind: 'tests', generated: '1970-01-01T00:00:00.000Z', totals: { passed: 1, failed: 1, negativePassed: 3, negativeFailed: 1 } });
  expect(data.consumers).toBeUndefined();
  const withConsumers = testReportData([c], { consumers: [{ consumer: 'billing-ui', example: 'big order', contract: 'contracts/a.spec', scenario: 'x', status: 'failed' }] });
  expect(withConsumers.consumers).toEqual([{ consumer: 'billing-ui', example: 'big order', contract: 'contracts/a.spec', scenario: 'x', status: 'failed' }]);
});
