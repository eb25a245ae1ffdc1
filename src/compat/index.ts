import type { BuildOptions } from '../contract/build';
import { parseContract } from '../contract/load';
import type { Contract } from '../contract/model';
import { AccordError, gather, throwGathered } from '../errors';
import { checkCompatibility } from './check';
import { versionHint } from './naming';
import type { FileReport } from './report';
import type { FilePair } from './sources';

export { checkCompatibility, judge } from './check';
export { diffContracts } from './diff';
export { RULES, RULES_BY_ID } from './rules';
export { MESSAGES } from './messages';
export { formatJson, formatText, type FileReport } from './report';
export type { Verdict, Finding, Change, ScenarioDiff, ContractDiff, Rule } from './model';

const LENIENT: BuildOptions = { checkExamples: false };

function empty(file: string): Contract {
  return { file, name: '', line: 0, scenarios: [], notes: [] };
}

/**
 * One file's two versions, parsed and judged. Parse errors are thrown (they are input errors, not
 * breaks). `parse` is the pure parser unless the caller (the CLI) hands it the cached one.
 */
export function compareVersions(pair: FilePair, parse: (text: string, file: string, options?: BuildOptions) => Contract = parseContract): FileReport {
  if (!pair.older && !pair.newer) throw new Error(`internal: ${pair.file} has neither version`);
  // Examples are not part of the promise: a version with a stale Examples cell is still compared.
  // Both versions are read before any error is thrown, so a user sees every error of both at once.
  const errors: AccordError[] = [];
  const read = (version: { text: string; label: string }): Contract | undefined => {
    try {
      return parse(version.text, version.label, LENIENT);
    } catch (e) {
      gather(errors, e);
      return undefined;
    }
  };
  const newer = pair.newer ? read(pair.newer) : undefined;
  // An unchanged file (most files of a folder) is parsed once: the check is reflexive, and its errors are reported once.
  const unchanged = pair.older && pair.newer && pair.older.text === pair.newer.text;
  const older = pair.older ? (unchanged ? newer : read(pair.older)) : undefined;
  throwGathered(errors);
  if (!older) {
    return {
      file: pair.file,
      status: 'new',
      newer: pair.newer!.label,
      note: pair.olderWhere,
      inFolder: pair.inFolder,
      verdict: { compatible: true, testsRun: 0, passed: 0, failed: 0, results: [], skipped: [] },
    };
  }
  const verdict = checkCompatibility(older, newer ?? empty(pair.file));
  const report: FileReport = { file: pair.file, status: newer ? 'compared' : 'removed', older: pair.older!.label, inFolder: pair.inFolder, verdict };
  if (newer) report.newer = pair.newer!.label;
  else report.note = pair.newerWhere;
  if (!verdict.compatible) report.hint = versionHint(pair.versioned ?? pair.file);
  return report;
}
