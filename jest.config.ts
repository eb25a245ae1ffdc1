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
};

export default config;
