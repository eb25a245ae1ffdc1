import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseContract } from '../../src/contract/load';
import type { Contract } from '../../src/contract/model';
import { checkExchange, importLogs, readExchanges, type Exchange, type ImportLogOptions, type ImportResult } from '../../src/logs';
import { formatMismatch } from '../../src/pattern/match/mismatch';

export const REPO = path.resolve(__dirname, '../..');
export const LOGS = path.join(REPO, '__tests__/fixtures/logs');
export const BIN = path.join(REPO, 'bin/accord.js');

export function fixture(name: string): string {
  return path.join(LOGS, name);
}

/** A scratch folder removed after the test file. */
export function scratch(): { dir: string; write(name: string, content: string | Buffer): string; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-logs-'));
  return {
    dir,
    write(name, content) {
      const file = path.join(dir, name);
      writeFileSync(file, content);
      return file;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Imported extends ImportResult {
  parsed: Contract;
  exchanges: Exchange[];
}

/** Imports logs, parses the contract written and collects the logged exchanges for re-matching. */
export async function importAndParse(files: string[], options: ImportLogOptions = {}): Promise<Imported> {
  const result = await importLogs(files, options);
  if (!result.contract) throw new Error(`no contract written; problems: ${result.report.problems.map((p) => p.describe()).join('; ')}`);
  const parsed = parseContract(result.contract, 'generated.spec');
  const exchanges: Exchange[] = [];
  await readExchanges(files, (x) => exchanges.push(x), options);
  return { ...result, parsed, exchanges };
}

/** Every logged call that no scenario accepts, described: the list must be empty. */
export function unmatched(imported: Imported, pathOverride?: string): string[] {
  const out: string[] = [];
  for (const x of imported.exchanges) {
    const r = checkExchange(imported.parsed, x, pathOverride);
    if (!r.scenario) out.push(`${x.request.at.file}:${x.request.at.line}: ${r.mismatches.map(formatMismatch).join('; ')}`);
  }
  return out;
}

/** The scenario accepting each exchange, by name, in log order of the requests. */
export function acceptedBy(imported: Imported, pathOverride?: string): string[] {
  return imported.exchanges.map((x) => checkExchange(imported.parsed, x, pathOverride).scenario?.name ?? '(none)');
}

export function cli(args: string[], cwd: string, input?: string | Buffer): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 60_000, input });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
