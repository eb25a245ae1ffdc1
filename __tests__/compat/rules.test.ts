import { compareFixture, fixtureNames, golden } from './fixtures';

/**
 * One base/revision pair per rule (fixtures/compat/breaks/<rule-id>): the
 * revision must break exactly that rule, with the report kept as a golden
 * file. fixtures/compat/compatible holds changes that must pass.
 */
describe('each rule has a base/revision pair that breaks it, and only it', () => {
  for (const name of fixtureNames('breaks')) {
    test(name, () => {
      const report = compareFixture('breaks', name);
      expect(report.verdict.compatible).toBe(false);
      const rules = new Set(report.verdict.results.flatMap((r) => r.findings.map((f) => f.rule)));
      expect([...rules]).toEqual([name]);
      for (const f of report.verdict.results.flatMap((r) => r.findings)) {
        expect(f.message).toMatch(/^(POST|GET) \S+ -> \d{3}: /);
        expect(f.reason.length).toBeGreaterThan(10);
      }
      const { actual, expected } = golden('breaks', name, report);
      expect(actual).toBe(expected);
      expect(actual).toContain('The newer contract is NOT backward compatible');
      expect(actual).toContain('api_v2.spec');
    });
  }
});

describe('changes that keep the promise pass', () => {
  for (const name of fixtureNames('compatible')) {
    test(name, () => {
      const report = compareFixture('compatible', name);
      expect(report.verdict.results.flatMap((r) => r.findings)).toEqual([]);
      expect(report.verdict.compatible).toBe(true);
      expect(report.verdict.testsRun).toBeGreaterThan(0);
      expect(report.hint).toBeUndefined();
    });
  }
});
