// @ts-check
/**
 * Jest's setupFiles: runs in each test worker before its test file. The tests talk only to servers on
 * 127.0.0.1, and Node reads the CA bundle NODE_EXTRA_CA_CERTS names at every start, before any script
 * runs: on a machine that sets it (the 2-core VM does) that is about 70 ms for each of the hundreds of
 * Node processes the suite starts (the CLI, Jest in Jest, stubs). So the tests' child processes go
 * without it; what reaches the npm registry (helpers/packed-app.ts, `npm exec` of a tarball) gets it
 * back through `registryEnv()`.
 */
const saved = process.env.NODE_EXTRA_CA_CERTS;
if (saved !== undefined) {
  process.env.ACCORD_TEST_NODE_EXTRA_CA_CERTS = saved;
  delete process.env.NODE_EXTRA_CA_CERTS;
}
