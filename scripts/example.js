#!/usr/bin/env node
'use strict';
// `npm run example`: starts the example service that lives in this repository and
// runs `jest --preset accord-contracts` on contracts/ against it.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { startExampleService } = require('../dist/example/service.js');

async function main() {
  const service = await startExampleService(0);
  console.log(`example service listening on ${service.url}`);
  const root = path.join(__dirname, '..');
  const jest = require.resolve('jest/bin/jest');
  // --config keeps Jest away from this repository's own jest.config.ts (accord's unit tests). The
  // coverage summary is printed; its JSON file is not written into the checkout.
  const config = JSON.stringify({ rootDir: root, roots: ['<rootDir>/contracts'], testEnvironmentOptions: { accord: { coverageFile: false } } });
  const child = spawn(process.execPath, [jest, '--config', config, '--preset', 'accord-contracts', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, ACCORD_BASE_URL: service.url },
    cwd: root,
  });
  child.on('exit', async (code, signal) => {
    await service.close();
    process.exit(code ?? (signal ? 1 : 0));
  });
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(2);
});
