// @ts-check
'use strict';
const { createRequire } = require('node:module');
const path = require('node:path');
// The runtime is loaded once per worker, here outside the per-file sandbox: each test file gets it through its global.
const { resolveRunnerConfig, CONFIG_GLOBAL, RUNTIME_GLOBAL, REPORT_GLOBAL, createRuntime, isWip } = require('../dist/preset-api.js').environment();
const { hasReportReporter } = require('./report-writer.js');

/**
 * The Node environment of the Jest that is running, found the way Jest finds
 * `testEnvironment: 'node'`: from the project first, then from here. An app on
 * Jest 29 thus gets jest-environment-node 29 and one on Jest 30 gets 30; a copy
 * of our own would mix two Jest versions in one run (fake timers, mocks).
 */
function nodeEnvironmentFor(rootDir) {
  const places = [rootDir && createRequire(path.join(rootDir, 'package.json')), runningJest(), require].filter(Boolean);
  for (const req of places) {
    try {
      return req('jest-environment-node').TestEnvironment;
    } catch (e) {
      if (e && e.code !== 'MODULE_NOT_FOUND') throw e;
    }
  }
  throw new Error('accord-contracts needs jest-environment-node, which Jest 29 and 30 install: install jest in this project (npm install --save-dev jest)');
}

/**
 * With `accord test` on the Jest accord-contracts brings (the project has none): that Jest's own
 * jest-environment-node, found through the packages that depend on it (jest → jest-cli →
 * jest-config), wherever npm placed them. ACCORD_JEST is that Jest's package.json.
 */
function runningJest() {
  const start = process.env.ACCORD_JEST;
  if (!start) return undefined;
  try {
    let req = createRequire(start);
    for (const dep of ['jest-cli', 'jest-config']) req = createRequire(req.resolve(`${dep}/package.json`));
    return req;
  } catch {
    return undefined;
  }
}

/**
 * Node environment plus three things: the runner's configuration and the worker's
 * runtime (src/runner/runtime.ts) on the global, and @WIP scenarios turned into skipped tests once they have run (Jest has no
 * "aborted" status; a skipped test is `pending` in results and `<skipped/>` in
 * jest-junit). The runtime has recorded the verdict, which the preset's test
 * runner puts back on the skipped test (src/runner/wip.ts).
 */
function accordEnvironment(NodeEnvironment) {
  return class AccordEnvironment extends NodeEnvironment {
    constructor(config, context) {
      super(config, context);
      const options = (config.projectConfig.testEnvironmentOptions || {}).accord;
      const silent = Boolean(config.globalConfig && config.globalConfig.silent);
      this.global[CONFIG_GLOBAL] = { ...resolveRunnerConfig(options, process.env, config.projectConfig.rootDir), silent };
      this.global[RUNTIME_GLOBAL] = createRuntime(this.global, { perWorker: true });
      // The HTML report is on: each case's exchange is recorded for it (src/runner/report.ts).
      if ((options && options.report) || hasReportReporter(config.globalConfig)) this.global[REPORT_GLOBAL] = new Map();
    }

    handleTestEvent(event) {
      if (event.name !== 'test_done') return;
      const names = [];
      for (let block = event.test.parent; block && block.name !== 'ROOT_DESCRIBE_BLOCK'; block = block.parent) names.unshift(block.name);
      names.push(event.test.name);
      if (isWip(this.global, names.join(' '))) {
        event.test.errors = [];
        event.test.status = 'skip';
      }
    }
  };
}

const byBase = new Map();

/** Jest calls `new` on this; the base class is known only once the project's rootDir is. */
class Environment {
  constructor(config, context) {
    const Base = nodeEnvironmentFor(config.projectConfig.rootDir);
    if (!byBase.has(Base)) byBase.set(Base, accordEnvironment(Base));
    return new (byBase.get(Base))(config, context);
  }
}

module.exports = Environment;
