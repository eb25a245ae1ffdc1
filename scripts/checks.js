#!/usr/bin/env node
'use strict';
/**
 * What `npm test` runs before Jest: the build, the type checks and the linters. None of them needs
 * another's result (the preset's type check reads src/ through rootDirs, the linters ignore dist/), so they
 * run side by side, as many at a time as the machine has cores: on 2 cores about 45 s rather than the
 * 80 s of running them one after another. Each one's output is printed whole when it ends, under its
 * name and time, so two never interleave. Exit 1 when any failed, after all have ended (every problem
 * is reported in one run). `node scripts/checks.js build typecheck` runs only those.
 */
const { spawn } = require('node:child_process');
const { availableParallelism } = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const bin = (pkg, file) => path.join(ROOT, 'node_modules', pkg, file);
/** Longest first: the pool ends soonest when the long ones start first. */
const CHECKS = [
  { name: 'prettier', group: 'lint', argv: [bin('prettier', 'bin/prettier.cjs'), '--check', '.'] },
  { name: 'tsc (src and tests)', group: 'typecheck', argv: [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit'] },
  { name: 'eslint', group: 'lint', argv: [bin('eslint', 'bin/eslint.js'), '.'] },
  { name: 'build', group: 'build', npm: ['run', 'build', '--silent'] },
  { name: 'tsc (preset)', group: 'typecheck', argv: [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.preset.json', '--noEmit'] },
];

function run(check) {
  const started = Date.now();
  const [cmd, args] = check.npm ? [process.platform === 'win32' ? 'npm.cmd' : 'npm', check.npm] : [process.execPath, check.argv];
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', (e) => out.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code, signal) => {
      const ok = code === 0;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`> ${check.name}: ${ok ? 'ok' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds} s\n`);
      const text = Buffer.concat(out).toString();
      if (text.trim() !== '') process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      resolve(ok);
    });
  });
}

async function main() {
  const groups = process.argv.slice(2);
  const unknown = groups.filter((g) => !CHECKS.some((c) => c.group === g));
  if (unknown.length > 0) {
    process.stderr.write(`checks.js: unknown group ${unknown.join(', ')} (build, typecheck, lint)\n`);
    process.exit(2);
  }
  const queue = CHECKS.filter((c) => groups.length === 0 || groups.includes(c.group));
  const lanes = Math.max(1, Math.min(availableParallelism(), queue.length));
  const results = [];
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) results.push(await run(c));
    }),
  );
  process.exit(results.every(Boolean) ? 0 : 1);
}

main();
