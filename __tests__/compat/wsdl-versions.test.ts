import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compareVersions } from '../../src/compat';
import { plainPairs } from '../../src/compat/sources';
import { baseWsdl, CASES } from './wsdl-pairs';

/**
 * `accord compatible old.wsdl new.wsdl` on labelled pairs of WSDL versions
 * (wsdl-pairs.ts), through the same code the CLI runs: real files in a temp
 * folder, each version imported in memory and compared exactly.
 */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-wsdl-pairs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeSide(side: string, text: string, files: Record<string, string> = {}): void {
  mkdirSync(path.join(dir, side), { recursive: true });
  writeFileSync(path.join(dir, side, 'pets.wsdl'), text);
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, side, name), content);
}

describe.each(CASES.map((c, i) => [c.label, c, i] as const))('%s', (_label, c, i) => {
  test(c.rules.length === 0 ? 'compatible' : c.rules.join(', '), () => {
    const base = baseWsdl();
    writeSide(`old${i}`, c.older ? c.older(base) : base);
    writeSide(`new${i}`, c.newer(base), c.files);
    const [pair] = plainPairs(`old${i}/pets.wsdl`, `new${i}/pets.wsdl`, dir);
    const report = compareVersions(pair);
    const findings = report.verdict.results.flatMap((r) => r.findings);
    expect([...new Set(findings.map((f) => f.rule))].sort()).toEqual([...c.rules].sort());
    expect(report.verdict.compatible).toBe(c.rules.length === 0);
    expect(report.verdict.notes.map((n) => n.kind)).toEqual(c.notes ?? []);
    // A note points at the WSDL's fault, never at the in-memory contract.
    for (const n of report.verdict.notes) expect(`${n.file}:${n.line}`).toMatch(/^(old|new)\d+\/pets\.wsdl:\d+$/);
    // Every finding points at a line of a WSDL or XSD file the user has, never at the in-memory contract.
    for (const f of findings) {
      expect(f.location.file).toMatch(/^(old|new)\d+\/(pets\.wsdl|types\.xsd)$/);
      expect(f.location.line).toBeGreaterThan(0);
    }
  });
});
