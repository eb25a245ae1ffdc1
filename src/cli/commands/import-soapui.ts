import type { Command } from 'commander';
import { lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { AccordError } from '../../errors';
import { writeOutputFile } from '../../files';
import { printable } from '../../printable';
import { EXIT_USAGE, ExitError, asUsage, type Io } from '../exit';
import { importCommand } from './import';

interface SoapuiOptions {
  output?: string;
  force?: boolean;
}

/** `accord import soapui <project.xml|folder>`: a SoapUI project becomes contracts and example files. */
export function registerImportSoapui(program: Command, io: Io): void {
  importCommand(program)
    .command('soapui')
    .description(
      "write contracts from a SoapUI project's cached WSDLs, and example files from its test steps and mock responses, each checked against its contract; lists what does not carry over",
    )
    .argument('<project>', 'a *-soapui-project.xml file, or a ReadyAPI composite project folder')
    .option('-o, --output <dir>', 'the folder to write into (default: the project name, in the current folder)')
    .option('-f, --force', 'write into a folder that already holds files (files of the same name are replaced)')
    .addHelpText('after', '\nExamples:\n  accord import soapui Sample-SOAP-Project-soapui-project.xml -o contracts\n  accord import soapui ./MyComposite --output contracts\n')
    .action((project: string, opts: SoapuiOptions) => {
      runImportSoapui(project, opts, io);
    });
}

export interface SoapuiCounts {
  operations: number;
  contracts: number;
  examples: number;
  fit: number;
  misfits: number;
  notCarried: number;
}

export function runImportSoapui(project: string, opts: SoapuiOptions, io: Io): SoapuiCounts {
  const command = 'accord import soapui';
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when this command runs
  const soapui = require('../../soapui') as typeof import('../../soapui');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the stub's one fitting: an example fits a contract as the stub will read it
  const fit = require('../../stub/answer/fit-example') as typeof import('../../stub/answer/fit-example');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the stub's reading at start, the last check
  const { loadExampleFiles } = require('../../stub/answer/example-files') as typeof import('../../stub/answer/example-files');
  const input = path.resolve(io.cwd, project);
  const stem = withoutEnd(withoutEnd(path.basename(input), '.xml'), '-soapui-project');
  const outDir = path.resolve(io.cwd, opts.output ?? (stem || 'soapui'));
  checkOutDir(outDir, shown(io, outDir), opts.force, command);
  asUsage(command, () => mkdirSync(outDir, { recursive: true }));
  let imported;
  try {
    imported = soapui.importSoapui(input, { outDir, force: true });
  } catch (e) {
    if (e instanceof AccordError) throw new ExitError(EXIT_USAGE, `${command}: ${e.describe()}`);
    throw e;
  }
  const lines: string[] = [];
  const notCarried = [...imported.notCarried];
  if (imported.contracts.length === 0) {
    throw new ExitError(
      EXIT_USAGE,
      [
        `${command}: ${printable(project)}: no WSDL interface of the project can be imported; nothing written`,
        ...notCarried.map((n) => `  not carried: ${describe(n, soapui.placeText)}`),
      ].join('\n'),
    );
  }
  let examples = 0;
  let fitCount = 0;
  let misfits = 0;
  let operations = 0;
  for (const c of imported.contracts) {
    asUsage(command, () => writeOutputFile(c.file, c.text, { force: true, shown: shown(io, c.file) }));
    operations += c.summary.operations;
    lines.push(
      `wrote ${shown(io, c.file)} from the cached WSDL of ${c.plan.interfaces.map((i) => `"${i.name}"`).join(', ')} (${c.summary.operations} operation${c.summary.operations === 1 ? '' : 's'}; the WSDL documents in ${shown(io, path.dirname(c.wsdlFiles[0]))})`,
    );
    const mine = imported.examples.filter((e) => e.plan.contract === c.plan.stem);
    if (mine.length === 0) continue;
    const dir = `${c.file.slice(0, -'.spec'.length)}_examples`;
    asUsage(command, () => {
      mkdirSync(dir, { recursive: true });
      for (const n of readdirSync(dir)) if (n.endsWith('.json')) rmSync(path.join(dir, n), { force: true });
    });
    let written = 0;
    for (const e of mine) {
      examples++;
      let chosen: Record<string, unknown> | undefined;
      let why = '';
      for (const candidate of e.candidates) {
        const raw = fit.readExampleShape(candidate, (m) => new AccordError('ACCORD_ERR_USAGE', m));
        const got = fit.fitExample(raw, c.contract.scenarios, ` of ${path.basename(c.file)}`, undefined);
        if (got.ok) {
          chosen = candidate;
          break;
        }
        if (!why) {
          const m = got.mismatches[0];
          why = m ? `${got.why}: ${m.path}: expected ${m.expected}, found ${m.actual}` : got.why;
        }
      }
      if (!chosen) {
        misfits++;
        notCarried.push({ what: `example from ${e.plan.source}`, place: e.plan.place, why: `it does not fit ${path.basename(c.file)}: ${why || 'no SOAP scenario'}` });
        continue;
      }
      const file = path.join(dir, e.plan.file);
      asUsage(command, () => writeOutputFile(file, `${JSON.stringify(chosen, null, 2)}\n`, { force: true, shown: shown(io, file) }));
      written++;
    }
    // The stub's own reading at start: what it refuses is taken out again, and said.
    const errors: AccordError[] = [];
    loadExampleFiles(c.contract, errors);
    for (const err of errors) {
      if (err.location.file) rmSync(err.location.file, { force: true });
      written--;
      misfits++;
      notCarried.push({
        what: `example ${path.basename(err.location.file ?? '')}`,
        place: { file: err.location.file ?? dir, path: '' },
        why: `the stub does not read it: ${err.message}`,
      });
    }
    fitCount += written;
    lines.push(`wrote ${written} example file${written === 1 ? '' : 's'} to ${shown(io, dir)}, each checked against ${path.basename(c.file)}: a stub of it answers them`);
  }
  const wss = imported.plan.wsSecurity;
  if (wss) {
    const runnerFile = path.join(outDir, 'ws-security.runner.json');
    const stubFile = path.join(outDir, 'ws-security.stub.json');
    asUsage(command, () => {
      writeOutputFile(runnerFile, `${JSON.stringify(wss.runner, null, 2)}\n`, { force: true, shown: shown(io, runnerFile) });
      writeOutputFile(stubFile, `${JSON.stringify(wss.stub, null, 2)}\n`, { force: true, shown: shown(io, stubFile) });
    });
    lines.push(
      `wrote ${shown(io, runnerFile)} (the runner's wsSecurity) and ${shown(io, stubFile)} (accord stub --ws-security) from WS-Security configuration "${wss.config}"; set ${wss.env.map((v) => v.name).join(', ')}`,
    );
  }
  lines.push(
    `${operations} operation${operations === 1 ? '' : 's'}; ${examples} example${examples === 1 ? '' : 's'}, ${fitCount} written (they fit), ${misfits} not (listed below); ${notCarried.length} thing${notCarried.length === 1 ? '' : 's'} not carried over`,
  );
  for (const n of notCarried) lines.push(`not carried: ${describe(n, soapui.placeText)}`);
  io.stdout(`${lines.join('\n')}\n`);
  return { operations, contracts: imported.contracts.length, examples, fit: fitCount, misfits, notCarried: notCarried.length };
}

function describe(
  n: { what: string; place: { file: string; line?: number; path: string }; why?: string },
  placeText: (p: { file: string; line?: number; path: string }) => string,
): string {
  return printable(`${n.what} at ${placeText(n.place)}${n.why ? `: ${n.why}` : ''}`, { multiline: false }).slice(0, 1000);
}

/** A folder that holds files already is written into only with --force: old example files would answer beside the new ones. */
function checkOutDir(dir: string, shownDir: string, force: boolean | undefined, command: string): void {
  let names: string[];
  try {
    if (lstatSync(dir).isSymbolicLink()) throw new ExitError(EXIT_USAGE, `${command}: ${shownDir} is a symlink; accord does not write through links`);
    names = readdirSync(dir);
  } catch (e) {
    if (e instanceof ExitError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new ExitError(EXIT_USAGE, `${command}: cannot use ${shownDir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!force && names.length > 0) throw new ExitError(EXIT_USAGE, `${command}: ${shownDir} holds files already; use --force to write into it`);
}

/** `name` without `end` (compared case-blind) when it ends so. */
function withoutEnd(name: string, end: string): string {
  return name.toLowerCase().endsWith(end) ? name.slice(0, -end.length) : name;
}

function shown(io: Io, file: string): string {
  const r = path.relative(io.cwd, file);
  return r.startsWith('..') || path.isAbsolute(r) ? file : r;
}
