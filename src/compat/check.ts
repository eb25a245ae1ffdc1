import { diffContracts } from './diff';
import { MESSAGES, renderSentence } from './messages';
import type { ContractDiff, Finding, OverlapDiff, ScenarioPair, ScenarioResult, Verdict } from './model';
import type { Contract } from '../contract/model';
import { RULES } from './rules';
import { locateFinding } from './locate';

/** Stage two: every rule over every scenario's diff. */
export function judge(diff: ContractDiff): Verdict {
  const results: ScenarioResult[] = diff.scenarios.map((d) => {
    const findings: Finding[] = [];
    for (const one of [d, ...(d.overlaps ?? [])]) {
      const pair = 'overlap' in one ? pairOf(one as OverlapDiff) : undefined;
      for (const rule of RULES) {
        for (const hit of rule.check(one)) {
          const msg = MESSAGES[rule.id];
          const finding: Finding = {
            ...hit,
            rule: rule.id,
            side: rule.side,
            message: `${d.api}: ${pair ? `${pairWords(pair)}: ` : ''}${renderSentence(msg.sentence, hit)}${hit.note === undefined ? '' : ` (${hit.note})`}`,
            reason: pair ? `${msg.reason}; a request both scenarios take may get the newer one's answer` : msg.reason,
            location: locateFinding(hit.path, one),
          };
          if (pair) finding.pair = pair;
          findings.push(finding);
        }
      }
    }
    const result: ScenarioResult = { scenario: d.older.name, line: d.older.line, api: d.api, compatible: findings.length === 0, findings };
    if (d.newer) result.newerScenario = d.newer.name;
    return result;
  });
  const failed = results.filter((r) => !r.compatible).length;
  return { compatible: failed === 0, testsRun: results.length, passed: results.length - failed, failed, results, skipped: diff.skipped, notes: diff.notes };
}

function pairOf(o: OverlapDiff): ScenarioPair {
  const pair: ScenarioPair = { older: { scenario: o.older.name, line: o.older.line }, newer: { scenario: o.newer.name, line: o.newer.line } };
  if (o.overlap.alsoOlder.length > 0) pair.alsoOlder = o.overlap.alsoOlder;
  return pair;
}

/** `newer scenario "a" takes requests older scenario "b" takes, and answers them otherwise`. */
export function pairWords(p: ScenarioPair): string {
  return `newer scenario "${p.newer.scenario}" takes requests older scenario "${p.older.scenario}" takes, and answers them otherwise`;
}

export function checkCompatibility(older: Contract, newer: Contract): Verdict {
  return judge(diffContracts(older, newer));
}
