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

/** One logged SOAP call: the request and the 200 answer's envelopes (`size`, the answer's content.size, is 1 unless given). */
export interface LoggedCall {
  request: string;
  response: string;
  size?: number;
}

/** A HAR log of SOAP POSTs to `url` with this SOAPAction header (quotes included), one entry a call. */
export function soapHar(url: string, soapAction: string, calls: LoggedCall[]): string {
  const entries = calls.map((c) => ({
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 1,
    request: {
      method: 'POST',
      url,
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'SOAPAction', value: soapAction }],
      postData: { mimeType: 'text/xml; charset=utf-8', text: c.request },
    },
    response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [], content: { size: c.size ?? 1, mimeType: 'text/xml; charset=utf-8', text: c.response } },
  }));
  return JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } });
}
