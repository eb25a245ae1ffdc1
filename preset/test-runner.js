// @ts-check
'use strict';
const { createRequire } = require('node:module');
const path = require('node:path');
const { attachWipVerdicts, withFileStores, CONSUMERS_GLOBAL, OUTLINE_GLOBAL, REPORT_GLOBAL, replayedConsumers } = require('../dist/preset-api.js').testRunner();

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

const ours = require.resolve('./coverage-reporter.js');

/** Whether Jest's reporters (which it takes only from the top-level config and the command line) include accord's coverage reporter. */
function hasCoverageReporter(globalConfig) {
  return (globalConfig.reporters || []).some((r) => {
    const name = Array.isArray(r) ? r[0] : r;
    return typeof name === 'string' && (name === ours || name === 'accord-contracts/coverage-reporter' || /[\\/]preset[\\/]coverage-reporter\.js$/.test(name));
  });
}

// The global configs (one per worker, one per run in band) whose missing reporter a file has already reported.
const told = new WeakSet();

/**
 * A coverageThreshold that no reporter checks is a gate that is silently open (a Jest project's own
 * `reporters` are ignored; `--reporters=default` replaces the preset's): the first contract file
 * of each worker fails with what to add instead.
 */
function missingReporter(globalConfig, config) {
  const accord = (config.testEnvironmentOptions || {}).accord;
  if (!accord || typeof accord !== 'object' || accord.coverageThreshold === undefined) return undefined;
  if (hasCoverageReporter(globalConfig) || told.has(globalConfig)) return undefined;
  told.add(globalConfig);
  return (
    "accord: testEnvironmentOptions.accord.coverageThreshold is set, but accord's coverage reporter is not among Jest's reporters, so nothing checks it. " +
    "Jest takes reporters only from the top-level config (a project's own, or its preset's, are ignored) and from --reporters: add reporters: ['default', 'accord-contracts/coverage-reporter'] " +
    'to the top level of the Jest config (or --reporters=default --reporters=accord-contracts/coverage-reporter to the command).'
  );
}

module.exports = async function accordTestRunner(globalConfig, config, environment, runtime, testPath, sendMessageToJest) {
  const run = circus(config.rootDir);
  const result = await withFileStores(() => run(globalConfig, config, environment, runtime, testPath, sendMessageToJest));
  attachWipVerdicts(result, environment.global);
  const outline = environment.global[OUTLINE_GLOBAL];
  if (outline) result.accordOutline = outline;
  // The HTML report's exchanges (request, answer, mismatches), by full test name: bounded and redacted where they were made.
  const exchanges = environment.global[REPORT_GLOBAL];
  if (exchanges instanceof Map && exchanges.size > 0) result.accordExchanges = Object.fromEntries(exchanges);
  // The consumer examples the file replayed, with their owners and outcomes, for the report's consumer table.
  const replayed = environment.global[CONSUMERS_GLOBAL];
  if (Array.isArray(replayed) && replayed.length > 0) {
    result.accordConsumers = replayedConsumers(replayed, result.testResults || [], config.rootDir);
    // Why each example that no longer fits was skipped, by full test name: the report's line for it says so.
    const skipped = replayed.filter((r) => !r.fits && r.problem);
    if (skipped.length > 0) result.accordSkipped = Object.fromEntries(skipped.map((r) => [r.fullName, r.problem]));
  }
  const missing = missingReporter(globalConfig, config);
  if (missing) {
    result.testExecError = { message: missing, stack: '' };
    result.failureMessage = `${result.failureMessage ? `${result.failureMessage}\n` : ''}  ● ${missing}\n`;
  }
  return result;
};
