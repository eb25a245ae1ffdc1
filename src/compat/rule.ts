import type { DifferenceKind, DifferenceTarget } from '../pattern/compare/index';
import type { Change, Hit, Rule, ScenarioDiff, Side } from './model';

interface ChangeRuleSpec {
  id: string;
  side: Side;
  kind: DifferenceKind;
  targets: DifferenceTarget[];
  /** For kind 'type': which direction of type change this rule takes ('other' = neither narrowed nor widened). */
  direction?: 'narrowed' | 'widened' | 'other';
  noMirror?: Record<string, string>;
}

/** A rule that picks changes of one kind, on one side, about one kind of thing. */
export function changeRule(spec: ChangeRuleSpec): Rule {
  const picks = (c: Change): boolean =>
    c.side === spec.side &&
    c.kind === spec.kind &&
    spec.targets.includes(c.target) &&
    (spec.direction === undefined || (spec.direction === 'other' ? c.direction === undefined : c.direction === spec.direction));
  return {
    id: spec.id,
    side: spec.side,
    level: 'error',
    noMirror: spec.noMirror,
    check: (d: ScenarioDiff): Hit[] =>
      d.changes.filter(picks).map((c) => ({ path: c.path, name: c.name, older: c.older, newer: c.newer, ...(c.note === undefined ? {} : { note: c.note }) })),
  };
}
