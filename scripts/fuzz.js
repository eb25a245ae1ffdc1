#!/usr/bin/env node
'use strict';
/**
 * `npm run fuzz -- [seed] [cases]`: the fuzz suites of `npm test` (__tests__/fuzz: every CLI
 * command, and the stub over raw sockets), run longer. Default: a seed from the clock and
 * 20,000 cases per suite. A failure prints its seed and case: `npm run fuzz -- <seed>` replays it.
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const seed = process.argv[2] ?? String(Date.now() % 2 ** 31);
const cases = process.argv[3] ?? '20000';
if (!/^\d+$/.test(seed) || !/^\d+$/.test(cases)) {
  console.error('usage: npm run fuzz -- [seed] [cases]   (whole numbers)');
  process.exit(2);
}
console.log(`fuzz: seed ${seed}, ${cases} cases per suite`);
const jest = require.resolve('jest/bin/jest');
const r = spawnSync(process.execPath, [jest, '--ci', '--testTimeout', String(24 * 3600 * 1000), path.join('__tests__', 'fuzz')], {
  cwd: path.join(__dirname, '..'),
  stdio: 'inherit',
  env: { ...process.env, FUZZ_SEED: seed, FUZZ_CASES: cases },
});
process.exit(r.status ?? 1);
