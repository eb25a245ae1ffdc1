import { htmlPage } from '../html/page';
import { REPORT_LIMITS } from '../limits';
import { printable } from '../printable';
import { COMPATIBLE, consumersLine, findingImpact, findingWhere, NOT_COMPATIBLE, totals, type FileReport } from './report';

/**
 * The texts of a file's two versions, for the side-by-side view. For a WSDL pair, the WSDL files
 * themselves, and how findings name each (`olderFile`, `newerFile`): a finding in that file is
 * marked on its line; one in an imported XSD is listed with its file and line.
 */
export interface VersionTexts {
  older?: string;
  newer?: string;
  olderFile?: string;
  newerFile?: string;
  /** Other files findings are in (an imported XSD), by the name findings give them, with the version each is of. */
  files?: Readonly<Record<string, { version: 'older' | 'newer'; text: string }>>;
}

/**
 * `accord compatible --format html`: one self-contained page (src/html) with, per contract file, the
 * two versions side by side (when it has findings) and each finding on its line, with its rule and why. Versions longer
 * than REPORT_LIMITS.sourceChars are cut (the findings are still listed).
 */
export function formatHtml(reports: readonly FileReport[], texts: ReadonlyMap<string, VersionTexts> = new Map(), now = new Date()): string {
  const compatible = reports.every((r) => r.verdict.compatible);
  const one = (s: string) => printable(s, { multiline: false });
  const files = reports.map((r) => {
    const t = texts.get(r.file) ?? {};
    const lines = (text: string | undefined) => (text ? text.slice(0, REPORT_LIMITS.sourceChars).split(/\r?\n/).map(one) : undefined);
    const cut = [t.older, t.newer, ...Object.values(t.files ?? {}).map((o) => o.text)].some((x) => x !== undefined && x.length > REPORT_LIMITS.sourceChars);
    const findings = r.verdict.results.flatMap((res) =>
      res.findings.map((f) => {
        const file = f.location.file;
        const inFile = file === undefined || file === (f.location.version === 'newer' ? t.newerFile : t.olderFile);
        const olderIn = f.location.olderFile === undefined || f.location.olderFile === t.olderFile;
        const impact = findingImpact(r, res.scenario, f);
        return {
          consumers: impact && one(`Consumers: ${impact.message}`),
          scenario: one(res.scenario),
          api: one(res.api),
          rule: one(f.rule),
          message: one(f.message),
          reason: one(f.reason),
          where: one(findingWhere(r, f)),
          newerLine: inFile && f.location.version === 'newer' ? f.location.line : undefined,
          olderLine: inFile && f.location.version === 'older' ? f.location.line : olderIn ? f.location.olderLine : undefined,
          // In another file shown below (an imported XSD): which, and on which line of it.
          ...(!inFile && file !== undefined && t.files?.[file] ? { file: one(file), fileLine: f.location.line } : {}),
          ...(!olderIn && f.location.olderFile !== undefined && t.files?.[f.location.olderFile]
            ? { olderFileName: one(f.location.olderFile), olderFileLine: f.location.olderLine }
            : {}),
        };
      }),
    );
    // Each other file a finding is in, with its text: the page marks the finding on its line there.
    const others = findings.length > 0 ? Object.entries(t.files ?? {}).map(([name, o]) => ({ file: one(name), version: o.version, lines: lines(o.text) })) : [];
    const note =
      r.status === 'new'
        ? `${r.file} is a new contract: it has no version in ${r.note}, so there is nothing it can break.`
        : r.status === 'removed'
          ? `${r.file} is not in ${r.note}: every scenario of the older version is gone.`
          : undefined;
    return {
      file: one(r.file),
      status: r.status,
      compatible: r.verdict.compatible,
      older: r.older && one(r.older),
      newer: r.newer && one(r.newer),
      note: note && one(note),
      hint: r.hint && one(r.hint),
      consumers: r.consumers && one(consumersLine(r.consumers)),
      findings,
      // Only a file with findings is shown side by side: a folder of unchanged contracts stays a short page.
      olderLines: findings.length > 0 ? lines(t.older) : undefined,
      newerLines: findings.length > 0 ? lines(t.newer) : undefined,
      ...(others.length > 0 ? { others } : {}),
      sourceCut: cut && findings.length > 0 ? `The versions are shown up to ${REPORT_LIMITS.sourceChars} characters each.` : undefined,
    };
  });
  return htmlPage({
    kind: 'compat',
    title: 'accord compatible',
    generated: now.toISOString(),
    compatible,
    verdict: compatible ? COMPATIBLE : NOT_COMPATIBLE,
    totals: totals(reports),
    files,
  });
}
