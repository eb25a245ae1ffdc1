import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkCompatibility } from '../../../src/compat';
import type { Verdict } from '../../../src/compat/model';
import { loadContract, parseContract } from '../../../src/contract/load';
import type { Contract } from '../../../src/contract/model';
import { importWsdl } from '../../../src/wsdl';
import { exportWsdl, type ExportResult } from '../../../src/wsdl/export';

export const FIXTURES = path.join(__dirname, '..', '..', 'fixtures');

export interface RoundTrip {
  original: Contract;
  exported: ExportResult;
  /** The contract `accord import wsdl` writes from the export; undefined when nothing was exported. */
  back?: Contract;
  /** original → back and back → original, as `accord compatible` judges them. */
  forward?: Verdict;
  backward?: Verdict;
}

/** A contract exported, the WSDL imported again (from a real file), and the two contracts compared both ways. */
export function roundTrip(file: string, edit: (wsdl: string) => string = (w) => w): RoundTrip {
  const original = loadContract(file);
  const exported = exportWsdl(original.scenarios, { name: original.name });
  if (exported.operations.length === 0) return { original, exported };
  const dir = mkdtempSync(path.join(tmpdir(), 'accord-export-'));
  try {
    const wsdl = path.join(dir, 'exported.wsdl');
    writeFileSync(wsdl, edit(exported.text));
    const back = parseContract(importWsdl(wsdl).text, path.join(dir, 'exported.spec'));
    return { original, exported, back, forward: checkCompatibility(original, back), backward: checkCompatibility(back, original) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function equalBothWays(r: RoundTrip): boolean {
  return r.forward?.compatible === true && r.backward?.compatible === true;
}

/** What `accord compatible` found, one line each, for a failure message. */
export function findings(r: RoundTrip): string[] {
  return [r.forward, r.backward].flatMap((v) => v?.results.flatMap((x) => x.findings.map((f) => f.message)) ?? []);
}
