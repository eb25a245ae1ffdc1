#!/usr/bin/env node
'use strict';
// `npm run bench`: runs every benchmark script in this folder, one after another, then repeats
// each one's verdict lines (`ok  ` / `MISS`: a figure against its limit, measured in the same run;
// `note`: a ratio reported without a target)
// as one table. `npm run bench -- stub jest` runs only the scripts whose names contain those words.
const { readdirSync } = require('node:fs');
const { spawn } = require('node:child_process');
const path = require('node:path');

const only = process.argv.slice(2);
const scripts = readdirSync(__dirname)
  .filter((f) => f.endsWith('.js') && f !== 'run.js' && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

function run(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', path.join(__dirname, file)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.on('close', (status) => resolve({ status, verdicts: out.split('\n').filter((l) => /^(ok {2}|MISS|note) /.test(l)) }));
  });
}

async function main() {
  let failed = 0;
  const table = [];
  for (const f of scripts) {
    console.log(`\n=== ${f}`);
    const r = await run(f);
    if (r.status !== 0) {
      failed++;
      table.push(`FAIL ${f} exited ${r.status}`);
    }
    for (const v of r.verdicts) table.push(`${v.slice(0, 4)} ${f.replace(/\.js$/, '').padEnd(10)} ${v.slice(5)}`);
  }
  console.log(`\n=== summary (each figure against its limit, measured in the same run)\n${table.join('\n')}`);
  process.exit(failed ? 1 : 0);
}

main();
