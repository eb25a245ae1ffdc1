/**
 * A contract as `.spec` text: feature, Background, scenarios of steps,
 * Examples. Both importers describe what they want written here (patterns,
 * type names, comments, which steps go in the Background) and this module
 * decides how it looks, so each construct is written in one place.
 */
import { InternalError, unreachable } from '../../errors';
import type { Pattern } from '../../pattern/types';
import { patternText, valueText } from './pattern';

export type Step =
  | { kind: 'type'; name: string; pattern: Pattern }
  | { kind: 'request'; method: string; path: string }
  | { kind: 'header'; side: 'request' | 'response'; name: string; optional: boolean; pattern: Pattern }
  | { kind: 'body'; side: 'request' | 'response'; pattern: Pattern }
  | { kind: 'status'; status: number }
  | { kind: 'form-field' | 'request-part'; name: string; pattern: Pattern }
  /** A step accord reads and keeps without acting on it (value, export, openapi, wsdl...). */
  | { kind: 'note'; keyword: string; text: string }
  | { kind: 'kafka-message'; text: string };

export interface PrintScenario {
  /** `# ...` lines above the scenario. */
  comments?: string[];
  tags?: string[];
  name: string;
  steps: Step[];
  /** The Examples table: column names, then rows of cells. Makes the scenario an outline. */
  examples?: { columns: string[]; rows: string[][] };
}

export interface PrintStyle {
  /** Doc strings indented this much beyond their step. */
  docIndent: number;
  /** Type definitions that fit on one line of at most 100 characters stay on the step's line. */
  inlineTypes: boolean;
}

export interface PrintContract {
  /** `# ...` lines before `Feature:`. */
  header?: string[];
  /** Tags on the Feature: every scenario has them. */
  tags?: string[];
  feature: string;
  /** `# ...` lines right after `Feature:`. */
  comments?: string[];
  background?: Step[];
  scenarios: PrintScenario[];
}

const DEFAULT_STYLE: PrintStyle = { docIndent: 2, inlineTypes: true };
const MAX_INLINE_TYPE = 100;

export function printContract(c: PrintContract, style: Partial<PrintStyle> = {}): string {
  const s = { ...DEFAULT_STYLE, ...style };
  const out: string[] = [];
  for (const h of c.header ?? []) out.push(`# ${oneLine(h)}`);
  if (c.tags?.length) out.push(c.tags.map((t) => tag(t)).join(' '));
  out.push(`Feature: ${name(c.feature, 'feature')}`);
  for (const h of c.comments ?? []) out.push(`  # ${oneLine(h)}`);
  if (c.background) {
    out.push('', '  Background:');
    out.push(...steps(c.background, s));
  }
  for (const sc of c.scenarios) {
    out.push('');
    for (const h of sc.comments ?? []) out.push(`  # ${oneLine(h)}`);
    if (sc.tags?.length) out.push(`  ${sc.tags.map((t) => tag(t)).join(' ')}`);
    out.push(`  ${sc.examples ? 'Scenario Outline' : 'Scenario'}: ${name(sc.name, 'scenario')}`);
    out.push(...steps(sc.steps, s));
    if (sc.examples) out.push('', '    Examples:', ...table([sc.examples.columns, ...sc.examples.rows]).map((l) => `      ${l}`));
  }
  return `${out.join('\n')}\n`;
}

/** Gherkin keywords: a request line is "When", a status "Then", the first other step "Given", the rest "And". */
function steps(list: Step[], s: PrintStyle): string[] {
  const out: string[] = [];
  list.forEach((step, i) => {
    const kw = step.kind === 'request' ? 'When' : step.kind === 'status' ? 'Then' : i === 0 ? 'Given' : 'And';
    const [line, block] = stepText(step, s);
    out.push(`    ${kw} ${line}`);
    if (block !== undefined) out.push(...docString(block, ' '.repeat(4 + s.docIndent)));
  });
  return out;
}

function stepText(step: Step, s: PrintStyle): [string, string?] {
  switch (step.kind) {
    case 'type': {
      if (step.pattern.kind === 'enum') {
        const p = step.pattern;
        if (p.name !== step.name) throw new InternalError(`cannot be written in a contract: enum ${step.name} named ${p.name}`);
        // A plain comma list where it reads back the same; else a JSON array (the empty value, commas, spaces at the ends).
        const plain = p.values.length > 0 && p.values.every((v) => v !== '' && !v.includes(',') && v.trim() === v && !/[\r\n]/.test(v)) && !p.values[0].startsWith('[');
        return [`enum ${step.name} (${p.base}) values ${plain ? p.values.join(',') : JSON.stringify(p.values)}`];
      }
      const t = patternText(step.pattern, `type ${step.name}`);
      if ('inline' in t) return [`type ${step.name} ${t.inline}`];
      if (s.inlineTypes && !t.block.includes('\n') && t.block.length <= MAX_INLINE_TYPE) return [`type ${step.name} ${t.block}`];
      return [`type ${step.name}`, t.block];
    }
    case 'request':
      // The request line reads the rest of the step as the path, so a blank inside a placeholder (`(id:string maxLength=3)`) reads back.
      if (/[\r\n]/.test(step.path) || step.path.trim() !== step.path || step.path === '') throw new InternalError(`cannot be written in a contract: path "${step.path}"`);
      return [`${step.method} ${step.path}`];
    case 'header':
      return [`${step.side}-header ${step.name}${step.optional ? '?' : ''} ${lineValue(step.pattern, `header ${step.name}`)}`];
    case 'body': {
      const t = patternText(step.pattern, `${step.side}-body`);
      if ('inline' in t) return [`${step.side}-body ${t.inline}`];
      if (!t.block.includes('\n')) return [`${step.side}-body ${t.block}`];
      return [`${step.side}-body`, t.block];
    }
    case 'status':
      return [`status ${step.status}`];
    case 'form-field':
    case 'request-part':
      return [`${step.kind} ${step.name} ${lineValue(step.pattern, `${step.kind} ${step.name}`)}`];
    case 'note':
      return [`${step.keyword} ${oneLine(step.text)}`.trimEnd()];
    case 'kafka-message':
      return [`kafka-message ${oneLine(step.text)}`.trimEnd()];
    default:
      return unreachable(step, 'step kind');
  }
}

/** A value that must stay on the step's line: a placeholder or a one-line literal. */
function lineValue(p: Pattern, where: string): string {
  const v = valueText(p, where);
  if (v === '' || v.trim() !== v || /[\u0000-\u001f\u007f]/.test(v)) throw new InternalError(`cannot be written in a contract: ${JSON.stringify(v)} as ${where}`);
  return v;
}

function docString(text: string, pad: string): string[] {
  // Inside a doc string only a run of three quotes needs escaping.
  const lines = text.replace(/"""/g, '\\"\\"\\"').split('\n');
  return [`${pad}"""`, ...lines.map((l) => (l === '' ? l : pad + l)), `${pad}"""`];
}

function table(rows: string[][]): string[] {
  const cells = rows.map((r) => r.map(escapeCell));
  const widths = cells[0].map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) => `| ${widths.map((w, i) => (r[i] ?? '').padEnd(w)).join(' | ')} |`);
}

/** Gherkin table cells: `|`, `\` and newlines are escaped; other control characters cannot be written and become spaces. */
function escapeCell(v: string): string {
  return v
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, '\\n')
    .replace(/[\u0000-\u001f\u007f]/g, ' ');
}

function tag(t: string): string {
  if (!/^@\S+$/.test(t)) throw new InternalError(`cannot be written in a contract: tag "${t}"`);
  return t;
}

/** Gherkin reads names trimmed; a name with nothing in it is a bug in the caller. */
function name(text: string, what: string): string {
  const n = oneLine(text).trim();
  if (n === '' && what === 'scenario') throw new InternalError('cannot be written in a contract: a scenario without a name');
  return n;
}

/** Text written where one line is expected (comments, names): control characters become `?`. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, '?');
}
