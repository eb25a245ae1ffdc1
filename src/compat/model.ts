import type { Contract, Scenario } from '../contract/model';
import type { DifferenceKind, DifferenceTarget } from '../pattern/compare/index';

/**
 * The compatibility check in two stages: diff.ts builds a ContractDiff (for
 * every older scenario, the newer scenario it is held to and each change found,
 * in older → newer words); the rules in rules.ts read that diff and never
 * re-parse or re-compare anything.
 */
export type Side = 'request' | 'response';

/** One structured change, already turned from "A accepts B" into older → newer terms. */
export interface Change {
  side: Side;
  kind: DifferenceKind;
  target: DifferenceTarget;
  /** "RESPONSE.BODY Envelope/Body/getPetResponse/name", "REQUEST.HEADER X-Id". */
  path: string;
  name?: string;
  /** What the older contract says here, in report words. */
  older: string;
  /** What the newer contract says here. */
  newer: string;
  /** For kind 'type': the newer type only narrows (request) or widens (response) the older one. */
  direction?: 'narrowed' | 'widened';
  /** Why the comparison could not be exact here. */
  note?: string;
}

export interface ScenarioDiff {
  older: Scenario;
  /** "POST /square -> 200", as Specmatic writes it. */
  api: string;
  /** Newer scenarios with the same method and path. */
  candidates: Scenario[];
  /** The newer scenario this one is held to (same status), when there is one. */
  newer?: Scenario;
  /** Changes against `newer`; empty when compatible. */
  changes: Change[];
  /**
   * Newer scenarios that take some of the requests this one takes and may answer them with what
   * the older contract never allowed there (the overlap rule): each is judged by the same rules,
   * its `changes` the response changes against this scenario.
   */
  overlaps?: OverlapDiff[];
}

/** An overlapping pair: `older` takes some request `newer` takes, and `newer`'s answer to it is not one the older contract allowed. */
export interface OverlapDiff extends ScenarioDiff {
  newer: Scenario;
  overlap: {
    /** Other older scenarios whose requests `newer` also answers out of their promise (consumer attribution charges their examples too). */
    alsoOlder: string[];
  };
}

export interface SkippedScenario {
  scenario: string;
  line: number;
  reason: string;
}

/**
 * A change that breaks no one but is worth telling: a SOAP fault added (documented in
 * docs/compatibility.md: clients may now receive it) or removed (compatible: clients that handled
 * it are not broken). Reported beside the verdict, never as a failure.
 */
export interface CompatNote {
  kind: 'fault-added' | 'fault-removed';
  /** The fault scenario, in the version that has it (newer for added, older for removed). */
  scenario: string;
  line: number;
  /** Set when the line is not in the compared contract file (the WSDL's fault it was imported from). */
  file?: string;
  version: 'older' | 'newer';
  /** "POST /pets -> 500". */
  api: string;
  message: string;
}

export interface ContractDiff {
  older: Contract;
  newer: Contract;
  scenarios: ScenarioDiff[];
  /** Older scenarios left out of the check (@WIP, or not an HTTP scenario). */
  skipped: SkippedScenario[];
  notes: CompatNote[];
}

export type RuleSide = Side | 'scenario';

/** What a rule found: the place, and older/newer words for the message. */
export interface Hit {
  path: string;
  name?: string;
  older: string;
  newer: string;
  /** Why the comparison could not be exact here (added to the message). */
  note?: string;
}

export interface Rule {
  /** Stable kebab-case id: searchable, documented, never renamed. */
  id: string;
  side: RuleSide;
  /** Every rule here is a break; the level is kept for rules that only warn. */
  level: 'error';
  /** Mirror rules (request ↔ response, added ↔ removed ...) that do not exist, with the reason. */
  noMirror?: Record<string, string>;
  check(diff: ScenarioDiff): Hit[];
}

/** Where a finding points: a line of the newer version (the changed node, or its nearest ancestor there) or, when the newer has no such scenario, of the older. */
export interface FindingLocation {
  version: 'older' | 'newer';
  line: number;
  /** For a node the newer version removed: its line in the older version (in `olderFile` when that is not the compared file). */
  olderLine?: number;
  olderFile?: string;
  /** Set when the line is not in the compared contract file itself (a WSDL or XSD it was imported from). */
  file?: string;
}

/** The two scenarios a finding of the overlap rule is about: the older one, and the newer one that answers some of its requests otherwise. */
export interface ScenarioPair {
  /** `line` is in the compared contract, or (for a WSDL pair) the operation's line in `file`. */
  older: { scenario: string; line: number; file?: string };
  newer: { scenario: string; line: number; file?: string };
  /** Other older scenarios taking requests the newer one answers out of their promise. */
  alsoOlder?: string[];
}

export interface Finding extends Hit {
  rule: string;
  /** Set for a finding of the overlap rule (docs/compatibility.md): the pair of scenarios it is about. */
  pair?: ScenarioPair;
  side: RuleSide;
  /** `POST /square -> 200: RESPONSE.BODY was (number), now a JSON object`. */
  message: string;
  /** Why it breaks someone. */
  reason: string;
  location: FindingLocation;
}

export interface ScenarioResult {
  scenario: string;
  line: number;
  api: string;
  compatible: boolean;
  /** The newer scenario it was held to. */
  newerScenario?: string;
  findings: Finding[];
}

export interface Verdict {
  compatible: boolean;
  testsRun: number;
  passed: number;
  failed: number;
  results: ScenarioResult[];
  skipped: SkippedScenario[];
  notes: CompatNote[];
}
