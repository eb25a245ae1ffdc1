import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MESSAGES, RULES, RULES_BY_ID } from '../../src/compat';
import type { Change, ScenarioDiff } from '../../src/compat/model';
import { parseContract } from '../../src/contract/load';
import type { DifferenceKind, DifferenceTarget } from '../../src/pattern/compare/index';
import { fixtureNames } from './fixtures';

/** The mirror a rule id suggests: request ↔ response, and the opposite change. */
const OPPOSITES: [string, string][] = [
  ['added', 'removed'],
  ['made-optional', 'made-required'],
  ['made-single', 'made-repeated'],
  ['made-nillable', 'made-non-nillable'],
  ['narrowed', 'widened'],
  ['opened', 'closed'],
];

function mirrorsOf(id: string): string[] {
  const out: string[] = [];
  if (id.startsWith('request-')) out.push(`response-${id.slice(8)}`);
  if (id.startsWith('response-')) out.push(`request-${id.slice(9)}`);
  for (const [x, y] of OPPOSITES) {
    if (id.endsWith(`-${x}`)) out.push(`${id.slice(0, -x.length)}${y}`);
    else if (id.endsWith(`-${y}`)) out.push(`${id.slice(0, -y.length)}${x}`);
  }
  return out;
}

describe('rule registry', () => {
  test('ids are unique, kebab-case, and start with their side', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULES) {
      expect(r.id).toMatch(/^[a-z]+(-[a-z]+)+$/);
      if (r.side !== 'scenario') expect(r.id.startsWith(`${r.side}-`)).toBe(true);
    }
  });

  test('every rule has a message (meaning, sentence, reason) and every message a rule', () => {
    for (const r of RULES) {
      const m = MESSAGES[r.id];
      expect(m).toBeDefined();
      expect(m.meaning).toMatch(/\.$/);
      expect(m.sentence).toMatch(/\{(path|older|newer)\}/);
      expect(m.reason.length).toBeGreaterThan(10);
    }
    expect(Object.keys(MESSAGES).sort()).toEqual(RULES.map((r) => r.id).sort());
  });

  test('every mirror rule exists, or the rule says why it does not', () => {
    const missing: string[] = [];
    for (const r of RULES) {
      for (const mirror of mirrorsOf(r.id)) {
        if (RULES_BY_ID.has(mirror)) continue;
        const reason = r.noMirror?.[mirror];
        if (!reason || reason.length < 10) missing.push(`${r.id} → ${mirror}`);
      }
      // A stated reason must be about a rule that really does not exist.
      for (const m of Object.keys(r.noMirror ?? {})) expect(RULES_BY_ID.has(m)).toBe(false);
    }
    expect(missing).toEqual([]);
  });

  test('docs/compatibility.md lists every rule with its side and meaning', () => {
    const doc = readFileSync(path.join(__dirname, '..', '..', 'docs', 'compatibility.md'), 'utf8');
    for (const r of RULES) expect(doc).toContain(`| \`${r.id}\` | ${r.side} | ${MESSAGES[r.id].meaning} |`);
    const readme = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    for (const r of RULES) expect(readme).toContain(`\`${r.id}\``);
  });

  test('every rule has a base/revision fixture pair', () => {
    expect(fixtureNames('breaks')).toEqual(RULES.map((r) => r.id).sort());
  });

  test('every change the diff can produce is claimed by exactly one rule', () => {
    const s = parseContract('Feature: x\n  Scenario: s\n    When GET /x\n    Then status 200\n').scenarios[0];
    const kinds: DifferenceKind[] = ['type', 'unexpected', 'missing', 'optional', 'repeated', 'nillable', 'derived', 'order', 'name', 'open'];
    // What compare.ts produces: headers can be missing or optional, query parameters unexpected, values differ in type.
    const targets: Record<DifferenceKind, DifferenceTarget[]> = {
      type: ['value'],
      unexpected: ['node', 'query'],
      missing: ['node', 'header'],
      optional: ['node', 'header'],
      repeated: ['node'],
      nillable: ['node'],
      derived: ['node'],
      order: ['node'],
      name: ['node'],
      open: ['node'],
    };
    const unclaimed: string[] = [];
    for (const side of ['request', 'response'] as const) {
      for (const kind of kinds) {
        for (const target of targets[kind]) {
          if (side === 'response' && target === 'query') continue;
          for (const direction of kind === 'type' ? ([undefined, side === 'request' ? 'narrowed' : 'widened'] as const) : [undefined]) {
            const change: Change = { side, kind, target, path: 'X', older: 'a', newer: 'b', direction };
            const diff: ScenarioDiff = { older: s, api: 'GET /x -> 200', candidates: [s], newer: s, changes: [change] };
            const claimed = RULES.filter((r) => r.check(diff).length > 0).map((r) => r.id);
            if (claimed.length !== 1) unclaimed.push(`${side}/${kind}/${target}/${direction ?? '-'}: ${claimed.join(',') || 'none'}`);
          }
        }
      }
    }
    expect(unclaimed).toEqual([]);
  });
});
