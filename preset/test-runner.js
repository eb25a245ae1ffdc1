'use strict';
const { createRequire } = require('node:module');
const path = require('node:path');
const { attachWipVerdicts } = require('../dist/runner/wip.js');
const { withFileStores } = require('../dist/runner/file-stores.js');
const { OUTLINE_GLOBAL } = require('../dist/runner/config.js');

/**
 * Jest's own runner (jest-circus, the app's copy as Jest itself would load it), then each
 * @WIP verdict the file recorded copied onto its skipped test, where `--json` and
 * jest-junit read it (see src/runner/wip.ts). The file's own async storages are
 * disabled when it is done (src/runner/file-stores.ts). The outline of the contract the file
 * ran goes with its results to the coverage reporter, which then parses nothing.
 */
function circus(rootDir) {
  let runner;
  try {
    runner = createRequire(path.join(rootDir, 'package.json'))('jest-circus/runner');
  } catch {
    runner = require('jest-circus/runner');
  }
  return typeof runner === 'function' ? runner : runner.default;
}

module.exports = async function accordTestRunner(globalConfig, config, environment, runtime, testPath, sendMessageToJest) {
  const run = circus(config.rootDir);
  const result = await withFileStores(() => run(globalConfig, config, environment, runtime, testPath, sendMessageToJest));
  attachWipVerdicts(result, environment.global);
  const outline = environment.global[OUTLINE_GLOBAL];
  if (outline) result.accordOutline = outline;
  return result;
};
