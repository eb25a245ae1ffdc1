import { parseContract, testCases } from '../../src/contract/load';
import { createDispatcher } from '../../src/http/client';
import { runCase, formatCaseReport } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importWsdl, isPartial } from '../../src/wsdl';
import { runAccord } from '../helpers/cli-run';
import { withCorpus, wsdlCorpus } from '../helpers/corpus';
import { cpuMsSync } from '../helpers/timing';
import { wsdlFixtures } from './fixtures';

/**
 * Every WSDL, the repository's and the shared corpus's: the import succeeds,
 * the contract parses with accord's own parser, and a stub of that contract
 * answers every test generated from it (the round trip).
 */
async function roundTrip(name: string, file: string): Promise<void> {
  let imported: ReturnType<typeof importWsdl> | undefined;
  // CPU time: the suite runs on shared machines, where the clock also counts waiting for a core.
  expect(cpuMsSync(() => (imported = importWsdl(file)))).toBeLessThan(3000);
  const { text, summary } = imported!;
  expect(summary.scenarios).toBeGreaterThan(0);
  expect(summary.scenarios).toBe(summary.operations + summary.faults);

  const contract = parseContract(text, `${name}.spec`);
  expect(contract.scenarios).toHaveLength(summary.scenarios);
  // One scenario per operation, named after it, and one per fault.
  const names = contract.scenarios.map((s) => s.name);
  expect(new Set(names).size).toBe(names.length);

  // A WSDL whose policy asks for HTTPS (@https) is served and tested over TLS; a Timestamp it asks for is written (no secret needed).
  const https = contract.scenarios.some((s) => s.tags.includes('@https'));
  const stub = await startStub({ contracts: contract, port: 0, log: () => undefined, ...(https && { tls: true as const }) });
  const dispatcher = https ? createDispatcher({ ca: stub.certificate }) : undefined;
  const ws = { addressing: false, mtom: false, wsSecurity: { timestampTtlSeconds: 300, rules: { use: [], contracts: new Map() } } };
  try {
    expect(stub.notServed).toEqual([]);
    const failures: string[] = [];
    // A fault scenario the importer writes has no Examples row: declared, not run (the runner skips it too).
    for (const tc of testCases(contract).filter((t) => t.notRun === undefined)) {
      const r = await runCase(tc, { baseUrl: stub.url, dispatcher, ws });
      if (!r.passed) failures.push(formatCaseReport(r, stub.url));
    }
    expect(failures).toEqual([]);
  } finally {
    await stub.close();
  }
}

const TITLE = 'imports, parses, and a stub of the contract passes every generated test';

describe.each(wsdlFixtures().map((f) => [f.name, f] as const))('fixture %s', (_name, f) => {
  test(TITLE, () => roundTrip(f.name, f.file));
});

withCorpus('wsdl-corpus', 'every WSDL of the shared corpus', () => {
  const entries = wsdlCorpus();

  test('the corpus is there (30 WSDLs)', () => {
    expect(entries.length).toBe(30);
  });

  // These two cannot be read whole: a schema on the public web (savon) and a type declared nowhere (node-soap).
  // The round trip reads them through importWsdl, which reports and does not refuse; every command refuses them.
  const PARTIAL = ['node-soap-xsd-include', 'savon-brand-rpc-encoded'];

  test('the WSDLs that can be imported only in part are these, and accord import wsdl refuses them unless --allow-unresolved', async () => {
    expect(entries.filter((e) => isPartial(importWsdl(e.file).summary)).map((e) => e.folder)).toEqual(PARTIAL);
    const dir = mkdtempSync(path.join(tmpdir(), 'accord-corpus-partial-'));
    try {
      for (const folder of PARTIAL) {
        const file = entries.find((e) => e.folder === folder)!.file;
        const refused = await runAccord(['import', 'wsdl', file, '-o', `${folder}.spec`], dir);
        expect([folder, refused.code]).toEqual([folder, 2]);
        expect(refused.err).toMatch(/can only be imported in part; nothing written:/);
        const allowed = await runAccord(['import', 'wsdl', file, '-o', `${folder}.spec`, '--allow-unresolved'], dir);
        expect([folder, allowed.code]).toEqual([folder, 0]);
        expect(allowed.err).toMatch(/^accord import wsdl: warning: .* is \(anything\), accepting any content: /m);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  describe.each(entries.map((e) => [e.folder, e] as const))('%s', (_folder, entry) => {
    test(TITLE, () => roundTrip(entry.folder, entry.file));
  });
});
