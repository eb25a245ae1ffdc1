// @ts-check
/**
 * `npm run test:quick`: accord's suite without the files __tests__/quick-exclusions.js names
 * (Jest in Jest, the browser, real SOAP stacks, file watchers, exhaustive depth, the slowest),
 * each with its reason. `npm test` (jest.config.js) and CI run them all.
 * @type {import('jest').Config}
 */
const base = require('./jest.config.js');
const { EXCLUDED } = require('./__tests__/quick-exclusions.js');

const config = {
  ...base,
  testMatch: [...(base.testMatch ?? []), ...EXCLUDED.map((e) => `!**/__tests__/${e.file}`)],
};

module.exports = config;
