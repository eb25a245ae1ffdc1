import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A fenced code block of README.md or docs/*.md, with the `<!-- snippet: ... -->`
 * comment that says how the snippet test runs it (the last non-blank line above
 * the fence). A block without one fails the test: none is skipped silently.
 */
export interface Block {
  file: string;
  line: number;
  lang: string;
  text: string;
  /** `sh`, `output breaking-change`, `not-run (reason)`, …; undefined when the comment is missing. */
  how?: string;
}

export function readBlocks(root: string, files: string[]): Block[] {
  return files.flatMap((file) => blocksOf(file, readFileSync(path.join(root, file), 'utf8')));
}

export function blocksOf(file: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    let end = i + 1;
    while (end < lines.length && !/^ *```\s*$/.test(lines[end])) end++;
    if (end === lines.length) throw new Error(`${file}:${i + 1}: a code block that never closes`);
    let above = i - 1;
    while (above >= 0 && lines[above].trim() === '') above--;
    const note = above >= 0 ? /^\s*<!-- snippet: (.+?) -->\s*$/.exec(lines[above]) : null;
    const text = lines
      .slice(i + 1, end)
      .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
      .join('\n');
    blocks.push({ file, line: i + 1, lang: open[2], text, how: note?.[1] });
    i = end;
  }
  return blocks;
}

/**
 * Output as the docs show it: ports, temp folders and timings are the parts that differ from run
 * to run (`http://127.0.0.1:41234` and `http://127.0.0.1:8080` are the same thing to a reader).
 */
export function normalise(text: string, folders: string[] = []): string {
  let out = text.replace(/\r\n/g, '\n');
  for (const f of folders) out = out.split(`${f}${path.sep}`).join('').split(f).join('.');
  return out
    .replace(/(127\.0\.0\.1|localhost):\d+/g, '$1:PORT')
    .replace(/\(\d+(\.\d+)? m?s\)/g, '(TIME)')
    .replace(/[ \t]+$/gm, '');
}

const GAP = /^\s*(\.\.\.|…)\s*$/;

/**
 * Whether `sample` is what `actual` shows. A line that is only `...` or `…` stands for any number
 * of lines; `…` inside a line for any text; the sample may sit at a constant indentation in the
 * output (Jest indents its failure messages). Everything else must be equal, line for line, and
 * without a gap at either end the sample must be all of the output.
 */
export function showsSample(actual: string, sample: string): { ok: true } | { ok: false; why: string } {
  const out = actual.replace(/\n+$/, '').split('\n');
  const lines = sample.replace(/\n+$/, '').split('\n');
  const gapFirst = GAP.test(lines[0]);
  const gapLast = GAP.test(lines[lines.length - 1]);
  const groups: string[][] = [[]];
  for (const l of lines) {
    if (GAP.test(l)) groups.push([]);
    else groups[groups.length - 1].push(l);
  }
  const want = groups.filter((g) => g.length > 0);
  let at = 0;
  for (const [g, group] of want.entries()) {
    const head = new RegExp(`^(\\s*)${source(group[0])}$`);
    const last = g === 0 && !gapFirst ? Math.min(at, out.length - 1) : out.length - 1;
    let found = -1;
    for (let i = at; i <= last && found < 0; i++) {
      const m = head.exec(out[i]);
      if (m && group.every((p, k) => i + k < out.length && new RegExp(`^${escape(m[1])}${source(p)}$`).test(out[i + k]))) found = i;
    }
    if (found < 0)
      return { ok: false, why: `sample lines not found ${g === 0 && !gapFirst ? 'at the start of the output' : 'in order'}:\n${group.join('\n')}\n--- output ---\n${actual}` };
    at = found + group.length;
  }
  const rest = out.slice(at).filter((l) => l.trim() !== '');
  if (!gapLast && rest.length > 0) return { ok: false, why: `the output goes on after the sample ends:\n${rest.join('\n')}\n--- output ---\n${actual}` };
  return { ok: true };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A sample line as a regular expression: literal, `…` standing for any text. */
function source(line: string): string {
  return line.split('…').map(escape).join('.*');
}
