import type { ConsumerVerdict, FindingImpact } from './consumers';
import { inert, printable } from '../printable';
import type { CompatNote, Finding, Verdict } from './model';

/** One contract file's outcome: compared, new (no older version), or gone (no newer version). */
export interface FileReport {
  file: string;
  status: 'compared' | 'new' | 'removed';
  older?: string;
  newer?: string;
  /** Where the missing side was looked for ("HEAD", a ref, a folder). */
  note?: string;
  verdict: Verdict;
  /** Seed 9.2: the version file an incompatible change belongs in. */
  hint?: string;
  /** Found by scanning a folder: the text report names the file. */
  inFolder?: boolean;
  /** With consumers' examples (`--consumers`): which consumers each break breaks (consumers.ts). */
  consumers?: ConsumerVerdict;
  /** A WSDL compared in part (`--allow-partial`): the imports and declarations that were not loaded, so not compared. */
  partial?: string[];
}

export const COMPATIBLE = 'The newer contract is backward compatible';
export const NOT_COMPATIBLE = 'The newer contract is NOT backward compatible';

export function countsLine(v: { testsRun: number; passed: number; failed: number }): string {
  return `Tests run: ${v.testsRun}, Passed: ${v.passed}, Failed: ${v.failed}`;
}

/** Specmatic's layout: counts, then each failed scenario with its API and each break, then the verdict. */
export function formatText(reports: readonly FileReport[]): string {
  const lines: string[] = [];
  const many = reports.length > 1 || reports.some((r) => r.inFolder);
  for (const r of reports) {
    if (many) lines.push(`Contract: ${r.file}`);
    if (r.status === 'new') lines.push(`${r.file} is a new contract: it has no version in ${r.note}, so there is nothing it can break.`);
    if (r.status === 'removed') lines.push(`${r.file} is not in ${r.note}: every scenario of the older version is gone.`);
    lines.push(countsLine(r.verdict));
    for (const s of r.verdict.skipped) lines.push(`Not checked: "${s.scenario}" (${s.reason})`);
    for (const p of r.partial ?? []) lines.push(`Not compared (--allow-partial): ${p}`);
    for (const n of r.verdict.notes) lines.push(`Note: "${n.scenario}" (${noteWhere(r, n)}): ${n.message}`);
    for (const res of r.verdict.results) {
      if (res.compatible) continue;
      lines.push('', `In scenario "${res.scenario}"`, `API: ${res.api}`);
      for (const f of res.findings) {
        lines.push('', `  >> ${f.path}`, '', `  ${f.message}`, `  Why: ${f.reason} [${f.rule}]`, `  At: ${findingWhere(r, f)}`);
        const impact = findingImpact(r, res.scenario, f);
        if (impact) lines.push(`  Consumers: ${impact.message}`);
      }
    }
    if (r.consumers) lines.push('', consumersLine(r.consumers));
    if (r.hint) lines.push('', r.hint);
    if (many) lines.push('');
  }
  const compatible = reports.every((r) => r.verdict.compatible);
  if (many) {
    const total = totals(reports);
    lines.push(`All contracts: ${countsLine(total)}`);
  } else lines.push('');
  lines.push(compatible ? COMPATIBLE : NOT_COMPATIBLE);
  // Each entry is one line: a newline in a value (a JSON key "a\n::warning::x" in a contract) is shown
  // escaped, so no value starts a line of the report, where a CI runner would read it as a command.
  return inert(`${lines.map((l) => printable(l, { multiline: false })).join('\n')}\n`.replace(/^\n+/, ''));
}

export function totals(reports: readonly FileReport[]): { testsRun: number; passed: number; failed: number } {
  return reports.reduce((t, r) => ({ testsRun: t.testsRun + r.verdict.testsRun, passed: t.passed + r.verdict.passed, failed: t.failed + r.verdict.failed }), {
    testsRun: 0,
    passed: 0,
    failed: 0,
  });
}

/** With consumers' examples: which consumers one break of a scenario breaks (text, JSON, CI formats and HTML say it alike). */
export function findingImpact(r: FileReport, scenario: string, f: Pick<Finding, 'rule' | 'path'>): FindingImpact | undefined {
  return r.consumers?.impacts.find((i) => i.scenario === scenario && i.rule === f.rule && i.path === f.path);
}

/** What the consumers' examples say of the whole change, one line. */
export function consumersLine(c: ConsumerVerdict): string {
  const n = c.consumers.length;
  if (n === 0) return 'Consumers: no consumer has an example of this contract';
  const stale =
    c.stale.length > 0 ? ` (${c.stale.length} ${c.stale.length === 1 ? 'example fits' : 'examples fit'} no scenario of the older version either: their consumers' to fix)` : '';
  const broken = new Set(c.impacts.flatMap((i) => i.broken));
  if (c.impacts.length === 0) return `Consumers: ${n} with ${c.examples} examples; nothing here breaks them${stale}`;
  if (broken.size === 0) return `Consumers: the change breaks only what no consumer uses (${n} ${n === 1 ? 'consumer' : 'consumers'}, ${c.examples} examples)${stale}`;
  return `Consumers: the change breaks ${[...broken].sort().join(', ')} (${broken.size} of ${n})${stale}`;
}

/** The same verdict for machines. */
export function formatJson(reports: readonly FileReport[]): string {
  const t = totals(reports);
  const doc = {
    compatible: reports.every((r) => r.verdict.compatible),
    ...t,
    files: reports.map((r) => ({
      file: r.file,
      status: r.status,
      older: r.older ?? null,
      newer: r.newer ?? null,
      /** For a new or removed file: where the missing version was looked for. */
      absentIn: r.note ?? null,
      compatible: r.verdict.compatible,
      testsRun: r.verdict.testsRun,
      passed: r.verdict.passed,
      failed: r.verdict.failed,
      skipped: r.verdict.skipped,
      notes: r.verdict.notes.map((n) => ({ ...n, where: noteWhere(r, n) })),
      results: r.verdict.results.map((res) => ({ ...res, findings: res.findings.map((f) => ({ ...f, where: findingWhere(r, f) })) })),
      hint: r.hint ?? null,
      ...(r.consumers ? { consumers: r.consumers } : {}),
      ...(r.partial ? { notCompared: r.partial } : {}),
    })),
  };
  return `${JSON.stringify(cleanDocument(doc), null, 2)}\n`;
}

/** The file and line a finding points at, as CI tools take them: the line only when it is a line of that file. */
export function findingPlace(r: FileReport, f: Finding): { file: string; line?: number } {
  if (f.location.file) return { file: f.location.file, line: f.location.line };
  if (f.location.version === 'newer') return { file: r.file, line: f.location.line };
  return { file: r.file };
}

/** `contracts/x.spec:12`, `HEAD:contracts/x.spec:12`, `service.wsdl:40`: where a finding is, in words. */
export function findingWhere(r: FileReport, f: Finding): string {
  const file = f.location.file ?? (f.location.version === 'newer' ? (r.newer ?? r.file) : (r.older ?? r.file));
  const older = f.location.olderLine !== undefined ? ` (was ${f.location.olderFile ?? r.older ?? 'older'}:${f.location.olderLine})` : '';
  return `${file}:${f.location.line}${older}`;
}

/** `HEAD:contracts/x.spec:40`: the fault scenario a note speaks of, in the version that has it. */
export function noteWhere(r: FileReport, n: CompatNote): string {
  return `${n.file ?? (n.version === 'newer' ? r.newer : r.older) ?? r.file}:${n.line}`;
}

/** Every string of a JSON document made printable (JSON.stringify leaves DEL, C1 controls and bidi marks as they are). */
export function cleanDocument<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map((v) => cleanDocument(v)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [printable(k), cleanDocument(v)])) as T;
  return value;
}
