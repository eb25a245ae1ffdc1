import { diffContracts } from './diff';
import { MESSAGES, renderSentence } from './messages';
import type { ContractDiff, Finding, ScenarioResult, Verdict } from './model';
import type { Contract } from '../contract/model';
import { RULES } from './rules';
import { locateFinding } from './locate';

/** Stage two: every rule over every scenario's diff. */
export function judge(diff: ContractDiff): Verdict {
  const results: ScenarioResult[] = diff.scenarios.map((d) => {
    const findings: Finding[] = [];
    for (const rule of RULES) {
      for (const hit of rule.check(d)) {
        const msg = MESSAGES[rule.id];
        findings.push({
          ...hit,
          rule: rule.id,
          side: rule.side,
          message: `${d.api}: ${renderSentence(msg.sentence, hit)}${hit.note === undefined ? '' : ` (${hit.note})`}`,
          reason: msg.reason,
          location: locateFinding(hit.path, d),
        });
      }
    }
    const result: ScenarioResult = { scenario: d.older.name, line: d.older.line, api: d.api, compatible: findings.length === 0, findings };
    if (d.newer) result.newerScenario = d.newer.name;
    return result;
  });
  const failed = results.filter((r) => !r.compatible).length;
  return { compatible: failed === 0, testsRun: results.length, passed: results.length - failed, failed, results, skipped: diff.skipped, notes: diff.notes };
}

export function checkCompatibility(older: Contract, newer: Contract): Verdict {
  return judge(diffContracts(older, newer));
}
