// @ts-check
/**
 * accord's own test suite: TypeScript tests under __tests__, compiled by ts-jest.
 * Plain JavaScript, so Jest reads it without starting ts-node (3-7 s a run).
 * @type {import('jest').Config}
 */
const config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testTimeout: 60_000,
  // The tests' child processes start without NODE_EXTRA_CA_CERTS (about 70 ms a Node process): see the file.
  setupFiles: ['<rootDir>/__tests__/helpers/offline-env.js'],
  // Tests start servers and child processes; two workers keep a 2-core machine responsive.
  maxWorkers: 2,
  // One line beside the summary when tests that read ../shared were skipped (a fresh clone).
  reporters: ['default', '<rootDir>/__tests__/helpers/corpus-reporter.js'],
};

module.exports = config;
