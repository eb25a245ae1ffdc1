import { formatLocation } from '../errors';
import type { Mismatch } from '../pattern/match/mismatch';
import type { LogReport } from './import-log';

/** Problems, unpaired messages and failed checks listed in a summary; more are only counted. */
export const SHOWN = 10;

/** What an import read, paired and left out, as lines for the person who ran it. */
export function describeReport(r: LogReport): string[] {
  const out: string[] = [];
  const shapes = Object.entries(r.messages)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  out.push(
    `${r.files.length} file${r.files.length === 1 ? '' : 's'}: ${shapes.length ? `${shapes.join(', ')} messages` : 'no messages'}, ${r.exchanges} request/response pair${r.exchanges === 1 ? '' : 's'}, ${r.scenarios} scenario${r.scenarios === 1 ? '' : 's'}`,
  );
  const skipped = [...r.skipped].map(([why, s]) => `${s.count} ${why}${s.details.size ? ` (${[...s.details].map(([d, n]) => `${d} ${n}`).join(', ')})` : ''}`);
  if (r.skippedLines > 0) skipped.unshift(`${r.skippedLines} line${r.skippedLines === 1 ? '' : 's'} with no message`);
  if (skipped.length) out.push(`skipped: ${skipped.join(', ')}`);
  if (r.redactedValues > 0) out.push(`redacted: ${r.redactedValues} value${r.redactedValues === 1 ? '' : 's'} kept out of Examples`);
  if (r.unpairedCount > 0) {
    out.push(`unpaired: ${r.unpairedCount} message${r.unpairedCount === 1 ? '' : 's'} left out:`);
    for (const u of r.unpaired.slice(0, SHOWN)) out.push(`  ${formatLocation(u.at)}: ${u.direction}: ${u.why}`);
    if (r.unpairedCount > SHOWN) out.push(`  ... and ${r.unpairedCount - SHOWN} more`);
  }
  return out;
}

/** The first problems, indented, each after `verb` when given (`left out`), then how many more. */
export function describeProblems(r: LogReport, verb?: string): string[] {
  const lead = verb ? `${verb} ` : '';
  const out = r.problems.slice(0, SHOWN).map((p) => `  ${lead}${p.describe()}`);
  if (r.problemCount > SHOWN) out.push(`  ... and ${r.problemCount - SHOWN} more${verb ? ` ${verb}` : ''}`);
  return out;
}

/** The result of reading the logs again against the written contract. */
/** `fromWsdl`: the contract is the service's WSDL's, so a call that does not match it is the service's departure, not accord's bug. */
export function describeCheck(bad: { at: { file: string; line: number }; mismatches: Mismatch[] }[], exchanges: number, fromWsdl = false): string[] {
  if (bad.length === 0) return [`checked: all ${exchanges} logged calls match the contract`];
  return [
    fromWsdl
      ? `checked: ${bad.length} of ${exchanges} logged calls do not match the WSDL's contract (the service departs from its WSDL there):`
      : `checked: ${bad.length} of ${exchanges} logged calls do not match the contract (please report this as a bug in accord):`,
    ...bad.slice(0, SHOWN).map((b) => `  ${formatLocation(b.at)}: ${b.mismatches.map((m) => `${m.path}: expected ${m.expected}, found ${m.actual}`).join('; ')}`),
  ];
}
