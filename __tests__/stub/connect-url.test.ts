import { AccordError } from '../../src/errors';
import { connectStub, startStub } from '../../src/stub';
import { CONTRACTS } from './helpers';

/**
 * docs/stub.md's consumer test calls `connectStub(process.env.PETSTORE_URL)`, a
 * `string | undefined`: the typings take it (this file compiles under strict ts-jest), and a
 * variable that is not set is a usage error that says so, not a TypeError from inside.
 */
const env: Record<string, string | undefined> = {};

it('takes an environment variable as the docs write it, and names a missing one', () => {
  let thrown: unknown;
  try {
    connectStub(env.PETSTORE_URL);
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(AccordError);
  expect((thrown as AccordError).code).toBe('ACCORD_ERR_USAGE');
  expect((thrown as AccordError).message).toMatch(/^connectStub: the stub's URL must be an http:\/\/ or https:\/\/ URL, found undefined \(is the environment variable/);
});

it('refuses a URL without its scheme, quoting it without control characters', () => {
  expect(() => connectStub('127.0.0.1:9000\u001b[31m')).toThrow(/found "127\.0\.0\.1:9000\\u001b\[31m"/);
});

it('still connects to a stub at an http URL read from the environment', async () => {
  const stub = await startStub({ contracts: [CONTRACTS], log: () => {} });
  try {
    env.PETSTORE_URL = stub.url;
    expect(await connectStub(env.PETSTORE_URL).scope('a').calls()).toEqual([]);
  } finally {
    await stub.close();
  }
});
