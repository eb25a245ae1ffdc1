import { compareVersions, formatHtml } from '../../src/compat';

/** `accord compatible --format html`: the page's data for each file (the browser test looks at the page itself). */
const OLDER = 'Feature: Math\n\n  Scenario: Square\n    When POST /square\n    And request-body (number)\n    Then status 200\n    And response-body (number)\n';

function dataOf(html: string): { compatible: boolean; files: { file: string; findings: { rule: string; newerLine?: number }[]; olderLines?: string[]; newerLines?: string[] }[] } {
  return JSON.parse(/<script type="application\/json" id="accord-data">([^<]*)<\/script>/.exec(html)![1]);
}

test('a file with findings is shown side by side with each finding on its line; an unchanged one is not', () => {
  const newer = OLDER.replace('response-body (number)', 'response-body (string)').replace('Feature: Math', 'Feature: Math </script><img src=x onerror=alert(1)>');
  const pairs = [
    { file: 'math.spec', older: { label: 'old/math.spec', text: OLDER }, newer: { label: 'new/math.spec', text: newer }, olderWhere: 'old', newerWhere: 'new' },
    { file: 'same.spec', older: { label: 'old/same.spec', text: OLDER }, newer: { label: 'new/same.spec', text: OLDER }, olderWhere: 'old', newerWhere: 'new' },
  ];
  const reports = pairs.map((p) => compareVersions(p));
  const html = formatHtml(reports, new Map(pairs.map((p) => [p.file, { older: p.older.text, newer: p.newer.text }])));
  expect(html).not.toContain('<img');
  const data = dataOf(html);
  expect(data.compatible).toBe(false);
  const [math, same] = data.files;
  expect(math.findings).toEqual([expect.objectContaining({ rule: 'response-type-widened', newerLine: 6 })]);
  expect(math.newerLines![0]).toBe('Feature: Math </script><img src=x onerror=alert(1)>');
  expect(math.olderLines).toHaveLength(8);
  expect(same.findings).toEqual([]);
  expect(same.olderLines).toBeUndefined();
});
