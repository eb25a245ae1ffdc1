#!/usr/bin/env node
'use strict';
// The CLI is bundled into one file at build time (esbuild): loading ~100 small
// modules one by one cost the stub about 30 ms of its start-up. accord-start.js
// (src/cli/start.ts and the little it needs, bundled too) loads it with V8's code
// cache (compiling it cost another 20-40 ms on every run).
const path = require('node:path');
require('../dist/accord-start.js')
  .loadCli(path.join(__dirname, '..', 'dist', 'accord-cli.js'), process.argv[2])
  .main();
