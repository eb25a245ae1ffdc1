import type { Finding, ScenarioPair, Verdict } from './model';

/**
 * Which consumers a change breaks: the findings of a verdict read against the consumers'
 * examples of the contract (the shared repository's `consumers/<name>/...`), each already
 * fitted (by the caller, with the stub's one fitting) to the older and the newer version.
 * Pure: no files, no git. An example breaks with a finding when it fitted the finding's older
 * scenario and does not fit the newer contract at the finding's place (a mismatch at, above or
 * below its path); one that no longer fits for no finding's place is counted against every
 * finding of its scenario, so a consumer is never said to be safe when it is not.
 */
export interface ConsumerExampleFit {
  consumer: string;
  /** The example file, as shown. */
  file: string;
  /** The older version's scenario it fits; undefined when it fit none already (stale, not counted). */
  olderScenario?: string;
  /** Mismatch paths against the newer version (`REQUEST.BODY Envelope/Body/getOrder/orderId`); empty when it still fits. */
  newerMismatches: string[];
  /** Why it does not fit the newer version, when it does not. */
  newerWhy?: string;
  /** The older and newer scenarios whose requests take its request, whatever they answer (for the overlap rule's findings). */
  olderTakenBy?: string[];
  newerTakenBy?: string[];
}

export interface FindingImpact {
  scenario: string;
  rule: string;
  path: string;
  /** The consumers it breaks, sorted. */
  broken: string[];
  /** Their example files. */
  files: string[];
  /** `breaks `orderId` for billing-ui and mobile (2 of 5 consumers); 3 consumers never send it`. */
  message: string;
}

export interface ConsumerVerdict {
  /** Every consumer with an example of the contract, sorted. */
  consumers: string[];
  examples: number;
  /** Examples that fit no scenario of the older version already: their consumers' to fix, not this change's. */
  stale: string[];
  impacts: FindingImpact[];
  /** There are consumers, and the change breaks none of them: it only breaks what no consumer uses. */
  breaksNoConsumer: boolean;
}

export function consumerImpact(verdict: Verdict, fits: readonly ConsumerExampleFit[]): ConsumerVerdict {
  const consumers = [...new Set(fits.map((f) => f.consumer))].sort();
  const live = fits.filter((f) => f.olderScenario !== undefined);
  const stale = fits.filter((f) => f.olderScenario === undefined).map((f) => f.file);
  const impacts: FindingImpact[] = [];
  for (const result of verdict.results) {
    if (result.findings.length === 0) continue;
    const broken = live.filter((f) => f.olderScenario === result.scenario && (f.newerMismatches.length > 0 || f.newerWhy !== undefined));
    // An example whose mismatches are at none of the scenario's findings' places is charged to all of them.
    const placed = new Set(broken.filter((f) => result.findings.some((x) => !x.pair && f.newerMismatches.some((m) => related(m, x.path)))));
    for (const finding of result.findings) {
      const hit = broken.filter((f) => !placed.has(f) || (!finding.pair && f.newerMismatches.some((m) => related(m, finding.path))));
      // The overlap rule: an example whose request both scenarios of the pair take may now get the newer one's answer.
      if (finding.pair) for (const f of live) if (!hit.includes(f) && inOverlap(f, finding.pair)) hit.push(f);
      const names = [...new Set(hit.map((f) => f.consumer))].sort();
      impacts.push({
        scenario: result.scenario,
        rule: finding.rule,
        path: finding.path,
        broken: names,
        files: hit.map((f) => f.file).sort(),
        message: impactMessage(finding, names, consumers.length),
      });
    }
  }
  return {
    consumers,
    examples: fits.length,
    stale,
    impacts,
    breaksNoConsumer: consumers.length > 0 && impacts.length > 0 && impacts.every((i) => i.broken.length === 0),
  };
}

/** Does the example's request lie where the pair's scenarios overlap? Without the scenarios that take it, the one it fitted decides. */
function inOverlap(f: ConsumerExampleFit, pair: ScenarioPair): boolean {
  const olders = [pair.older.scenario, ...(pair.alsoOlder ?? [])];
  if (!f.olderTakenBy || !f.newerTakenBy) return olders.includes(f.olderScenario!);
  return f.newerTakenBy.includes(pair.newer.scenario) && f.olderTakenBy.some((o) => olders.includes(o));
}

function impactMessage(f: Finding, broken: string[], total: number): string {
  const name = `\`${f.name ?? f.path.replaceAll(' ', '/').split('/').pop()}\``;
  const others = total - broken.length;
  const verb = f.side === 'request' ? 'send' : f.side === 'response' ? 'read' : 'call';
  const rest =
    others === 0
      ? ''
      : `; ${others} ${others === 1 ? 'consumer' : 'consumers'} ${f.rule.endsWith('-removed') || f.side === 'scenario' ? `never ${verb}${others === 1 ? 's' : ''} it` : 'not affected'}`;
  if (broken.length === 0) return `breaks ${name} for no consumer (${total} ${total === 1 ? 'consumer has' : 'consumers have'} examples; none uses it)`;
  return `breaks ${name} for ${list(broken)} (${broken.length} of ${total} ${total === 1 ? 'consumer' : 'consumers'})${rest}`;
}

function list(names: string[]): string {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Two places are one when either is the other or lies under it, list positions aside (`item[2]` is `item`). */
function related(a: string, b: string): boolean {
  const x = withoutIndexes(a);
  const y = withoutIndexes(b);
  return x === y || x.startsWith(`${y}/`) || y.startsWith(`${x}/`);
}

function withoutIndexes(p: string): string {
  let out = '';
  let depth = 0;
  for (const c of p) {
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += c;
  }
  return out.trim();
}
