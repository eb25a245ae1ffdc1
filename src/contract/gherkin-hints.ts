import type { GherkinDocument } from '@cucumber/messages';
import { AccordError } from '../errors';
import { excerpt, quoted } from '../printable';
import { closest } from '../suggest';
import { isStepWord } from './keywords';

/**
 * Misspelt Gherkin keywords, said in one line with a did-you-mean. Gherkin itself either
 * lists every token it expected (`expected: #EOF, #TableRow, …, got 'Scenaro: …'`) or,
 * worse, reads the line and all that follows as free description text, so a scenario
 * silently disappears. The keywords come from the dialect the parser uses.
 */

/** The keywords of one Gherkin dialect (`dialects.en`), as @cucumber/gherkin lists them. */
export interface Dialect {
  feature: readonly string[];
  background: readonly string[];
  scenario: readonly string[];
  scenarioOutline: readonly string[];
  examples: readonly string[];
  rule: readonly string[];
  given: readonly string[];
  when: readonly string[];
  then: readonly string[];
  and: readonly string[];
  but: readonly string[];
}

interface Words {
  sections: string[];
  steps: string[];
}

function wordsOf(d: Dialect): Words {
  const sections = [...d.feature, ...d.background, ...d.scenario, ...d.scenarioOutline, ...d.examples, ...d.rule];
  // Step keywords carry their trailing space ("Given "), and "* " is one of them.
  const steps = [...new Set([...d.given, ...d.when, ...d.then, ...d.and, ...d.but].map((k) => k.trim()).filter((k) => k !== '*'))];
  return { sections, steps };
}

/** A short keyword allows one slip, a longer one two: "Role:" is not taken for "Rule:" twice over. */
function near(word: string, candidates: readonly string[]): string | undefined {
  const c = closest(word, candidates);
  if (c === undefined || c === word) return undefined;
  return closest(word, [c], c.length <= 5 ? 1 : 2);
}

/**
 * The did-you-mean for one line Gherkin did not take as what it was meant to be; undefined
 * when it does not look like a misspelt keyword. `strict`: the line was read as description
 * text, so a step-like line must also go on like a step (`Gven type Pet`), not like prose.
 */
export function keywordTypo(line: string, dialect: Dialect, strict: boolean): string | undefined {
  const words = wordsOf(dialect);
  const t = line.trim();
  const section = /^([^\s:|#@"*][^:]{0,40}?)\s*:/.exec(t);
  if (section && !words.sections.includes(section[1])) {
    const k = near(section[1], words.sections);
    if (k) return `"${excerpt(section[1], 40)}:" is not a Gherkin keyword: did you mean "${k}:"?`;
  }
  const step = /^(\S+)(?:\s+(\S+))?/.exec(t);
  if (!step || words.steps.includes(step[1])) return undefined;
  if (strict && !(step[2] !== undefined && isStepWord(step[2]))) return undefined;
  const k = near(step[1], words.steps);
  return k ? `"${excerpt(step[1], 40)}" is not a step keyword: did you mean "${k}"?` : undefined;
}

interface GherkinError extends Error {
  location?: { line: number; column?: number };
}

/** Gherkin's messages start with "(line:column): "; the location is carried separately. */
function bare(message: string): string {
  return message.replace(/^\(\d+:\d+\): /, '');
}

/**
 * Gherkin's errors, said for a person where accord can tell what went wrong: a typo'd keyword as a
 * did-you-mean, a `"""` block that never closes at the line where it opened (Gherkin says "end of
 * file"), a block closed by what was meant to open the next one as one error at the block. Any other
 * error is kept as Gherkin said it.
 */
export function explainParseErrors(errors: GherkinError[], text: string, dialect: Dialect): { message: string; line?: number; column?: number }[] {
  const lines = linesOf(text);
  const blocks = docStrings(lines);
  const out: { message: string; line?: number; column?: number }[] = [];
  let unclosed = false;
  for (const e of errors) {
    const message = bare(e.message);
    const line = e.location?.line;
    if (message.startsWith('unexpected end of file') && message.includes('#DocStringSeparator')) {
      const open = blocks.find((b) => b.close === undefined);
      if (open) {
        out.push({ message: `this ${open.fence} block is never closed: add a line with ${open.fence} after its content`, line: open.open });
        continue;
      }
    }
    if (line === undefined || !(message.includes(" got '") && message.endsWith("'"))) {
      out.push({ message, line, column: e.location?.column });
      continue;
    }
    const typo = keywordTypo(lines[line - 1] ?? '', dialect, false);
    if (typo) {
      out.push({ message: typo, line, column: e.location?.column });
      continue;
    }
    // A block closed by what was meant to open the next one: what follows is its content, one error at the block stands for all of them.
    if (unclosed) continue;
    const closedJustBefore = blocks.find((b) => b.close !== undefined && b.close < line && isBlank(lines, b.close, line));
    if (closedJustBefore) {
      unclosed = true;
      out.push({
        message: `the ${closedJustBefore.fence} block opened here closes at line ${closedJustBefore.close}, and line ${line} after it is not a step: is the ${closedJustBefore.fence} that closes this block missing?`,
        line: closedJustBefore.open,
      });
      continue;
    }
    out.push({ message: expectedTokens(message, dialect) ?? message, line, column: e.location?.column });
  }
  return out;
}

/**
 * Gherkin's `expected: #EOF, #TableRow, #StepLine, …, got 'garbage line'` in words: what the line is
 * and what may stand there. undefined when the message is not of that form (kept as Gherkin said it).
 */
function expectedTokens(message: string, dialect: Dialect): string | undefined {
  const at = message.indexOf(", got '");
  if (!message.startsWith('expected: ') || at < 0) return undefined;
  const tokens = message.slice('expected: '.length, at).split(', ');
  const got = message.slice(at + ", got '".length, -1);
  const word = (list: readonly string[]) => (list.find((k) => k.trim() !== '*') ?? list[0] ?? '').trim();
  if (dialect.feature.some((k) => got.startsWith(`${k}:`)) && !tokens.includes('#FeatureLine')) {
    return `${quoted(got, 80)} starts a second Feature: a contract file holds one Feature (put the other in a file of its own)`;
  }
  const steps = [dialect.given, dialect.when, dialect.then, dialect.and, dialect.but].map(word).join(', ');
  const names: Record<string, string> = {
    '#FeatureLine': `${word(dialect.feature)}:`,
    '#BackgroundLine': `${word(dialect.background)}:`,
    // English lists Example before Scenario: the last is the one most contracts use.
    '#ScenarioLine': `${word([...dialect.scenario].reverse())}:`,
    '#RuleLine': `${word(dialect.rule)}:`,
    '#ExamplesLine': `${word(dialect.examples)}:`,
    '#StepLine': `a step (${steps} …)`,
    '#TableRow': 'a table row (| … |)',
    '#DocStringSeparator': 'a """ block',
    '#TagLine': 'a tag (@…)',
    '#Comment': 'a comment (# …)',
    '#Language': 'a # language: line',
  };
  const wanted = tokens.map((t) => names[t]).filter((x): x is string => x !== undefined);
  if (wanted.length === 0) return undefined;
  const list = wanted.length === 1 ? wanted[0] : `${wanted.slice(0, -1).join(', ')} or ${wanted[wanted.length - 1]}`;
  return `${quoted(got, 80)} cannot stand here: expected ${list}`;
}

/** Whether the lines strictly between `from` and `to` (1-based) are all blank. */
function isBlank(lines: readonly string[], from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) if ((lines[i - 1] ?? '').trim() !== '') return false;
  return true;
}

interface Block {
  fence: string;
  open: number;
  close?: number;
}

/** The `"""` and ``` blocks as Gherkin pairs them: a block closes at the next line that starts with its own fence. */
function docStrings(lines: readonly string[]): Block[] {
  const out: Block[] = [];
  let current: Block | undefined;
  lines.forEach((raw, i) => {
    const t = raw.trimStart();
    if (current) {
      if (t.trimEnd() === current.fence) {
        current.close = i + 1;
        current = undefined;
      }
      return;
    }
    const fence = t.startsWith('"""') ? '"""' : t.startsWith('```') ? '```' : undefined;
    if (fence) {
      current = { fence, open: i + 1 };
      out.push(current);
    }
  });
  return out;
}

/**
 * Lines Gherkin read as description text (under Feature:, Scenario:, …) that are a misspelt
 * keyword or step: `Scenaro:` under the Feature makes the whole scenario description, and a
 * contract that parses without it. Each description is checked line by line from its node's
 * line; the first typo of each is reported.
 */
export function descriptionTypos(doc: GherkinDocument, text: string, dialect: Dialect): AccordError[] {
  const feature = doc.feature;
  if (!feature) return [];
  const lines = linesOf(text);
  const described: { description: string; line: number }[] = [{ description: feature.description, line: feature.location.line }];
  for (const c of feature.children) {
    const nodes = c.rule ? [c.rule, ...c.rule.children.map((r) => r.background ?? r.scenario)] : [c.background ?? c.scenario];
    for (const n of nodes) {
      if (!n) continue;
      described.push({ description: n.description, line: n.location.line });
      if ('examples' in n) for (const ex of n.examples) described.push({ description: ex.description, line: ex.location.line });
    }
  }
  const errors: AccordError[] = [];
  for (const { description, line } of described) {
    if (description.trim() === '') continue;
    let cursor = line; // the keyword's own line; description lines follow it in order
    for (const d of description.split('\n')) {
      if (d.trim() === '') continue;
      while (cursor < lines.length && lines[cursor] !== d) cursor++;
      if (cursor >= lines.length) break;
      cursor++;
      const typo = keywordTypo(d, dialect, true);
      if (typo) {
        errors.push(new AccordError('ACCORD_ERR_CONTRACT_SYNTAX', `${typo} (Gherkin read this line and the ones after it as description text)`, { line: cursor }));
        break;
      }
    }
  }
  return errors;
}

/** The lines of a text as Gherkin reads them (`\r\n` or `\n`). */
function linesOf(text: string): string[] {
  return text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}
