import path from 'node:path';
import { formatMismatch } from '../pattern/match/mismatch';
import { ghCommand, oneLine as clean, xmlAttrs as attrs, xmlText } from '../ci-text';
import type { DriftFinding, DriftSummary } from './check';

/**
 * The end report of `accord proxy --check`: JSON, JUnit XML, SARIF 2.1.0 or GitHub workflow
 * annotations. The formats are those of `accord compatible` (compat/ci-formats.ts), written here
 * for findings about traffic; every string that came from the traffic or a contract is made
 * printable and escaped for its format (the exchanges are redacted already).
 */
export type DriftFormat = 'json' | 'junit' | 'sarif' | 'github';

export const DRIFT_FORMATS: readonly DriftFormat[] = ['json', 'junit', 'sarif', 'github'];

export interface DriftReportContext {
  target: string;
  version: string;
  /** Contract files are named relative to it. */
  cwd: string;
}

export function formatDriftReport(summary: DriftSummary, format: DriftFormat, c: DriftReportContext): string {
  if (format === 'json')
    return `${JSON.stringify({ tool: 'accord proxy --check', target: c.target, ...counts(summary), findings: summary.findings.map((f) => withFile(f, c)) }, null, 2)}\n`;
  if (format === 'junit') return junit(summary, c);
  if (format === 'sarif') return sarif(summary, c);
  return github(summary, c);
}

/** `checked 12 exchanges: 2 broke the contract, 1 not checked`: the summary line. */
export function summaryLine(s: DriftSummary): string {
  const checked = s.fitted + s.broken;
  const parts = [`${s.broken} broke the contract`];
  if (s.unchecked > 0) parts.push(`${s.unchecked} not checked (a body over the recorded size, or too many waiting)`);
  if (s.broken > s.findings.length) parts.push(`${s.broken - s.findings.length} not kept in the report (over its limit)`);
  return `checked ${checked} exchange${checked === 1 ? '' : 's'} of ${s.exchanges}: ${parts.join(', ')}`;
}

function counts(s: DriftSummary) {
  return { exchanges: s.exchanges, checked: s.fitted + s.broken, fitted: s.fitted, broken: s.broken, unchecked: s.unchecked, reported: s.findings.length };
}

function fileOf(f: DriftFinding, c: DriftReportContext): string | undefined {
  if (!f.scenario) return undefined;
  const r = path.relative(c.cwd, f.scenario.file);
  return (r.startsWith('..') || path.isAbsolute(r) ? f.scenario.file : r).split(path.sep).join('/');
}

function withFile(f: DriftFinding, c: DriftReportContext): DriftFinding {
  return f.scenario ? { ...f, scenario: { ...f.scenario, file: fileOf(f, c)! } } : f;
}

// ---- JUnit: one testcase per scenario that drifted (and one for requests that fit none), its findings as the failure ----

function exchangeText(f: DriftFinding): string {
  const head = (h: Record<string, string>) => Object.entries(h).map(([k, v]) => `${k}: ${v}`);
  return [
    `Exchange ${f.exchange} at ${f.time}`,
    ...f.mismatches.map((m) => `  ${formatMismatch(m)}`),
    `> ${f.request.method} ${f.request.path}`,
    ...head(f.request.headers).map((l) => `> ${l}`),
    f.request.body ? `> ${f.request.body}${f.request.bodyCut ? ' …(cut)' : ''}` : '',
    `< ${f.response.status}`,
    ...head(f.response.headers).map((l) => `< ${l}`),
    f.response.body ? `< ${f.response.body}${f.response.bodyCut ? ' …(cut)' : ''}` : '',
  ]
    .filter((l) => l !== '')
    .join('\n');
}

function junit(s: DriftSummary, c: DriftReportContext): string {
  const groups = new Map<string, DriftFinding[]>();
  for (const f of s.findings) {
    const key = f.scenario ? `${fileOf(f, c)}:${f.scenario.line}` : '';
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const cases: string[] = [];
  for (const [, fs] of groups) {
    const f = fs[0];
    const file = fileOf(f, c);
    const name = f.scenario ? f.scenario.name : 'requests that fit no scenario';
    cases.push(
      `    <testcase${attrs({ classname: file ?? 'accord proxy --check', name, file, line: f.scenario?.line })}>`,
      `      <failure${attrs({ message: f.line, type: f.kind })}>${xmlText(fs.map(exchangeText).join('\n\n'), true)}</failure>`,
      '    </testcase>',
    );
  }
  // The exchanges that kept the contract, as one passing case, so a clean run still shows what was checked.
  if (s.fitted > 0) cases.push(`    <testcase${attrs({ classname: 'accord proxy --check', name: `${s.fitted} exchange${s.fitted === 1 ? '' : 's'} kept the contract` })}/>`);
  const head = attrs({ name: `accord proxy --check ${c.target}`, tests: groups.size + (s.fitted > 0 ? 1 : 0), failures: groups.size, errors: 0, skipped: 0 });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${head}>`,
    `  <testsuite${head}>`,
    `    <system-out>${xmlText(summaryLine(s))}</system-out>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

// ---- SARIF 2.1.0: a result per finding, at the scenario's line ----

const RULES = [
  { id: 'response-drift', text: 'The service answered a request the contract accepts with an answer the contract does not describe.' },
  { id: 'request-fits-no-scenario', text: 'A client sent a request no scenario of the contract accepts.' },
];

function sarif(s: DriftSummary, c: DriftReportContext): string {
  const results = s.findings.map((f) => {
    const file = fileOf(f, c);
    const ruleId = f.kind === 'drift' ? 'response-drift' : 'request-fits-no-scenario';
    return {
      ruleId,
      ruleIndex: RULES.findIndex((r) => r.id === ruleId),
      level: 'error',
      message: { text: clean(f.line) },
      ...(file
        ? {
            locations: [
              {
                physicalLocation: { artifactLocation: { uri: file }, region: { startLine: f.scenario!.line } },
                logicalLocations: [{ name: clean(f.scenario!.name), kind: 'scenario' }],
              },
            ],
          }
        : {}),
      partialFingerprints: { accordDrift: `${file ?? ''}|${f.scenario?.name ?? ''}|${f.mismatches[0]?.path ?? ''}` },
      properties: { exchange: f.exchange, time: f.time, mismatches: f.mismatches, request: f.request, response: f.response },
    };
  });
  const doc = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: { name: 'accord', version: c.version, rules: RULES.map((r) => ({ id: r.id, shortDescription: { text: r.text }, defaultConfiguration: { level: 'error' } })) },
        },
        invocations: [{ executionSuccessful: true, properties: counts(s) }],
        results,
      },
    ],
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

// ---- GitHub workflow commands: an error per finding, then the summary ----

function github(s: DriftSummary, c: DriftReportContext): string {
  const out = s.findings.map((f) => {
    const file = fileOf(f, c);
    return ghCommand('error', { file, line: file ? f.scenario!.line : undefined, title: `accord proxy --check: ${f.kind}` }, f.line);
  });
  out.push(clean(`accord proxy --check: ${summaryLine(s)}`));
  return `${out.join('\n')}\n`;
}
