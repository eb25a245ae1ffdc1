#!/usr/bin/env node
'use strict';
// `npm run xsd-validity` (after `npm run build`): for every WSDL of the shared corpus
// (../shared/wsdl-corpus, read in place) and accord's own WSDL fixtures, imports it with the
// built accord (dist/), sends every generated test's request (one per seed) to a stub of the
// contract, and validates each request payload and each stub response payload with xmllint
// (libxml2 as WebAssembly) against the WSDL's own schemas. Prints the validity table and the
// validator's messages by class (issue 13). Measures only: the exit code is 0 unless it crashes.
//
//   node scripts/xsd-validity.js [--seeds N] [--examples N] [--only folder] [--json file] [--dir folder]
//
// --dir measures every <name>/*.wsdl under that folder instead of the corpus and fixtures.
const { writeFileSync } = require('node:fs');
// The instrument is test code in TypeScript (__tests__/helpers/xsd), shared with the Jest suite.
require('ts-node').register({ transpileOnly: true, compilerOptions: { module: 'commonjs', moduleResolution: 'node' } });
const { measureWsdl } = require('../__tests__/helpers/xsd/measure');
const { wsdlTargets, dirTargets } = require('../__tests__/helpers/xsd/targets');
const { CLASSES } = require('../__tests__/helpers/xsd/classify');
const accord = {
  ...require('../dist/wsdl'),
  ...require('../dist/contract/load'),
  ...require('../dist/contract/model'),
  ...require('../dist/http/build-request'),
  ...require('../dist/runner/run-case'),
  ...require('../dist/stub'),
};

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : process.argv[i + 1];
}

async function main() {
  const seeds = Array.from({ length: Number(option('--seeds', '3')) }, (_, i) => i);
  const examples = Number(option('--examples', '2'));
  const only = option('--only');
  const dir = option('--dir');
  const { targets, corpusMissing } = dir ? { targets: dirTargets(dir) } : wsdlTargets();
  if (corpusMissing) console.log(`(the WSDL corpus is not at ${corpusMissing}: only accord's own fixtures are measured)`);
  const results = [];
  const started = Date.now();
  for (const t of targets) {
    if (only && t.name !== only) continue;
    const t0 = Date.now();
    try {
      results.push({ name: t.name, ms: 0, ...(await measureWsdl(accord, t.file, seeds)) });
    } catch (e) {
      // Unseen WSDLs may not import at all: that is a finding, not a reason to stop measuring the others.
      results.push({ name: t.name, ms: 0, importError: String(e && e.message ? e.message : e), failures: [], notes: [] });
    }
    results[results.length - 1].ms = Date.now() - t0;
  }
  const pct = (c) => (c.total ? `${((100 * c.valid) / c.total).toFixed(1)} %` : '-');
  const table = [['WSDL', 'requests valid', '%', 'responses valid', '%', 'rpc ops', 'ms']];
  const sum = { requests: { valid: 0, total: 0 }, responses: { valid: 0, total: 0 } };
  for (const r of results) {
    if (r.importError) {
      table.push([r.name, 'cannot import', '', '', '', '', String(r.ms)]);
      continue;
    }
    if (r.loadError) {
      table.push([r.name, 'cannot load', '', '', '', '', String(r.ms)]);
      continue;
    }
    for (const k of ['requests', 'responses']) {
      sum[k].valid += r[k].valid;
      sum[k].total += r[k].total;
    }
    table.push([
      r.name,
      `${r.requests.valid}/${r.requests.total}`,
      pct(r.requests),
      `${r.responses.valid}/${r.responses.total}`,
      pct(r.responses),
      String(r.rpcOperations),
      String(r.ms),
    ]);
  }
  table.push([
    'all loadable',
    `${sum.requests.valid}/${sum.requests.total}`,
    pct(sum.requests),
    `${sum.responses.valid}/${sum.responses.total}`,
    pct(sum.responses),
    '',
    String(Date.now() - started),
  ]);
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(`Seeds ${seeds.join(', ')}: each test case sends ${seeds.length} request(s); the stub's answer to each is one response.\n`);
  console.log(line(table[0]));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of table.slice(1)) console.log(line(r));

  // Error classes: how many validator messages, how many invalid payloads, and distinct examples.
  const byClass = new Map(CLASSES.map((c) => [c, { errors: 0, payloads: new Set(), examples: new Map() }]));
  for (const r of results) {
    for (const f of r.failures) {
      for (const e of f.errors) {
        const c = byClass.get(e.cls);
        c.errors++;
        c.payloads.add(`${r.name}|${f.direction}|${f.scenario}|${f.element}`);
        // Values differ from seed to seed: examples are distinct by message shape.
        const shape = e.message.replace(/'[^']*'/g, "'…'");
        if (!c.examples.has(shape))
          c.examples.set(shape, { wsdl: r.name, direction: f.direction, scenario: f.scenario, element: f.element, part: f.part, message: e.message, count: 0 });
        c.examples.get(shape).count++;
      }
    }
  }
  console.log('\nValidator messages by class (messages / distinct invalid payloads across seeds):');
  for (const [cls, c] of byClass) {
    if (!c.errors) continue;
    console.log(`\n## ${cls}: ${c.errors} messages, ${c.payloads.size} payloads`);
    const shown = [...c.examples.values()].sort((a, b) => b.count - a.count).slice(0, examples > 0 ? Math.max(examples, 1) * 4 : 0);
    for (const ex of shown) console.log(`  ${String(ex.count).padStart(5)}x ${ex.wsdl} ${ex.direction} "${ex.scenario}" ${ex.part} ${ex.element}\n         ${ex.message}`);
  }
  const imports = results.filter((r) => r.importError);
  if (imports.length) {
    console.log('\nWSDLs accord cannot import (or whose contract cannot be run):');
    for (const r of imports) console.log(`  ${r.name}: ${r.importError.split('\n').slice(0, 4).join(' | ')}`);
  }
  const loads = results.filter((r) => r.loadError);
  if (loads.length) {
    console.log('\nWSDLs whose schemas xmllint cannot load:');
    for (const r of loads) console.log(`  ${r.name}: ${r.loadError.split('\n').slice(0, 4).join(' | ')}`);
  }
  const noted = results.filter((r) => r.notes.length || r.emptyBodies);
  if (noted.length) {
    console.log('\nNotes (schema files left out, schema compiler warnings, messages with an empty Body):');
    for (const r of noted) {
      for (const n of new Set(r.notes)) console.log(`  ${r.name}: ${n}`);
      if (r.emptyBodies) console.log(`  ${r.name}: ${r.emptyBodies} message(s) with an empty Body`);
    }
  }
  const json = option('--json');
  if (json) writeFileSync(json, JSON.stringify(results, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
