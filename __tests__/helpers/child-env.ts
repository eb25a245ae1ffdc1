import { stripVTControlCharacters } from 'node:util';

/**
 * The environment for a child process whose output a test reads: the caller's,
 * without forced colours (CI systems set FORCE_COLOR or CI, which turn colours
 * on in Jest and its code frames), plus the test's own variables.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...extra };
  delete env.FORCE_COLOR;
  return env;
}

/** Output as a reader sees it: escape sequences removed. */
export function plain(text: string): string {
  return stripVTControlCharacters(text);
}

/**
 * The environment for a child that reaches the npm registry (npm install, npm exec): as childEnv, with
 * the CA bundle helpers/offline-env.js took away from the tests' other children given back.
 */
export function registryEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = childEnv(extra);
  const ca = process.env.ACCORD_TEST_NODE_EXTRA_CA_CERTS;
  if (ca !== undefined) env.NODE_EXTRA_CA_CERTS = ca;
  return env;
}
