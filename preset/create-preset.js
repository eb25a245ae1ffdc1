// @ts-check
'use strict';
/**
 * The Jest configuration `jest --preset accord-contracts` starts from. Only files whose
 * extension is exactly `.spec` are contracts (never `*.spec.ts`).
 */
function createPreset() {
  return {
    moduleFileExtensions: ['js', 'mjs', 'cjs', 'jsx', 'ts', 'tsx', 'json', 'node', 'spec'],
    testMatch: ['**/*.spec'],
    // `accord contracts pull` keeps whole checkouts and consumed contracts (for stubs) under .accord/: only .accord/provides/ are tests.
    // Specmatic keeps its clones of contract repositories under .specmatic/ (a repository moving from it has one): none is a test.
    testPathIgnorePatterns: ['/node_modules/', '/\\.accord/(checkouts|consumes)/', '/\\.specmatic/'],
    // The coverage file is written after every run: were the watcher to see it, `--watch` would start run after run.
    // A project that sets its own watchPathIgnorePatterns adds this one (the reporter does not write the file in watch mode otherwise).
    watchPathIgnorePatterns: ['/accord-coverage\\.json$', '/accord-report\\.html$'],
    transform: { '\\.spec$': require.resolve('./transformer.js') },
    testEnvironment: require.resolve('./environment.js'),
    testRunner: require.resolve('./test-runner.js'),
    // Contract coverage after the run; a project that lists its own reporters adds 'accord-contracts/coverage-reporter'.
    reporters: ['default', require.resolve('./coverage-reporter.js')],
  };
}
module.exports = { createPreset };
