#!/usr/bin/env node
'use strict';
// `npm run corpus`: imports every WSDL of the shared corpus (../shared/wsdl-corpus, read in
// place) and prints, per WSDL: operations, scenarios written, nodes marked (anything), the
// time the import took, and whether a stub of the contract passes the contract's own tests.
// Exits 1 when an import fails, a round trip fails, or an import takes 3 s or more; 2 when
// there is no corpus (a fresh clone has none).
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { importWsdl } = require('../dist/wsdl');
const { parseContract, testCases } = require('../dist/contract/load');
const { startStub } = require('../dist/stub');
const { runCase } = require('../dist/runner/run-case');

const LIMIT_MS = 3000;

async function main() {
  const corpus = path.resolve(process.argv[2] ?? path.join(__dirname, '..', '..', 'shared', 'wsdl-corpus'));
  if (!existsSync(path.join(corpus, 'INDEX.tsv'))) {
    // The corpus is other people's files, kept beside the clone (../shared), never in it.
    console.error(`accord corpus: no WSDL corpus at ${corpus} (its INDEX.tsv is missing): put it at ../shared/wsdl-corpus or give its folder as the argument`);
    process.exitCode = 2;
    return;
  }
  const rows = readFileSync(path.join(corpus, 'INDEX.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'));
  const table = [['WSDL', 'version', 'operations', 'scenarios', '(anything)', 'unresolved', 'import ms', 'round trip']];
  let bad = 0;
  for (const [folder, main] of rows) {
    const file = path.join(corpus, folder, main);
    try {
      const started = process.hrtime.bigint();
      const { text, summary } = importWsdl(file);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const contract = parseContract(text, `${folder}.spec`);
      const stub = await startStub({ contracts: contract, port: 0, log: () => undefined });
      let passed = 0;
      const cases = testCases(contract);
      try {
        for (const tc of cases) if ((await runCase(tc, { baseUrl: stub.url })).passed) passed++;
      } finally {
        await stub.close();
      }
      if (passed !== cases.length || ms >= LIMIT_MS) bad++;
      table.push([
        folder,
        `SOAP ${summary.soapVersions.join('+')}`,
        String(summary.operations),
        String(summary.scenarios),
        String(summary.anything),
        String(summary.unresolved.length),
        ms.toFixed(0),
        `${passed}/${cases.length}`,
      ]);
    } catch (e) {
      bad++;
      table.push([folder, 'FAILED', '', '', '', '', '', (e && e.describe ? e.describe() : String(e)).split('\n')[0]]);
    }
  }
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((c, i) => (i === 0 || i === 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(line(table[0]));
  console.log(`|${widths.map((w, i) => (i < 2 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of table.slice(1)) console.log(line(r));
  process.exitCode = bad ? 1 : 0;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
