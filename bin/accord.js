#!/usr/bin/env node
'use strict';
// The CLI is bundled into one file at build time (esbuild): loading ~100 small
// modules one by one cost the stub about 30 ms of its start-up.
require('../dist/accord-cli.js').main();
