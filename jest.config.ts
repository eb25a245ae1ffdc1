import type { Config } from 'jest';

/** accord's own test suite: TypeScript tests under __tests__, compiled by ts-jest. */
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testTimeout: 60_000,
  // Tests start servers and child processes; two workers keep a 2-core machine responsive.
  maxWorkers: 2,
  // One line beside the summary when tests that read ../shared were skipped (a fresh clone).
  reporters: ['default', '<rootDir>/__tests__/helpers/corpus-reporter.js'],
};

export default config;
