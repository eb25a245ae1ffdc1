import type { BuildOptions } from '../contract/build';
import { parseContract } from '../contract/load';
import type { Contract } from '../contract/model';
import { AccordError, gather, InternalError, throwGathered } from '../errors';
import { checkCompatibility } from './check';
import { versionHint } from './naming';
import type { FileReport } from './report';
import type { FilePair, Version } from './sources';
import type { Verdict } from './model';
import { locateInWsdl, readWsdlSide, sourceFileText, wsdlText, type WsdlSide } from './wsdl-versions';
import type { VersionTexts } from './html';

export { checkCompatibility, judge } from './check';
export { consumerImpact, type ConsumerExampleFit, type ConsumerVerdict, type FindingImpact } from './consumers';
export { diffContracts } from './diff';
export { RULES, RULES_BY_ID } from './rules';
export { MESSAGES } from './messages';
export { formatJson, formatText, type FileReport } from './report';
export { formatHtml, type VersionTexts } from './html';
export { formatError, formatGithub, formatJunit, formatSarif, type CiFormat } from './ci-formats';
export type { Verdict, Finding, Change, ScenarioDiff, ContractDiff, Rule, CompatNote } from './model';

/**
 * What the HTML report shows side by side for a pair: the contract texts, or a WSDL pair's WSDL
 * files and how its findings name them; with the report, also the text of each other file a
 * finding is in (an imported XSD), so the page shows every finding on its line in its own file.
 */
export function versionTexts(pair: FilePair, report?: FileReport): VersionTexts {
  const side = (v: Version | undefined) => (v?.wsdl ? wsdlText(v.wsdl) : v?.text ? { text: v.text, shown: undefined } : undefined);
  const older = side(pair.older);
  const newer = side(pair.newer);
  const files: Record<string, { version: 'older' | 'newer'; text: string }> = {};
  const add = (version: 'older' | 'newer', shown: string | undefined) => {
    const wsdl = pair[version]?.wsdl;
    if (!wsdl || shown === undefined || files[shown] || shown === (version === 'older' ? older : newer)?.shown) return;
    const text = sourceFileText(wsdl, shown);
    if (text !== undefined) files[shown] = { version, text };
  };
  for (const f of report?.verdict.results.flatMap((r) => r.findings) ?? []) {
    add(f.location.version, f.location.file);
    add('older', f.location.olderFile);
  }
  return { older: older?.text, newer: newer?.text, olderFile: older?.shown, newerFile: newer?.shown, ...(Object.keys(files).length > 0 ? { files } : {}) };
}

const LENIENT: BuildOptions = { checkExamples: false };

function empty(file: string): Contract {
  return { file, name: '', line: 0, scenarios: [], notes: [] };
}

/**
 * One file's two versions, parsed and judged. Parse errors are thrown (they are input errors, not
 * breaks). `parse` is the pure parser unless the caller (the CLI) hands it the cached one.
 */
export function compareVersions(pair: FilePair, parse: (text: string, file: string, options?: BuildOptions) => Contract = parseContract, options: CompareOptions = {}): FileReport {
  if (!pair.older && !pair.newer) throw new InternalError(`${pair.file} has neither version`);
  // Examples are not part of the promise: a version with a stale Examples cell is still compared.
  // Both versions are read before any error is thrown, so a user sees every error of both at once.
  if (pair.older?.wsdl || pair.newer?.wsdl) return compareWsdlVersions(pair, parse, options);
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
  if (!older) return newContract(pair);
  return judged(pair, older, newer);
}

function judged(pair: FilePair, older: Contract, newer: Contract | undefined, locate?: (v: Verdict) => void): FileReport {
  const verdict = checkCompatibility(older, newer ?? empty(pair.file));
  locate?.(verdict);
  const report: FileReport = { file: pair.file, status: newer ? 'compared' : 'removed', older: pair.older!.label, inFolder: pair.inFolder, verdict };
  if (newer) report.newer = pair.newer!.label;
  else report.note = pair.newerWhere;
  if (!verdict.compatible) report.hint = versionHint(pair.versioned ?? pair.file);
  return report;
}

function newContract(pair: FilePair): FileReport {
  return {
    file: pair.file,
    status: 'new',
    newer: pair.newer!.label,
    note: pair.olderWhere,
    inFolder: pair.inFolder,
    verdict: { compatible: true, testsRun: 0, passed: 0, failed: 0, results: [], skipped: [], notes: [] },
  };
}

/** How versions are compared. */
export interface CompareOptions {
  /** Compare a WSDL version that can be imported only in part (what it could not load is (anything) and not compared); the report lists what was not loaded. */
  allowPartial?: boolean;
}

/** Two WSDL versions, each imported in memory, judged as contracts, the findings pointed at WSDL lines. */
function compareWsdlVersions(pair: FilePair, parse: (text: string, file: string, options?: BuildOptions) => Contract, options: CompareOptions): FileReport {
  const errors: AccordError[] = [];
  const read = (v: Version): WsdlSide | undefined => {
    try {
      return readWsdlSide(v.wsdl!, v.label, parse, LENIENT, options.allowPartial);
    } catch (e) {
      gather(errors, e);
      return undefined;
    }
  };
  const newer = pair.newer ? read(pair.newer) : undefined;
  const older = pair.older ? read(pair.older) : undefined;
  throwGathered(errors);
  const report = older ? judged(pair, older.contract, newer?.contract, (v) => locateInWsdl(v, older, newer)) : newContract(pair);
  // Both versions' lines, each once (an unchanged import is named alike in both).
  const partial = [...new Set([...(older?.partial ?? []), ...(newer?.partial ?? [])])];
  if (partial.length > 0) report.partial = partial;
  return report;
}
