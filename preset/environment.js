'use strict';
const NodeEnvironment = require('jest-environment-node').TestEnvironment;
const { resolveRunnerConfig, CONFIG_GLOBAL, WIP_GLOBAL } = require('../dist/runner/config.js');

/**
 * Node environment plus two things: the runner's configuration on the global,
 * and @WIP scenarios turned into skipped tests once they have run (Jest has no
 * "aborted" status; a skipped test is `pending` in results and `<skipped/>` in
 * jest-junit). The scenario's verdict has already been printed by the runtime.
 */
class AccordEnvironment extends NodeEnvironment {
  constructor(config, context) {
    super(config, context);
    const options = (config.projectConfig.testEnvironmentOptions || {}).accord;
    this.global[CONFIG_GLOBAL] = resolveRunnerConfig(options, process.env);
  }

  handleTestEvent(event) {
    if (event.name !== 'test_done') return;
    const wip = this.global[WIP_GLOBAL];
    if (!wip || wip.size === 0) return;
    const names = [];
    for (let block = event.test.parent; block && block.name !== 'ROOT_DESCRIBE_BLOCK'; block = block.parent) names.unshift(block.name);
    names.push(event.test.name);
    if (wip.has(names.join(' '))) {
      event.test.errors = [];
      event.test.status = 'skip';
    }
  }
}

module.exports = AccordEnvironment;
