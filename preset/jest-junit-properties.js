// @ts-check
'use strict';
/**
 * jest-junit test case properties: a skipped @WIP test gets `accord.wip` ("would have PASSED" or
 * "would have FAILED") and `accord.wip.report`. Use it from the file jest-junit looks for,
 * `junitTestCaseProperties.js` beside package.json (the default of its testCasePropertiesFile): `module.exports = require('accord-contracts/jest-junit-properties');`
 */
module.exports = require('../dist/preset-api.js').junitProperties();
