import { parseContract, testCases } from '../../src/contract/load';
import { runCase, formatCaseReport } from '../../src/runner/run-case';
import { startStub } from '../../src/stub';
import { importWsdl } from '../../src/wsdl';
import { corpusEntries } from './corpus';

/**
 * Every WSDL of the shared corpus: the import succeeds, the contract parses
 * with accord's own parser, and a stub of that contract answers every test
 * generated from it (the round trip).
 */
const entries = corpusEntries();

test('the corpus is there (30 WSDLs)', () => {
  expect(entries.length).toBe(30);
});

describe.each(entries.map((e) => [e.folder, e] as const))('%s', (_folder, entry) => {
  test('imports, parses, and a stub of the contract passes every generated test', async () => {
    const started = Date.now();
    const { text, summary } = importWsdl(entry.file);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(summary.scenarios).toBeGreaterThan(0);
    expect(summary.scenarios).toBe(summary.operations);

    const contract = parseContract(text, `${entry.folder}.spec`);
    expect(contract.scenarios).toHaveLength(summary.scenarios);
    // One scenario per operation, named after it.
    const names = contract.scenarios.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);

    const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
    try {
      expect(stub.notServed).toEqual([]);
      const failures: string[] = [];
      for (const tc of testCases(contract)) {
        const r = await runCase(tc, { baseUrl: stub.url });
        if (!r.passed) failures.push(formatCaseReport(r, stub.url));
      }
      expect(failures).toEqual([]);
    } finally {
      await stub.close();
    }
  });
});
