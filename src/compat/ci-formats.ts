import { AccordError, CompositeAccordError } from '../errors';
import { ghCommand, oneLine as clean, xmlAttrs as attrs, xmlText } from '../ci-text';
import { MESSAGES } from './messages';
import type { ScenarioResult } from './model';
import { cleanDocument, COMPATIBLE, consumersLine, countsLine, findingImpact, findingPlace, findingWhere, NOT_COMPATIBLE, totals, type FileReport } from './report';
import { RULES } from './rules';

/*
 * The verdict for CI: JUnit XML for test-report UIs, GitHub workflow
 * annotations, SARIF 2.1.0 for code scanning. Every string that came from
 * input (scenario names, paths, values) is made printable first: a contract
 * in a pull request must not write escape sequences into a CI log or a report.
 */

export type CiFormat = 'junit' | 'github' | 'sarif';

// ---- JUnit ----

function failureText(r: FileReport, res: ScenarioResult): string {
  return res.findings.map((f) => `${f.message}\nWhy: ${f.reason} [${f.rule}]\nAt: ${findingWhere(r, f)}${consumersOf(r, res, f, '\n')}`).join('\n\n');
}

/** With consumers' examples (`--consumers`): `Consumers: breaks `coupon` for billing-ui (1 of 3 consumers)…` after `before`; else nothing. */
function consumersOf(r: FileReport, res: ScenarioResult, f: ScenarioResult['findings'][number], before: string): string {
  const impact = findingImpact(r, res.scenario, f);
  return impact ? `${before}Consumers: ${impact.message}` : '';
}

/** One testsuite per contract file, one testcase per older scenario checked (skipped ones as skipped). */
export function formatJunit(reports: readonly FileReport[]): string {
  const t = totals(reports);
  const skipped = reports.reduce((n, r) => n + r.verdict.skipped.length, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'accord compatible', tests: t.testsRun + skipped, failures: t.failed, errors: 0, skipped })}>`,
  ];
  for (const r of reports) {
    const v = r.verdict;
    out.push(`  <testsuite${attrs({ name: r.file, tests: v.testsRun + v.skipped.length, failures: v.failed, errors: 0, skipped: v.skipped.length, file: r.file })}>`);
    if (r.status === 'new') out.push(`    <system-out>${xmlText(`${r.file} is a new contract: it has no version in ${r.note}, so there is nothing it can break.`)}</system-out>`);
    for (const res of v.results) {
      const head = `    <testcase${attrs({ classname: r.file, name: `${res.scenario} (${res.api})`, file: r.file, line: res.line })}`;
      if (res.compatible) {
        out.push(`${head}/>`);
        continue;
      }
      const first = res.findings[0];
      out.push(
        `${head}>`,
        `      <failure${attrs({ message: first ? first.message : 'not backward compatible', type: first?.rule })}>${xmlText(failureText(r, res), true)}</failure>`,
        '    </testcase>',
      );
    }
    for (const s of v.skipped) {
      out.push(`    <testcase${attrs({ classname: r.file, name: s.scenario, file: r.file, line: s.line })}>`, `      <skipped${attrs({ message: s.reason })}/>`, '    </testcase>');
    }
    if (r.consumers) out.push(`    <system-out>${xmlText(consumersLine(r.consumers))}</system-out>`);
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

// ---- GitHub workflow commands ----

/** One `::error file=…,line=…::` per break, then the counts and the verdict as plain lines for the log. */
export function formatGithub(reports: readonly FileReport[]): string {
  const out: string[] = [];
  for (const r of reports) {
    for (const res of r.verdict.results) {
      for (const f of res.findings) {
        const place = findingPlace(r, f);
        out.push(
          ghCommand(
            'error',
            { file: place.file, line: place.line, title: `accord compatible: ${f.rule}` },
            `${f.message}. Why: ${f.reason} (scenario "${res.scenario}")${consumersOf(r, res, f, '. ')}`,
          ),
        );
      }
    }
    for (const n of r.verdict.notes)
      out.push(
        ghCommand(
          'notice',
          { file: n.file ?? r.file, line: n.file || n.version === 'newer' ? n.line : undefined, title: `accord compatible: ${n.kind}` },
          `"${n.scenario}": ${n.message}`,
        ),
      );
    if (r.hint) out.push(ghCommand('notice', { file: r.file, title: 'accord compatible' }, r.hint));
    if (r.consumers) out.push(ghCommand('notice', { file: r.file, title: 'accord compatible: consumers' }, consumersLine(r.consumers)));
  }
  out.push(clean(countsLine(totals(reports))), reports.every((r) => r.verdict.compatible) ? COMPATIBLE : NOT_COMPATIBLE);
  return `${out.join('\n')}\n`;
}

// ---- SARIF 2.1.0 ----

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

function sarifDriver(version: string) {
  return {
    name: 'accord',
    version,
    rules: RULES.map((rule) => ({
      id: rule.id,
      shortDescription: { text: MESSAGES[rule.id].meaning },
      fullDescription: { text: `${MESSAGES[rule.id].meaning} Why it breaks: ${MESSAGES[rule.id].reason}.` },
      help: { text: 'See docs/compatibility.md, section Rules, in the accord package.' },
      defaultConfiguration: { level: rule.level },
      properties: { side: rule.side },
    })),
  };
}

function sarifLocation(place: { file: string; line?: number }, scenario: string) {
  const physicalLocation: Record<string, unknown> = { artifactLocation: { uri: toUri(place.file) } };
  if (place.line !== undefined) physicalLocation.region = { startLine: place.line };
  return { physicalLocation, logicalLocations: [{ name: scenario, kind: 'scenario' }] };
}

/** A relative path with forward slashes, as SARIF's artifactLocation.uri takes it. */
function toUri(file: string): string {
  return file.split('\\').join('/');
}

/** One run with accord's rules and a result per break. */
export function formatSarif(reports: readonly FileReport[], version: string): string {
  const index = new Map(RULES.map((r, i) => [r.id, i]));
  const results = reports.flatMap((r) =>
    r.verdict.results.flatMap((res) =>
      res.findings.map((f) => {
        const impact = findingImpact(r, res.scenario, f);
        return {
          ruleId: f.rule,
          ruleIndex: index.get(f.rule),
          level: 'error',
          message: { text: `${f.message}. Why: ${f.reason}.${consumersOf(r, res, f, ' ')}` },
          locations: [sarifLocation(findingPlace(r, f), res.scenario)],
          partialFingerprints: { accordFinding: `${r.file}|${res.scenario}|${f.rule}|${f.path}` },
          // The consumers it breaks, by name, for tools that read properties.
          ...(impact ? { properties: { consumers: impact.broken, consumerExamples: impact.files } } : {}),
        };
      }),
    ),
  );
  const doc = { $schema: SARIF_SCHEMA, version: '2.1.0', runs: [{ tool: { driver: sarifDriver(version) }, invocations: [{ executionSuccessful: true }], results }] };
  return `${JSON.stringify(cleanDocument(doc), null, 2)}\n`;
}

// ---- Errors (exit 2) in each machine format ----

interface ErrorEntry {
  code: string;
  message: string;
  file?: string;
  line?: number;
}

function errorEntries(e: unknown, fallback: string): ErrorEntry[] {
  const list = e instanceof CompositeAccordError ? e.errors : e instanceof AccordError ? [e] : [];
  if (list.length === 0) return [{ code: 'ACCORD_ERR_USAGE', message: fallback }];
  return list.map((x) => ({ code: x.code, message: [x.message, ...x.details].join('\n'), file: x.location.file, line: x.location.line }));
}

/** A document that says the check could not be made (exit 2), in the format asked for; `message` is used for a non-AccordError mistake. */
export function formatError(format: 'json' | CiFormat, e: unknown, message: string, version: string): string {
  const errors = errorEntries(e, message);
  if (format === 'json') return `${JSON.stringify(cleanDocument({ compatible: null, error: errors[0].message, errors }), null, 2)}\n`;
  if (format === 'github') return `${errors.map((x) => ghCommand('error', { file: x.file, line: x.line, title: `accord compatible: ${x.code}` }, x.message)).join('\n')}\n`;
  if (format === 'junit') {
    const cases = errors.map(
      (x) =>
        `    <testcase${attrs({ classname: 'accord compatible', name: x.file ? `${x.file}${x.line ? `:${x.line}` : ''}` : 'accord compatible', file: x.file, line: x.line })}>\n      <error${attrs({ message: x.message, type: x.code })}/>\n    </testcase>`,
    );
    const head = attrs({ name: 'accord compatible', tests: errors.length, failures: 0, errors: errors.length });
    return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${head}>\n  <testsuite${head}>\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
  }
  const notifications = errors.map((x) => {
    const n: Record<string, unknown> = { level: 'error', message: { text: x.message }, descriptor: { id: x.code } };
    if (x.file) n.locations = [sarifLocation({ file: x.file, line: x.line }, 'accord compatible')];
    return n;
  });
  const doc = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [{ tool: { driver: sarifDriver(version) }, invocations: [{ executionSuccessful: false, toolExecutionNotifications: notifications }], results: [] }],
  };
  return `${JSON.stringify(cleanDocument(doc), null, 2)}\n`;
}
