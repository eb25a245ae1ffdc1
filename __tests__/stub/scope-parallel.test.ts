import { rmSync } from 'node:fs';
import { runParallelJest, writeStubProject } from '../helpers/parallel-jest';

/**
 * The consumer set-up docs/stub.md documents, run for real: one stub started in Jest's
 * globalSetup, test files in parallel workers, each with `reset()` in `beforeEach`. Without
 * scopes the files answered, counted and reset one another's requests (18 and 22 wrong of 600);
 * with a scope per file (`connectStub(url).scope()`) each file has its own. Needs `npm run build`.
 */
const FILES = 4;
const TESTS = 30;
let dir: string;

beforeAll(() => {
  const files: Record<string, string[]> = {};
  // The application under test: it is given a base URL and sends its own requests.
  files['app.js'] = ['exports.fetchPet = async (baseUrl, id) => (await (await fetch(`${baseUrl}/pets/${id}`)).json()).petid;'];
  for (let f = 0; f < FILES; f++) {
    files[`pets-${f}.test.js`] = [
      'const { connectStub } = require(process.env.ACCORD_PACKAGE);',
      "const { fetchPet } = require('./app');",
      'const stub = connectStub(process.env.PETSTORE_URL).scope();',
      'beforeEach(() => stub.reset());',
      `for (let i = 0; i < ${TESTS}; i++) {`,
      '  test(`answer ${i}`, async () => {',
      `    const petid = ${f * 1000} + i;`,
      "    await stub.expect({ request: { method: 'GET', path: '/pets/7' }, response: { body: { petid } } });",
      '    expect(await fetchPet(stub.url, 7)).toBe(petid);',
      "    expect(await stub.calls({ path: '/pets/7' })).toHaveLength(1);",
      '  });',
      '}',
    ];
  }
  dir = writeStubProject('accord-scope-', files);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("test files in parallel workers, one stub, a scope each: every answer and every count is the file's own", async () => {
  const r = await runParallelJest(dir, FILES);
  expect(r.output).toMatch(new RegExp(`Tests: +${FILES * TESTS} passed, ${FILES * TESTS} total`));
  expect(r.output).toMatch(new RegExp(`Test Suites: +${FILES} passed`));
  expect(r.status).toBe(0);
}, 130_000);
